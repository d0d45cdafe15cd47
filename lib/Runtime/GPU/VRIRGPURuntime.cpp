//===- VRIRGPURuntime.cpp - C entry points and OpenCL backend -------------===//
//
// The C ABI of the GPU runtime, the parts both backends share
// (GPURuntimeInternal.h), and the OpenCL backend; the Vulkan backend is in
// VulkanBackend.cpp.
//
// Runs the kernels of `vrir.gpu_section`s through OpenCL. libOpenCL.so.1 is
// loaded with dlopen at first use (the headers give types and constants
// only), so the library loads on machines without OpenCL.
//
// One device, context and in-order queue serve the whole process; a mutex
// (shared with the Vulkan backend) serializes launches. Programs are cached
// by content, kernels by name.
// Every launch copies its buffer arguments to the device and the written
// ones back (buffers whose host ranges overlap or touch share one device
// buffer); device buffers are pooled by size.
//
// Errors are raised with vrir_rt_error, which longjmps to the host's
// vrir_rt_try: the work is done in functions that return the message, so
// that every destructor (and the mutex) has run before it is raised.
//
//===----------------------------------------------------------------------===//

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "GPURuntimeInternal.h"
#include "VRIR/Runtime/VRIRGPURuntime.h"
#include "VRIR/Runtime/VRIRRuntime.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

static_assert(sizeof(vrir_gpu_arg) == 6 * sizeof(int64_t),
              "vrir_gpu_arg is six int64 words");

//===----------------------------------------------------------------------===//
// Shared parts (GPURuntimeInternal.h)
//===----------------------------------------------------------------------===//

namespace vrir::gpu {

std::string formatString(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  int length = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string result(length > 0 ? static_cast<size_t>(length) : 0, '\0');
  if (length > 0)
    std::vsnprintf(&result[0], result.size() + 1, fmt, copy);
  va_end(copy);
  return result;
}

std::string trim(std::string text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos)
    return "";
  size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

bool verboseEnabled() {
  static const bool verbose = [] {
    const char *value = std::getenv("VRIR_GPU_VERBOSE");
    return value && *value && std::strcmp(value, "0") != 0;
  }();
  return verbose;
}

const char *siteName(const char *sites, int64_t numSites, int64_t site) {
  if (!sites || site < 0 || site >= numSites)
    return "a GPU kernel";
  const char *name = sites;
  for (int64_t i = 0; i < site; ++i)
    name += std::strlen(name) + 1;
  return name;
}

// Never destroyed: launches may run while static destructors do.
std::mutex &runtimeMutex() {
  static std::mutex *mutex = new std::mutex();
  return *mutex;
}

vrir_gpu_stats &runtimeStats() {
  static vrir_gpu_stats stats = {};
  return stats;
}

bool reportBoundsErrors(const std::vector<PendingLaunch> &pending,
                        const int64_t *words, size_t slotWords) {
  for (size_t i = 0; i < pending.size(); ++i) {
    const int64_t *record = words + i * slotWords;
    if (record[0] == 0)
      continue;
    vrir_rt_parallel_bounds_error(
        siteName(pending[i].sites, pending[i].numSites, record[1]), record[2],
        record[3], record[4]);
    return true;
  }
  return false;
}

std::string planBuffers(const char *kernelName, int64_t numArgs,
                        const vrir_gpu_arg *args, BufferPlan &plan,
                        bool wholeArrays) {
  // Each argument's host range, grown to the declared arrays it overlaps.
  std::vector<std::pair<uint64_t, uint64_t>> ranges(numArgs);
  std::vector<int64_t> order;
  for (int64_t i = 0; i < numArgs; ++i) {
    if (args[i].kind != VRIR_GPU_ARG_BUFFER || args[i].size <= 0)
      continue;
    uint64_t begin = static_cast<uint64_t>(args[i].value);
    ranges[i] = {begin, begin + static_cast<uint64_t>(args[i].size)};
    if (wholeArrays)
      growToDeclaredArrays(ranges[i].first, ranges[i].second);
    order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return ranges[a].first < ranges[b].first;
  });
  plan.groups.clear();
  plan.groupOf.assign(static_cast<size_t>(numArgs), 0);
  plan.offsets.assign(static_cast<size_t>(numArgs), 0);
  for (int64_t i : order) {
    auto [begin, end] = ranges[i];
    if (plan.groups.empty() || begin > plan.groups.back().end)
      plan.groups.push_back({begin, end, false});
    HostGroup &group = plan.groups.back();
    group.end = std::max(group.end, end);
    group.written |= (args[i].access & VRIR_GPU_ACCESS_WRITE) != 0;
    plan.groupOf[i] = plan.groups.size() - 1;
  }
  for (int64_t i = 0; i < numArgs; ++i) {
    if (args[i].kind != VRIR_GPU_ARG_BUFFER)
      continue;
    plan.offsets[i] = args[i].offset;
    if (args[i].size == 0)
      continue;
    uint64_t delta = static_cast<uint64_t>(args[i].value) -
                     plan.groups[plan.groupOf[i]].begin;
    uint64_t elemSize = static_cast<uint64_t>(args[i].elemSize);
    if (delta % elemSize == 0) {
      plan.offsets[i] += static_cast<int64_t>(delta / elemSize);
      continue;
    }
    // A whole array would misalign this argument: the ranges alone.
    if (wholeArrays)
      return planBuffers(kernelName, numArgs, args, plan,
                         /*wholeArrays=*/false);
    return formatString(
        "GPU: buffer argument %lld of kernel '%s' starts %llu "
        "bytes into memory it shares with other arguments, not a "
        "multiple of its element size %llu",
        static_cast<long long>(i), kernelName,
        static_cast<unsigned long long>(delta),
        static_cast<unsigned long long>(elemSize));
  }
  return "";
}

} // namespace vrir::gpu

using namespace vrir::gpu;

