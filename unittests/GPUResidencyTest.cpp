//===- GPUResidencyTest.cpp - Arrays stay on the device in a scope --------===//
//
// Scripted sequences of launches and host notices, as generated code makes
// them (vrir-gpu-host-sync), with exact transfer counts: an array read by
// several kernels is uploaded once, one only written on the device never,
// results come back when the host reads them or the scope ends. On OpenCL
// (PoCL in CI); skipped without a device.
//
//===----------------------------------------------------------------------===//

#include "GPURuntimeTestSupport.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace vrir_test;

class GPUResidency : public ::testing::Test {
protected:
  void SetUp() override {
    if (!vrir_gpu_available(VRIR_GPU_FORMAT_OPENCL_C))
      GTEST_SKIP() << "no OpenCL device";
    vrir_gpu_reset_stats();
  }
  void TearDown() override {
    // Leave no scope open for the next test.
    while (depth > 0)
      endScope();
  }

  void beginScope() {
    vrir_gpu_scope_begin();
    ++depth;
  }
  void endScope() {
    vrir_gpu_scope_end();
    --depth;
  }

  int depth = 0;
};

// (vectorAdd is in GPURuntimeTestSupport.h.)
const char *kKernels = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void increment(__global double *x, long xOff, long n,
                        __global long *vrir_error) {
  long i = get_global_id(0);
  if (i < n)
    x[xOff + i] += 1.0;
}
__kernel void fail(__global double *x, long xOff, long site,
                   __global long *vrir_error) {
  if (get_global_id(0) == 0) {
    vrir_error[1] = site;
    vrir_error[2] = 0;
    vrir_error[3] = 9;
    vrir_error[4] = 4;
    vrir_error[0] = 1;
  }
}
)CL";

Launch increment(double *x, int64_t n) {
  Launch launch;
  launch.binary = kKernels;
  launch.kernel = "increment";
  launch.grid[0] = (n + 63) / 64;
  launch.block[0] = 64;
  launch.args = {buffer(x, n, kReadWrite), scalar<int64_t>(n)};
  return launch;
}

template <typename T> void hostRead(const std::vector<T> &x) {
  vrir_gpu_host_access(address(x.data()),
                       static_cast<int64_t>(x.size() * sizeof(T)), 0);
}
template <typename T> void hostWrite(const std::vector<T> &x) {
  vrir_gpu_host_access(address(x.data()),
                       static_cast<int64_t>(x.size() * sizeof(T)), 1);
}
template <typename T> void uninitialized(const std::vector<T> &x) {
  vrir_gpu_host_uninitialized(address(x.data()),
                              static_cast<int64_t>(x.size() * sizeof(T)));
}

constexpr int64_t kN = 300;

std::vector<double> iota(double start) {
  std::vector<double> x(kN);
  for (int64_t i = 0; i < kN; ++i)
    x[i] = start + static_cast<double>(i);
  return x;
}

// Read twice: one upload. Write-only (new) arrays: none. Results come back
// when the scope ends, not before.
TEST_F(GPUResidency, ReadTwiceUploadsOnceAndWriteOnlyNever) {
  std::vector<double> a = iota(0), b = iota(1000), c(kN, -1), d(kN, -1);
  beginScope();
  uninitialized(c);
  uninitialized(d);
  ASSERT_EQ(run(vectorAdd(a.data(), b.data(), c.data(), kN)), "");
  ASSERT_EQ(run(vectorAdd(a.data(), b.data(), d.data(), kN)), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 2);
  EXPECT_EQ(s.uploads, 2);
  EXPECT_EQ(s.bytesUploaded, 2 * kN * 8);
  EXPECT_EQ(s.downloads, 0);
  EXPECT_EQ(c[0], -1.0); // still on the device
  endScope();
  s = stats();
  EXPECT_EQ(s.uploads, 2);
  EXPECT_EQ(s.downloads, 2);
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(c[i], a[i] + b[i]);
    ASSERT_EQ(d[i], a[i] + b[i]);
  }
}

