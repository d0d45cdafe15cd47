//===- GPURuntimeTestSupport.h - Launching kernels in runtime tests -------===//
//
// What the OpenCL and Vulkan tests of libvrir_gpu_runtime share: argument
// descriptors as generated code builds them, a launch description, and
// running it (or raising a recorded bounds error) with the error channel
// armed.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_UNITTESTS_GPURUNTIMETESTSUPPORT_H
#define VRIR_UNITTESTS_GPURUNTIMETESTSUPPORT_H

#include "VRIR/Runtime/VRIRGPURuntime.h"
#include "VRIR/Runtime/VRIRRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace vrir_test {

constexpr int64_t kRead = VRIR_GPU_ACCESS_READ;
constexpr int64_t kWrite = VRIR_GPU_ACCESS_WRITE;
constexpr int64_t kReadWrite = VRIR_GPU_ACCESS_READ | VRIR_GPU_ACCESS_WRITE;

inline int64_t address(const void *pointer) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(pointer));
}

// A buffer argument: `count` elements from `lowest`, origin `offset`
// elements after it.
template <typename T>
vrir_gpu_arg buffer(const T *lowest, int64_t count, int64_t access,
                    int64_t offset = 0) {
  return {VRIR_GPU_ARG_BUFFER,
          address(lowest),
          count * static_cast<int64_t>(sizeof(T)),
          sizeof(T),
          offset,
          access};
}

// A scalar argument: the bits of `value`, zero-extended.
template <typename T> vrir_gpu_arg scalar(T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return {VRIR_GPU_ARG_SCALAR, static_cast<int64_t>(bits), sizeof(T), 0, 0, 0};
}

struct Launch {
  int64_t format = VRIR_GPU_FORMAT_OPENCL_C;
  std::string binary;      // OpenCL C source or SPIR-V words
  int64_t binarySize = -1; // -1: all of `binary`
  std::string kernel;
  std::string sites; // NUL-separated
  int64_t numSites = 0;
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  std::vector<vrir_gpu_arg> args;
};

// c = a + b on `n` doubles (OpenCL C), one work-item per element in
// work-groups of 64.
inline const char *const kVectorAdd = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void vadd(__global const double *a, long aOff,
                   __global const double *b, long bOff,
                   __global double *c, long cOff, long n,
                   __global long *vrir_error) {
  long i = get_global_id(0);
  if (i < n)
    c[cOff + i] = a[aOff + i] + b[bOff + i];
}
)CL";

inline Launch vectorAdd(const double *a, const double *b, double *c,
                        int64_t n) {
  Launch launch;
  launch.binary = kVectorAdd;
  launch.kernel = "vadd";
  launch.grid[0] = (n + 63) / 64;
  launch.block[0] = 64;
  launch.args = {buffer(a, n, kRead), buffer(b, n, kRead), buffer(c, n, kWrite),
                 scalar<int64_t>(n)};
  return launch;
}

inline void launchThunk(void *context) {
  const Launch &l = *static_cast<const Launch *>(context);
  vrir_gpu_launch(l.format, l.binary.data(),
                  l.binarySize < 0 ? static_cast<int64_t>(l.binary.size())
                                   : l.binarySize,
                  l.kernel.c_str(), l.sites.data(), l.numSites, l.grid[0],
                  l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                  static_cast<int64_t>(l.args.size()), l.args.data());
}

// Runs the launch; returns "" on success, else the error message.
inline std::string run(const Launch &launch) {
  if (vrir_rt_try(launchThunk, const_cast<Launch *>(&launch)) == 0)
    return "";
  std::string message = vrir_rt_last_error();
  EXPECT_FALSE(message.empty());
  return message;
}

inline void parallelCheckThunk(void *) { vrir_rt_parallel_check(); }

// Raises a pending parallel bounds error; returns its message or "".
inline std::string parallelCheck() {
  if (vrir_rt_try(parallelCheckThunk, nullptr) == 0)
    return "";
  return vrir_rt_last_error();
}

inline vrir_gpu_stats stats() {
  vrir_gpu_stats result;
  vrir_gpu_get_stats(&result);
  return result;
}

inline bool startsWith(const std::string &text, const std::string &prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

} // namespace vrir_test

#endif // VRIR_UNITTESTS_GPURUNTIMETESTSUPPORT_H
