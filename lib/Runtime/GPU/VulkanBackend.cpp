//===- VulkanBackend.cpp - Vulkan backend of the GPU runtime --------------===//
//
// Runs VRIR_GPU_FORMAT_VULKAN_SPIRV kernels through Vulkan compute.
// libvulkan.so.1 is loaded with dlopen at first use and every entry point is
// resolved through vkGetInstanceProcAddr / vkGetDeviceProcAddr (the headers
// give types and constants only), so the library loads on machines without
// Vulkan.
//
// One instance, device, queue, command buffer and fence serve the whole
// process; the runtime's mutex serializes launches. Shader modules are
// cached by content, pipelines by (module, kernel, number of bindings).
//
// Binding convention (descriptor set 0, every binding a storage buffer):
// binding k is the device buffer of the k-th BUFFER argument; the next one
// is the launch's parameter block, an array of int64 slots, one per
// argument in order (a BUFFER's element offset, a SCALAR's bits
// zero-extended); the last one is the error buffer of five int64. One block
// for all parameters keeps the bindings within the device's limit (a 2-D
// array is a buffer and five parameters) and the descriptor writes few.
//
// Memory: where host-visible, coherent memory is what the device computes
// on (CPU and integrated devices), device buffers are mapped and filled
// with memcpy; on discrete GPUs they are device-local and filled and read
// through host-visible (cached) staging buffers.
// VRIR_VULKAN_STAGING=1 (0) forces staging (mapping).
//
// Before anything reaches the driver, the SPIR-V is parsed: the kernel must
// be a GLCompute entry point whose LocalSize is the launch's block, whose
// resources are set-0 storage buffers within the launch's bindings, and
// whose capabilities the device has (a kernel the driver would take with
// undefined behaviour is a clear error instead).
//
//===----------------------------------------------------------------------===//

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "CopyShader.h" // kCopyShader, from CopyShader.spvasm
#include "GPURuntimeInternal.h"
#include "VRIR/Runtime/VRIRRuntime.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

using namespace vrir::gpu;

namespace {

// Launches are recorded into batches of at most this many, each submitted
// without a wait once full; two batches alternate (one runs while the other
// is recorded). Each launch has its own error record (kErrorSlots in all).
constexpr size_t kBatchLaunches = 16;
constexpr size_t kBatches = 2;
static_assert(kBatches * kBatchLaunches <= kErrorSlots);
// Smallest buffer allocated (stands also for arguments of 0 bytes).
constexpr VkDeviceSize kMinBufferBytes = 256;
// Bytes of one slot of the parameter block.
constexpr VkDeviceSize kParamBytes = 8;

// Pool of free buffers.
constexpr size_t kPoolCapacity = 256u << 20; // bytes kept at most
// Bytes of retired buffers (State::retired) kept at most; running out of
// memory frees them with the pool (after waiting for the device).
constexpr size_t kRetiredCapacity = size_t(4) << 30;
constexpr size_t kRetiredSlots = 256;
constexpr size_t kPoolSlots = 64;

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

const char *vkResultName(VkResult result) {
  switch (result) {
#define CASE(name)                                                             \
  case name:                                                                   \
    return #name;
    CASE(VK_SUCCESS)
    CASE(VK_NOT_READY)
    CASE(VK_TIMEOUT)
    CASE(VK_EVENT_SET)
    CASE(VK_EVENT_RESET)
    CASE(VK_INCOMPLETE)
    CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    CASE(VK_ERROR_INITIALIZATION_FAILED)
    CASE(VK_ERROR_DEVICE_LOST)
    CASE(VK_ERROR_MEMORY_MAP_FAILED)
    CASE(VK_ERROR_LAYER_NOT_PRESENT)
    CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    CASE(VK_ERROR_TOO_MANY_OBJECTS)
    CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    CASE(VK_ERROR_FRAGMENTED_POOL)
    CASE(VK_ERROR_UNKNOWN)
    CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    CASE(VK_ERROR_FRAGMENTATION)
    CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    CASE(VK_PIPELINE_COMPILE_REQUIRED)
    CASE(VK_ERROR_INVALID_SHADER_NV)
#undef CASE
  default:
    return nullptr;
  }
}

std::string vkError(VkResult result) {
  if (const char *name = vkResultName(result))
    return name;
  return formatString("VkResult %d", static_cast<int>(result));
}

//===----------------------------------------------------------------------===//
// Vulkan entry points
//===----------------------------------------------------------------------===//

#define VRIR_VK_INSTANCE_FUNCTIONS(X)                                          \
  X(vkDestroyInstance)                                                         \
  X(vkEnumeratePhysicalDevices)                                                \
  X(vkGetPhysicalDeviceProperties)                                             \
  X(vkGetPhysicalDeviceProperties2)                                            \
  X(vkGetPhysicalDeviceFeatures2)                                              \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                  \
  X(vkGetPhysicalDeviceMemoryProperties)                                       \
  X(vkEnumerateDeviceExtensionProperties)                                      \
  X(vkCreateDevice)                                                            \
  X(vkGetDeviceProcAddr)

#define VRIR_VK_DEVICE_FUNCTIONS(X)                                            \
  X(vkGetDeviceQueue)                                                          \
  X(vkCreateCommandPool)                                                       \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkResetCommandBuffer)                                                      \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkCmdBindPipeline)                                                         \
  X(vkCmdBindDescriptorSets)                                                   \
  X(vkCmdDispatch)                                                             \
  X(vkCmdCopyBuffer)                                                           \
  X(vkCmdPipelineBarrier)                                                      \
  X(vkQueueSubmit)                                                             \
  X(vkCreateFence)                                                             \
  X(vkWaitForFences)                                                           \
  X(vkGetFenceStatus)                                                          \
  X(vkResetFences)                                                             \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements)                                             \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkBindBufferMemory)                                                        \
  X(vkMapMemory)                                                               \
  X(vkCreateShaderModule)                                                      \
  X(vkCreateDescriptorSetLayout)                                               \
  X(vkCreatePipelineLayout)                                                    \
  X(vkCreateComputePipelines)                                                  \
  X(vkCreatePipelineCache)                                                     \
  X(vkGetPipelineCacheData)                                                    \
  X(vkCreateDescriptorPool)                                                    \
  X(vkDestroyDescriptorPool)                                                   \
  X(vkResetDescriptorPool)                                                     \
  X(vkAllocateDescriptorSets)                                                  \
  X(vkUpdateDescriptorSets)                                                    \
  X(vkDeviceWaitIdle)

struct Vulkan {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion = nullptr;
  PFN_vkCreateInstance vkCreateInstance = nullptr;
#define DECLARE(name) PFN_##name name = nullptr;
  VRIR_VK_INSTANCE_FUNCTIONS(DECLARE)
  VRIR_VK_DEVICE_FUNCTIONS(DECLARE)
#undef DECLARE
};

//===----------------------------------------------------------------------===//
// SPIR-V
//===----------------------------------------------------------------------===//

// Opcodes, enumerants and capabilities of the SPIR-V specification.
namespace spv {
constexpr uint32_t kMagic = 0x07230203;
enum Op : uint32_t {
  OpExtInst = 12,
  OpEntryPoint = 15,
  OpExecutionMode = 16,
  OpCapability = 17,
  OpTypePointer = 32,
  OpFunction = 54,
  OpFunctionEnd = 56,
  OpFunctionCall = 57,
  OpVariable = 59,
  OpLoad = 61,
  OpStore = 62,
  OpCopyMemory = 63,
  OpCopyMemorySized = 64,
  OpAccessChain = 65,
  OpInBoundsAccessChain = 66,
  OpPtrAccessChain = 67,
  OpArrayLength = 68,
  OpInBoundsPtrAccessChain = 70,
  OpDecorate = 71,
  OpCopyObject = 83,
  OpConvertPtrToU = 117,
  OpPtrCastToGeneric = 121,
  OpGenericCastToPtr = 122,
  OpBitcast = 124,
  OpSelect = 169,
  OpAtomicLoad = 227,
  OpAtomicStore = 228,
  OpAtomicExchange = 229,
  OpAtomicXor = 242,
  OpPhi = 245,
  OpAtomicFlagTestAndSet = 318,
  OpAtomicFlagClear = 319,
  OpExecutionModeId = 331,
  OpPtrEqual = 401,
  OpPtrNotEqual = 402,
  OpPtrDiff = 403,
  OpAtomicFMinEXT = 5614,
  OpAtomicFMaxEXT = 5615,
  OpAtomicFAddEXT = 6035,
};
constexpr uint32_t kGLCompute = 5;
constexpr uint32_t kLocalSize = 17;
constexpr uint32_t kBufferBlock = 3;
constexpr uint32_t kBinding = 33;
constexpr uint32_t kDescriptorSet = 34;
enum StorageClass : uint32_t {
  UniformConstant = 0,
  Uniform = 2,
  PushConstant = 9,
  StorageBuffer = 12,
};
} // namespace spv

// What the runtime needs to know of one GLCompute entry point.
struct EntryPoint {
  uint32_t function = 0;
  bool hasLocalSize = false; // false: LocalSizeId, not checked
  uint32_t localSize[3] = {1, 1, 1};
  std::vector<uint32_t> bindings; // set-0 storage buffers it uses, sorted
  std::string resourceError;      // uses what the runtime does not bind
};

struct SpirvInfo {
  uint32_t version = 0;
  std::vector<uint32_t> capabilities;
  std::map<std::string, EntryPoint> entryPoints; // GLCompute only
};

// Words of instruction `w` (of `count` words) that may name a pointer: the
// operands through which a function uses a global variable.
void addPointerOperands(const uint32_t *w, uint32_t count,
                        std::vector<uint32_t> &refs) {
  auto add = [&](uint32_t k) {
    if (k < count)
      refs.push_back(w[k]);
  };
  switch (w[0] & 0xffff) {
  case spv::OpLoad:
  case spv::OpAccessChain:
  case spv::OpInBoundsAccessChain:
  case spv::OpPtrAccessChain:
  case spv::OpInBoundsPtrAccessChain:
  case spv::OpArrayLength:
  case spv::OpCopyObject:
  case spv::OpConvertPtrToU:
  case spv::OpPtrCastToGeneric:
  case spv::OpGenericCastToPtr:
  case spv::OpBitcast:
  case spv::OpAtomicLoad:
  case spv::OpAtomicFlagTestAndSet:
  case spv::OpAtomicFMinEXT:
  case spv::OpAtomicFMaxEXT:
  case spv::OpAtomicFAddEXT:
    add(3);
    break;
  case spv::OpStore:
  case spv::OpCopyMemory:
  case spv::OpCopyMemorySized:
    add(1);
    add(2);
    break;
  case spv::OpAtomicStore:
  case spv::OpAtomicFlagClear:
    add(1);
    break;
  case spv::OpSelect:
    add(4);
    add(5);
    break;
  case spv::OpPtrEqual:
  case spv::OpPtrNotEqual:
  case spv::OpPtrDiff:
    add(3);
    add(4);
    break;
  case spv::OpPhi:
    for (uint32_t k = 3; k < count; k += 2)
      add(k);
    break;
  case spv::OpFunctionCall:
    for (uint32_t k = 4; k < count; ++k)
      add(k);
    break;
  case spv::OpExtInst:
    for (uint32_t k = 5; k < count; ++k)
      add(k);
    break;
  default:
    if ((w[0] & 0xffff) >= spv::OpAtomicExchange &&
        (w[0] & 0xffff) <= spv::OpAtomicXor)
      add(3);
    break;
  }
}