// A host read in the middle: one download, and the device copy stays good
// (the next kernel that reads it uploads nothing).
TEST_F(GPUResidency, HostReadInTheMiddleDownloadsOnce) {
  std::vector<double> a = iota(0), b = iota(1), c(kN), d(kN);
  beginScope();
  uninitialized(c);
  uninitialized(d);
  ASSERT_EQ(run(vectorAdd(a.data(), b.data(), c.data(), kN)), "");
  hostRead(c);
  EXPECT_EQ(stats().downloads, 1);
  EXPECT_EQ(c[5], a[5] + b[5]);
  hostRead(c); // already fresh on the host
  ASSERT_EQ(run(vectorAdd(c.data(), b.data(), d.data(), kN)), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.downloads, 1);
  EXPECT_EQ(s.uploads, 2); // a and b
  endScope();
  s = stats();
  EXPECT_EQ(s.downloads, 2); // d; c was fresh on the host
  for (int64_t i = 0; i < kN; ++i)
    ASSERT_EQ(d[i], a[i] + 2 * b[i]);
}

// A host write makes the device copy stale: downloaded first (the host may
// write part of it), uploaded again for the next kernel.
TEST_F(GPUResidency, HostWriteInvalidatesTheDeviceCopy) {
  std::vector<double> x = iota(0);
  beginScope();
  ASSERT_EQ(run(increment(x.data(), kN)), "");
  hostWrite(x);
  EXPECT_EQ(stats().downloads, 1);
  x[0] = 100.0;
  ASSERT_EQ(run(increment(x.data(), kN)), "");
  EXPECT_EQ(stats().uploads, 2);
  endScope();
  EXPECT_EQ(x[0], 101.0);
  EXPECT_EQ(x[1], 3.0);
  EXPECT_EQ(stats().downloads, 2);
}

// A time-step loop of ten kernels: one upload and one download in all.
TEST_F(GPUResidency, TenStepsOneUploadOneDownload) {
  std::vector<double> x = iota(0);
  beginScope();
  for (int step = 0; step < 10; ++step)
    ASSERT_EQ(run(increment(x.data(), kN)), "");
  endScope();
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 10);
  EXPECT_EQ(s.uploads, 1);
  EXPECT_EQ(s.downloads, 1);
  for (int64_t i = 0; i < kN; ++i)
    ASSERT_EQ(x[i], static_cast<double>(i) + 10.0);
}

// Outside a scope a launch is synchronous, and leaves nothing behind.
TEST_F(GPUResidency, NoScopeMeansNoResidency) {
  std::vector<double> x = iota(0);
  for (int step = 0; step < 3; ++step)
    ASSERT_EQ(run(increment(x.data(), kN)), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.uploads, 3);
  EXPECT_EQ(s.downloads, 3);
  EXPECT_EQ(x[7], 10.0);
  // Declaring memory uninitialized outside a scope saves nothing: the host
  // may still fill it.
  uninitialized(x);
  ASSERT_EQ(run(increment(x.data(), kN)), "");
  EXPECT_EQ(x[7], 11.0);
}

// An inner scope's end brings everything back and empties the table: the
// outer scope's next kernel uploads again.
TEST_F(GPUResidency, NestedScopeEndsBringEverythingBack) {
  std::vector<double> x = iota(0);
  beginScope();
  beginScope();
  ASSERT_EQ(run(increment(x.data(), kN)), "");
  endScope();
  EXPECT_EQ(x[0], 1.0);
  ASSERT_EQ(run(increment(x.data(), kN)), "");
  endScope();
  EXPECT_EQ(x[0], 2.0);
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.uploads, 2);
  EXPECT_EQ(s.downloads, 2);
}

