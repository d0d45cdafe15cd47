//===- GPURuntimeTest.cpp - libvrir_gpu_runtime on OpenCL -----------------===//
//
// Hand-written OpenCL C kernels with the parameter convention of generated
// code (a buffer is `__global T *` and `long offset`, then the hidden error
// buffer), launched through vrir_gpu_launch with the error channel armed.
// Tests that need a device are skipped without one (CI has PoCL).
//
//===----------------------------------------------------------------------===//

#include "GPURuntimeTestSupport.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace vrir_test;

// A disk cache of compiled programs of this process's own: counts of
// compiles do not depend on earlier runs.
const bool kPrivateDiskCache = [] {
  char directory[] = "/tmp/vrir-gpu-test-cache-XXXXXX";
  if (::mkdtemp(directory))
    ::setenv("VRIR_CACHE_DIR", directory, 1);
  return true;
}();

class GPURuntime : public ::testing::Test {
protected:
  void SetUp() override {
    if (!vrir_gpu_available(VRIR_GPU_FORMAT_OPENCL_C))
      GTEST_SKIP() << "no OpenCL device";
  }
};

} // namespace

// (The Vulkan backend is tested in GPURuntimeVulkanTest.cpp.)
TEST(GPURuntimeNoDevice, DeviceNameMatchesAvailability) {
  std::string name = vrir_gpu_device_name(VRIR_GPU_FORMAT_OPENCL_C);
  EXPECT_EQ(vrir_gpu_available(VRIR_GPU_FORMAT_OPENCL_C) != 0, !name.empty())
      << name;
  EXPECT_EQ(vrir_gpu_available(42), 0);
  EXPECT_STREQ(vrir_gpu_device_name(42), "");
}

TEST(GPURuntimeNoDevice, UnknownFormat) {
  Launch launch;
  launch.format = 42;
  launch.binary = "k";
  launch.kernel = "k";
  EXPECT_EQ(run(launch), "GPU: unknown kernel format 42");
}

// (6) A zero grid or block dimension runs nothing: not even a compile of
// this source, which would fail.
TEST(GPURuntimeNoDevice, ZeroGridDoesNothing) {
  vrir_gpu_reset_stats();
  std::vector<double> x(4, 1.0);
  Launch launch;
  launch.binary = "this is not OpenCL C";
  launch.kernel = "k";
  launch.args = {buffer(x.data(), 4, kReadWrite)};
  launch.grid[0] = 0;
  EXPECT_EQ(run(launch), "");
  launch.grid[0] = 4;
  launch.block[2] = 0;
  EXPECT_EQ(run(launch), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 0);
  EXPECT_EQ(s.compiles, 0);
  EXPECT_EQ(s.uploads, 0);
  EXPECT_EQ(s.downloads, 0);
  EXPECT_EQ(x, std::vector<double>(4, 1.0));
}

TEST(GPURuntimeNoDevice, NegativeSizeIsAnError) {
  Launch launch;
  launch.binary = "k";
  launch.kernel = "k";
  launch.grid[1] = -1;
  EXPECT_TRUE(startsWith(run(launch), "GPU: negative work size"));
}

TEST_F(GPURuntime, DeviceName) {
  std::string name = vrir_gpu_device_name(VRIR_GPU_FORMAT_OPENCL_C);
  EXPECT_NE(name.find(": "), std::string::npos) << name;
}

// (1) c = a + b on 1000 elements, 16 blocks of 64 (the kernel guards i < n).
// The source is not NUL-terminated where the size says it ends.
TEST_F(GPURuntime, VectorAdd) {
  const int64_t n = 1000;
  std::vector<double> a(n), b(n), c(n, -1.0);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = 0.5 * i;
    b[i] = 1000.0 - i;
  }
  Launch launch = vectorAdd(a.data(), b.data(), c.data(), n);
  ASSERT_EQ(launch.grid[0], 16);
  launch.binarySize = static_cast<int64_t>(launch.binary.size());
  launch.binary += "#error not part of the source";
  ASSERT_EQ(run(launch), "");
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]) << "at " << i;
}

