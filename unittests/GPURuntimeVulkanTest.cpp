//===- GPURuntimeVulkanTest.cpp - libvrir_gpu_runtime on Vulkan -----------===//
//
// Hand-written SPIR-V kernels (GPURuntimeVulkan/*.spvasm, assembled and
// validated at build time) with the binding convention of generated code:
// descriptor set 0, one storage buffer per buffer argument, then the
// parameter block (one int64 slot per argument: a buffer's element offset, a
// scalar's bits), then the error buffer. Launched through
// vrir_gpu_launch with the error channel armed. Tests that need a device
// are skipped without one (CI has lavapipe).
//
//===----------------------------------------------------------------------===//

#include "GPURuntimeTestSupport.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace vrir_test;

constexpr int64_t kVulkan = VRIR_GPU_FORMAT_VULKAN_SPIRV;
// The SPIR-V of GPURuntimeVulkan/NAME.spvasm.
std::string kernelBinary(const char *name) {
  std::string path = std::string(VRIR_GPU_TEST_SPIRV_DIR) + "/" + name + ".spv";
  std::ifstream file(path, std::ios::binary);
  std::string binary((std::istreambuf_iterator<char>(file)),
                     std::istreambuf_iterator<char>());
  EXPECT_FALSE(binary.empty()) << "cannot read " << path;
  EXPECT_EQ(binary.size() % 4, 0u) << path;
  return binary;
}

class GPURuntimeVulkan : public ::testing::Test {
protected:
  void SetUp() override {
    if (!vrir_gpu_available(kVulkan))
      GTEST_SKIP() << "no Vulkan device";
  }
};

// y[yOff + i] = a * x[xOff + i] for i < n, in blocks of 64 (LocalSize).
Launch axpy(double a, const double *x, int64_t xCount, int64_t xOff, double *y,
            int64_t yCount, int64_t yOff, int64_t n) {
  Launch launch;
  launch.format = kVulkan;
  launch.binary = kernelBinary("kernels");
  launch.kernel = "axpy";
  launch.grid[0] = (n + 63) / 64;
  launch.block[0] = 64;
  launch.args = {buffer(x, xCount, kRead, xOff),
                 buffer(y, yCount, kWrite, yOff), scalar<double>(a),
                 scalar<int64_t>(n)};
  return launch;
}

} // namespace

TEST(GPURuntimeVulkanNoDevice, DeviceNameMatchesAvailability) {
  std::string name = vrir_gpu_device_name(kVulkan);
  EXPECT_EQ(vrir_gpu_available(kVulkan) != 0, !name.empty()) << name;
  if (!name.empty())
    EXPECT_TRUE(startsWith(name, "Vulkan: ")) << name;
}

// A zero grid or block dimension runs nothing: not even a look at this
// binary, which is no SPIR-V.
TEST(GPURuntimeVulkanNoDevice, ZeroGridDoesNothing) {
  vrir_gpu_reset_stats();
  std::vector<double> x(4, 1.0);
  Launch launch;
  launch.format = kVulkan;
  launch.binary = "not SPIR-V";
  launch.kernel = "k";
  launch.args = {buffer(x.data(), 4, kReadWrite)};
  launch.grid[0] = 0;
  EXPECT_EQ(run(launch), "");
  launch.grid[0] = 4;
  launch.block[1] = 0;
  EXPECT_EQ(run(launch), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 0);
  EXPECT_EQ(s.compiles, 0);
  EXPECT_EQ(s.uploads, 0);
  EXPECT_EQ(x, std::vector<double>(4, 1.0));
}

// SPIR-V is made of 32-bit words; this needs no device.
TEST(GPURuntimeVulkanNoDevice, BinaryOfPartialWords) {
  Launch launch;
  launch.format = kVulkan;
  launch.binary = std::string("\x03\x02\x23\x07\x00", 5);
  launch.kernel = "k";
  EXPECT_EQ(run(launch), "GPU: the Vulkan SPIR-V binary of kernel 'k' has 5 "
                         "bytes, not a whole number of 32-bit words");
}

TEST_F(GPURuntimeVulkan, DeviceName) {
  std::string name = vrir_gpu_device_name(kVulkan);
  EXPECT_TRUE(startsWith(name, "Vulkan: ")) << name;
  EXPECT_GT(name.size(), std::strlen("Vulkan: ")) << name;
}