namespace {

// Not in the OpenCL 1.2 headers' core part.
constexpr cl_int kPlatformNotFoundKHR = -1001;
constexpr cl_device_info kDeviceILVersion = 0x105B;

constexpr size_t kMinBufferBytes = 64;

// Pool of free device buffers.
constexpr size_t kPoolCapacity = 256u << 20; // bytes kept at most
constexpr size_t kPoolSlots = 32;

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

const char *clErrorName(cl_int code) {
  switch (code) {
#define CASE(name)                                                             \
  case name:                                                                   \
    return #name;
    CASE(CL_SUCCESS)
    CASE(CL_DEVICE_NOT_FOUND)
    CASE(CL_DEVICE_NOT_AVAILABLE)
    CASE(CL_COMPILER_NOT_AVAILABLE)
    CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    CASE(CL_OUT_OF_RESOURCES)
    CASE(CL_OUT_OF_HOST_MEMORY)
    CASE(CL_PROFILING_INFO_NOT_AVAILABLE)
    CASE(CL_MEM_COPY_OVERLAP)
    CASE(CL_IMAGE_FORMAT_MISMATCH)
    CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    CASE(CL_BUILD_PROGRAM_FAILURE)
    CASE(CL_MAP_FAILURE)
    CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    CASE(CL_COMPILE_PROGRAM_FAILURE)
    CASE(CL_LINKER_NOT_AVAILABLE)
    CASE(CL_LINK_PROGRAM_FAILURE)
    CASE(CL_DEVICE_PARTITION_FAILED)
    CASE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    CASE(CL_INVALID_VALUE)
    CASE(CL_INVALID_DEVICE_TYPE)
    CASE(CL_INVALID_PLATFORM)
    CASE(CL_INVALID_DEVICE)
    CASE(CL_INVALID_CONTEXT)
    CASE(CL_INVALID_QUEUE_PROPERTIES)
    CASE(CL_INVALID_COMMAND_QUEUE)
    CASE(CL_INVALID_HOST_PTR)
    CASE(CL_INVALID_MEM_OBJECT)
    CASE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    CASE(CL_INVALID_IMAGE_SIZE)
    CASE(CL_INVALID_SAMPLER)
    CASE(CL_INVALID_BINARY)
    CASE(CL_INVALID_BUILD_OPTIONS)
    CASE(CL_INVALID_PROGRAM)
    CASE(CL_INVALID_PROGRAM_EXECUTABLE)
    CASE(CL_INVALID_KERNEL_NAME)
    CASE(CL_INVALID_KERNEL_DEFINITION)
    CASE(CL_INVALID_KERNEL)
    CASE(CL_INVALID_ARG_INDEX)
    CASE(CL_INVALID_ARG_VALUE)
    CASE(CL_INVALID_ARG_SIZE)
    CASE(CL_INVALID_KERNEL_ARGS)
    CASE(CL_INVALID_WORK_DIMENSION)
    CASE(CL_INVALID_WORK_GROUP_SIZE)
    CASE(CL_INVALID_WORK_ITEM_SIZE)
    CASE(CL_INVALID_GLOBAL_OFFSET)
    CASE(CL_INVALID_EVENT_WAIT_LIST)
    CASE(CL_INVALID_EVENT)
    CASE(CL_INVALID_OPERATION)
    CASE(CL_INVALID_GL_OBJECT)
    CASE(CL_INVALID_BUFFER_SIZE)
    CASE(CL_INVALID_MIP_LEVEL)
    CASE(CL_INVALID_GLOBAL_WORK_SIZE)
    CASE(CL_INVALID_PROPERTY)
    CASE(CL_INVALID_IMAGE_DESCRIPTOR)
    CASE(CL_INVALID_COMPILER_OPTIONS)
    CASE(CL_INVALID_LINKER_OPTIONS)
    CASE(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef CASE
  case kPlatformNotFoundKHR:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return nullptr;
  }
}

std::string clError(cl_int code) {
  if (const char *name = clErrorName(code))
    return name;
  return formatString("OpenCL error %d", static_cast<int>(code));
}

const char *formatName(int64_t format) {
  switch (format) {
  case VRIR_GPU_FORMAT_OPENCL_C:
    return "OpenCL C";
  case VRIR_GPU_FORMAT_OPENCL_SPIRV:
    return "OpenCL SPIR-V";
  default:
    return "Vulkan SPIR-V";
  }
}

//===----------------------------------------------------------------------===//
// OpenCL entry points
//===----------------------------------------------------------------------===//

#define VRIR_CL_FUNCTIONS(X)                                                   \
  X(clGetPlatformIDs)                                                          \
  X(clGetPlatformInfo)                                                         \
  X(clGetDeviceIDs)                                                            \
  X(clGetDeviceInfo)                                                           \
  X(clCreateContext)                                                           \
  X(clCreateCommandQueue)                                                      \
  X(clCreateProgramWithSource)                                                 \
  X(clCreateProgramWithBinary)                                                 \
  X(clGetProgramInfo)                                                          \
  X(clBuildProgram)                                                            \
  X(clGetProgramBuildInfo)                                                     \
  X(clReleaseProgram)                                                          \
  X(clCreateKernel)                                                            \
  X(clReleaseKernel)                                                           \
  X(clGetKernelInfo)                                                           \
  X(clGetKernelWorkGroupInfo)                                                  \
  X(clSetKernelArg)                                                            \
  X(clCreateBuffer)                                                            \
  X(clReleaseMemObject)                                                        \
  X(clEnqueueWriteBuffer)                                                      \
  X(clEnqueueReadBuffer)                                                       \
  X(clEnqueueCopyBuffer)                                                       \
  X(clEnqueueNDRangeKernel)                                                    \
  X(clCreateSubBuffer)                                                         \
  X(clFlush)                                                                   \
  X(clFinish)

struct OpenCL {
#define DECLARE(name) decltype(&::name) name = nullptr;
  VRIR_CL_FUNCTIONS(DECLARE)
#undef DECLARE
  // OpenCL 2.1; optional.
  using CreateProgramWithILFn = cl_program(CL_API_CALL *)(cl_context,
                                                          const void *, size_t,
                                                          cl_int *);
  CreateProgramWithILFn clCreateProgramWithIL = nullptr;
};

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

struct Program {
  int64_t format = 0;
  std::string binary;
  cl_program program = nullptr;
  std::string buildError; // the build log when the build failed
  std::unordered_map<std::string, cl_kernel> kernels;
};

struct PooledBuffer {
  cl_mem mem;
  size_t capacity;
};

struct State {
  bool initialized = false;
  std::string initError; // non-empty: no usable device

  OpenCL cl;
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::string deviceName;
  // What compiled programs depend on besides their text (disk cache key).
  std::string compilerIdentity;
  size_t maxWorkGroupSize = 0;
  size_t maxWorkItemSizes[3] = {0, 0, 0};
  cl_ulong maxAllocation = 0;
  bool spirv = false;
  cl_mem emptyBuffer = nullptr; // stands for arguments of 0 bytes
  // The error records of launches in flight: one slot (a sub-buffer) each.
  cl_mem errorBuffer = nullptr;
  std::vector<cl_mem> errorSlots;
  size_t errorSlotBytes = 0;
  std::vector<PendingLaunch> pending;

  // Programs by format and content (keys view Program::binary).
  std::unordered_map<std::string_view, std::unique_ptr<Program>> programs[3];

  BufferPool<PooledBuffer> pool{kPoolCapacity, kPoolSlots};
};

// Never destroyed: the OpenCL implementation may be gone by the time static
// destructors run.
State &getState() {
  static State *state = new State();
  return *state;
}

//===----------------------------------------------------------------------===//
// Initialization
//===----------------------------------------------------------------------===//

std::string platformString(const OpenCL &cl, cl_platform_id platform,
                           cl_platform_info param) {
  size_t size = 0;
  if (cl.clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS)
    return "";
  std::string text(size, '\0');
  if (cl.clGetPlatformInfo(platform, param, size, &text[0], nullptr) !=
      CL_SUCCESS)
    return "";
  return text.c_str();
}

std::string deviceString(const OpenCL &cl, cl_device_id device,
                         cl_device_info param) {
  size_t size = 0;
  if (cl.clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS)
    return "";
  std::string text(size, '\0');
  if (cl.clGetDeviceInfo(device, param, size, &text[0], nullptr) != CL_SUCCESS)
    return "";
  return text.c_str();
}

std::vector<cl_device_id> devicesOf(const OpenCL &cl, cl_platform_id platform,
                                    cl_device_type type) {
  cl_uint count = 0;
  if (cl.clGetDeviceIDs(platform, type, 0, nullptr, &count) != CL_SUCCESS ||
      count == 0)
    return {};
  std::vector<cl_device_id> devices(count);
  if (cl.clGetDeviceIDs(platform, type, count, devices.data(), nullptr) !=
      CL_SUCCESS)
    return {};
  return devices;
}

// Parses "P:D" into two non-negative indices.
bool parseDeviceSelector(const char *text, size_t &platform, size_t &device) {
  char *end = nullptr;
  if (!std::isdigit(static_cast<unsigned char>(*text)))
    return false;
  unsigned long long p = std::strtoull(text, &end, 10);
  if (*end != ':' || !std::isdigit(static_cast<unsigned char>(end[1])))
    return false;
  unsigned long long d = std::strtoull(end + 1, &end, 10);
  if (*end != '\0')
    return false;
  platform = static_cast<size_t>(p);
  device = static_cast<size_t>(d);
  return true;
}

// Loads OpenCL and sets up the device; returns an error message or "".
std::string initialize(State &s) {
  void *library = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library)
    library = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return "GPU: no OpenCL device (libOpenCL.so.1 not found)";
  OpenCL &cl = s.cl;
#define RESOLVE(name)                                                          \
  cl.name = reinterpret_cast<decltype(cl.name)>(dlsym(library, #name));        \
  if (!cl.name)                                                                \
    return "GPU: no OpenCL device (libOpenCL.so.1 lacks " #name ")";
  VRIR_CL_FUNCTIONS(RESOLVE)
#undef RESOLVE
  cl.clCreateProgramWithIL = reinterpret_cast<OpenCL::CreateProgramWithILFn>(
      dlsym(library, "clCreateProgramWithIL"));

  cl_uint numPlatforms = 0;
  cl_int err = cl.clGetPlatformIDs(0, nullptr, &numPlatforms);
  if (err == kPlatformNotFoundKHR || (err == CL_SUCCESS && numPlatforms == 0))
    return "GPU: no OpenCL device (no OpenCL platform found)";
  if (err != CL_SUCCESS)
    return "GPU: no OpenCL device (clGetPlatformIDs: " + clError(err) + ")";
  std::vector<cl_platform_id> platforms(numPlatforms);
  err = cl.clGetPlatformIDs(numPlatforms, platforms.data(), nullptr);
  if (err != CL_SUCCESS)
    return "GPU: no OpenCL device (clGetPlatformIDs: " + clError(err) + ")";

  if (const char *selector = std::getenv("VRIR_OPENCL_DEVICE")) {
    size_t p = 0, d = 0;
    if (!parseDeviceSelector(selector, p, d))
      return formatString("GPU: VRIR_OPENCL_DEVICE='%s' is not PLATFORM:DEVICE "
                          "(indices from 0, e.g. 0:0)",
                          selector);
    if (p >= platforms.size())
      return formatString(
          "GPU: VRIR_OPENCL_DEVICE=%s: there is no platform %zu "
          "(%zu OpenCL platforms)",
          selector, p, platforms.size());
    std::vector<cl_device_id> devices =
        devicesOf(cl, platforms[p], CL_DEVICE_TYPE_ALL);
    if (d >= devices.size())
      return formatString(
          "GPU: VRIR_OPENCL_DEVICE=%s: platform %zu (%s) has no "
          "device %zu (%zu devices)",
          selector, p,
          platformString(cl, platforms[p], CL_PLATFORM_NAME).c_str(), d,
          devices.size());
    s.platform = platforms[p];
    s.device = devices[d];
  } else {
    for (cl_device_type type : {cl_device_type(CL_DEVICE_TYPE_GPU),
                                cl_device_type(CL_DEVICE_TYPE_ALL)}) {
      for (cl_platform_id platform : platforms) {
        std::vector<cl_device_id> devices = devicesOf(cl, platform, type);
        if (!devices.empty()) {
          s.platform = platform;
          s.device = devices.front();
          break;
        }
      }
      if (s.device)
        break;
    }
    if (!s.device)
      return formatString(
          "GPU: no OpenCL device (%zu OpenCL platforms, no device)",
          platforms.size());
  }

  s.deviceName = trim(platformString(cl, s.platform, CL_PLATFORM_NAME)) + ": " +
                 trim(deviceString(cl, s.device, CL_DEVICE_NAME));
  s.compilerIdentity = s.deviceName + "|" +
                       platformString(cl, s.platform, CL_PLATFORM_VERSION) +
                       "|" + deviceString(cl, s.device, CL_DEVICE_VERSION) +
                       "|" + deviceString(cl, s.device, CL_DRIVER_VERSION);
  if (cl.clGetDeviceInfo(s.device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                         sizeof(s.maxWorkGroupSize), &s.maxWorkGroupSize,
                         nullptr) != CL_SUCCESS)
    s.maxWorkGroupSize = 1;
  cl_uint dimensions = 0;
  cl.clGetDeviceInfo(s.device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                     sizeof(dimensions), &dimensions, nullptr);
  std::vector<size_t> itemSizes(std::max<cl_uint>(dimensions, 3), 1);
  if (dimensions >= 3 &&
      cl.clGetDeviceInfo(s.device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                         dimensions * sizeof(size_t), itemSizes.data(),
                         nullptr) != CL_SUCCESS)
    std::fill(itemSizes.begin(), itemSizes.end(), s.maxWorkGroupSize);
  std::copy(itemSizes.begin(), itemSizes.begin() + 3, s.maxWorkItemSizes);
  if (cl.clGetDeviceInfo(s.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                         sizeof(s.maxAllocation), &s.maxAllocation,
                         nullptr) != CL_SUCCESS)
    s.maxAllocation = ~cl_ulong(0);
  // On a GPU the pool keeps up to an eighth of its memory: an array of
  // 512 MiB allocated and freed every step (`old = u.copy()`) otherwise
  // took a new buffer every step (0.94 ms a step on an H200, CuPy's
  // caching allocator 0.33). Running out of memory empties the pool. Other
  // devices (PoCL: the host's memory) keep the default.
  cl_device_type deviceType = 0;
  cl_ulong globalMemory = 0;
  if (cl.clGetDeviceInfo(s.device, CL_DEVICE_TYPE, sizeof(deviceType),
                         &deviceType, nullptr) == CL_SUCCESS &&
      (deviceType & CL_DEVICE_TYPE_GPU) &&
      cl.clGetDeviceInfo(s.device, CL_DEVICE_GLOBAL_MEM_SIZE,
                         sizeof(globalMemory), &globalMemory,
                         nullptr) == CL_SUCCESS)
    s.pool.setMaxBytes(
        std::max(kPoolCapacity, static_cast<size_t>(globalMemory / 8)));
  s.spirv = cl.clCreateProgramWithIL &&
            deviceString(cl, s.device, kDeviceILVersion).find("SPIR-V") !=
                std::string::npos;

  cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(s.platform),
      0};
  s.context =
      cl.clCreateContext(properties, 1, &s.device, nullptr, nullptr, &err);
  if (!s.context || err != CL_SUCCESS)
    return "GPU: cannot create an OpenCL context on " + s.deviceName + " (" +
           clError(err) + ")";
  s.queue = cl.clCreateCommandQueue(s.context, s.device, 0, &err);
  if (!s.queue || err != CL_SUCCESS)
    return "GPU: cannot create an OpenCL command queue on " + s.deviceName +
           " (" + clError(err) + ")";
  s.emptyBuffer = cl.clCreateBuffer(s.context, CL_MEM_READ_WRITE,
                                    kMinBufferBytes, nullptr, &err);
  if (!s.emptyBuffer || err != CL_SUCCESS)
    return "GPU: cannot allocate device memory on " + s.deviceName + " (" +
           clError(err) + ")";
  // Error slots start where sub-buffers may (CL_DEVICE_MEM_BASE_ADDR_ALIGN
  // is in bits).
  cl_uint alignBits = 0;
  cl.clGetDeviceInfo(s.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(alignBits),
                     &alignBits, nullptr);
  s.errorSlotBytes = std::max<size_t>(64, alignBits / 8);
  std::vector<char> zeros(kErrorSlots * s.errorSlotBytes, 0);
  s.errorBuffer =
      cl.clCreateBuffer(s.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        zeros.size(), zeros.data(), &err);
  if (!s.errorBuffer || err != CL_SUCCESS)
    return "GPU: cannot allocate device memory on " + s.deviceName + " (" +
           clError(err) + ")";
  for (size_t slot = 0; slot < kErrorSlots; ++slot) {
    cl_buffer_region region = {slot * s.errorSlotBytes,
                               kErrorWords * sizeof(cl_long)};
    cl_mem sub =
        cl.clCreateSubBuffer(s.errorBuffer, CL_MEM_READ_WRITE,
                             CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (!sub || err != CL_SUCCESS)
      return "GPU: cannot create the error records on " + s.deviceName + " (" +
             clError(err) + ")";
    s.errorSlots.push_back(sub);
  }
  if (verboseEnabled())
    std::fprintf(stderr, "VRIR GPU: OpenCL device %s%s\n", s.deviceName.c_str(),
                 s.spirv ? " (takes SPIR-V)" : "");
  return "";
}

// Returns whether a device is there (initializing on the first call).
// The caller holds the mutex.
bool ensureInitialized(State &s) {
  if (!s.initialized) {
    s.initialized = true;
    s.initError = initialize(s);
    if (!s.initError.empty() && verboseEnabled())
      std::fprintf(stderr, "VRIR %s\n", s.initError.c_str());
  }
  return s.initError.empty();
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

std::string buildLog(const OpenCL &cl, cl_program program,
                     cl_device_id device) {
  size_t size = 0;
  if (cl.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0,
                               nullptr, &size) != CL_SUCCESS)
    return "";
  std::string log(size, '\0');
  if (cl.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size,
                               &log[0], nullptr) != CL_SUCCESS)
    return "";
  return trim(log.c_str());
}

// The program stored under `key` in the disk cache, built for the device;
// null when there is none or it does not build.
cl_program loadCachedProgram(State &s, const std::string &key,
                             const char *options) {
  std::string data;
  if (!diskCacheRead(key, data) || data.empty())
    return nullptr;
  const auto *bytes = reinterpret_cast<const unsigned char *>(data.data());
  size_t length = data.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program program = s.cl.clCreateProgramWithBinary(
      s.context, 1, &s.device, &length, &bytes, &status, &err);
  if (!program || err != CL_SUCCESS || status != CL_SUCCESS) {
    if (program)
      s.cl.clReleaseProgram(program);
    return nullptr;
  }
  if (s.cl.clBuildProgram(program, 1, &s.device, options, nullptr, nullptr) !=
      CL_SUCCESS) {
    s.cl.clReleaseProgram(program);
    return nullptr;
  }
  return program;
}

// Stores the device binary of the built `program` under `key`.
void storeCachedProgram(State &s, const std::string &key, cl_program program) {
  size_t size = 0;
  if (s.cl.clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size),
                            &size, nullptr) != CL_SUCCESS ||
      size == 0)
    return;
  std::string data(size, '\0');
  unsigned char *pointer = reinterpret_cast<unsigned char *>(data.data());
  if (s.cl.clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(pointer),
                            &pointer, nullptr) != CL_SUCCESS)
    return;
  diskCacheWrite(key, data);
}