// v[i, j] = v[i, j] * alpha + 10 i + j over a rows x cols view of doubles
// (OpenCL C), on 4 x 4 work-items.
const char *const kScale2D = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void scale2d(__global double *v, long vOff, long rows, long cols,
                      long rowStride, long colStride, float alpha,
                      __global long *vrir_error) {
  long j = get_global_id(0), i = get_global_id(1);
  if (i < rows && j < cols) {
    long k = vOff + i * rowStride + j * colStride;
    v[k] = v[k] * alpha + (double)(10 * i + j);
  }
}
)CL";

// Runs kScale2D on `array` (a BUFFER or VIEW argument) with the view of 4
// rows from row 4 upwards and 3 columns from column 2 by 2 of a 6 x 8
// matrix, and returns the matrix (0, 1, 2, ... before).
std::vector<double> scale2dRowsUp(vrir_gpu_arg array, std::vector<double> &A) {
  Launch launch;
  launch.binary = kScale2D;
  launch.kernel = "scale2d";
  launch.block[0] = 4;
  launch.block[1] = 2;
  launch.grid[1] = 2; // 4 x 4 work-items for 3 columns and 4 rows
  launch.args = {array,
                 scalar<int64_t>(4),
                 scalar<int64_t>(3),
                 scalar<int64_t>(-8),
                 scalar<int64_t>(2),
                 scalar<float>(2.5f)};
  EXPECT_EQ(run(launch), "");
  return A;
}

std::vector<double> matrix6x8() {
  std::vector<double> A(6 * 8);
  for (size_t k = 0; k < A.size(); ++k)
    A[k] = static_cast<double>(k);
  return A;
}

std::vector<double> scaled6x8() {
  std::vector<double> expected = matrix6x8();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      double &e = expected[(4 - i) * 8 + 2 + 2 * j];
      e = e * 2.5 + (10 * i + j);
    }
  return expected;
}

// (2) A 2-D kernel on a strided view, written in place: rows 4..1 (reversed)
// and columns 2, 4, 6 of a 6x8 row-major matrix. The lowest byte is A[1][2];
// the view's origin A[4][2] is 24 elements after it.
TEST_F(GPURuntime, StridedViewInPlace2D) {
  std::vector<double> A = matrix6x8();
  const double *lowest = &A[1 * 8 + 2];
  const double *highest = &A[4 * 8 + 6];
  EXPECT_EQ(
      scale2dRowsUp(buffer(lowest, highest - lowest + 1, kReadWrite, 24), A),
      scaled6x8());
}

// The same view as generated code passes it: buffer, origin and rank, the
// runtime finding its bytes from the sizes and strides after it.
TEST_F(GPURuntime, ViewArgumentSpansItsSizesAndStrides) {
  std::vector<double> A = matrix6x8();
  vrir_gpu_arg view = {VRIR_GPU_ARG_VIEW, address(A.data()), 2,
                       sizeof(double),    4 * 8 + 2,         kReadWrite};
  vrir_gpu_reset_stats();
  EXPECT_EQ(scale2dRowsUp(view, A), scaled6x8());
  // Only the spanned bytes went to the device.
  EXPECT_EQ(stats().bytesUploaded, (4 * 8 + 6 - (1 * 8 + 2) + 1) * 8);
}