// (1) y = a x on 1000 elements, 16 blocks of 64 (the kernel guards i < n);
// y's origin is 3 elements above its lowest byte, x's origin 5.
TEST_F(GPURuntimeVulkan, Axpy) {
  const int64_t n = 1000;
  std::vector<double> x(n + 5), y(n + 3, -1.0);
  for (int64_t i = 0; i < n + 5; ++i)
    x[i] = 0.25 * i - 7.0;
  vrir_gpu_reset_stats();
  Launch launch = axpy(2.5, x.data(), n + 5, 5, y.data(), n + 3, 3, n);
  ASSERT_EQ(launch.grid[0], 16);
  ASSERT_EQ(run(launch), "");
  for (int64_t i = 0; i < 3; ++i)
    EXPECT_EQ(y[i], -1.0) << "at " << i;
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(y[3 + i], 2.5 * x[5 + i]) << "at " << i;
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 1);
  EXPECT_EQ(s.uploads, 2);
  EXPECT_EQ(s.bytesUploaded, (2 * n + 8) * 8);
  EXPECT_EQ(s.downloads, 1);
  EXPECT_EQ(s.bytesDownloaded, (n + 3) * 8);
}

// Arrays of megabytes, in 16384 work-groups.
TEST_F(GPURuntimeVulkan, LargeArrays) {
  const int64_t n = int64_t(1) << 20;
  std::vector<double> x(n), y(n, 0.0);
  for (int64_t i = 0; i < n; ++i)
    x[i] = static_cast<double>(i % 1000);
  Launch launch = axpy(-1.5, x.data(), n, 0, y.data(), n, 0, n);
  ASSERT_EQ(launch.grid[0], 16384);
  ASSERT_EQ(run(launch), "");
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(y[i], -1.5 * x[i]) << "at " << i;
}

// (2) Two views of one array that overlap share one device buffer: a serial
// forward copy a[i+1] = a[i] through them propagates a[0] everywhere (with
// separate buffers it would shift by one instead).
TEST_F(GPURuntimeVulkan, OverlappingViewsShareOneBuffer) {
  std::vector<double> a(16);
  for (size_t k = 0; k < a.size(); ++k)
    a[k] = static_cast<double>(k + 1);
  vrir_gpu_reset_stats();
  Launch launch;
  launch.format = kVulkan;
  launch.binary = kernelBinary("shift");
  launch.kernel = "shift";
  launch.args = {buffer(a.data(), 15, kRead), buffer(a.data() + 1, 15, kWrite),
                 scalar<int64_t>(15)};
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(a, std::vector<double>(16, 1.0));
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.uploads, 1);
  EXPECT_EQ(s.downloads, 1);
  EXPECT_EQ(s.bytesUploaded, 16 * 8);
  EXPECT_EQ(s.bytesDownloaded, 16 * 8);
}

// Ranges that only touch are merged too; the written view is listed first
// and has an origin offset, which is rebased onto the merged buffer. The
// kernel is the second one of its module.
TEST_F(GPURuntimeVulkan, TouchingViewsAreRebased) {
  std::vector<double> a(32);
  for (size_t k = 0; k < a.size(); ++k)
    a[k] = static_cast<double>(k);
  vrir_gpu_reset_stats();
  Launch launch;
  launch.format = kVulkan;
  launch.binary = kernelBinary("kernels");
  launch.kernel = "twice";
  launch.block[0] = 16;
  // dst: a[31], a[30], ..., a[16] (origin 15 elements above its lowest byte).
  launch.args = {buffer(a.data() + 16, 16, kWrite, 15),
                 buffer(a.data(), 16, kRead)};
  ASSERT_EQ(run(launch), "");
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(a[i], i);
    EXPECT_EQ(a[31 - i], 2.0 * i);
  }
  EXPECT_EQ(stats().uploads, 1);
}

TEST_F(GPURuntimeVulkan, MisalignedOverlapIsAnError) {
  alignas(8) char bytes[64] = {};
  Launch launch;
  launch.format = kVulkan;
  launch.binary = kernelBinary("kernels");
  launch.kernel = "twice";
  launch.block[0] = 16;
  launch.args = {{VRIR_GPU_ARG_BUFFER, address(bytes), 16, 4, 0, kWrite},
                 {VRIR_GPU_ARG_BUFFER, address(bytes + 4), 16, 8, 0, kRead}};
  std::string error = run(launch);
  EXPECT_TRUE(startsWith(error, "GPU: buffer argument 1 of kernel 'twice' "
                                "starts 4 bytes into memory"))
      << error;
}