// Memory freed through the CPU runtime leaves the table (no download), so
// a new array at the same address is uploaded, not mistaken for the old.
TEST_F(GPUResidency, FreedArraysLeaveTheTable) {
  const size_t bytes = 4 << 20; // cached and handed out again by the runtime
  const int64_t n = static_cast<int64_t>(bytes / sizeof(double));
  beginScope();
  auto *p = static_cast<double *>(_mlir_memref_to_llvm_alloc(bytes));
  vrir_gpu_host_uninitialized(address(p), static_cast<int64_t>(bytes));
  ASSERT_EQ(run(increment(p, n)), ""); // the device has garbage + 1
  _mlir_memref_to_llvm_free(p);
  EXPECT_EQ(stats().downloads, 0);
  auto *q = static_cast<double *>(_mlir_memref_to_llvm_alloc(bytes));
  EXPECT_EQ(q, p) << "the runtime's block cache should hand the block back";
  for (int64_t i = 0; i < n; ++i)
    q[i] = 5.0;
  ASSERT_EQ(run(increment(q, n)), "");
  EXPECT_EQ(stats().uploads, 1);
  endScope();
  EXPECT_EQ(q[0], 6.0);
  EXPECT_EQ(q[n - 1], 6.0);
  _mlir_memref_to_llvm_free(q);
}

void raiseError(void *) { vrir_rt_error("a test error"); }

// A VRIR error closes every scope and empties the table without downloads.
TEST_F(GPUResidency, AnErrorEmptiesTheTable) {
  std::vector<double> x = iota(0);
  beginScope();
  ASSERT_EQ(run(increment(x.data(), kN)), "");
  ASSERT_NE(vrir_rt_try(raiseError, nullptr), 0);
  depth = 0;
  EXPECT_EQ(stats().downloads, 0);
  EXPECT_EQ(x[0], 0.0);
  ASSERT_EQ(run(increment(x.data(), kN)), ""); // synchronous again
  EXPECT_EQ(x[0], 1.0);
}

// A launch whose group spans more than a resident array (the array and
// its neighbour as one buffer) brings the array back and replaces it.
TEST_F(GPUResidency, WiderGroupReplacesAnEntry) {
  std::vector<double> storage(2 * kN);
  for (int64_t i = 0; i < 2 * kN; ++i)
    storage[i] = static_cast<double>(i);
  double *low = storage.data(), *high = storage.data() + kN;
  beginScope();
  ASSERT_EQ(run(increment(low, kN)), "");     // low only, on the device
  ASSERT_EQ(run(increment(low, 2 * kN)), ""); // low and high
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.downloads, 1); // low, before its entry went
  EXPECT_EQ(s.uploads, 2);
  ASSERT_EQ(run(increment(high, kN)), ""); // inside the new entry
  EXPECT_EQ(stats().uploads, 2);
  endScope();
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(low[i], static_cast<double>(i) + 2.0);
    ASSERT_EQ(high[i], static_cast<double>(kN + i) + 2.0);
  }
}

// The same, with the whole array declared first (as generated code does
// for a function's array arguments): every launch uses one entry for it,
// so it moves once each way. The declaration ends with its scope.
TEST_F(GPUResidency, DeclaredArrayMovesOnce) {
  std::vector<double> storage(2 * kN);
  for (int64_t i = 0; i < 2 * kN; ++i)
    storage[i] = static_cast<double>(i);
  double *low = storage.data(), *high = storage.data() + kN;
  beginScope();
  vrir_gpu_host_array(address(storage.data()),
                      static_cast<int64_t>(storage.size() * sizeof(double)));
  ASSERT_EQ(run(increment(low, kN)), "");
  ASSERT_EQ(run(increment(low, 2 * kN)), "");
  ASSERT_EQ(run(increment(high, kN)), "");
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.uploads, 1);
  EXPECT_EQ(s.bytesUploaded, 2 * kN * 8);
  EXPECT_EQ(s.downloads, 0);
  endScope();
  EXPECT_EQ(stats().downloads, 1);
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(low[i], static_cast<double>(i) + 2.0);
    ASSERT_EQ(high[i], static_cast<double>(kN + i) + 2.0);
  }
  // A new scope has no declarations: the low half alone is uploaded.
  vrir_gpu_reset_stats();
  beginScope();
  ASSERT_EQ(run(increment(low, kN)), "");
  EXPECT_EQ(stats().bytesUploaded, kN * 8);
  endScope();
}