// A view whose rank needs more arguments than follow it, or whose sizes
// are not scalars, is refused with a message.
TEST_F(GPURuntime, MalformedViewIsAnError) {
  std::vector<double> A = matrix6x8();
  vrir_gpu_arg view = {
      VRIR_GPU_ARG_VIEW, address(A.data()), 3, sizeof(double), 0, kRead};
  Launch launch;
  launch.binary = kScale2D;
  launch.kernel = "scale2d";
  launch.args = {view,
                 scalar<int64_t>(4),
                 scalar<int64_t>(3),
                 scalar<int64_t>(-8),
                 scalar<int64_t>(2),
                 scalar<float>(2.5f)};
  EXPECT_TRUE(startsWith(run(launch), "GPU: view argument 0 has rank 3 but 5 "
                                      "arguments follow it"))
      << run(launch);
  launch.args[0].size = 2;
  launch.args[1] = buffer(A.data(), 1, kRead);
  EXPECT_TRUE(startsWith(run(launch), "GPU: view argument 0 is not followed "
                                      "by its 2 sizes and strides as scalars"))
      << run(launch);
}

// Scalars of 1, 2, 4 and 8 bytes arrive with their low bytes.
TEST_F(GPURuntime, ScalarSizes) {
  const char *source = R"CL(
__kernel void scalars(__global long *out, long outOff, char c, short s, int i,
                      long l, float f, uchar u, __global long *vrir_error) {
  out[outOff + 0] = c;
  out[outOff + 1] = s;
  out[outOff + 2] = i;
  out[outOff + 3] = l;
  out[outOff + 4] = (long)(f * 4.0f);
  out[outOff + 5] = u;
}
)CL";
  std::vector<int64_t> out(6, 0);
  Launch launch;
  launch.binary = source;
  launch.kernel = "scalars";
  launch.args = {buffer(out.data(), 6, kWrite),
                 scalar<int8_t>(-5),
                 scalar<int16_t>(-300),
                 scalar<int32_t>(-70000),
                 scalar<int64_t>(-(int64_t(1) << 40)),
                 scalar<float>(-1.25f),
                 scalar<uint8_t>(200)};
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(out, (std::vector<int64_t>{-5, -300, -70000, -(int64_t(1) << 40),
                                       -5, 200}));
}

// (3) Two views of one array that overlap share one device buffer: a serial
// forward copy a[i+1] = a[i] through them propagates a[0] everywhere (with
// separate buffers it would shift by one instead).
TEST_F(GPURuntime, OverlappingViewsShareOneBuffer) {
  const char *source = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void shift(__global const double *src, long sOff,
                    __global double *dst, long dOff, long n,
                    __global long *vrir_error) {
  for (long i = 0; i < n; ++i)
    dst[dOff + i] = src[sOff + i];
}
)CL";
  std::vector<double> a(16);
  for (size_t k = 0; k < a.size(); ++k)
    a[k] = static_cast<double>(k + 1);
  vrir_gpu_reset_stats();
  Launch launch;
  launch.binary = source;
  launch.kernel = "shift";
  // The destination first: the runtime orders ranges itself.
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
// and has an origin offset, which is rebased onto the merged buffer.
TEST_F(GPURuntime, TouchingViewsAreRebased) {
  const char *source = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void twice(__global double *dst, long dOff,
                    __global const double *src, long sOff,
                    __global long *vrir_error) {
  long i = get_global_id(0);
  dst[dOff - i] = 2.0 * src[sOff + i];
}
)CL";
  std::vector<double> a(32);
  for (size_t k = 0; k < a.size(); ++k)
    a[k] = static_cast<double>(k);
  vrir_gpu_reset_stats();
  Launch launch;
  launch.binary = source;
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

// Views whose distance is not a whole number of elements cannot share a
// device buffer.
TEST_F(GPURuntime, MisalignedOverlapIsAnError) {
  const char *source = R"CL(
__kernel void k(__global int *a, long aOff, __global long *b, long bOff,
                __global long *vrir_error) {}
)CL";
  alignas(8) char bytes[64] = {};
  Launch launch;
  launch.binary = source;
  launch.kernel = "k";
  launch.args = {{VRIR_GPU_ARG_BUFFER, address(bytes), 16, 4, 0, kRead},
                 {VRIR_GPU_ARG_BUFFER, address(bytes + 4), 16, 8, 0, kWrite}};
  std::string error = run(launch);
  EXPECT_TRUE(startsWith(error, "GPU: buffer argument 1 of kernel 'k' starts "
                                "4 bytes into memory"))
      << error;
}