// Parses what the runtime checks. Returns "" or why `words` cannot be used
// (to follow "the Vulkan SPIR-V binary of kernel 'K' ").
std::string parseSpirv(const std::vector<uint32_t> &words, SpirvInfo &info) {
  if (words.size() < 5)
    return formatString("has %zu words, too few for SPIR-V", words.size());
  if (words[0] != spv::kMagic)
    return formatString("is not SPIR-V (magic number 0x%08x, not 0x%08x)",
                        words[0], spv::kMagic);
  info.version = words[1];

  struct Function {
    std::vector<uint32_t> refs, calls;
  };
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>>
      pointerTypes; // id -> (storage class, pointee)
  std::unordered_map<uint32_t, uint32_t> globalTypes; // variable -> type
  std::unordered_map<uint32_t, uint32_t> bindingOf, setOf;
  std::unordered_set<uint32_t> bufferBlocks;
  std::unordered_map<uint32_t, Function> functions;
  std::vector<std::pair<std::string, uint32_t>> entries;
  std::unordered_map<uint32_t, std::array<uint32_t, 3>> localSizes;
  Function *current = nullptr;
  for (size_t i = 5; i < words.size();) {
    const uint32_t *w = &words[i];
    uint32_t count = w[0] >> 16, op = w[0] & 0xffff;
    if (count == 0 || count > words.size() - i)
      return formatString("is malformed (instruction %u at word %zu has %u "
                          "words)",
                          op, i, count);
    switch (op) {
    case spv::OpCapability:
      if (count >= 2)
        info.capabilities.push_back(w[1]);
      break;
    case spv::OpEntryPoint:
      if (count >= 4 && w[1] == spv::kGLCompute) {
        std::string name;
        for (uint32_t k = 3; k < count; ++k) {
          bool end = false;
          for (int byte = 0; byte < 4 && !end; ++byte) {
            char c = static_cast<char>((w[k] >> (8 * byte)) & 0xff);
            end = c == '\0';
            if (!end)
              name += c;
          }
          if (end)
            break;
        }
        entries.emplace_back(std::move(name), w[2]);
      }
      break;
    case spv::OpExecutionMode:
    case spv::OpExecutionModeId:
      if (count >= 6 && w[2] == spv::kLocalSize && op == spv::OpExecutionMode)
        localSizes[w[1]] = {w[3], w[4], w[5]};
      break;
    case spv::OpDecorate:
      if (count >= 4 && w[2] == spv::kBinding)
        bindingOf[w[1]] = w[3];
      else if (count >= 4 && w[2] == spv::kDescriptorSet)
        setOf[w[1]] = w[3];
      else if (count >= 3 && w[2] == spv::kBufferBlock)
        bufferBlocks.insert(w[1]);
      break;
    case spv::OpTypePointer:
      if (count >= 4)
        pointerTypes[w[1]] = {w[2], w[3]};
      break;
    case spv::OpVariable:
      if (!current && count >= 4)
        globalTypes[w[2]] = w[1];
      else if (current)
        addPointerOperands(w, count, current->refs);
      break;
    case spv::OpFunction:
      if (count >= 3)
        current = &functions[w[2]];
      break;
    case spv::OpFunctionEnd:
      current = nullptr;
      break;
    default:
      if (current) {
        addPointerOperands(w, count, current->refs);
        if (op == spv::OpFunctionCall && count >= 4)
          current->calls.push_back(w[3]);
      }
      break;
    }
    i += count;
  }

  for (auto &[name, function] : entries) {
    EntryPoint entry;
    entry.function = function;
    auto size = localSizes.find(function);
    if (size != localSizes.end()) {
      entry.hasLocalSize = true;
      std::copy(size->second.begin(), size->second.end(), entry.localSize);
    }
    // The global variables the functions it reaches use.
    std::unordered_set<uint32_t> reached{function}, used;
    std::vector<uint32_t> work{function};
    while (!work.empty()) {
      auto found = functions.find(work.back());
      work.pop_back();
      if (found == functions.end())
        continue;
      for (uint32_t id : found->second.refs)
        if (globalTypes.count(id))
          used.insert(id);
      for (uint32_t callee : found->second.calls)
        if (reached.insert(callee).second)
          work.push_back(callee);
    }
    std::vector<uint32_t> sortedUsed(used.begin(), used.end());
    std::sort(sortedUsed.begin(), sortedUsed.end());
    for (uint32_t variable : sortedUsed) {
      auto pointer = pointerTypes.find(globalTypes[variable]);
      if (pointer == pointerTypes.end())
        continue;
      uint32_t storage = pointer->second.first;
      if (storage == spv::PushConstant) {
        entry.resourceError = "uses push constants, which the runtime does "
                              "not pass";
        break;
      }
      auto binding = bindingOf.find(variable);
      if (binding == bindingOf.end())
        continue;
      uint32_t set = setOf.count(variable) ? setOf[variable] : 0;
      bool storageBuffer = storage == spv::StorageBuffer ||
                           (storage == spv::Uniform &&
                            bufferBlocks.count(pointer->second.second));
      if (set != 0) {
        entry.resourceError = formatString(
            "uses descriptor set %u (binding %u); the runtime binds set 0 "
            "only",
            set, binding->second);
        break;
      }
      if (!storageBuffer) {
        entry.resourceError = formatString(
            "uses binding %u as something other than a storage buffer "
            "(storage class %u)",
            binding->second, storage);
        break;
      }
      entry.bindings.push_back(binding->second);
    }
    std::sort(entry.bindings.begin(), entry.bindings.end());
    info.entryPoints.emplace(name, std::move(entry));
  }
  return "";
}

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

// The optional device features the runtime enables where supported.
struct Features {
  bool float64 = false, int64 = false, int16 = false;
  bool int8 = false, float16 = false;
  bool storageBuffer16 = false, uniformStorageBuffer16 = false;
  bool storageBuffer8 = false, uniformStorageBuffer8 = false;
  bool bufferInt64Atomics = false;
};

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void *mapped = nullptr; // host-visible buffers only
  VkDeviceSize capacity = 0;
  bool host = false;       // host-visible, coherent and mapped
  bool nearDevice = false; // host-visible device memory where there is some
};

struct Pipeline {
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::string error; // why creating it failed
};

struct Module {
  std::string bytes; // the binary (keys of the module cache view it)
  std::vector<uint32_t> words;
  VkShaderModule module = VK_NULL_HANDLE;
  std::string error; // non-empty: unusable (to follow "... of kernel 'K' ")
  SpirvInfo info;
  // By kernel name and number of bindings.
  std::map<std::pair<std::string, uint32_t>, Pipeline> pipelines;
};

struct Layout {
  VkDescriptorSetLayout set = VK_NULL_HANDLE;
  VkPipelineLayout pipeline = VK_NULL_HANDLE;
};

// Launches recorded into one command buffer, and what they hold until they
// finished: descriptor sets, parameter buffers, buffers released meanwhile.
struct Batch {
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
  uint32_t descriptorCapacity = 0, descriptorsUsed = 0;
  // The descriptor sets of the batch's device copies (copyWithKernel).
  VkDescriptorPool copyDescriptorPool = VK_NULL_HANDLE;
  uint32_t copySetsUsed = 0;
  bool recording = false, submitted = false;
  std::vector<PendingLaunch> launches; // error record b*kBatchLaunches + i
  std::vector<Buffer> buffers;         // released once finished
};

// One of two host-visible buffers through which large arrays are copied in
// chunks: the host fills (or empties) one while the device copies the
// other. Created at the first large copy and kept.
struct StagingSlot {
  Buffer buffer;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  bool busy = false; // a submitted copy may still use it
};

struct State {
  bool initialized = false;
  std::string initError; // non-empty: no usable device

  Vulkan vk;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  Batch batches[kBatches];
  size_t current = 0; // the batch being recorded, or to record next
  StagingSlot stagingSlots[2];

  std::string name; // "Vulkan: DEVICE"
  VkPhysicalDeviceProperties properties = {};
  VkPhysicalDeviceMemoryProperties memory = {};
  uint32_t apiVersion = 0; // of the device as used
  uint32_t maxSpirv = 0;   // highest SPIR-V version it takes
  VkDeviceSize maxAllocation = ~VkDeviceSize(0);
  Features features; // enabled
  // The driver's pipeline cache, kept on disk under this key.
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  std::string pipelineCacheKey;
  bool staging = false;
  bool lost = false; // the device was lost: no more launches

  Buffer errorBuffer, emptyBuffer;
  VkDeviceSize errorSlotBytes = 0;

  // Modules by content (keys view Module::bytes).
  std::unordered_map<std::string_view, std::unique_ptr<Module>> modules;
  std::map<uint32_t, Layout> layouts; // by number of bindings

  BufferPool<Buffer> pool{kPoolCapacity, kPoolSlots};
  // Device-local array buffers released while work in flight may still use
  // them: later device work may take them again (every dispatch and copy
  // is ordered after the earlier ones by barriers, and a taken one gets a
  // barrier of its own), but they are not destroyed before the device is
  // idle, when they go to the pool. Without them, an array allocated and
  // freed every step (`old = u.copy()`) took a new allocation every step.
  BufferPool<Buffer> retired{kRetiredCapacity, kRetiredSlots};
};