// More launches than the runtime keeps in flight: it waits now and then,
// not per launch, and every launch counts.
TEST_F(GPUResidency, ManyLaunchesInFlight) {
  std::vector<double> x = iota(0);
  beginScope();
  for (int step = 0; step < 600; ++step)
    ASSERT_EQ(run(increment(x.data(), kN)), "");
  endScope();
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 600);
  EXPECT_LE(s.waits, 6); // upload, 2 full rings, the end, the download
  EXPECT_GE(s.waits, 1);
  EXPECT_GT(s.waitSeconds, 0.0); // 600 launches are not free
  for (int64_t i = 0; i < kN; ++i)
    ASSERT_EQ(x[i], static_cast<double>(i) + 600.0);
}

void hostReadThunk(void *context) {
  hostRead(*static_cast<std::vector<double> *>(context));
}

// A failed bounds check is found when the host next waits for the device
// (here: reading the array), and raised there with the kernel's site name.
// (As on the CPU, what the arrays hold after the error is unspecified.)
TEST_F(GPUResidency, BoundsErrorRaisedAtTheNextWait) {
  std::vector<double> x = iota(0);
  beginScope();
  Launch launch;
  launch.binary = kKernels;
  launch.kernel = "fail";
  launch.sites = std::string("x at f.py:3") + '\0' + "y at f.py:4" + '\0';
  launch.numSites = 2;
  launch.grid[0] = 1;
  launch.block[0] = 1;
  launch.args = {buffer(x.data(), kN, kReadWrite), scalar<int64_t>(1)};
  ASSERT_EQ(run(launch), "");
  ASSERT_EQ(run(increment(x.data(), kN)), "");
  EXPECT_EQ(parallelCheck(), ""); // not known yet: nothing waited
  ASSERT_NE(vrir_rt_try(hostReadThunk, &x), 0);
  depth = 0; // the error closed the scope
  EXPECT_EQ(std::string(vrir_rt_last_error()),
            "index out of bounds: y at f.py:4: dimension 0, index 9, extent 4 "
            "(in a parallel loop)");
}

// Injected out-of-memory (vrir_gpu_set_memory_limit; setenv would race with
// the drivers' threads reading the environment):
// inside a fallback bracket the launch does nothing and raises nothing,
// the bracket's later launches are skipped, and its end says the host must
// do the work; the host version then sees the earlier kernels' results
// through its notices. Outside a bracket it is an error. With room again,
// the same bracket runs on the device.
TEST_F(GPUResidency, OutOfMemoryLeavesTheWorkToTheHost) {
  std::vector<double> a = iota(0), b = iota(1000), c(kN, -1);
  beginScope();
  ASSERT_EQ(run(increment(a.data(), kN)), ""); // a is on the device
  vrir_gpu_set_memory_limit(1);
  vrir_gpu_fallback_begin();
  ASSERT_EQ(run(vectorAdd(a.data(), b.data(), c.data(), kN)), "");
  ASSERT_EQ(run(increment(c.data(), kN)), "");
  EXPECT_EQ(vrir_gpu_fallback_end(), 1);
  EXPECT_EQ(vrir_gpu_fallback_end(), 0); // the bracket is closed
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.kernels, 1);
  EXPECT_EQ(s.fallbacks, 1);
  EXPECT_EQ(c[0], -1.0);
  // The host version: reads a (downloaded, it was evicted) and b, writes c.
  hostRead(a);
  hostRead(b);
  hostWrite(c);
  for (int64_t i = 0; i < kN; ++i)
    c[i] = a[i] + b[i] + 1;
  EXPECT_NE(run(vectorAdd(a.data(), b.data(), c.data(), kN))
                .find("GPU: out of device memory"),
            std::string::npos);
  depth = 0; // the error closed the scope
  vrir_gpu_set_memory_limit(-1);
  beginScope();
  vrir_gpu_fallback_begin();
  ASSERT_EQ(run(increment(c.data(), kN)), "");
  EXPECT_EQ(vrir_gpu_fallback_end(), 0);
  endScope();
  for (int64_t i = 0; i < kN; ++i)
    ASSERT_EQ(c[i], 2 * i + 1000 + 1 + 1 + 1) << i;
}