// Scalars of 1, 2, 4 and 8 bytes arrive as the low bytes of their int64
// parameter slots.
TEST_F(GPURuntimeVulkan, ScalarSizes) {
  std::vector<int64_t> out(8, 0);
  Launch launch;
  launch.format = kVulkan;
  launch.binary = kernelBinary("scalars");
  launch.kernel = "scalars";
  launch.args = {buffer(out.data(), 8, kWrite, 1),
                 scalar<int8_t>(-5),
                 scalar<int16_t>(-300),
                 scalar<int32_t>(-70000),
                 scalar<int64_t>(-(int64_t(1) << 40)),
                 scalar<float>(-1.25f),
                 scalar<uint8_t>(200)};
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(out, (std::vector<int64_t>{0, -5, -300, -70000, -(int64_t(1) << 40),
                                       -5, 200, 0}));
}

// A 3-D grid of 3-D work-groups: 2x3x2 groups of 4x2x2 for 7x5x3 items.
TEST_F(GPURuntimeVulkan, Grid3D) {
  const int64_t nx = 7, ny = 5, nz = 3;
  std::vector<int64_t> out(nx * ny * nz + 2, -1);
  Launch launch;
  launch.format = kVulkan;
  launch.binary = kernelBinary("grid3d");
  launch.kernel = "ids";
  launch.grid[0] = 2;
  launch.grid[1] = 3;
  launch.grid[2] = 2;
  launch.block[0] = 4;
  launch.block[1] = 2;
  launch.block[2] = 2;
  launch.args = {buffer(out.data(), nx * ny * nz + 2, kWrite, 1),
                 scalar<int64_t>(nx), scalar<int64_t>(ny), scalar<int64_t>(nz)};
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(out.front(), -1);
  EXPECT_EQ(out.back(), -1);
  for (int64_t z = 0; z < nz; ++z)
    for (int64_t y = 0; y < ny; ++y)
      for (int64_t x = 0; x < nx; ++x)
        EXPECT_EQ(out[1 + (z * ny + y) * nx + x], x + 100 * y + 10000 * z)
            << x << "," << y << "," << z;
}

// 64-bit atomics on a storage buffer (shaderBufferInt64Atomics).
TEST_F(GPURuntimeVulkan, Int64Atomics) {
  std::vector<int64_t> counter(3, 0);
  counter[1] = int64_t(1) << 40;
  Launch launch;
  launch.format = kVulkan;
  launch.binary = kernelBinary("atomics");
  launch.kernel = "count";
  launch.grid[0] = 4;
  launch.block[0] = 64;
  launch.args = {buffer(counter.data(), 3, kReadWrite, 1)};
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(counter,
            (std::vector<int64_t>{0, (int64_t(1) << 40) + 256 * 257 / 2, 0}));
}

// (3) A kernel that reports a failed bounds check: the launch records it
// and vrir_rt_parallel_check raises it with the site's name.
TEST_F(GPURuntimeVulkan, BoundsErrorIsRaisedByParallelCheck) {
  std::vector<int64_t> x(8, 0);
  Launch launch;
  launch.format = kVulkan;
  launch.binary = kernelBinary("oob");
  launch.kernel = "oob";
  launch.sites = std::string("x at a.py:1") + '\0' + "y at b.py:2" + '\0';
  launch.numSites = 2;
  launch.block[0] = 8;
  launch.args = {buffer(x.data(), 8, kReadWrite), scalar<int64_t>(1)};
  ASSERT_EQ(parallelCheck(), "");
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(parallelCheck(), "index out of bounds: y at b.py:2: dimension 1, "
                             "index 7, extent 5 (in a parallel loop)");
  EXPECT_EQ(parallelCheck(), "");

  // A site number out of range.
  launch.args[1] = scalar<int64_t>(2);
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(parallelCheck(), "index out of bounds: a GPU kernel: dimension "
                             "1, index 7, extent 5 (in a parallel loop)");

  // No work-item 3: nothing pending.
  launch.grid[0] = 0;
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(parallelCheck(), "");
}