// Never destroyed: the Vulkan implementation may be gone by the time static
// destructors run.
State &getState() {
  static State *state = new State();
  return *state;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

// The index of a memory type allowed by `typeBits` that has `required` (and
// `preferred`, where one does), or -1.
int findMemoryType(const State &s, uint32_t typeBits,
                   VkMemoryPropertyFlags required,
                   VkMemoryPropertyFlags preferred) {
  for (VkMemoryPropertyFlags flags : {required | preferred, required})
    for (uint32_t i = 0; i < s.memory.memoryTypeCount; ++i)
      if ((typeBits & (1u << i)) &&
          (s.memory.memoryTypes[i].propertyFlags & flags) == flags)
        return static_cast<int>(i);
  return -1;
}

void destroyBuffer(State &s, Buffer &buffer) {
  if (buffer.buffer)
    s.vk.vkDestroyBuffer(s.device, buffer.buffer, nullptr);
  if (buffer.memory)
    s.vk.vkFreeMemory(s.device, buffer.memory, nullptr); // unmaps
  buffer = Buffer();
}

// A new buffer of `capacity` bytes, host-visible (mapped) or device-local.
VkResult createBuffer(State &s, VkDeviceSize capacity, bool host,
                      bool nearDevice, Buffer &buffer) {
  buffer = Buffer();
  buffer.capacity = capacity;
  buffer.host = host;
  buffer.nearDevice = nearDevice;
  VkBufferCreateInfo info = {};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = capacity;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkResult result =
      s.vk.vkCreateBuffer(s.device, &info, nullptr, &buffer.buffer);
  if (result != VK_SUCCESS) {
    buffer.buffer = VK_NULL_HANDLE;
    return result;
  }
  VkMemoryRequirements requirements;
  s.vk.vkGetBufferMemoryRequirements(s.device, buffer.buffer, &requirements);
  // Host buffers: device-local too where that exists (mapped device memory),
  // except staging buffers, which the host reads back (cached).
  int type = host ? findMemoryType(s, requirements.memoryTypeBits,
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                   s.staging && !nearDevice
                                       ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT
                                       : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
                  : findMemoryType(s, requirements.memoryTypeBits,
                                   VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  if (type < 0) {
    destroyBuffer(s, buffer);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  VkMemoryAllocateInfo allocate = {};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = static_cast<uint32_t>(type);
  result = s.vk.vkAllocateMemory(s.device, &allocate, nullptr, &buffer.memory);
  if (result != VK_SUCCESS) {
    buffer.memory = VK_NULL_HANDLE;
    destroyBuffer(s, buffer);
    return result;
  }
  result = s.vk.vkBindBufferMemory(s.device, buffer.buffer, buffer.memory, 0);
  if (result == VK_SUCCESS && host)
    result = s.vk.vkMapMemory(s.device, buffer.memory, 0, VK_WHOLE_SIZE, 0,
                              &buffer.mapped);
  if (result != VK_SUCCESS)
    destroyBuffer(s, buffer);
  return result;
}

void drainPool(State &s) {
  s.pool.drain([&](Buffer &buffer) { destroyBuffer(s, buffer); });
}

void releaseBuffer(State &s, Buffer buffer) {
  if (!buffer.buffer)
    return;
  if (s.lost) {
    destroyBuffer(s, buffer);
    return;
  }
  s.pool.give(buffer, [&](Buffer &old) { destroyBuffer(s, old); });
}

// A buffer of at least `bytes` bytes: a pooled one of the same kind at most
// twice as large, or a new one. Returns false with `error` set on failure.
bool acquireBuffer(State &s, VkDeviceSize bytes, bool host, Buffer &buffer,
                   std::string &error, bool nearDevice = false) {
  bytes = std::max(bytes, kMinBufferBytes);
  // A pooled buffer of the same kind.
  if (s.pool.take(
          bytes,
          [&](const Buffer &pooled) {
            return pooled.host == host && pooled.nearDevice == nearDevice;
          },
          buffer))
    return true;
  VkDeviceSize capacity = (bytes + 255) / 256 * 256;
  if (capacity > s.maxAllocation) {
    error = formatString("GPU: a buffer of %llu bytes exceeds the largest "
                         "allocation of %s (%llu bytes)",
                         static_cast<unsigned long long>(bytes), s.name.c_str(),
                         static_cast<unsigned long long>(s.maxAllocation));
    return false;
  }
  VkResult result = createBuffer(s, capacity, host, nearDevice, buffer);
  if (result != VK_SUCCESS && !s.pool.empty()) {
    drainPool(s);
    result = createBuffer(s, capacity, host, nearDevice, buffer);
  }
  if (result != VK_SUCCESS) {
    error =
        formatString("GPU: cannot allocate %llu bytes of %s memory on %s (%s)",
                     static_cast<unsigned long long>(capacity),
                     host ? "host-visible" : "device-local", s.name.c_str(),
                     vkError(result).c_str());
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Initialization
//===----------------------------------------------------------------------===//

std::string versionString(uint32_t version) {
  return formatString("%u.%u", VK_API_VERSION_MAJOR(version),
                      VK_API_VERSION_MINOR(version));
}

const char *deviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "CPU";
  default:
    return "other";
  }
}

// The first queue family of `physical` with compute, or -1.
int computeQueueFamily(const State &s, VkPhysicalDevice physical) {
  uint32_t count = 0;
  s.vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  s.vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &count,
                                                families.data());
  for (uint32_t i = 0; i < count; ++i)
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
        families[i].queueCount > 0)
      return static_cast<int>(i);
  return -1;
}

// Why `physical` cannot be used, or "".
std::string unusableReason(const State &s, VkPhysicalDevice physical) {
  VkPhysicalDeviceProperties properties;
  s.vk.vkGetPhysicalDeviceProperties(physical, &properties);
  if (properties.apiVersion < VK_API_VERSION_1_1)
    return "it has Vulkan " + versionString(properties.apiVersion) +
           "; VRIR needs 1.1";
  if (computeQueueFamily(s, physical) < 0)
    return "it has no compute queue";
  return "";
}

// Loads Vulkan and sets up the device; returns an error message or "".
std::string initialize(State &s) {
  void *library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library)
    library = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return "GPU: no Vulkan device (libvulkan.so.1 not found)";
  Vulkan &vk = s.vk;
  vk.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(library, "vkGetInstanceProcAddr"));
  if (!vk.vkGetInstanceProcAddr)
    return "GPU: no Vulkan device (libvulkan.so.1 lacks "
           "vkGetInstanceProcAddr)";
  vk.vkEnumerateInstanceVersion =
      reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
          vk.vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
  vk.vkCreateInstance = reinterpret_cast<PFN_vkCreateInstance>(
      vk.vkGetInstanceProcAddr(nullptr, "vkCreateInstance"));
  if (!vk.vkCreateInstance)
    return "GPU: no Vulkan device (the Vulkan loader lacks vkCreateInstance)";
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  if (vk.vkEnumerateInstanceVersion)
    vk.vkEnumerateInstanceVersion(&loaderVersion);
  if (loaderVersion < VK_API_VERSION_1_1)
    return "GPU: no Vulkan device (the Vulkan loader has version " +
           versionString(loaderVersion) + "; VRIR needs 1.1)";
  uint32_t instanceVersion =
      VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(loaderVersion),
                          VK_API_VERSION_MINOR(loaderVersion), 0);

  VkApplicationInfo application = {};
  application.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  application.pApplicationName = "VRIR";
  application.pEngineName = "VRIR GPU runtime";
  application.apiVersion = instanceVersion;
  VkInstanceCreateInfo instanceInfo = {};
  instanceInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instanceInfo.pApplicationInfo = &application;
  VkResult result = vk.vkCreateInstance(&instanceInfo, nullptr, &s.instance);
  if (result != VK_SUCCESS) {
    s.instance = VK_NULL_HANDLE;
    return "GPU: no Vulkan device (vkCreateInstance: " + vkError(result) + ")";
  }