// Copies on potential write (thesis, 7.3.2; vrir_gpu_copy, which generated
// code calls for copies of whole arrays).

template <typename T>
void copyArray(std::vector<T> &to, const std::vector<T> &from) {
  vrir_gpu_copy(address(to.data()), address(from.data()),
                static_cast<int64_t>(from.size() * sizeof(T)));
}

// A copy of an array that lives on the device shares its buffer: nothing
// is copied or transferred while kernels only read it, and the device copy
// is made when a kernel is about to write it.
TEST_F(GPUResidency, CopyIsMadeOnlyWhenAKernelWritesIt) {
  std::vector<double> a = iota(0), b(kN, -1), c(kN, -1);
  beginScope();
  ASSERT_EQ(run(increment(a.data(), kN)), ""); // a: on the device only
  copyArray(b, a);
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.sharedCopies, 1);
  EXPECT_EQ(s.deviceCopies, 0);
  EXPECT_EQ(s.downloads, 0);
  EXPECT_EQ(b[0], -1.0); // not made on the host either
  uninitialized(c);
  ASSERT_EQ(run(vectorAdd(a.data(), b.data(), c.data(), kN)), "");
  s = stats();
  EXPECT_EQ(s.uploads, 1); // a, once
  EXPECT_EQ(s.deviceCopies, 0);
  ASSERT_EQ(run(increment(b.data(), kN)), "");
  EXPECT_EQ(stats().deviceCopies, 1);
  ASSERT_EQ(run(increment(b.data(), kN)), ""); // b has its own buffer now
  EXPECT_EQ(stats().deviceCopies, 1);
  endScope();
  s = stats();
  EXPECT_EQ(s.uploads, 1);
  EXPECT_EQ(s.downloads, 3);
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(a[i], i + 1.0);
    ASSERT_EQ(b[i], i + 3.0);
    ASSERT_EQ(c[i], 2 * (i + 1.0));
  }
}

// A kernel that writes the source makes the copy too; the copy keeps the
// contents of the source at the time of the copy.
TEST_F(GPUResidency, WritingTheSourceMakesTheCopy) {
  std::vector<double> a = iota(0), b(kN, -1);
  beginScope();
  ASSERT_EQ(run(increment(a.data(), kN)), "");
  copyArray(b, a);
  ASSERT_EQ(run(increment(a.data(), kN)), "");
  EXPECT_EQ(stats().deviceCopies, 1);
  endScope();
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(a[i], i + 2.0);
    ASSERT_EQ(b[i], i + 1.0);
  }
}

// The host reads a copy: it is downloaded from the shared buffer, once,
// and no device copy is made.
TEST_F(GPUResidency, HostReadOfACopyDownloadsIt) {
  std::vector<double> a = iota(0), b(kN, -1);
  beginScope();
  ASSERT_EQ(run(increment(a.data(), kN)), "");
  copyArray(b, a);
  hostRead(b);
  EXPECT_EQ(stats().downloads, 1);
  EXPECT_EQ(b[4], 5.0);
  EXPECT_EQ(a[4], 4.0); // a's fresh copy is still only on the device
  hostRead(b);
  endScope();
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.downloads, 2);
  EXPECT_EQ(s.deviceCopies, 0);
  EXPECT_EQ(a[4], 5.0);
}