// Finds or builds the program of `binary`. Returns null with `error` set
// when the build failed.
Program *getProgram(State &s, int64_t format, std::string_view binary,
                    const char *kernelName, std::string &error) {
  auto &cache = s.programs[format];
  auto found = cache.find(binary);
  Program *program = nullptr;
  if (found != cache.end()) {
    program = found->second.get();
  } else {
    auto owned = std::make_unique<Program>();
    owned->format = format;
    owned->binary.assign(binary.data(), binary.size());
    program = owned.get();

    const OpenCL &cl = s.cl;
    auto start = std::chrono::steady_clock::now();
    cl_int err = CL_SUCCESS;
    cl_program handle = nullptr;
    const char *options =
        format == VRIR_GPU_FORMAT_OPENCL_C ? "-cl-std=CL1.2" : "";
    std::string diskKey = diskCacheKey(
        {"opencl", s.compilerIdentity, formatName(format), options, binary});
    if (cl_program cached = loadCachedProgram(s, diskKey, options)) {
      program->program = cached;
      ++runtimeStats().diskCacheHits;
      if (verboseEnabled())
        std::fprintf(stderr,
                     "VRIR GPU: loaded %s (kernel '%s') from the disk cache\n",
                     formatName(format), kernelName);
      std::string_view key(program->binary);
      cache.emplace(key, std::move(owned));
      return program;
    }
    if (format == VRIR_GPU_FORMAT_OPENCL_C) {
      const char *source = program->binary.data();
      size_t length = program->binary.size();
      handle =
          cl.clCreateProgramWithSource(s.context, 1, &source, &length, &err);
    } else {
      handle = cl.clCreateProgramWithIL(s.context, program->binary.data(),
                                        program->binary.size(), &err);
    }
    if (!handle || err != CL_SUCCESS) {
      program->buildError = "(creating the program: " + clError(err) + ")";
    } else {
      err = cl.clBuildProgram(handle, 1, &s.device, options, nullptr, nullptr);
      if (err != CL_SUCCESS) {
        std::string log = buildLog(cl, handle, s.device);
        program->buildError = log.empty()
                                  ? "(" + clError(err) + ", no build log)"
                                  : log + "\n(" + clError(err) + ")";
        cl.clReleaseProgram(handle);
      } else {
        program->program = handle;
        storeCachedProgram(s, diskKey, handle);
      }
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    ++runtimeStats().compiles;
    runtimeStats().compileSeconds += seconds;
    if (verboseEnabled())
      std::fprintf(
          stderr, "VRIR GPU: %s %zu bytes of %s (kernel '%s') in %.3f s\n",
          program->program ? "compiled" : "failed to compile",
          program->binary.size(), formatName(format), kernelName, seconds);
    std::string_view key(program->binary);
    cache.emplace(key, std::move(owned));
  }
  if (!program->program) {
    error = format == VRIR_GPU_FORMAT_OPENCL_C
                ? "GPU: OpenCL C compile failed for kernel '"
                : "GPU: OpenCL SPIR-V build failed for kernel '";
    error += kernelName;
    error += "': " + program->buildError;
    return nullptr;
  }
  return program;
}

cl_kernel getKernel(State &s, Program &program, const char *kernelName,
                    std::string &error) {
  auto found = program.kernels.find(kernelName);
  if (found != program.kernels.end())
    return found->second;
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = s.cl.clCreateKernel(program.program, kernelName, &err);
  if (!kernel || err != CL_SUCCESS) {
    error =
        formatString("GPU: no kernel '%s' in the %s program (%s)", kernelName,
                     formatName(program.format), clError(err).c_str());
    return nullptr;
  }
  program.kernels.emplace(kernelName, kernel);
  return kernel;
}

//===----------------------------------------------------------------------===//
// Device buffers
//===----------------------------------------------------------------------===//

void destroyPooled(State &s, PooledBuffer &buffer) {
  s.cl.clReleaseMemObject(buffer.mem);
}

void releaseBuffer(State &s, cl_mem mem, size_t capacity) {
  s.pool.give({mem, capacity},
              [&](PooledBuffer &buffer) { destroyPooled(s, buffer); });
}

void drainPool(State &s) {
  s.pool.drain([&](PooledBuffer &buffer) { destroyPooled(s, buffer); });
}

// A device buffer of at least `bytes` bytes: a pooled one at most twice as
// large, or a new one.
cl_mem acquireBuffer(State &s, size_t bytes, size_t &capacity,
                     std::string &error) {
  bytes = std::max(bytes, kMinBufferBytes);
  PooledBuffer pooled;
  if (s.pool.take(
          bytes, [](const PooledBuffer &) { return true; }, pooled)) {
    capacity = pooled.capacity;
    return pooled.mem;
  }
  capacity = (bytes + 255) / 256 * 256;
  if (capacity > s.maxAllocation) {
    error = formatString(
        "GPU: a buffer of %zu bytes exceeds the largest allocation "
        "of %s (%llu bytes)",
        bytes, s.deviceName.c_str(),
        static_cast<unsigned long long>(s.maxAllocation));
    return nullptr;
  }
  cl_int err = CL_SUCCESS;
  cl_mem mem = s.cl.clCreateBuffer(s.context, CL_MEM_READ_WRITE, capacity,
                                   nullptr, &err);
  if ((!mem || err != CL_SUCCESS) && !s.pool.empty()) {
    drainPool(s);
    mem = s.cl.clCreateBuffer(s.context, CL_MEM_READ_WRITE, capacity, nullptr,
                              &err);
  }
  if (!mem || err != CL_SUCCESS) {
    error = formatString("GPU: cannot allocate %zu bytes of device memory (%s)",
                         capacity, clError(err).c_str());
    return nullptr;
  }
  return mem;
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

// Waits for the launches in flight and reports the first failed bounds
// check among them.
std::string flushLocked(State &s, bool report = true) {
  if (s.pending.empty())
    return "";
  size_t bytes = s.pending.size() * s.errorSlotBytes;
  std::vector<int64_t> words(bytes / sizeof(int64_t));
  cl_int err;
  {
    CountedWait counted;
    err = s.cl.clEnqueueReadBuffer(s.queue, s.errorBuffer, CL_TRUE, 0, bytes,
                                   words.data(), 0, nullptr, nullptr);
  }
  std::vector<PendingLaunch> pending = std::move(s.pending);
  s.pending.clear();
  if (err != CL_SUCCESS)
    return formatString("GPU: a kernel failed (%s)", clError(err).c_str());
  if (std::any_of(words.begin(), words.end(), [](int64_t w) { return w; })) {
    if (report)
      reportBoundsErrors(pending, words.data(),
                         s.errorSlotBytes / sizeof(int64_t));
    std::fill(words.begin(), words.end(), 0);
    err = s.cl.clEnqueueWriteBuffer(s.queue, s.errorBuffer, CL_TRUE, 0, bytes,
                                    words.data(), 0, nullptr, nullptr);
    if (err != CL_SUCCESS)
      return formatString("GPU: copying to the device failed (%s)",
                          clError(err).c_str());
  }
  return "";
}

// The device memory of the residency table: pooled buffers, blocking
// copies on the in-order queue.
class OpenCLMemory final : public DeviceMemory {
public:
  std::string allocate(size_t bytes, DeviceBuffer &buffer) override {
    std::string error;
    cl_mem mem = acquireBuffer(getState(), bytes, buffer.capacity, error);
    buffer.handle = mem;
    return error;
  }
  void release(DeviceBuffer &buffer) override {
    releaseBuffer(getState(), static_cast<cl_mem>(buffer.handle),
                  buffer.capacity);
    buffer = DeviceBuffer();
  }
  std::string upload(const DeviceBuffer &buffer, const void *host,
                     size_t bytes) override {
    State &s = getState();
    cl_int err;
    {
      CountedWait counted;
      err = s.cl.clEnqueueWriteBuffer(
          s.queue, static_cast<cl_mem>(buffer.handle), CL_TRUE, 0, bytes, host,
          0, nullptr, nullptr);
    }
    // Buffers are created lazily: the first copy may find no memory.
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
      noteDeviceLimitReached();
    if (err != CL_SUCCESS)
      return formatString("GPU: copying %zu bytes to the device failed (%s)",
                          bytes, clError(err).c_str());
    return "";
  }
  std::string download(const DeviceBuffer &buffer, void *host,
                       size_t bytes) override {
    State &s = getState();
    // Failed bounds checks are known before the host sees results.
    std::string error = flushLocked(s);
    if (!error.empty())
      return error;
    cl_int err;
    {
      CountedWait counted;
      err = s.cl.clEnqueueReadBuffer(
          s.queue, static_cast<cl_mem>(buffer.handle), CL_TRUE, 0, bytes, host,
          0, nullptr, nullptr);
    }
    if (err != CL_SUCCESS)
      return formatString("GPU: copying %zu bytes from the device failed (%s)",
                          bytes, clError(err).c_str());
    return "";
  }
  std::string copy(const DeviceBuffer &from, const DeviceBuffer &to,
                   size_t bytes) override {
    // Queued behind the kernels in flight (the queue is in order).
    State &s = getState();
    cl_int err = s.cl.clEnqueueCopyBuffer(
        s.queue, static_cast<cl_mem>(from.handle),
        static_cast<cl_mem>(to.handle), 0, 0, bytes, 0, nullptr, nullptr);
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
      noteDeviceLimitReached();
    if (err != CL_SUCCESS)
      return formatString("GPU: copying %zu bytes on the device failed (%s)",
                          bytes, clError(err).c_str());
    return "";
  }
  std::string flush(bool report) override {
    State &s = getState();
    return s.initialized ? flushLocked(s, report) : "";
  }
  void trim() override { drainPool(getState()); }
};

// Checks what does not need the device. Returns an error message or "".
// A SCALAR's bits as a signed integer of its width (sizes and strides are
// 32-bit with 32-bit kernel indices).
int64_t signedScalar(const vrir_gpu_arg &scalar) {
  if (scalar.size <= 0 || scalar.size >= 8)
    return scalar.value;
  int shift = 64 - 8 * static_cast<int>(scalar.size);
  return static_cast<int64_t>(static_cast<uint64_t>(scalar.value) << shift) >>
         shift;
}

// `args` with each VIEW argument replaced by the BUFFER of the bytes its
// array spans (the rest of the runtime knows BUFFERs only). Returns an error
// message or "".
std::string resolveViews(int64_t numArgs, const vrir_gpu_arg *args,
                         std::vector<vrir_gpu_arg> &resolved) {
  resolved.assign(args, args + numArgs);
  for (int64_t i = 0; i < numArgs; ++i) {
    vrir_gpu_arg &arg = resolved[i];
    if (arg.kind != VRIR_GPU_ARG_VIEW)
      continue;
    int64_t rank = arg.size;
    if (rank < 0 || rank > (numArgs - 1 - i) / 2)
      return formatString("GPU: view argument %lld has rank %lld but %lld "
                          "arguments follow it",
                          static_cast<long long>(i),
                          static_cast<long long>(rank),
                          static_cast<long long>(numArgs - 1 - i));
    // Lowest and highest element reached; an empty array spans no bytes.
    int64_t lowest = arg.offset, highest = arg.offset;
    bool empty = false;
    for (int64_t d = 0; d < rank; ++d) {
      const vrir_gpu_arg &size = args[i + 1 + d];
      const vrir_gpu_arg &stride = args[i + 1 + rank + d];
      if (size.kind != VRIR_GPU_ARG_SCALAR ||
          stride.kind != VRIR_GPU_ARG_SCALAR)
        return formatString("GPU: view argument %lld is not followed by its "
                            "%lld sizes and strides as scalars",
                            static_cast<long long>(i),
                            static_cast<long long>(rank));
      int64_t extent = signedScalar(size);
      if (extent <= 0) {
        empty = true;
        continue;
      }
      int64_t reach = (extent - 1) * signedScalar(stride);
      (reach < 0 ? lowest : highest) += reach;
    }
    if (empty)
      lowest = highest = arg.offset;
    arg.kind = VRIR_GPU_ARG_BUFFER;
    arg.value += lowest * arg.elemSize;
    arg.size = empty ? 0 : (highest - lowest + 1) * arg.elemSize;
    arg.offset -= lowest;
  }
  return "";
}

// Each argument's kind, size and access are ones the runtime knows (the
// list itself was checked before its views were resolved).
std::string checkArguments(int64_t numArgs, const vrir_gpu_arg *args) {
  for (int64_t i = 0; i < numArgs; ++i) {
    const vrir_gpu_arg &arg = args[i];
    long long n = static_cast<long long>(i);
    if (arg.kind == VRIR_GPU_ARG_SCALAR) {
      if (arg.size != 1 && arg.size != 2 && arg.size != 4 && arg.size != 8)
        return formatString(
            "GPU: scalar argument %lld has %lld bytes (1, 2, 4 or "
            "8 expected)",
            n, static_cast<long long>(arg.size));
    } else if (arg.kind == VRIR_GPU_ARG_BUFFER) {
      if (arg.elemSize <= 0)
        return formatString("GPU: buffer argument %lld has element size %lld",
                            n, static_cast<long long>(arg.elemSize));
      uint64_t begin = static_cast<uint64_t>(arg.value);
      if (arg.size < 0 || begin + static_cast<uint64_t>(arg.size) < begin)
        return formatString(
            "GPU: buffer argument %lld spans %lld bytes from %p", n,
            static_cast<long long>(arg.size),
            reinterpret_cast<const void *>(static_cast<uintptr_t>(arg.value)));
      if (arg.access & ~int64_t(VRIR_GPU_ACCESS_READ | VRIR_GPU_ACCESS_WRITE))
        return formatString("GPU: buffer argument %lld has access bits %lld", n,
                            static_cast<long long>(arg.access));
    } else {
      return formatString("GPU: argument %lld has kind %lld (0: buffer, 1: "
                          "scalar, 2: view)",
                          n, static_cast<long long>(arg.kind));
    }
  }
  return "";
}

// The launch proper, with the mutex held; returns an error message or "".
std::string launchLocked(State &s, int64_t format, const char *binary,
                         int64_t binarySize, const char *kernelName,
                         const char *sites, int64_t numSites,
                         const size_t grid[3], const size_t block[3],
                         int64_t numArgs, const vrir_gpu_arg *args) {
  if (!ensureInitialized(s))
    return s.initError;
  const OpenCL &cl = s.cl;
  if (format == VRIR_GPU_FORMAT_OPENCL_SPIRV && !s.spirv)
    return "GPU: the OpenCL device " + s.deviceName +
           " takes no SPIR-V (OpenCL SPIR-V kernels need "
           "clCreateProgramWithIL and a CL_DEVICE_IL_VERSION with SPIR-V)";

  // Work sizes.
  size_t global[3], groupItems = 1;
  for (int d = 0; d < 3; ++d) {
    if (__builtin_mul_overflow(grid[d], block[d], &global[d]))
      return formatString("GPU: grid %zu x block %zu work-items overflow",
                          grid[d], block[d]);
    groupItems *= block[d];
  }
  if (groupItems > s.maxWorkGroupSize)
    return formatString(
        "GPU: block %zux%zux%zu has %zu work-items, more than the "
        "%zu work-items a work-group of %s may have",
        block[0], block[1], block[2], groupItems, s.maxWorkGroupSize,
        s.deviceName.c_str());
  for (int d = 0; d < 3; ++d)
    if (block[d] > s.maxWorkItemSizes[d])
      return formatString(
          "GPU: block %zux%zux%zu exceeds the largest work-group of "
          "%s in dimension %d (%zu)",
          block[0], block[1], block[2], s.deviceName.c_str(), d,
          s.maxWorkItemSizes[d]);

  // Program and kernel.
  std::string error;
  Program *program = getProgram(
      s, format, std::string_view(binary, static_cast<size_t>(binarySize)),
      kernelName, error);
  if (!program)
    return error;
  cl_kernel kernel = getKernel(s, *program, kernelName, error);
  if (!kernel)
    return error;

  cl_uint expectedParams = 1; // the error buffer
  for (int64_t i = 0; i < numArgs; ++i)
    expectedParams += args[i].kind == VRIR_GPU_ARG_BUFFER ? 2 : 1;
  cl_uint kernelParams = 0;
  if (cl.clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof(kernelParams),
                         &kernelParams, nullptr) == CL_SUCCESS &&
      kernelParams != expectedParams)
    return formatString(
        "GPU: kernel '%s' has %u parameters, but the launch passes "
        "%u (%lld arguments: two parameters per buffer, one per "
        "scalar, and the error buffer)",
        kernelName, kernelParams, expectedParams,
        static_cast<long long>(numArgs));
  size_t kernelGroupSize = 0;
  if (cl.clGetKernelWorkGroupInfo(kernel, s.device, CL_KERNEL_WORK_GROUP_SIZE,
                                  sizeof(kernelGroupSize), &kernelGroupSize,
                                  nullptr) == CL_SUCCESS &&
      kernelGroupSize > 0 && groupItems > kernelGroupSize)
    return formatString(
        "GPU: block %zux%zux%zu has %zu work-items, more than the "
        "%zu kernel '%s' may have in a work-group on %s",
        block[0], block[1], block[2], groupItems, kernelGroupSize, kernelName,
        s.deviceName.c_str());

  // Group the buffer arguments: ranges that overlap or touch share one
  // device buffer. Arguments of 0 bytes need none.
  BufferPlan plan;
  error = planBuffers(kernelName, numArgs, args, plan);
  if (!error.empty())
    return error;
  ResidencyTable &table = openclResidency();
  std::vector<Placement> placements;
  error = table.prepare(plan, numArgs, args, placements);
  if (!error.empty())
    return error;
  // A free error record.
  if (s.pending.size() == kErrorSlots) {
    error = flushLocked(s);
    if (!error.empty())
      return error;
  }
  cl_int err = CL_SUCCESS;

  // Kernel arguments.
  cl_uint param = 0;
  for (int64_t i = 0; i < numArgs; ++i) {
    const vrir_gpu_arg &arg = args[i];
    if (arg.kind == VRIR_GPU_ARG_BUFFER) {
      cl_mem mem = s.emptyBuffer;
      cl_long offset = plan.offsets[i];
      if (arg.size > 0) {
        const Placement &placement = placements[plan.groupOf[i]];
        mem = static_cast<cl_mem>(placement.buffer.handle);
        offset += static_cast<cl_long>(placement.byteOffset /
                                       static_cast<uint64_t>(arg.elemSize));
      }
      err = cl.clSetKernelArg(kernel, param++, sizeof(cl_mem), &mem);
      if (err == CL_SUCCESS)
        err = cl.clSetKernelArg(kernel, param++, sizeof(cl_long), &offset);
    } else {
      // The low bytes of `value` (little-endian).
      err = cl.clSetKernelArg(kernel, param++, static_cast<size_t>(arg.size),
                              &arg.value);
    }
    if (err != CL_SUCCESS)
      return formatString(
          "GPU: setting argument %lld of kernel '%s' failed (%s)",
          static_cast<long long>(i), kernelName, clError(err).c_str());
  }
  cl_mem errorSlot = s.errorSlots[s.pending.size()];
  err = cl.clSetKernelArg(kernel, param, sizeof(cl_mem), &errorSlot);
  if (err != CL_SUCCESS)
    return formatString(
        "GPU: setting the error buffer of kernel '%s' failed (%s)", kernelName,
        clError(err).c_str());

  err = cl.clEnqueueNDRangeKernel(s.queue, kernel, 3, nullptr, global, block, 0,
                                  nullptr, nullptr);
  if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
    noteDeviceLimitReached();
  if (err != CL_SUCCESS)
    return formatString(
        "GPU: launching kernel '%s' on %zux%zux%zu work-items in "
        "work-groups of %zux%zux%zu failed (%s)",
        kernelName, global[0], global[1], global[2], block[0], block[1],
        block[2], clError(err).c_str());
  ++runtimeStats().kernels;

  table.markWritten(plan);

  s.pending.push_back({sites, numSites});
  cl.clFlush(s.queue); // start it now; nothing waits for it

  // Outside a scope: wait, and bring the results back.
  if (scopeDepth() == 0)
    return endImplicitScope(table);
  return "";
}

// The message of a failed launch: raised once nothing is left to clean up.
thread_local std::string launchError;

// VRIR_GPU_CPU_FALLBACK=0: running out of device memory is an error even
// where generated code could run the kernel's work on the host.
bool cpuFallbackEnabled() {
  static const bool enabled = [] {
    const char *text = std::getenv("VRIR_GPU_CPU_FALLBACK");
    return !text || std::string_view(text) != "0";
  }();
  return enabled;
}

// Returns the error message of the launch, or null.
const char *launch(int64_t format, const char *binary, int64_t binarySize,
                   const char *kernelName, const char *sites, int64_t numSites,
                   const int64_t grid[3], const int64_t block[3],
                   int64_t numArgs, const vrir_gpu_arg *args) {
  size_t gridSizes[3], blockSizes[3];
  bool empty = false;
  for (int d = 0; d < 3; ++d) {
    if (grid[d] < 0 || block[d] < 0) {
      launchError = formatString(
          "GPU: negative work size: grid %lldx%lldx%lld, "
          "block %lldx%lldx%lld",
          static_cast<long long>(grid[0]), static_cast<long long>(grid[1]),
          static_cast<long long>(grid[2]), static_cast<long long>(block[0]),
          static_cast<long long>(block[1]), static_cast<long long>(block[2]));
      return launchError.c_str();
    }
    empty |= grid[d] == 0 || block[d] == 0;
    gridSizes[d] = static_cast<size_t>(grid[d]);
    blockSizes[d] = static_cast<size_t>(block[d]);
  }
  if (empty)
    return nullptr;

  if (format != VRIR_GPU_FORMAT_OPENCL_C &&
      format != VRIR_GPU_FORMAT_OPENCL_SPIRV &&
      format != VRIR_GPU_FORMAT_VULKAN_SPIRV) {
    launchError = formatString("GPU: unknown kernel format %lld",
                               static_cast<long long>(format));
    return launchError.c_str();
  }
  if (!binary || binarySize < 0 || !kernelName) {
    launchError = "GPU: launch without a kernel binary or name";
    return launchError.c_str();
  }
  if (numArgs < 0 || (numArgs > 0 && !args)) {
    launchError = formatString("GPU: bad argument list (%lld arguments at %p)",
                               static_cast<long long>(numArgs),
                               static_cast<const void *>(args));
    return launchError.c_str();
  }
  // Reused: no allocation per launch.
  thread_local std::vector<vrir_gpu_arg> resolved;
  launchError = resolveViews(numArgs, args, resolved);
  if (launchError.empty())
    launchError = checkArguments(numArgs, resolved.data());
  if (!launchError.empty())
    return launchError.c_str();
  args = resolved.data();

  // A kernel of this bracket already left its work to the host, which
  // redoes the bracket's kernels together.
  FallbackBracket &bracket = fallbackBracket();
  if (bracket.open && bracket.taken)
    return nullptr;

  {
    std::lock_guard<std::mutex> lock(runtimeMutex());
    takeDeviceLimitReached(); // nothing left from an earlier failure
    if (format == VRIR_GPU_FORMAT_VULKAN_SPIRV)
      launchError =
          vulkanLaunch(binary, binarySize, kernelName, sites, numSites,
                       gridSizes, blockSizes, numArgs, args);
    else
      launchError =
          launchLocked(getState(), format, binary, binarySize, kernelName,
                       sites, numSites, gridSizes, blockSizes, numArgs, args);
    // Out of device memory for good: the host runs the kernel's work
    // instead, when the generated code has a host version of it.
    if (!launchError.empty() && takeDeviceLimitReached() && bracket.open &&
        cpuFallbackEnabled()) {
      if (verboseEnabled())
        std::fprintf(stderr, "vrir: kernel '%s' runs on the CPU: %s\n",
                     kernelName, launchError.c_str());
      ++runtimeStats().fallbacks;
      bracket.taken = true;
      launchError.clear();
    }
  }
  return launchError.empty() ? nullptr : launchError.c_str();
}

} // namespace