#define RESOLVE(name)                                                          \
  vk.name = reinterpret_cast<PFN_##name>(                                      \
      vk.vkGetInstanceProcAddr(s.instance, #name));                            \
  if (!vk.name)                                                                \
    return "GPU: no Vulkan device (the Vulkan loader lacks " #name ")";
  VRIR_VK_INSTANCE_FUNCTIONS(RESOLVE)
#undef RESOLVE

  uint32_t numDevices = 0;
  result = vk.vkEnumeratePhysicalDevices(s.instance, &numDevices, nullptr);
  if (result != VK_SUCCESS)
    return "GPU: no Vulkan device (vkEnumeratePhysicalDevices: " +
           vkError(result) + ")";
  if (numDevices == 0)
    return "GPU: no Vulkan device (no physical device found)";
  std::vector<VkPhysicalDevice> devices(numDevices);
  result =
      vk.vkEnumeratePhysicalDevices(s.instance, &numDevices, devices.data());
  if (result != VK_SUCCESS && result != VK_INCOMPLETE)
    return "GPU: no Vulkan device (vkEnumeratePhysicalDevices: " +
           vkError(result) + ")";
  devices.resize(numDevices);

  if (const char *selector = std::getenv("VRIR_VULKAN_DEVICE")) {
    char *end = nullptr;
    unsigned long long index = std::strtoull(selector, &end, 10);
    if (!std::isdigit(static_cast<unsigned char>(*selector)) || *end != '\0')
      return formatString("GPU: VRIR_VULKAN_DEVICE='%s' is not a device "
                          "index (from 0)",
                          selector);
    if (index >= devices.size())
      return formatString("GPU: VRIR_VULKAN_DEVICE=%s: there is no Vulkan "
                          "device %llu (%zu devices)",
                          selector, index, devices.size());
    VkPhysicalDeviceProperties properties;
    vk.vkGetPhysicalDeviceProperties(devices[index], &properties);
    std::string reason = unusableReason(s, devices[index]);
    if (!reason.empty())
      return formatString("GPU: VRIR_VULKAN_DEVICE=%s: Vulkan device %llu "
                          "(%s) cannot be used: %s",
                          selector, index, properties.deviceName,
                          reason.c_str());
    s.physical = devices[index];
  } else {
    std::string reasons;
    for (VkPhysicalDeviceType type : {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU,
                                      VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
                                      VK_PHYSICAL_DEVICE_TYPE_MAX_ENUM}) {
      for (VkPhysicalDevice physical : devices) {
        VkPhysicalDeviceProperties properties;
        vk.vkGetPhysicalDeviceProperties(physical, &properties);
        if (type != VK_PHYSICAL_DEVICE_TYPE_MAX_ENUM &&
            properties.deviceType != type)
          continue;
        std::string reason = unusableReason(s, physical);
        if (reason.empty()) {
          s.physical = physical;
          break;
        }
        if (type == VK_PHYSICAL_DEVICE_TYPE_MAX_ENUM)
          reasons += std::string(reasons.empty() ? "" : "; ") +
                     properties.deviceName + ": " + reason;
      }
      if (s.physical)
        break;
    }
    if (!s.physical)
      return "GPU: no usable Vulkan device (" + reasons + ")";
  }

  VkPhysicalDevice physical = s.physical;
  vk.vkGetPhysicalDeviceProperties(physical, &s.properties);
  vk.vkGetPhysicalDeviceMemoryProperties(physical, &s.memory);
  s.name = std::string("Vulkan: ") + s.properties.deviceName;
  s.apiVersion = std::min(
      VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(s.properties.apiVersion),
                          VK_API_VERSION_MINOR(s.properties.apiVersion), 0),
      instanceVersion);
  s.maxSpirv = s.apiVersion >= VK_API_VERSION_1_3   ? 0x10600
               : s.apiVersion >= VK_API_VERSION_1_2 ? 0x10500
                                                    : 0x10300;
  s.queueFamily = static_cast<uint32_t>(computeQueueFamily(s, physical));
  bool core12 = s.apiVersion >= VK_API_VERSION_1_2;

  VkPhysicalDeviceMaintenance3Properties maintenance3 = {};
  maintenance3.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
  VkPhysicalDeviceProperties2 properties2 = {};
  properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties2.pNext = &maintenance3;
  vk.vkGetPhysicalDeviceProperties2(physical, &properties2);
  if (maintenance3.maxMemoryAllocationSize > 0)
    s.maxAllocation = maintenance3.maxMemoryAllocationSize;

  // Extensions: those of the features below where the device has less than
  // Vulkan 1.2 (core there).
  uint32_t numExtensions = 0;
  vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &numExtensions,
                                          nullptr);
  std::vector<VkExtensionProperties> available(numExtensions);
  vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &numExtensions,
                                          available.data());
  available.resize(numExtensions);
  auto hasExtension = [&](const char *name) {
    for (const VkExtensionProperties &extension : available)
      if (std::strcmp(extension.extensionName, name) == 0)
        return true;
    return false;
  };
  std::vector<const char *> extensions;
  auto useExtension = [&](const char *name) {
    if (core12)
      return true;
    if (!hasExtension(name))
      return false;
    extensions.push_back(name);
    return true;
  };
  // Required where present (portability implementations).
  if (hasExtension("VK_KHR_portability_subset"))
    extensions.push_back("VK_KHR_portability_subset");

  // Features: what the device has ...
  VkPhysicalDeviceFeatures2 features2 = {};
  features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  VkPhysicalDevice16BitStorageFeatures storage16 = {};
  storage16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
  VkPhysicalDevice8BitStorageFeatures storage8 = {};
  storage8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES;
  VkPhysicalDeviceShaderFloat16Int8Features float16Int8 = {};
  float16Int8.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES;
  VkPhysicalDeviceShaderAtomicInt64Features atomicInt64 = {};
  atomicInt64.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES;
  bool has8 = useExtension(VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
  bool hasFloat16Int8 = useExtension(VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME);
  bool hasAtomicInt64 = useExtension(VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME);
  void **next = &features2.pNext;
  auto chain = [&next](auto &feature) {
    *next = &feature;
    next = &feature.pNext;
  };
  chain(storage16);
  if (has8)
    chain(storage8);
  if (hasFloat16Int8)
    chain(float16Int8);
  if (hasAtomicInt64)
    chain(atomicInt64);
  vk.vkGetPhysicalDeviceFeatures2(physical, &features2);

  // ... and what the runtime enables of it.
  Features &f = s.features;
  f.float64 = features2.features.shaderFloat64;
  f.int64 = features2.features.shaderInt64;
  f.int16 = features2.features.shaderInt16;
  f.storageBuffer16 = storage16.storageBuffer16BitAccess;
  f.uniformStorageBuffer16 = storage16.uniformAndStorageBuffer16BitAccess;
  f.storageBuffer8 = has8 && storage8.storageBuffer8BitAccess;
  f.uniformStorageBuffer8 = has8 && storage8.uniformAndStorageBuffer8BitAccess;
  f.int8 = hasFloat16Int8 && float16Int8.shaderInt8;
  f.float16 = hasFloat16Int8 && float16Int8.shaderFloat16;
  f.bufferInt64Atomics = hasAtomicInt64 && atomicInt64.shaderBufferInt64Atomics;

  VkPhysicalDeviceFeatures2 enable2 = {};
  enable2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  enable2.features.shaderFloat64 = f.float64;
  enable2.features.shaderInt64 = f.int64;
  enable2.features.shaderInt16 = f.int16;
  VkPhysicalDevice16BitStorageFeatures enable16 = {};
  enable16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
  enable16.storageBuffer16BitAccess = f.storageBuffer16;
  enable16.uniformAndStorageBuffer16BitAccess = f.uniformStorageBuffer16;
  VkPhysicalDevice8BitStorageFeatures enable8 = {};
  enable8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES;
  enable8.storageBuffer8BitAccess = f.storageBuffer8;
  enable8.uniformAndStorageBuffer8BitAccess = f.uniformStorageBuffer8;
  VkPhysicalDeviceShaderFloat16Int8Features enableFloat16Int8 = {};
  enableFloat16Int8.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES;
  enableFloat16Int8.shaderInt8 = f.int8;
  enableFloat16Int8.shaderFloat16 = f.float16;
  VkPhysicalDeviceShaderAtomicInt64Features enableAtomicInt64 = {};
  enableAtomicInt64.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES;
  enableAtomicInt64.shaderBufferInt64Atomics = f.bufferInt64Atomics;
  next = &enable2.pNext;
  chain(enable16);
  if (has8)
    chain(enable8);
  if (hasFloat16Int8)
    chain(enableFloat16Int8);
  if (hasAtomicInt64)
    chain(enableAtomicInt64);

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo = {};
  queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queueInfo.queueFamilyIndex = s.queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo = {};
  deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  deviceInfo.pNext = &enable2;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  deviceInfo.ppEnabledExtensionNames = extensions.data();
  result = vk.vkCreateDevice(physical, &deviceInfo, nullptr, &s.device);
  if (result != VK_SUCCESS) {
    s.device = VK_NULL_HANDLE;
    return "GPU: cannot create a Vulkan device on " + s.name + " (" +
           vkError(result) + ")";
  }
#define RESOLVE(fn)                                                            \
  vk.fn = reinterpret_cast<PFN_##fn>(vk.vkGetDeviceProcAddr(s.device, #fn));   \
  if (!vk.fn)                                                                  \
    return "GPU: the Vulkan device " + s.name + " lacks " #fn;
  VRIR_VK_DEVICE_FUNCTIONS(RESOLVE)
#undef RESOLVE
  vk.vkGetDeviceQueue(s.device, s.queueFamily, 0, &s.queue);

  // The pipeline cache, from the disk where a process on this device and
  // driver left one (a driver ignores data it cannot use).
  s.pipelineCacheKey = diskCacheKey(
      {"vulkan", s.properties.deviceName,
       formatString("%u:%u:%u", s.properties.vendorID, s.properties.deviceID,
                    s.properties.driverVersion),
       std::string_view(
           reinterpret_cast<const char *>(s.properties.pipelineCacheUUID),
           VK_UUID_SIZE)});
  std::string cacheData;
  diskCacheRead(s.pipelineCacheKey, cacheData);
  VkPipelineCacheCreateInfo cacheInfo = {};
  cacheInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  cacheInfo.initialDataSize = cacheData.size();
  cacheInfo.pInitialData = cacheData.data();
  if (vk.vkCreatePipelineCache(s.device, &cacheInfo, nullptr,
                               &s.pipelineCache) != VK_SUCCESS) {
    cacheInfo.initialDataSize = 0;
    cacheInfo.pInitialData = nullptr;
    if (vk.vkCreatePipelineCache(s.device, &cacheInfo, nullptr,
                                 &s.pipelineCache) != VK_SUCCESS)
      s.pipelineCache = VK_NULL_HANDLE;
  }

  VkCommandPoolCreateInfo poolInfo = {};
  poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = s.queueFamily;
  result = vk.vkCreateCommandPool(s.device, &poolInfo, nullptr, &s.commandPool);
  if (result == VK_SUCCESS) {
    VkCommandBufferAllocateInfo allocate = {};
    allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    allocate.commandPool = s.commandPool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    for (Batch &batch : s.batches)
      if (result == VK_SUCCESS)
        result =
            vk.vkAllocateCommandBuffers(s.device, &allocate, &batch.commands);
  }
  VkFenceCreateInfo fenceInfo = {};
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  for (Batch &batch : s.batches)
    if (result == VK_SUCCESS)
      result = vk.vkCreateFence(s.device, &fenceInfo, nullptr, &batch.fence);
  if (result != VK_SUCCESS)
    return "GPU: cannot create a Vulkan command buffer on " + s.name + " (" +
           vkError(result) + ")";

  // Mapped buffers where the device works on host memory (lavapipe,
  // integrated GPUs); staging copies for discrete GPUs, even where all VRAM
  // is host-visible (resizable BAR): the host reads uncached VRAM at PCIe
  // read speed. On an H100, downloads from mapped VRAM made 10 Jacobi
  // sweeps on 4096x4096 take 120 s instead of under 1 s.
  s.staging = s.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
  if (const char *staging = std::getenv("VRIR_VULKAN_STAGING")) {
    if (std::strcmp(staging, "1") == 0)
      s.staging = true;
    else if (std::strcmp(staging, "0") == 0)
      s.staging = false;
  }

  std::string error;
  // Error records at offsets a descriptor may start at.
  s.errorSlotBytes = std::max<VkDeviceSize>(
      64, s.properties.limits.minStorageBufferOffsetAlignment);
  if (!acquireBuffer(s, kErrorSlots * s.errorSlotBytes, true, s.errorBuffer,
                     error) ||
      !acquireBuffer(s, kParamBytes, true, s.emptyBuffer, error))
    return error;
  std::memset(s.errorBuffer.mapped, 0, kErrorSlots * s.errorSlotBytes);

  if (verboseEnabled()) {
    const VkPhysicalDeviceLimits &limits = s.properties.limits;
    std::fprintf(
        stderr,
        "VRIR GPU: Vulkan device %s (%s, Vulkan %s, SPIR-V up to 1.%u; "
        "work-groups up to %ux%ux%u, grid up to %ux%ux%u; float64 %d, int64 "
        "%d, int64 atomics %d, int16 %d, int8 %d, 8-bit storage %d, 16-bit "
        "storage %d; %s)\n",
        s.properties.deviceName, deviceTypeName(s.properties.deviceType),
        versionString(s.apiVersion).c_str(), (s.maxSpirv >> 8) & 0xff,
        limits.maxComputeWorkGroupSize[0], limits.maxComputeWorkGroupSize[1],
        limits.maxComputeWorkGroupSize[2], limits.maxComputeWorkGroupCount[0],
        limits.maxComputeWorkGroupCount[1], limits.maxComputeWorkGroupCount[2],
        f.float64, f.int64, f.bufferInt64Atomics, f.int16, f.int8,
        f.storageBuffer8, f.storageBuffer16,
        s.staging ? "device-local buffers through staging copies"
                  : "mapped buffers");
  }
  return "";
}