// (4) A kernel that reports a failed bounds check: the launch records it
// and vrir_rt_parallel_check raises it with the site's name.
TEST_F(GPURuntime, BoundsErrorIsRaisedByParallelCheck) {
  const char *source = R"CL(
__kernel void oob(__global long *x, long xOff, long site,
                  __global long *vrir_error) {
  if (get_global_id(0) == 3) {
    vrir_error[1] = site;
    vrir_error[2] = 1;
    vrir_error[3] = 7;
    vrir_error[4] = 5;
    vrir_error[0] = 1;
  }
}
)CL";
  std::vector<int64_t> x(8, 0);
  Launch launch;
  launch.binary = source;
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

  // No failed check: nothing pending.
  launch.args[1] = scalar<int64_t>(0);
  launch.block[0] = 2;
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(parallelCheck(), "");
}

// (5) A compile error carries the build log; the failure is cached.
TEST_F(GPURuntime, CompileErrorShowsBuildLog) {
  Launch launch;
  launch.binary = "__kernel void broken(__global long *vrir_error) {\n"
                  "  undeclared_thing = 1;\n"
                  "}\n";
  launch.kernel = "broken";
  vrir_gpu_reset_stats();
  std::string error = run(launch);
  EXPECT_TRUE(
      startsWith(error, "GPU: OpenCL C compile failed for kernel 'broken': "))
      << error;
  EXPECT_NE(error.find("undeclared_thing"), std::string::npos) << error;
  EXPECT_EQ(run(launch), error);
  EXPECT_EQ(stats().compiles, 1);
  EXPECT_EQ(stats().kernels, 0);
}

TEST_F(GPURuntime, UnknownKernelName) {
  std::vector<double> a(4), b(4), c(4);
  Launch launch = vectorAdd(a.data(), b.data(), c.data(), 4);
  launch.kernel = "nope";
  std::string error = run(launch);
  EXPECT_TRUE(startsWith(error, "GPU: no kernel 'nope' in the OpenCL C "
                                "program (CL_INVALID_KERNEL_NAME)"))
      << error;
}

TEST_F(GPURuntime, WrongParameterCount) {
  std::vector<double> a(4), b(4), c(4);
  Launch launch = vectorAdd(a.data(), b.data(), c.data(), 4);
  launch.args.pop_back(); // no n
  std::string error = run(launch);
  EXPECT_TRUE(startsWith(error, "GPU: kernel 'vadd' has 8 parameters, but "
                                "the launch passes 7"))
      << error;
}

TEST_F(GPURuntime, TooLargeWorkGroup) {
  std::vector<double> a(4), b(4), c(4);
  Launch launch = vectorAdd(a.data(), b.data(), c.data(), 4);
  launch.block[0] = 1 << 16;
  launch.block[1] = 1 << 10;
  std::string error = run(launch);
  EXPECT_TRUE(startsWith(error, "GPU: block 65536x1024x1 has 67108864 "
                                "work-items, more than"))
      << error;
}

TEST_F(GPURuntime, SPIRVNeedsADeviceThatTakesIt) {
  Launch launch;
  launch.format = VRIR_GPU_FORMAT_OPENCL_SPIRV;
  launch.binary = "not SPIR-V";
  launch.kernel = "k";
  std::string error = run(launch);
  if (vrir_gpu_available(VRIR_GPU_FORMAT_OPENCL_SPIRV)) {
    EXPECT_TRUE(startsWith(error, "GPU: OpenCL SPIR-V build failed for "
                                  "kernel 'k': "))
        << error;
  } else {
    EXPECT_STREQ(vrir_gpu_device_name(VRIR_GPU_FORMAT_OPENCL_SPIRV), "");
    EXPECT_TRUE(startsWith(error, "GPU: the OpenCL device ")) << error;
    EXPECT_NE(error.find("takes no SPIR-V"), std::string::npos) << error;
  }
}