ResidencyTable &vrir::gpu::openclResidency() {
  // Never destroyed, like the state.
  static auto *table = new ResidencyTable(*new OpenCLMemory());
  return *table;
}

extern "C" {

void vrir_gpu_launch(int64_t format, const char *binary, int64_t binarySize,
                     const char *kernelName, const char *sites,
                     int64_t numSites, int64_t gridX, int64_t gridY,
                     int64_t gridZ, int64_t blockX, int64_t blockY,
                     int64_t blockZ, int64_t numArgs,
                     const vrir_gpu_arg *args) {
  // Nothing with a destructor lives in this frame: vrir_rt_error longjmps.
  const int64_t grid[3] = {gridX, gridY, gridZ};
  const int64_t block[3] = {blockX, blockY, blockZ};
  if (const char *error = launch(format, binary, binarySize, kernelName, sites,
                                 numSites, grid, block, numArgs, args))
    vrir_rt_error(error);
}

void vrir_gpu_fallback_begin(void) {
  FallbackBracket &bracket = fallbackBracket();
  bracket.open = true;
  bracket.taken = false;
}

int64_t vrir_gpu_fallback_end(void) {
  bool taken = fallbackBracket().taken;
  fallbackBracket() = FallbackBracket();
  return taken ? 1 : 0;
}

int vrir_gpu_available(int64_t format) {
  std::lock_guard<std::mutex> lock(runtimeMutex());
  if (format == VRIR_GPU_FORMAT_VULKAN_SPIRV)
    return vulkanAvailable() ? 1 : 0;
  if (format != VRIR_GPU_FORMAT_OPENCL_C &&
      format != VRIR_GPU_FORMAT_OPENCL_SPIRV)
    return 0;
  State &s = getState();
  if (!ensureInitialized(s))
    return 0;
  return format == VRIR_GPU_FORMAT_OPENCL_C || s.spirv ? 1 : 0;
}

const char *vrir_gpu_device_name(int64_t format) {
  if (!vrir_gpu_available(format))
    return "";
  // Set once by the initialization vrir_gpu_available did.
  return format == VRIR_GPU_FORMAT_VULKAN_SPIRV ? vulkanDeviceName()
                                                : getState().deviceName.c_str();
}

void vrir_gpu_get_stats(vrir_gpu_stats *stats) {
  if (!stats)
    return;
  std::lock_guard<std::mutex> lock(runtimeMutex());
  *stats = runtimeStats();
}

void vrir_gpu_reset_stats(void) {
  std::lock_guard<std::mutex> lock(runtimeMutex());
  runtimeStats() = vrir_gpu_stats{};
}

} // extern "C"