// The host writes the source after the copy: the next kernel that reads it
// uploads it into a buffer of its own (no device copy); the copy keeps the
// old contents.
TEST_F(GPUResidency, HostWriteOfTheSourceLeavesTheCopyAlone) {
  std::vector<double> a = iota(0), b(kN, -1), c(kN, -1);
  beginScope();
  ASSERT_EQ(run(increment(a.data(), kN)), "");
  copyArray(b, a);
  hostWrite(a);
  for (double &x : a)
    x = 1000.0;
  uninitialized(c);
  ASSERT_EQ(run(vectorAdd(a.data(), b.data(), c.data(), kN)), "");
  endScope();
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.uploads, 2); // a twice
  EXPECT_EQ(s.deviceCopies, 0);
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(b[i], i + 1.0);
    ASSERT_EQ(c[i], 1000.0 + i + 1.0);
  }
}

// A copy of an array whose fresh copy is on the host is made on the host;
// if the device has it too, the copy shares that device buffer as well.
TEST_F(GPUResidency, CopyOfAnArrayOnTheHost) {
  std::vector<double> a = iota(0), b(kN, -1), c(kN, -1), d(kN, -1);
  beginScope();
  copyArray(b, a); // not on the device at all
  EXPECT_EQ(b[3], 3.0);
  EXPECT_EQ(stats().sharedCopies, 0);
  ASSERT_EQ(run(increment(a.data(), kN)), "");
  hostRead(a); // fresh on both sides
  copyArray(c, a);
  EXPECT_EQ(c[3], 4.0);
  EXPECT_EQ(stats().sharedCopies, 1);
  uninitialized(d);
  ASSERT_EQ(run(vectorAdd(c.data(), b.data(), d.data(), kN)), "");
  endScope();
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.uploads, 2); // a and b; c shares a's buffer
  for (int64_t i = 0; i < kN; ++i)
    ASSERT_EQ(d[i], 2.0 * i + 1.0);
  // Outside a scope it is a plain copy.
  std::vector<double> e(kN, -1);
  copyArray(e, a);
  EXPECT_EQ(e[7], 8.0);
}

// A time-step loop that copies an array on the device (old = A.copy();
// A = f(old)): one upload and one download of A in all, no transfer of the
// copies, one device copy per step.
TEST_F(GPUResidency, TimeStepLoopWithACopy) {
  std::vector<double> a = iota(0), old(kN), next(kN);
  beginScope();
  uninitialized(next);
  ASSERT_EQ(run(increment(a.data(), kN)), "");
  for (int step = 0; step < 10; ++step) {
    copyArray(old, a);
    ASSERT_EQ(run(increment(a.data(), kN)), "");
    ASSERT_EQ(run(vectorAdd(a.data(), old.data(), next.data(), kN)), "");
  }
  endScope();
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.uploads, 1);
  EXPECT_EQ(s.downloads, 3); // a, old and next, at the end
  EXPECT_EQ(s.sharedCopies, 10);
  EXPECT_EQ(s.deviceCopies, 10);
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(a[i], i + 11.0);
    ASSERT_EQ(old[i], i + 10.0);
    ASSERT_EQ(next[i], 2 * i + 21.0);
  }
}

// Out of device memory when a kernel writes a copy: making room moves the
// source back to the host, after which the buffer is the copy's alone and
// needs no device copy.
TEST_F(GPUResidency, OutOfMemoryWhileACopyIsShared) {
  std::vector<double> a = iota(0), b(kN, -1);
  beginScope();
  ASSERT_EQ(run(increment(a.data(), kN)), "");
  copyArray(b, a);
  vrir_gpu_set_memory_limit(kN * 8 + 100); // one array at a time
  ASSERT_EQ(run(increment(b.data(), kN)), "");
  vrir_gpu_set_memory_limit(-1);
  vrir_gpu_stats s = stats();
  EXPECT_EQ(s.evictions, 1);
  EXPECT_EQ(s.deviceCopies, 0);
  EXPECT_EQ(s.downloads, 1); // a
  EXPECT_EQ(a[2], 3.0);
  endScope();
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(a[i], i + 1.0);
    ASSERT_EQ(b[i], i + 2.0);
  }
}