// (7) Every buffer is uploaded; only written ones are downloaded. Three
// arrays apart in one allocation are three device buffers.
TEST_F(GPURuntime, StatsCountTransfers) {
  const int64_t n = 100;
  std::vector<double> storage(600, 1.0);
  double *a = storage.data(), *b = storage.data() + 200,
         *c = storage.data() + 400;
  vrir_gpu_reset_stats();
  ASSERT_EQ(run(vectorAdd(a, b, c, n)), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 1);
  EXPECT_EQ(s.uploads, 3);
  EXPECT_EQ(s.bytesUploaded, 3 * n * 8);
  EXPECT_EQ(s.downloads, 1);
  EXPECT_EQ(s.bytesDownloaded, n * 8);
  EXPECT_EQ(c[0], 2.0);
  EXPECT_EQ(c[n - 1], 2.0);
  EXPECT_EQ(storage[400 + n], 1.0);

  // An empty array needs no transfer.
  vrir_gpu_reset_stats();
  ASSERT_EQ(run(vectorAdd(a, b, c, 0)), ""); // grid 0: nothing at all
  EXPECT_EQ(stats().kernels, 0);
  std::vector<double> empty;
  Launch launch = vectorAdd(a, b, c, n);
  launch.args[0] = buffer(empty.data(), 0, kRead);
  launch.args[3] = scalar<int64_t>(0);
  ASSERT_EQ(run(launch), "");
  s = stats();
  EXPECT_EQ(s.kernels, 1);
  EXPECT_EQ(s.uploads, 2);
  EXPECT_EQ(s.downloads, 1);
}

// (8) Programs are cached by content: launches of the same source compile
// it once, wherever the text is; other text compiles again.
TEST_F(GPURuntime, ProgramCache) {
  std::vector<double> a(64, 1.0), b(64, 2.0), c(64, 0.0);
  vrir_gpu_reset_stats();
  Launch launch = vectorAdd(a.data(), b.data(), c.data(), 64);
  launch.binary = std::string("// ProgramCache\n") + kVectorAdd;
  ASSERT_EQ(run(launch), "");
  ASSERT_EQ(run(launch), "");
  Launch copy = launch; // the same text at another address
  ASSERT_NE(copy.binary.data(), launch.binary.data());
  ASSERT_EQ(run(copy), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.compiles, 1);
  EXPECT_EQ(s.kernels, 3);
  EXPECT_GT(s.compileSeconds, 0.0);
  EXPECT_EQ(c, std::vector<double>(64, 3.0));

  launch.binary[3] = 'X'; // same address and size, other text
  ASSERT_EQ(run(launch), "");
  EXPECT_EQ(stats().compiles, 2);
}

// Launches from several threads at once are serialized by the runtime; each
// thread has its own error channel.
TEST_F(GPURuntime, ConcurrentLaunches) {
  const int64_t n = 300;
  const int numThreads = 4;
  std::vector<std::vector<double>> a(numThreads), b(numThreads), c(numThreads);
  std::vector<std::string> errors(numThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < numThreads; ++t) {
    a[t].assign(n, t);
    b[t].assign(n, 10.0);
    c[t].assign(n, 0.0);
    threads.emplace_back([&, t] {
      for (int repeat = 0; repeat < 5 && errors[t].empty(); ++repeat)
        errors[t] = run(vectorAdd(a[t].data(), b[t].data(), c[t].data(), n));
    });
  }
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < numThreads; ++t) {
    EXPECT_EQ(errors[t], "");
    EXPECT_EQ(c[t], std::vector<double>(n, t + 10.0));
  }
}