// (4) Every buffer is uploaded; only written ones are downloaded. Two
// arrays apart in one allocation are two device buffers; an empty array
// needs no transfer.
TEST_F(GPURuntimeVulkan, StatsCountTransfers) {
  const int64_t n = 100;
  std::vector<double> storage(600, 1.0);
  double *x = storage.data(), *y = storage.data() + 400;
  vrir_gpu_reset_stats();
  Launch launch = axpy(3.0, x, n, 0, y, n, 0, n);
  ASSERT_EQ(run(launch), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 1);
  EXPECT_EQ(s.uploads, 2);
  EXPECT_EQ(s.bytesUploaded, 2 * n * 8);
  EXPECT_EQ(s.downloads, 1);
  EXPECT_EQ(s.bytesDownloaded, n * 8);
  EXPECT_EQ(y[0], 3.0);
  EXPECT_EQ(y[n - 1], 3.0);
  EXPECT_EQ(storage[400 + n], 1.0);

  vrir_gpu_reset_stats();
  std::vector<double> empty;
  launch = axpy(3.0, empty.data(), 0, 0, y, n, 0, 0);
  launch.grid[0] = 1; // n = 0: the guard keeps every work-item out
  ASSERT_EQ(run(launch), "");
  s = stats();
  EXPECT_EQ(s.kernels, 1);
  EXPECT_EQ(s.uploads, 1);
  EXPECT_EQ(s.downloads, 1);
}

// (4) Modules are cached by content, pipelines by kernel: launches of the
// same binary build each kernel once, wherever the binary is; another
// binary builds again.
TEST_F(GPURuntimeVulkan, ProgramCache) {
  std::vector<double> x(64, 1.0), y(64, 0.0), a(32, 1.0);
  std::string binary = kernelBinary("kernels");
  // Another module: the same code with another name for one variable.
  size_t name = binary.find("axpy_arg_0");
  ASSERT_NE(name, std::string::npos);
  binary[name + 9] = 'X';
  vrir_gpu_reset_stats();
  Launch launch = axpy(2.0, x.data(), 64, 0, y.data(), 64, 0, 64);
  launch.binary = binary;
  ASSERT_EQ(run(launch), "");
  ASSERT_EQ(run(launch), "");
  Launch copy = launch; // the same binary at another address
  ASSERT_NE(copy.binary.data(), launch.binary.data());
  ASSERT_EQ(run(copy), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.compiles, 1);
  EXPECT_EQ(s.kernels, 3);
  EXPECT_GT(s.compileSeconds, 0.0);
  EXPECT_EQ(y, std::vector<double>(64, 2.0));

  // The other kernel of the module: one more pipeline.
  Launch twice;
  twice.format = kVulkan;
  twice.binary = binary;
  twice.kernel = "twice";
  twice.block[0] = 16;
  twice.args = {buffer(a.data() + 16, 16, kWrite, 15),
                buffer(a.data(), 16, kRead)};
  ASSERT_EQ(run(twice), "");
  ASSERT_EQ(run(twice), "");
  EXPECT_EQ(stats().compiles, 2);

  launch.binary[name + 9] = 'Y'; // same size, other content
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(stats().compiles, 3);
}

// (5) A zero grid runs nothing, even with a valid kernel.
TEST_F(GPURuntimeVulkan, ZeroGrid) {
  std::vector<double> x(8, 1.0), y(8, 5.0);
  vrir_gpu_reset_stats();
  Launch launch = axpy(2.0, x.data(), 8, 0, y.data(), 8, 0, 8);
  for (int d = 0; d < 3; ++d) {
    Launch empty = launch;
    empty.grid[d] = 0;
    ASSERT_EQ(run(empty), "");
  }
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 0);
  EXPECT_EQ(s.uploads, 0);
  EXPECT_EQ(s.downloads, 0);
  EXPECT_EQ(y, std::vector<double>(8, 5.0));
}