// Random sequences of kernels, copies and host accesses over a few arrays,
// against a model of what each array holds: every host read sees the
// model's values, and so does the host after the scope. With a device
// memory limit of three arrays (what one launch needs) the same sequences
// also evict arrays and take shared buffers apart while out of memory.
void randomSequence(unsigned seed, int64_t memoryLimit) {
  constexpr int kArrays = 6, kOps = 300;
  constexpr int64_t kLength = 64;
  std::mt19937 random(seed);
  auto pick = [&](int count) {
    return static_cast<int>(random() % static_cast<unsigned>(count));
  };
  std::vector<std::vector<double>> arrays(kArrays), model(kArrays);
  for (int a = 0; a < kArrays; ++a) {
    arrays[a].resize(kLength);
    for (int64_t i = 0; i < kLength; ++i)
      arrays[a][i] = 100.0 * a + static_cast<double>(i);
    model[a] = arrays[a];
  }
  vrir_gpu_set_memory_limit(memoryLimit);
  vrir_gpu_scope_begin();
  for (int op = 0; op < kOps; ++op) {
    int x = pick(kArrays), y = pick(kArrays), z = pick(kArrays);
    switch (pick(6)) {
    case 0: // x += 1 on the device
      ASSERT_EQ(run(increment(arrays[x].data(), kLength)), "") << op;
      for (double &v : model[x])
        v += 1.0;
      break;
    case 1: // z = x + y on the device (z apart from x and y)
      if (z == x || z == y)
        break;
      ASSERT_EQ(run(vectorAdd(arrays[x].data(), arrays[y].data(),
                              arrays[z].data(), kLength)),
                "")
          << op;
      for (int64_t i = 0; i < kLength; ++i)
        model[z][i] = model[x][i] + model[y][i];
      break;
    case 2: // y = copy of x
    case 3:
      if (x == y)
        break;
      copyArray(arrays[y], arrays[x]);
      model[y] = model[x];
      break;
    case 4: // the host reads x
      hostRead(arrays[x]);
      ASSERT_EQ(arrays[x], model[x]) << "op " << op << ", array " << x;
      break;
    case 5: // the host writes x
      hostWrite(arrays[x]);
      for (int64_t i = 0; i < kLength; i += 7) {
        arrays[x][i] = static_cast<double>(op);
        model[x][i] = static_cast<double>(op);
      }
      break;
    }
  }
  vrir_gpu_scope_end();
  vrir_gpu_set_memory_limit(-1);
  for (int a = 0; a < kArrays; ++a)
    ASSERT_EQ(arrays[a], model[a]) << "array " << a;
}

TEST_F(GPUResidency, RandomSequencesAgainstAModel) {
  for (unsigned seed = 1; seed <= 4; ++seed)
    randomSequence(seed, /*memoryLimit=*/-1);
  vrir_gpu_stats s = stats();
  EXPECT_GT(s.sharedCopies, 0);
  EXPECT_GT(s.deviceCopies, 0);
}

TEST_F(GPUResidency, RandomSequencesOutOfMemory) {
  for (unsigned seed = 11; seed <= 14; ++seed)
    randomSequence(seed, /*memoryLimit=*/3 * 64 * 8);
  vrir_gpu_stats s = stats();
  EXPECT_GT(s.evictions, 0);
  EXPECT_GT(s.sharedCopies, 0);
  EXPECT_EQ(s.fallbacks, 0);
}

} // namespace