// Returns whether a device is there (initializing on the first call).
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
// Modules and pipelines
//===----------------------------------------------------------------------===//

// Why the device cannot run a module with these capabilities, or "".
std::string missingFeature(const State &s,
                           const std::vector<uint32_t> &capabilities) {
  const Features &f = s.features;
  for (uint32_t capability : capabilities) {
    const char *name = nullptr, *feature = nullptr;
    bool has = true;
    switch (capability) {
#define CASE(number, capabilityName, featureName, member)                      \
  case number:                                                                 \
    name = capabilityName;                                                     \
    feature = featureName;                                                     \
    has = f.member;                                                            \
    break;
      CASE(9, "Float16", "shaderFloat16", float16)
      CASE(10, "Float64", "shaderFloat64", float64)
      CASE(11, "Int64", "shaderInt64", int64)
      CASE(12, "Int64Atomics", "shaderBufferInt64Atomics", bufferInt64Atomics)
      CASE(22, "Int16", "shaderInt16", int16)
      CASE(39, "Int8", "shaderInt8", int8)
      CASE(4433, "StorageBuffer16BitAccess", "storageBuffer16BitAccess",
           storageBuffer16)
      CASE(4434, "UniformAndStorageBuffer16BitAccess",
           "uniformAndStorageBuffer16BitAccess", uniformStorageBuffer16)
      CASE(4448, "StorageBuffer8BitAccess", "storageBuffer8BitAccess",
           storageBuffer8)
      CASE(4449, "UniformAndStorageBuffer8BitAccess",
           "uniformAndStorageBuffer8BitAccess", uniformStorageBuffer8)
#undef CASE
    default:
      break;
    }
    if (!has)
      return formatString("needs the SPIR-V capability %s, but %s lacks the "
                          "Vulkan feature %s",
                          name, s.name.c_str(), feature);
  }
  return "";
}

