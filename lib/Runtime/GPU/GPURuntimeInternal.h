//===- GPURuntimeInternal.h - Shared parts of the GPU runtime ---*- C++ -*-===//
//
// What the OpenCL backend (VRIRGPURuntime.cpp, which also holds the C entry
// points) and the Vulkan backend (VulkanBackend.cpp) share: messages, the
// lock and counters of the whole runtime, and the grouping of buffer
// arguments into device buffers. Not installed; not part of the ABI.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_LIB_RUNTIME_GPU_GPURUNTIMEINTERNAL_H
#define VRIR_LIB_RUNTIME_GPU_GPURUNTIMEINTERNAL_H

#include "VRIR/Runtime/VRIRGPURuntime.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace vrir::gpu {

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

std::string formatString(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

// `text` without leading and trailing white space.
std::string trim(std::string text);

// Whether VRIR_GPU_VERBOSE is set (to anything but "" or "0"); read once.
bool verboseEnabled();

// The name of bounds-check site `site` in `sites` (`numSites` NUL-terminated
// strings back to back), or "a GPU kernel" when there is none.
const char *siteName(const char *sites, int64_t numSites, int64_t site);

//===----------------------------------------------------------------------===//
// Runtime-wide state
//===----------------------------------------------------------------------===//

// Serializes launches and initialization of every backend; guards the
// counters.
std::mutex &runtimeMutex();

// The counters of vrir_gpu_get_stats; guarded by runtimeMutex().
vrir_gpu_stats &runtimeStats();

//===----------------------------------------------------------------------===//
// Buffer arguments
//===----------------------------------------------------------------------===//

// One device buffer: the union of host ranges of buffer arguments that
// overlap or touch.
struct HostGroup {
  uint64_t begin = 0, end = 0;
  bool written = false; // some argument in it has VRIR_GPU_ACCESS_WRITE

  size_t bytes() const { return static_cast<size_t>(end - begin); }
  void *host() const {
    return reinterpret_cast<void *>(static_cast<uintptr_t>(begin));
  }
};

// How the buffer arguments of a launch map onto device buffers.
struct BufferPlan {
  std::vector<HostGroup> groups; // by address
  // Per argument: the index of its group (buffer arguments of more than 0
  // bytes only; 0 otherwise).
  std::vector<size_t> groupOf;
  // Per argument: the element offset the kernel gets (buffer arguments:
  // `offset` rebased onto the start of the group; 0 for scalars).
  std::vector<int64_t> offsets;
};

// Groups the buffer arguments (checked by the caller): ranges that overlap
// or touch share one device buffer, arguments of 0 bytes need none. Returns
// an error message (an argument that does not start a whole number of
// elements into its group) or "".
std::string planBuffers(const char *kernelName, int64_t numArgs,
                        const vrir_gpu_arg *args, BufferPlan &plan);

//===----------------------------------------------------------------------===//
// The Vulkan backend (VulkanBackend.cpp)
//===----------------------------------------------------------------------===//

// Everything below is called with runtimeMutex() held.

// Runs one launch of a VRIR_GPU_FORMAT_VULKAN_SPIRV kernel whose arguments
// were checked and whose grid and block have no 0. Returns an error message
// or "". A failed bounds check in the kernel is passed on to
// vrir_rt_parallel_bounds_error.
std::string vulkanLaunch(const char *binary, int64_t binarySize,
                         const char *kernelName, const char *sites,
                         int64_t numSites, const size_t grid[3],
                         const size_t block[3], int64_t numArgs,
                         const vrir_gpu_arg *args);

// Whether a Vulkan device can be used (initializing on the first call).
bool vulkanAvailable();

// "Vulkan: DEVICE", or "" when there is no device; lives as long as the
// process.
const char *vulkanDeviceName();

} // namespace vrir::gpu

#endif // VRIR_LIB_RUNTIME_GPU_GPURUNTIMEINTERNAL_H