// (6) A grid beyond maxComputeWorkGroupCount is a clear error.
TEST_F(GPURuntimeVulkan, GridBeyondDeviceLimit) {
  std::vector<double> x(8, 1.0), y(8, 5.0);
  Launch launch = axpy(2.0, x.data(), 8, 0, y.data(), 8, 0, 8);
  launch.grid[0] = int64_t(1) << 32;
  std::string error = run(launch);
  EXPECT_TRUE(startsWith(error, "GPU: kernel 'axpy': a grid of 4294967296 "
                                "work-groups exceeds the device's limit "))
      << error;
  EXPECT_NE(error.find(" in dimension 0 (maxComputeWorkGroupCount of Vulkan: "),
            std::string::npos)
      << error;
  launch.grid[0] = 1;
  launch.grid[2] = int64_t(1) << 31;
  error = run(launch);
  EXPECT_TRUE(startsWith(error, "GPU: kernel 'axpy': a grid of 2147483648 "
                                "work-groups exceeds the device's limit "))
      << error;
  EXPECT_NE(error.find(" in dimension 2 "), std::string::npos) << error;
  EXPECT_EQ(y, std::vector<double>(8, 5.0));
}

TEST_F(GPURuntimeVulkan, UnknownKernelName) {
  std::vector<double> x(8), y(8);
  Launch launch = axpy(2.0, x.data(), 8, 0, y.data(), 8, 0, 8);
  launch.kernel = "nope";
  EXPECT_EQ(run(launch), "GPU: no kernel 'nope' in the Vulkan SPIR-V module "
                         "(its GLCompute entry points: 'axpy', 'twice')");
}

// The block must be the kernel's LocalSize.
TEST_F(GPURuntimeVulkan, BlockMustMatchLocalSize) {
  std::vector<double> x(8), y(8);
  Launch launch = axpy(2.0, x.data(), 8, 0, y.data(), 8, 0, 8);
  launch.block[0] = 32;
  launch.grid[0] = 2;
  EXPECT_EQ(run(launch), "GPU: kernel 'axpy' has the work-group size 64x1x1 "
                         "(its LocalSize), but the launch gives the block "
                         "32x1x1");
}

// Not SPIR-V: the failure counts as a compile and is cached.
TEST_F(GPURuntimeVulkan, NotSPIRV) {
  Launch launch;
  launch.format = kVulkan;
  launch.binary = std::string(20, '\x12');
  launch.kernel = "k";
  vrir_gpu_reset_stats();
  std::string error = run(launch);
  EXPECT_EQ(error, "GPU: the Vulkan SPIR-V binary of kernel 'k' is not SPIR-V "
                   "(magic number 0x12121212, not 0x07230203)");
  EXPECT_EQ(run(launch), error);
  EXPECT_EQ(stats().compiles, 1);
  EXPECT_EQ(stats().kernels, 0);

  // Cut short in the middle of an instruction.
  launch.binary = kernelBinary("kernels");
  launch.binary.resize(64);
  launch.kernel = "axpy";
  error = run(launch);
  EXPECT_TRUE(startsWith(error, "GPU: the Vulkan SPIR-V binary of kernel "
                                "'axpy' is malformed"))
      << error;
}

// A kernel that uses more bindings than the launch passes would read
// descriptors that are not there: refused, also through a function call.
TEST_F(GPURuntimeVulkan, TooFewBindings) {
  std::vector<double> x(8), y(8);
  Launch launch = axpy(2.0, x.data(), 8, 0, y.data(), 8, 0, 8);
  // Only the scalars: the parameter block and the error buffer, where axpy
  // reads its parameters from binding 2.
  launch.args = {scalar<double>(2.0), scalar<int64_t>(8)};
  EXPECT_EQ(run(launch), "GPU: kernel 'axpy' uses binding 2, but the launch "
                         "passes 2 bindings (2 arguments: one binding per "
                         "buffer, one for the offsets and scalars, and the "
                         "error buffer)");

  Launch call;

  call.format = kVulkan;
  call.binary = kernelBinary("resources");
  call.kernel = "viacall";
  call.args = {scalar<int64_t>(1)};
  EXPECT_TRUE(startsWith(run(call), "GPU: kernel 'viacall' uses binding 5, "
                                    "but the launch passes 2 bindings"));
}

TEST_F(GPURuntimeVulkan, OnlyDescriptorSetZero) {
  Launch launch;
  launch.format = kVulkan;
  launch.binary = kernelBinary("resources");
  launch.kernel = "set1";
  EXPECT_EQ(run(launch), "GPU: kernel 'set1' uses descriptor set 1 (binding "
                         "0); the runtime binds set 0 only");
}