// Finds or loads the module of `binary` (a whole number of words). Returns
// it; its `error` says whether it can be used.
Module &getModule(State &s, std::string_view binary, const char *kernelName) {
  auto found = s.modules.find(binary);
  if (found != s.modules.end())
    return *found->second;
  auto owned = std::make_unique<Module>();
  Module &module = *owned;
  module.bytes.assign(binary.data(), binary.size());
  module.words.resize(binary.size() / 4);
  std::memcpy(module.words.data(), binary.data(), binary.size());

  auto start = std::chrono::steady_clock::now();
  module.error = parseSpirv(module.words, module.info);
  if (module.error.empty() && module.info.version > s.maxSpirv)
    module.error = formatString(
        "is SPIR-V %u.%u, newer than the SPIR-V 1.%u that %s takes",
        (module.info.version >> 16) & 0xff, (module.info.version >> 8) & 0xff,
        (s.maxSpirv >> 8) & 0xff, s.name.c_str());
  if (module.error.empty())
    module.error = missingFeature(s, module.info.capabilities);
  if (module.error.empty()) {
    VkShaderModuleCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = module.words.size() * sizeof(uint32_t);
    info.pCode = module.words.data();
    VkResult result =
        s.vk.vkCreateShaderModule(s.device, &info, nullptr, &module.module);
    if (result != VK_SUCCESS) {
      module.module = VK_NULL_HANDLE;
      module.error =
          "could not be loaded (vkCreateShaderModule: " + vkError(result) + ")";
    }
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  runtimeStats().compileSeconds += seconds;
  if (!module.error.empty()) {
    // No pipeline will be built: the failed load is the compile.
    ++runtimeStats().compiles;
    if (verboseEnabled())
      std::fprintf(stderr,
                   "VRIR GPU: failed to load %zu bytes of Vulkan SPIR-V "
                   "(kernel '%s') in %.3f s\n",
                   module.bytes.size(), kernelName, seconds);
  }
  std::string_view key(module.bytes);
  s.modules.emplace(key, std::move(owned));
  return module;
}

// The layout of `numBindings` storage buffers in set 0. Returns null with
// `error` set on failure.
const Layout *getLayout(State &s, uint32_t numBindings, std::string &error) {
  auto found = s.layouts.find(numBindings);
  if (found != s.layouts.end())
    return &found->second;
  std::vector<VkDescriptorSetLayoutBinding> bindings(numBindings);
  for (uint32_t i = 0; i < numBindings; ++i) {
    bindings[i] = {};
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  Layout layout;
  VkDescriptorSetLayoutCreateInfo setInfo = {};
  setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  setInfo.bindingCount = numBindings;
  setInfo.pBindings = bindings.data();
  VkResult result = s.vk.vkCreateDescriptorSetLayout(s.device, &setInfo,
                                                     nullptr, &layout.set);
  if (result == VK_SUCCESS) {
    VkPipelineLayoutCreateInfo pipelineInfo = {};
    pipelineInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pipelineInfo.setLayoutCount = 1;
    pipelineInfo.pSetLayouts = &layout.set;
    result = s.vk.vkCreatePipelineLayout(s.device, &pipelineInfo, nullptr,
                                         &layout.pipeline);
  }
  if (result != VK_SUCCESS) {
    error = formatString("GPU: cannot create a Vulkan pipeline layout of %u "
                         "storage buffers (%s)",
                         numBindings, vkError(result).c_str());
    return nullptr;
  }
  return &s.layouts.emplace(numBindings, layout).first->second;
}

// Finds or builds the pipeline of kernel `kernelName` of `module` with
// `layout`. Returns null with `error` set when that failed.
VkPipeline getPipeline(State &s, Module &module, const char *kernelName,
                       uint32_t numBindings, const Layout &layout,
                       std::string &error) {
  auto key = std::make_pair(std::string(kernelName), numBindings);
  auto found = module.pipelines.find(key);
  if (found == module.pipelines.end()) {
    Pipeline pipeline;
    auto start = std::chrono::steady_clock::now();
    VkComputePipelineCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module.module;
    info.stage.pName = kernelName;
    info.layout = layout.pipeline;
    VkResult result = s.vk.vkCreateComputePipelines(
        s.device, s.pipelineCache, 1, &info, nullptr, &pipeline.pipeline);
    if (result == VK_SUCCESS && s.pipelineCache) {
      // Keep the grown cache for the next process.
      size_t size = 0;
      if (s.vk.vkGetPipelineCacheData(s.device, s.pipelineCache, &size,
                                      nullptr) == VK_SUCCESS &&
          size > 0) {
        std::string data(size, '\0');
        if (s.vk.vkGetPipelineCacheData(s.device, s.pipelineCache, &size,
                                        data.data()) == VK_SUCCESS) {
          data.resize(size);
          diskCacheWrite(s.pipelineCacheKey, data);
        }
      }
    }
    if (result != VK_SUCCESS) {
      pipeline.pipeline = VK_NULL_HANDLE;
      pipeline.error = formatString(
          "GPU: Vulkan pipeline creation failed for kernel '%s' on %s (%s)",
          kernelName, s.name.c_str(), vkError(result).c_str());
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    ++runtimeStats().compiles;
    runtimeStats().compileSeconds += seconds;
    if (verboseEnabled())
      std::fprintf(stderr,
                   "VRIR GPU: %s kernel '%s' of %zu bytes of Vulkan SPIR-V "
                   "in %.3f s\n",
                   pipeline.pipeline ? "compiled" : "failed to compile",
                   kernelName, module.bytes.size(), seconds);
    found = module.pipelines.emplace(std::move(key), std::move(pipeline)).first;
  }
  if (!found->second.pipeline) {
    error = found->second.error;
    return VK_NULL_HANDLE;
  }
  return found->second.pipeline;
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

// The parameter buffer of a launch that is not recorded (yet).
struct LaunchResources {
  State &s;
  Buffer params; // offsets and scalars
  explicit LaunchResources(State &s) : s(s) {}
  ~LaunchResources() { releaseBuffer(s, params); }
};

// A descriptor set of `numBindings` storage buffers with `layout` from the
// batch's pool (which the caller made sure has room or is idle; an idle
// pool too small is replaced).
VkResult allocateDescriptorSet(State &s, Batch &batch, uint32_t numBindings,
                               const Layout &layout, VkDescriptorSet &set) {
  if (batch.descriptorsUsed + numBindings > batch.descriptorCapacity) {
    if (batch.descriptorPool)
      s.vk.vkDestroyDescriptorPool(s.device, batch.descriptorPool, nullptr);
    batch.descriptorPool = VK_NULL_HANDLE;
    batch.descriptorCapacity = 0;
    uint32_t capacity =
        std::max<uint32_t>(numBindings * kBatchLaunches, 64 * kBatchLaunches);
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, capacity};
    VkDescriptorPoolCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    info.maxSets = kBatchLaunches;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    VkResult result = s.vk.vkCreateDescriptorPool(s.device, &info, nullptr,
                                                  &batch.descriptorPool);
    if (result != VK_SUCCESS) {
      batch.descriptorPool = VK_NULL_HANDLE;
      return result;
    }
    batch.descriptorCapacity = capacity;
  }
  VkDescriptorSetAllocateInfo allocate = {};
  allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  allocate.descriptorPool = batch.descriptorPool;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &layout.set;
  VkResult result = s.vk.vkAllocateDescriptorSets(s.device, &allocate, &set);
  if (result == VK_SUCCESS)
    batch.descriptorsUsed += numBindings;
  return result;
}

// Where parameter blocks live: in host-visible device memory (the GPU
// reads a launch's scalars from its own memory; the host writes a few
// hundred bytes through the BAR), unless VRIR_VULKAN_PARAMS=host (system
// memory, which every work-item then reads across PCIe).
bool paramsNearDevice() {
  static const bool nearDevice = [] {
    const char *text = std::getenv("VRIR_VULKAN_PARAMS");
    return !(text && std::strcmp(text, "host") == 0);
  }();
  return nearDevice;
}

// Begins recording `commands` (idle).
VkResult beginCommands(State &s, VkCommandBuffer commands) {
  VkResult result = s.vk.vkResetCommandBuffer(commands, 0);
  VkCommandBufferBeginInfo begin = {};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (result == VK_SUCCESS)
    result = s.vk.vkBeginCommandBuffer(commands, &begin);
  return result;
}

// Points bindings 0 to count - 1 of `set` at the storage buffers `infos`.
void writeStorageBuffers(State &s, VkDescriptorSet set,
                         const VkDescriptorBufferInfo *infos, uint32_t count) {
  std::vector<VkWriteDescriptorSet> writes(count);
  for (uint32_t b = 0; b < count; ++b) {
    writes[b] = {};
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = set;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &infos[b];
  }
  s.vk.vkUpdateDescriptorSets(s.device, count, writes.data(), 0, nullptr);
}

// Begins recording `batch` unless it is being recorded.
VkResult beginRecording(State &s, Batch &batch) {
  if (batch.recording)
    return VK_SUCCESS;
  VkResult result = beginCommands(s, batch.commands);
  batch.recording = result == VK_SUCCESS;
  return result;
}

// Records a global memory barrier into `commands`.
void recordBarrier(State &s, VkCommandBuffer commands,
                   VkPipelineStageFlags srcStages, VkAccessFlags srcAccess,
                   VkPipelineStageFlags dstStages, VkAccessFlags dstAccess) {
  VkMemoryBarrier barrier = {};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = srcAccess;
  barrier.dstAccessMask = dstAccess;
  s.vk.vkCmdPipelineBarrier(commands, srcStages, dstStages, 0, 1, &barrier, 0,
                            nullptr, 0, nullptr);
}

// Ends `commands` and submits it, signalling `fence`.
VkResult submit(State &s, VkCommandBuffer commands, VkFence fence) {
  VkResult result = s.vk.vkEndCommandBuffer(commands);
  if (result != VK_SUCCESS)
    return result;
  VkSubmitInfo info = {};
  info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  info.commandBufferCount = 1;
  info.pCommandBuffers = &commands;
  return s.vk.vkQueueSubmit(s.queue, 1, &info, fence);
}

// How long a wait polls the fence before it blocks: VRIR_VULKAN_SPIN_US
// microseconds, 1000 by default (0: block at once). A blocked thread wakes
// up later than a polling one sees the fence, which a loop that reads one
// result per step pays every step (on an H200: 0.785 -> 0.717 ms per step
// of a 2^27 sum); OpenCL and CUDA drivers spin too.
std::chrono::microseconds fenceSpinTime() {
  static const std::chrono::microseconds spin = [] {
    const char *text = std::getenv("VRIR_VULKAN_SPIN_US");
    return std::chrono::microseconds(text ? std::strtoull(text, nullptr, 10)
                                          : 1000);
  }();
  return spin;
}

// Waits for `fence` and resets it. After a failure the device is idle and
// the fence reset all the same (the next submission may use it).
VkResult waitAndReset(State &s, VkFence fence) {
  CountedWait counted;
  auto spinUntil = std::chrono::steady_clock::now() + fenceSpinTime();
  while (s.vk.vkGetFenceStatus(s.device, fence) == VK_NOT_READY &&
         std::chrono::steady_clock::now() < spinUntil) {
  }
  VkResult result =
      s.vk.vkWaitForFences(s.device, 1, &fence, VK_TRUE, UINT64_MAX);
  if (result != VK_SUCCESS)
    s.vk.vkDeviceWaitIdle(s.device);
  VkResult reset = s.vk.vkResetFences(s.device, 1, &fence);
  if (result == VK_SUCCESS)
    result = reset;
  if (result == VK_ERROR_DEVICE_LOST)
    s.lost = true;
  return result;
}

// Finishes batch `b` (submitting it if it is still being recorded): waits
// for it, reports the first failed bounds check of its launches (if
// `report`), and frees what it held.
std::string finishBatch(State &s, size_t b, bool report) {
  Batch &batch = s.batches[b];
  VkResult result = VK_SUCCESS;
  if (batch.recording) {
    batch.recording = false;
    result = submit(s, batch.commands, batch.fence);
    batch.submitted = result == VK_SUCCESS;
  }
  if (batch.submitted) {
    batch.submitted = false;
    VkResult waited = waitAndReset(s, batch.fence);
    if (result == VK_SUCCESS)
      result = waited;
  }
  if (batch.descriptorPool)
    s.vk.vkResetDescriptorPool(s.device, batch.descriptorPool, 0);
  batch.descriptorsUsed = 0;
  if (batch.copyDescriptorPool)
    s.vk.vkResetDescriptorPool(s.device, batch.copyDescriptorPool, 0);
  batch.copySetsUsed = 0;
  for (Buffer &buffer : batch.buffers)
    releaseBuffer(s, buffer);
  batch.buffers.clear();
  size_t slotWords = s.errorSlotBytes / sizeof(int64_t);
  auto *words = static_cast<int64_t *>(s.errorBuffer.mapped) +
                b * kBatchLaunches * slotWords;
  size_t count = batch.launches.size();
  if (report && result == VK_SUCCESS)
    reportBoundsErrors(batch.launches, words, slotWords);
  std::memset(words, 0, count * s.errorSlotBytes);
  batch.launches.clear();
  if (result != VK_SUCCESS)
    return formatString("GPU: running %zu kernels on %s failed (%s)", count,
                        s.name.c_str(), vkError(result).c_str());
  return "";
}

// Waits for every batch, oldest first.
std::string flushLocked(State &s, bool report = true) {
  if (!s.initialized || !s.initError.empty())
    return "";
  std::string error;
  for (size_t i = 1; i <= kBatches; ++i) {
    std::string batchError = finishBatch(s, (s.current + i) % kBatches, report);
    if (error.empty())
      error = batchError;
  }
  // Nothing in flight uses the retired buffers any more.
  s.retired.drain([&](Buffer &buffer) { releaseBuffer(s, buffer); });
  return error;
}

// Whether a batch is being recorded or was submitted and not waited for.
bool workInFlight(const State &s) {
  for (const Batch &b : s.batches)
    if (b.recording || b.submitted)
      return true;
  return false;
}

// A retired buffer of `bytes` to 2 * `bytes` bytes (the smallest), taken
// for device work recorded from now on: a barrier in the current batch
// orders that work after everything recorded before. False when there is
// none.
bool takeRetired(State &s, VkDeviceSize bytes, Buffer &buffer) {
  if (!s.retired.take(
          std::max(bytes, kMinBufferBytes), [](const Buffer &) { return true; },
          buffer))
    return false;
  Batch &batch = s.batches[s.current];
  if (beginRecording(s, batch) != VK_SUCCESS) {
    batch.buffers.push_back(buffer); // released once the batch finished
    return false;
  }
  VkPipelineStageFlags stages =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  recordBarrier(s, batch.commands, stages,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                stages,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                    VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  return true;
}

// Device copies per batch that get a kernel (descriptor sets of the copy
// pool); later ones in the same batch use the copy command.
constexpr uint32_t kBatchCopies = 64;

// Records the copy kernel (CopyShader.spvasm) copying the first `bytes`
// bytes of `source` to `target` into `batch`, which is being recorded.
// False, with nothing recorded, where it cannot: the kernel failed to load,
// the batch's copy sets are used up, or the range is beyond what a storage
// buffer may bind. The range is rounded up to 16 bytes, within both
// buffers (their capacities are multiples of 256 bytes).
bool copyWithKernel(State &s, Batch &batch, const Buffer &source,
                    const Buffer &target, size_t bytes) {
  VkDeviceSize range = (static_cast<VkDeviceSize>(bytes) + 15) / 16 * 16;
  const VkPhysicalDeviceLimits &limits = s.properties.limits;
  if (range == 0 || range > limits.maxStorageBufferRange ||
      range > source.capacity || range > target.capacity ||
      batch.copySetsUsed == kBatchCopies)
    return false;
  std::string error;
  const Layout *layout = getLayout(s, 2, error);
  if (!layout)
    return false;
  Module &module =
      getModule(s,
                std::string_view(reinterpret_cast<const char *>(kCopyShader),
                                 sizeof(kCopyShader)),
                "vrir_copy");
  if (!module.error.empty())
    return false;
  VkPipeline pipeline = getPipeline(s, module, "vrir_copy", 2, *layout, error);
  if (!pipeline)
    return false;
  if (!batch.copyDescriptorPool) {
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                 2 * kBatchCopies};
    VkDescriptorPoolCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    info.maxSets = kBatchCopies;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    if (s.vk.vkCreateDescriptorPool(s.device, &info, nullptr,
                                    &batch.copyDescriptorPool) != VK_SUCCESS) {
      batch.copyDescriptorPool = VK_NULL_HANDLE;
      return false;
    }
  }
  VkDescriptorSetAllocateInfo allocate = {};
  allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  allocate.descriptorPool = batch.copyDescriptorPool;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &layout->set;
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (s.vk.vkAllocateDescriptorSets(s.device, &allocate, &set) != VK_SUCCESS)
    return false;
  ++batch.copySetsUsed;
  VkDescriptorBufferInfo infos[2] = {{source.buffer, 0, range},
                                     {target.buffer, 0, range}};
  writeStorageBuffers(s, set, infos, 2);
  // Work-groups of 256 work-items, each a 16-byte element per round.
  VkDeviceSize groups = std::min<VkDeviceSize>(
      (range / 16 + 255) / 256,
      std::min<uint32_t>(limits.maxComputeWorkGroupCount[0], 65535));
  s.vk.vkCmdBindPipeline(batch.commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                         pipeline);
  s.vk.vkCmdBindDescriptorSets(batch.commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                               layout->pipeline, 0, 1, &set, 0, nullptr);
  s.vk.vkCmdDispatch(batch.commands, static_cast<uint32_t>(groups), 1, 1);
  return true;
}

// The device memory of the residency table. Mapped buffers are filled and
// read with memcpy; device-local ones through a staging buffer and a copy
// command, waited for.
class VulkanMemory final : public DeviceMemory {
public:
  std::string allocate(size_t bytes, DeviceBuffer &buffer) override {
    State &s = getState();
    auto *vkBuffer = new Buffer();
    std::string error;
    if (s.staging && !s.lost && takeRetired(s, bytes, *vkBuffer)) {
      buffer.handle = vkBuffer;
      buffer.capacity = vkBuffer->capacity;
      return "";
    }
    if (!acquireBuffer(s, bytes, !s.staging, *vkBuffer, error)) {
      delete vkBuffer;
      return error;
    }
    buffer.handle = vkBuffer;
    buffer.capacity = vkBuffer->capacity;
    return "";
  }
  void release(DeviceBuffer &buffer) override {
    State &s = getState();
    auto *vkBuffer = static_cast<Buffer *>(buffer.handle);
    // Kernels in flight may use it: a device-local one is retired (later
    // device work may take it), another goes with the current batch.
    // Retired ones pushed out of the full pool of retired buffers go with
    // the current batch too.
    auto withCurrentBatch = [&](Buffer &old) {
      s.batches[s.current].buffers.push_back(old);
    };
    if (!workInFlight(s))
      releaseBuffer(s, *vkBuffer);
    else if (!vkBuffer->host && !s.lost)
      s.retired.give(*vkBuffer, withCurrentBatch);
    else
      withCurrentBatch(*vkBuffer);
    delete vkBuffer;
    buffer = DeviceBuffer();
  }
  std::string flush(bool report) override {
    return flushLocked(getState(), report);
  }
  void trim() override { drainPool(getState()); }
  std::string upload(const DeviceBuffer &buffer, const void *host,
                     size_t bytes) override {
    return copy(*static_cast<Buffer *>(buffer.handle), const_cast<void *>(host),
                bytes, /*toDevice=*/true);
  }
  std::string download(const DeviceBuffer &buffer, void *host,
                       size_t bytes) override {
    return copy(*static_cast<Buffer *>(buffer.handle), host, bytes,
                /*toDevice=*/false);
  }
  // Recorded into the current batch, between barriers: behind the kernels
  // and copies that wrote `from` before it, ahead of whatever uses `to`.
  // A kernel copies (copyWithKernel); the copy command is the fallback.
  std::string copy(const DeviceBuffer &from, const DeviceBuffer &to,
                   size_t bytes) override {
    State &s = getState();
    if (s.lost)
      return "GPU: the Vulkan device " + s.name +
             " was lost in an earlier launch";
    Batch &batch = s.batches[s.current];
    VkResult result = beginRecording(s, batch);
    if (result != VK_SUCCESS)
      return "GPU: cannot record Vulkan commands (" + vkError(result) + ")";
    const auto &source = *static_cast<Buffer *>(from.handle);
    const auto &target = *static_cast<Buffer *>(to.handle);
    VkPipelineStageFlags stages =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    recordBarrier(
        s, batch.commands, stages,
        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, stages,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
            VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    if (!copyWithKernel(s, batch, source, target, bytes)) {
      VkBufferCopy region = {0, 0, bytes};
      s.vk.vkCmdCopyBuffer(batch.commands, source.buffer, target.buffer, 1,
                           &region);
    }
    recordBarrier(s, batch.commands, stages,
                  VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                  stages | VK_PIPELINE_STAGE_HOST_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                      VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT);
    return "";
  }

private:
  // Copies through a staging buffer are recorded into the current batch,
  // behind the kernels that come before them: an upload needs no wait, a
  // download one (for the whole batch). Mapped buffers are copied by the
  // host once the kernels in flight finished. Copies larger than a chunk
  // go through the two staging slots instead (copyInChunks).
  std::string copy(Buffer &device, void *host, size_t bytes, bool toDevice) {
    State &s = getState();
    std::string error;
    auto failed = [&](const std::string &error) {
      return formatString("GPU: copying %zu bytes %s the device %s failed: %s",
                          bytes, toDevice ? "to" : "from", s.name.c_str(),
                          error.c_str());
    };
    if (!device.mapped && !s.lost && bytes > stagingChunkBytes()) {
      error =
          copyInChunks(s, device, static_cast<char *>(host), bytes, toDevice);
      return error.empty() ? "" : failed(error);
    }
    if (device.mapped) {
      // Downloaded results must not be seen before a failed bounds check.
      error = flushLocked(s);
      if (!error.empty())
        return error;
      if (toDevice)
        std::memcpy(device.mapped, host, bytes);
      else
        std::memcpy(host, device.mapped, bytes);
      return "";
    }
    if (s.lost)
      return "GPU: the Vulkan device " + s.name +
             " was lost in an earlier launch";
    Buffer staging;
    if (!acquireBuffer(s, bytes, true, staging, error))
      return error;
    if (toDevice)
      std::memcpy(staging.mapped, host, bytes);
    Batch &batch = s.batches[s.current];
    VkResult result = beginRecording(s, batch);
    if (result == VK_SUCCESS) {
      VkBufferCopy region = {0, 0, bytes};
      VkMemoryBarrier barrier = {};
      barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      if (toDevice) {
        s.vk.vkCmdCopyBuffer(batch.commands, staging.buffer, device.buffer, 1,
                             &region);
        barrier.dstAccessMask =
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        s.vk.vkCmdPipelineBarrier(batch.commands,
                                  VK_PIPELINE_STAGE_TRANSFER_BIT,
                                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                  &barrier, 0, nullptr, 0, nullptr);
        // The staging buffer lives until the batch finished.
        batch.buffers.push_back(staging);
        return "";
      }
      s.vk.vkCmdCopyBuffer(batch.commands, device.buffer, staging.buffer, 1,
                           &region);
      barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      s.vk.vkCmdPipelineBarrier(batch.commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                                nullptr, 0, nullptr);
      error = flushLocked(s);
      if (error.empty())
        std::memcpy(host, staging.mapped, bytes);
    } else {
      error = "GPU: cannot record Vulkan commands (" + vkError(result) + ")";
    }
    releaseBuffer(s, staging);
    return error.empty() ? "" : failed(error);
  }

  // Bytes per chunk of a large copy: 64 MiB (VRIR_VULKAN_STAGING_CHUNK
  // changes it, for tests). A whole-array staging buffer would be allocated
  // (and, on NVIDIA, pinned) afresh for every large copy.
  static size_t stagingChunkBytes() {
    static const size_t chunk = [] {
      const char *text = std::getenv("VRIR_VULKAN_STAGING_CHUNK");
      size_t bytes = text ? std::strtoull(text, nullptr, 10) : 0;
      return bytes >= 256 ? bytes : size_t(64) << 20;
    }();
    return chunk;
  }

  // Creates the staging slots on first use.
  static std::string ensureStagingSlots(State &s) {
    for (StagingSlot &slot : s.stagingSlots) {
      if (slot.buffer.buffer)
        continue;
      VkCommandBufferAllocateInfo allocate = {};
      allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
      allocate.commandPool = s.commandPool;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate.commandBufferCount = 1;
      VkResult result =
          s.vk.vkAllocateCommandBuffers(s.device, &allocate, &slot.commands);
      VkFenceCreateInfo fenceInfo = {};
      fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
      if (result == VK_SUCCESS)
        result = s.vk.vkCreateFence(s.device, &fenceInfo, nullptr, &slot.fence);
      if (result == VK_SUCCESS)
        result = createBuffer(s, stagingChunkBytes(), /*host=*/true,
                              /*nearDevice=*/false, slot.buffer);
      if (result != VK_SUCCESS)
        return "cannot create a staging buffer (" + vkError(result) + ")";
    }
    return "";
  }

  // A large copy, chunk by chunk through the two staging slots: the host
  // copies chunk k into (or out of) one slot while the device copies chunk
  // k+1 (or k-1) through the other. Everything in flight finishes first
  // (nothing then reads or writes `device` behind the copy), and the copy
  // is complete on return.
  static std::string copyInChunks(State &s, Buffer &device, char *host,
                                  size_t bytes, bool toDevice) {
    std::string error = flushLocked(s);
    if (error.empty())
      error = ensureStagingSlots(s);
    if (!error.empty())
      return error;
    size_t chunk = stagingChunkBytes();
    size_t chunks = (bytes + chunk - 1) / chunk;
    auto chunkBytes = [&](size_t k) {
      return std::min(chunk, bytes - k * chunk);
    };
    auto idle = [&](StagingSlot &slot) {
      if (!slot.busy)
        return VK_SUCCESS;
      slot.busy = false;
      return waitAndReset(s, slot.fence);
    };
    VkResult result = VK_SUCCESS;
    for (size_t k = 0; k < chunks && result == VK_SUCCESS; ++k) {
      StagingSlot &slot = s.stagingSlots[k % 2];
      result = idle(slot);
      if (result != VK_SUCCESS)
        break;
      if (toDevice)
        std::memcpy(slot.buffer.mapped, host + k * chunk, chunkBytes(k));
      result = beginCommands(s, slot.commands);
      if (result != VK_SUCCESS)
        break;
      VkBufferCopy region = {toDevice ? 0 : k * chunk, toDevice ? k * chunk : 0,
                             chunkBytes(k)};
      s.vk.vkCmdCopyBuffer(
          slot.commands, toDevice ? slot.buffer.buffer : device.buffer,
          toDevice ? device.buffer : slot.buffer.buffer, 1, &region);
      VkMemoryBarrier barrier = {};
      barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.dstAccessMask =
          toDevice ? VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT
                   : VK_ACCESS_HOST_READ_BIT;
      s.vk.vkCmdPipelineBarrier(slot.commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                toDevice ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
                                         : VK_PIPELINE_STAGE_HOST_BIT,
                                0, 1, &barrier, 0, nullptr, 0, nullptr);
      result = submit(s, slot.commands, slot.fence);
      slot.busy = result == VK_SUCCESS;
      // A download empties the previous chunk's slot meanwhile.
      if (!toDevice && k > 0 && result == VK_SUCCESS) {
        StagingSlot &previous = s.stagingSlots[(k - 1) % 2];
        result = idle(previous);
        if (result == VK_SUCCESS)
          std::memcpy(host + (k - 1) * chunk, previous.buffer.mapped,
                      chunkBytes(k - 1));
      }
    }
    if (!toDevice && result == VK_SUCCESS) {
      StagingSlot &last = s.stagingSlots[(chunks - 1) % 2];
      result = idle(last);
      if (result == VK_SUCCESS)
        std::memcpy(host + (chunks - 1) * chunk, last.buffer.mapped,
                    chunkBytes(chunks - 1));
    }
    for (StagingSlot &slot : s.stagingSlots) {
      VkResult waited = idle(slot);
      if (result == VK_SUCCESS)
        result = waited;
    }
    if (result != VK_SUCCESS)
      return vkError(result);
    return "";
  }
};

std::string launchLocked(State &s, const char *binary, int64_t binarySize,
                         const char *kernelName, const char *sites,
                         int64_t numSites, const size_t grid[3],
                         const size_t block[3], int64_t numArgs,
                         const vrir_gpu_arg *args) {
  if (binarySize % 4 != 0)
    return formatString("GPU: the Vulkan SPIR-V binary of kernel '%s' has "
                        "%lld bytes, not a whole number of 32-bit words",
                        kernelName, static_cast<long long>(binarySize));
  if (!ensureInitialized(s))
    return s.initError;
  if (s.lost)
    return "GPU: the Vulkan device " + s.name +
           " was lost in an earlier launch";
  const Vulkan &vk = s.vk;
  const VkPhysicalDeviceLimits &limits = s.properties.limits;

  // Work sizes.
  for (int d = 0; d < 3; ++d)
    if (grid[d] > limits.maxComputeWorkGroupCount[d]) {
      noteDeviceLimitReached(); // a host version may run instead
      return formatString(
          "GPU: kernel '%s': a grid of %zu work-groups exceeds the device's "
          "limit %u in dimension %d (maxComputeWorkGroupCount of %s)",
          kernelName, grid[d], limits.maxComputeWorkGroupCount[d], d,
          s.name.c_str());
    }
  size_t groupItems = block[0] * block[1] * block[2];
  for (int d = 0; d < 3; ++d)
    if (block[d] > limits.maxComputeWorkGroupSize[d])
      return formatString(
          "GPU: block %zux%zux%zu exceeds the largest work-group of %s in "
          "dimension %d (%u)",
          block[0], block[1], block[2], s.name.c_str(), d,
          limits.maxComputeWorkGroupSize[d]);
  if (groupItems > limits.maxComputeWorkGroupInvocations)
    return formatString(
        "GPU: block %zux%zux%zu has %zu work-items, more than the %u "
        "work-items a work-group of %s may have",
        block[0], block[1], block[2], groupItems,
        limits.maxComputeWorkGroupInvocations, s.name.c_str());

  // Module and kernel.
  Module &module = getModule(
      s, std::string_view(binary, static_cast<size_t>(binarySize)), kernelName);
  if (!module.error.empty())
    return formatString("GPU: the Vulkan SPIR-V binary of kernel '%s' %s",
                        kernelName, module.error.c_str());
  auto entryPoint = module.info.entryPoints.find(kernelName);
  if (entryPoint == module.info.entryPoints.end()) {
    std::string names;
    for (auto &[name, entry] : module.info.entryPoints)
      names += (names.empty() ? "'" : ", '") + name + "'";
    return formatString("GPU: no kernel '%s' in the Vulkan SPIR-V module (its "
                        "GLCompute entry points: %s)",
                        kernelName, names.empty() ? "none" : names.c_str());
  }
  const EntryPoint &entry = entryPoint->second;
  if (entry.hasLocalSize &&
      (entry.localSize[0] != block[0] || entry.localSize[1] != block[1] ||
       entry.localSize[2] != block[2]))
    return formatString(
        "GPU: kernel '%s' has the work-group size %ux%ux%u (its LocalSize), "
        "but the launch gives the block %zux%zux%zu",
        kernelName, entry.localSize[0], entry.localSize[1], entry.localSize[2],
        block[0], block[1], block[2]);
  if (!entry.resourceError.empty())
    return formatString("GPU: kernel '%s' %s", kernelName,
                        entry.resourceError.c_str());

  // Bindings: one per buffer, the parameter block, the error buffer.
  uint32_t numBuffers = 0, numParams = static_cast<uint32_t>(numArgs);
  for (int64_t i = 0; i < numArgs; ++i)
    numBuffers += args[i].kind == VRIR_GPU_ARG_BUFFER;
  uint32_t numBindings = numBuffers + (numParams > 0) + 1;
  if (!entry.bindings.empty() && entry.bindings.back() >= numBindings)
    return formatString(
        "GPU: kernel '%s' uses binding %u, but the launch passes %u bindings "
        "(%lld arguments: one binding per buffer, one for the offsets and "
        "scalars, and the error buffer)",
        kernelName, entry.bindings.back(), numBindings,
        static_cast<long long>(numArgs));
  if (numBindings > limits.maxPerStageDescriptorStorageBuffers ||
      numBindings > limits.maxDescriptorSetStorageBuffers) {
    noteDeviceLimitReached(); // a host version may run instead
    return formatString(
        "GPU: kernel '%s' needs %u storage buffers, more than the %u a "
        "compute shader of %s may have",
        kernelName, numBindings,
        std::min(limits.maxPerStageDescriptorStorageBuffers,
                 limits.maxDescriptorSetStorageBuffers),
        s.name.c_str());
  }

  std::string error;
  const Layout *layout = getLayout(s, numBindings, error);
  if (!layout)
    return error;
  VkPipeline pipeline =
      getPipeline(s, module, kernelName, numBindings, *layout, error);
  if (!pipeline)
    return error;

  // Device buffers.
  BufferPlan plan;
  error = planBuffers(kernelName, numArgs, args, plan);
  if (!error.empty())
    return error;
  for (const HostGroup &group : plan.groups)
    if (group.bytes() > limits.maxStorageBufferRange) {
      noteDeviceLimitReached(); // a host version may run instead
      return formatString(
          "GPU: kernel '%s': a buffer of %zu bytes exceeds the largest "
          "storage buffer %s can bind (maxStorageBufferRange: %u bytes)",
          kernelName, group.bytes(), s.name.c_str(),
          limits.maxStorageBufferRange);
    }
  ResidencyTable &table = vulkanResidency();
  std::vector<Placement> placements;
  error = table.prepare(plan, numArgs, args, placements);
  if (!error.empty())
    return error;
  // The batch to record into: the current one unless it is full, then the
  // other one once its launches finished.
  Batch *batch = &s.batches[s.current];
  if (batch->recording &&
      (batch->launches.size() == kBatchLaunches ||
       batch->descriptorsUsed + numBindings > batch->descriptorCapacity)) {
    batch->recording = false;
    VkResult result = submit(s, batch->commands, batch->fence);
    if (result != VK_SUCCESS) {
      error = finishBatch(s, s.current, true);
      return error.empty() ? "GPU: cannot submit Vulkan commands (" +
                                 vkError(result) + ")"
                           : error;
    }
    batch->submitted = true;
    s.current = (s.current + 1) % kBatches;
    batch = &s.batches[s.current];
    error = finishBatch(s, s.current, true);
    if (!error.empty())
      return error;
  }
  LaunchResources resources(s);

  // Offsets and scalars: one slot each of the parameter block.
  VkDeviceSize paramBytes = kParamBytes * numParams;
  if (numParams > 0 && !acquireBuffer(s, paramBytes, true, resources.params,
                                      error, paramsNearDevice()))
    return error;
  std::vector<VkDescriptorBufferInfo> infos;
  infos.reserve(numBindings);
  uint32_t param = 0;
  auto addParam = [&](const void *bytes, size_t size) {
    char *target =
        static_cast<char *>(resources.params.mapped) + kParamBytes * param;
    std::memset(target, 0, kParamBytes);
    std::memcpy(target, bytes, size);
    ++param;
  };
  for (int64_t i = 0; i < numArgs; ++i) {
    const vrir_gpu_arg &arg = args[i];
    if (arg.kind == VRIR_GPU_ARG_BUFFER) {
      int64_t offset = plan.offsets[i];
      if (arg.size > 0) {
        const Placement &placement = placements[plan.groupOf[i]];
        const Buffer &buffer = *static_cast<Buffer *>(placement.buffer.handle);
        infos.push_back({buffer.buffer, 0, VK_WHOLE_SIZE});
        offset += static_cast<int64_t>(placement.byteOffset /
                                       static_cast<uint64_t>(arg.elemSize));
      } else {
        infos.push_back({s.emptyBuffer.buffer, 0, VK_WHOLE_SIZE});
      }
      addParam(&offset, sizeof(offset));
    } else {
      // The low bytes of `value` (little-endian).
      addParam(&arg.value, static_cast<size_t>(arg.size));
    }
  }
  if (numParams > 0)
    infos.push_back({resources.params.buffer, 0, paramBytes});
  size_t errorSlot = s.current * kBatchLaunches + batch->launches.size();
  infos.push_back({s.errorBuffer.buffer, errorSlot * s.errorSlotBytes,
                   kErrorWords * sizeof(int64_t)});

  VkDescriptorSet set = VK_NULL_HANDLE;
  VkResult result = allocateDescriptorSet(s, *batch, numBindings, *layout, set);
  if (result != VK_SUCCESS)
    return formatString("GPU: cannot allocate the %u descriptors of kernel "
                        "'%s' (%s)",
                        numBindings, kernelName, vkError(result).c_str());
  writeStorageBuffers(s, set, infos.data(), numBindings);

  // Commands: the dispatch, then a barrier for whatever reads its results
  // (the next kernel, a copy, the host).
  result = beginRecording(s, *batch);
  if (result != VK_SUCCESS)
    return "GPU: cannot record Vulkan commands (" + vkError(result) + ")";
  vk.vkCmdBindPipeline(batch->commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                       pipeline);
  vk.vkCmdBindDescriptorSets(batch->commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                             layout->pipeline, 0, 1, &set, 0, nullptr);
  vk.vkCmdDispatch(batch->commands, static_cast<uint32_t>(grid[0]),
                   static_cast<uint32_t>(grid[1]),
                   static_cast<uint32_t>(grid[2]));
  VkMemoryBarrier barrier = {};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
                          VK_ACCESS_SHADER_WRITE_BIT |
                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT;
  vk.vkCmdPipelineBarrier(batch->commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                              VK_PIPELINE_STAGE_TRANSFER_BIT |
                              VK_PIPELINE_STAGE_HOST_BIT,
                          0, 1, &barrier, 0, nullptr, 0, nullptr);
  batch->launches.push_back({sites, numSites});
  batch->buffers.push_back(resources.params);
  resources.params = Buffer();
  ++runtimeStats().kernels;
  table.markWritten(plan);

  // Outside a scope: run it now and bring the results back.
  if (scopeDepth() == 0)
    return endImplicitScope(table);
  return "";
}

} // namespace

//===----------------------------------------------------------------------===//
// Interface (GPURuntimeInternal.h)
//===----------------------------------------------------------------------===//

namespace vrir::gpu {

ResidencyTable &vulkanResidency() {
  // Never destroyed, like the state.
  static auto *table = new ResidencyTable(*new VulkanMemory());
  return *table;
}

std::string vulkanLaunch(const char *binary, int64_t binarySize,
                         const char *kernelName, const char *sites,
                         int64_t numSites, const size_t grid[3],
                         const size_t block[3], int64_t numArgs,
                         const vrir_gpu_arg *args) {
  return launchLocked(getState(), binary, binarySize, kernelName, sites,
                      numSites, grid, block, numArgs, args);
}

bool vulkanAvailable() { return ensureInitialized(getState()); }

const char *vulkanDeviceName() {
  State &s = getState();
  return s.initialized && s.initError.empty() ? s.name.c_str() : "";
}

} // namespace vrir::gpu