// Launches from several threads at once are serialized by the runtime; each
// thread has its own error channel.
TEST_F(GPURuntimeVulkan, ConcurrentLaunches) {
  const int64_t n = 300;
  const int numThreads = 4;
  std::vector<std::vector<double>> x(numThreads), y(numThreads);
  std::vector<std::string> errors(numThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < numThreads; ++t) {
    x[t].assign(n, t + 1.0);
    y[t].assign(n, 0.0);
    threads.emplace_back([&, t] {
      for (int repeat = 0; repeat < 5 && errors[t].empty(); ++repeat)
        errors[t] = run(axpy(10.0, x[t].data(), n, 0, y[t].data(), n, 0, n));
    });
  }
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < numThreads; ++t) {
    EXPECT_EQ(errors[t], "");
    EXPECT_EQ(y[t], std::vector<double>(n, 10.0 * (t + 1)));
  }
}

// OpenCL and Vulkan launches mix in one process, with one set of counters.
TEST_F(GPURuntimeVulkan, OpenCLAndVulkanShareCounters) {
  if (!vrir_gpu_available(VRIR_GPU_FORMAT_OPENCL_C))
    GTEST_SKIP() << "no OpenCL device";
  std::vector<double> x(8, 1.0), y(8, 0.0);
  std::vector<int64_t> z(4, 0);
  vrir_gpu_reset_stats();
  ASSERT_EQ(run(axpy(2.0, x.data(), 8, 0, y.data(), 8, 0, 8)), "");
  Launch fill;
  fill.format = kVulkan;
  fill.format = VRIR_GPU_FORMAT_OPENCL_C;
  fill.binary = "__kernel void fill(__global long *z, long zOff,\n"
                "                   __global long *vrir_error) {\n"
                "  z[zOff + get_global_id(0)] = 4;\n"
                "}\n";
  fill.kernel = "fill";
  fill.block[0] = 4;
  fill.args = {buffer(z.data(), 4, kWrite)};
  ASSERT_EQ(run(fill), "");
  ASSERT_EQ(run(axpy(3.0, x.data(), 8, 0, y.data(), 8, 0, 8)), "");
  EXPECT_EQ(y, std::vector<double>(8, 3.0));
  EXPECT_EQ(z, std::vector<int64_t>(4, 4));
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 3);
  EXPECT_EQ(s.uploads, 5);
  EXPECT_EQ(s.downloads, 3);
}

// Copies on potential write through Vulkan: a copy of an array that lives
// on the device shares its buffer until a kernel writes it; the device copy
// is then a copy kernel in the batch, between the kernels around it (of a
// size that is no multiple of its 16-byte elements).
TEST_F(GPURuntimeVulkan, CopyIsMadeOnlyWhenAKernelWritesIt) {
  const int64_t n = 203;
  std::vector<double> x(n), y(n, -1), z(n, -1), w(n, -1);
  for (int64_t i = 0; i < n; ++i)
    x[i] = static_cast<double>(i);
  auto bytes = static_cast<int64_t>(n * sizeof(double));
  vrir_gpu_reset_stats();
  vrir_gpu_scope_begin();
  vrir_gpu_host_uninitialized(address(y.data()), bytes);
  vrir_gpu_host_uninitialized(address(w.data()), bytes);
  ASSERT_EQ(run(axpy(2.0, x.data(), n, 0, y.data(), n, 0, n)), "");
  vrir_gpu_copy(address(z.data()), address(y.data()), bytes); // z = y
  EXPECT_EQ(z[1], -1.0);
  ASSERT_EQ(run(axpy(3.0, z.data(), n, 0, w.data(), n, 0, n)), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.sharedCopies, 1);
  EXPECT_EQ(s.deviceCopies, 0);
  EXPECT_EQ(s.uploads, 1); // x
  // Writing y makes the copy first: z keeps 2x.
  ASSERT_EQ(run(axpy(5.0, x.data(), n, 0, y.data(), n, 0, n)), "");
  EXPECT_EQ(stats().deviceCopies, 1);
  vrir_gpu_scope_end();
  s = stats();
  EXPECT_EQ(s.uploads, 1);
  EXPECT_EQ(s.downloads, 3); // y, z and w
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(y[i], 5.0 * i);
    ASSERT_EQ(z[i], 2.0 * i);
    ASSERT_EQ(w[i], 6.0 * i);
  }
}
