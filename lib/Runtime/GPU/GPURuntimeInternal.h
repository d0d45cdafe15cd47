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

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
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

// Counts one wait of the host for the device, and its time until the end of
// the scope, in the counters (waits, waitSeconds).
class CountedWait {
public:
  CountedWait() { ++runtimeStats().waits; }
  ~CountedWait() {
    runtimeStats().waitSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  CountedWait(const CountedWait &) = delete;
  CountedWait &operator=(const CountedWait &) = delete;

private:
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
};

//===----------------------------------------------------------------------===//
// Disk cache of compiled programs (DiskCache.cpp)
//===----------------------------------------------------------------------===//

// A file name for the compiled form of `parts` (driver, device, options,
// kernel text...).
std::string diskCacheKey(std::initializer_list<std::string_view> parts);
// Whether an entry for `key` was read into `data`.
bool diskCacheRead(const std::string &key, std::string &data);
// Stores `data` for `key` (atomically; failures are ignored).
void diskCacheWrite(const std::string &key, std::string_view data);

//===----------------------------------------------------------------------===//
// Launches in flight
//===----------------------------------------------------------------------===//

// Launches are not waited for: each gets its own error record (a slot of
// the backend's error buffer), read when the backend next waits for the
// device. A backend waits once this many launches are pending.
constexpr size_t kErrorSlots = 256;
constexpr size_t kErrorWords = 5; // flag, site, dimension, index, extent

// What a pending launch's error record needs to be reported.
struct PendingLaunch {
  const char *sites;
  int64_t numSites;
};

// Passes the first failed bounds check among the error records of
// `pending` (record i at words + i * slotWords) on to
// vrir_rt_parallel_bounds_error. Returns whether a record had failed.
bool reportBoundsErrors(const std::vector<PendingLaunch> &pending,
                        const int64_t *words, size_t slotWords);

//===----------------------------------------------------------------------===//
// Device buffers kept for reuse
//===----------------------------------------------------------------------===//

// A backend's free device buffers, oldest first, at most `maxBytes` bytes in
// `maxSlots` buffers. `Buffer` has a `capacity` in bytes; the backend passes
// how to destroy one.
template <typename Buffer> class BufferPool {
public:
  BufferPool(size_t maxBytes, size_t maxSlots)
      : maxBytes(maxBytes), maxSlots(maxSlots) {}

  // Takes the smallest buffer of `bytes` to 2 * `bytes` bytes for which
  // `usable` holds; false when there is none.
  template <typename Usable>
  bool take(size_t bytes, Usable usable, Buffer &buffer) {
    int best = -1;
    for (size_t i = 0; i < buffers.size(); ++i)
      if (buffers[i].capacity >= bytes && buffers[i].capacity / 2 <= bytes &&
          usable(buffers[i]) &&
          (best < 0 || buffers[i].capacity < buffers[best].capacity))
        best = static_cast<int>(i);
    if (best < 0)
      return false;
    buffer = buffers[best];
    pooledBytes -= buffer.capacity;
    buffers.erase(buffers.begin() + best);
    return true;
  }

  // Keeps `buffer`, destroying the oldest buffers to make room (or
  // `buffer` itself when it is larger than the whole pool).
  template <typename Destroy> void give(Buffer buffer, Destroy destroy) {
    if (buffer.capacity > maxBytes) {
      destroy(buffer);
      return;
    }
    size_t drop = 0;
    while (drop < buffers.size() && (pooledBytes + buffer.capacity > maxBytes ||
                                     buffers.size() - drop + 1 > maxSlots)) {
      pooledBytes -= buffers[drop].capacity;
      destroy(buffers[drop]);
      ++drop;
    }
    buffers.erase(buffers.begin(), buffers.begin() + drop);
    buffers.push_back(buffer);
    pooledBytes += buffer.capacity;
  }

  template <typename Destroy> void drain(Destroy destroy) {
    for (Buffer &buffer : buffers)
      destroy(buffer);
    buffers.clear();
    pooledBytes = 0;
  }

  bool empty() const { return buffers.empty(); }
  // Sets the most bytes kept (before any buffer is given).
  void setMaxBytes(size_t bytes) { maxBytes = bytes; }

private:
  size_t maxBytes, maxSlots;
  std::vector<Buffer> buffers;
  size_t pooledBytes = 0;
};

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
// or touch share one device buffer, arguments of 0 bytes need none. With
// `wholeArrays`, an argument's range first grows to the declared arrays it
// overlaps (growToDeclaredArrays), unless some argument would then not
// start a whole number of elements into its group. Returns an error message
// (such an argument even without growing) or "".
std::string planBuffers(const char *kernelName, int64_t numArgs,
                        const vrir_gpu_arg *args, BufferPlan &plan,
                        bool wholeArrays = true);

//===----------------------------------------------------------------------===//
// Residency (Residency.cpp)
//===----------------------------------------------------------------------===//

// A backend's device buffer, opaque to the residency table.
struct DeviceBuffer {
  void *handle = nullptr; // null: none allocated yet
  size_t capacity = 0;
};

// What a backend does for the residency table; every call is made with
// runtimeMutex() held and blocks until done. Errors are returned as
// messages ("" on success).
class DeviceMemory {
public:
  virtual ~DeviceMemory() = default;
  virtual std::string allocate(size_t bytes, DeviceBuffer &buffer) = 0;
  virtual void release(DeviceBuffer &buffer) = 0;
  virtual std::string upload(const DeviceBuffer &buffer, const void *host,
                             size_t bytes) = 0;
  virtual std::string download(const DeviceBuffer &buffer, void *host,
                               size_t bytes) = 0;
  // Copies the first `bytes` bytes of `from` to `to` on the device, behind
  // the work already queued and before any queued later.
  virtual std::string copy(const DeviceBuffer &from, const DeviceBuffer &to,
                           size_t bytes) = 0;
  // Waits for every pending launch and, if `report`, reports the first
  // failed bounds check among them (vrir_rt_parallel_bounds_error).
  virtual std::string flush(bool report) = 0;
  // Frees the device memory kept for reuse (after a flush).
  virtual void trim() = 0;
};

// Where a group of a launch lives on the device.
struct Placement {
  DeviceBuffer buffer;
  uint64_t byteOffset = 0; // of the group's first byte in `buffer`
};

// The array table of one backend (thesis, chapter 7): for each host byte
// range that has a device copy, its device buffer and where the fresh copy
// is (host, device or both). Ranges never overlap. A copy is only made when
// the side that needs it is stale: an array read by several kernels is
// uploaded once, results come back when the host reads them, and an array
// that generated code declared uninitialized is never uploaded.
//
// Copy on potential write (thesis, 7.3.2): a copy of an array whose fresh
// copy is on the device shares the source's device buffer instead of being
// made; the device copy is made only when a kernel is about to write either
// of them (an upload into one of them just gives it a buffer of its own).
class ResidencyTable {
public:
  explicit ResidencyTable(DeviceMemory &memory) : memory(memory) {}

  // Gives every group of `plan` a device buffer holding its current
  // contents; `placements` is parallel to plan.groups. A group inside one
  // entry uses that entry's buffer (when every argument of the group starts
  // a whole number of elements into it); otherwise the entries it overlaps
  // are brought back to the host and replaced by one for the group.
  std::string prepare(const BufferPlan &plan, int64_t numArgs,
                      const vrir_gpu_arg *args,
                      std::vector<Placement> &placements);
  // After the launch: the device holds the only fresh copy of the groups
  // the kernel writes.
  void markWritten(const BufferPlan &plan);

  // The host is about to read (and, if `write`, write) [begin, end): stale
  // host bytes are downloaded; a write makes the device copies stale.
  std::string hostAccess(uint64_t begin, uint64_t end, bool write);
  // [begin, end) is new memory whose contents do not matter: a launch that
  // needs it gets a device buffer without an upload.
  void markUninitialized(uint64_t begin, uint64_t end);
  // The host would copy `bytes` bytes from `from` to `to` (disjoint
  // ranges). When `from` is exactly an entry whose device copy is fresh,
  // `to` becomes an entry sharing its buffer (and, if the host copy of
  // `from` is fresh too, the host bytes are copied), `shared` is set, and
  // nothing else is to be done; otherwise the table is unchanged and the
  // caller copies on the host.
  std::string copy(uint64_t to, uint64_t from, uint64_t bytes, bool &shared);
  // [begin, end) is being freed: its entries go (bytes of them outside the
  // range are downloaded first where the device has the fresh copy).
  std::string forget(uint64_t begin, uint64_t end);
  // Downloads every entry whose fresh copy is on the device.
  std::string syncAll();
  // Drops every entry (their buffers go back to the backend).
  void clear();
  // Waits for the backend's pending launches (see DeviceMemory::flush).
  std::string flush(bool report = true) { return memory.flush(report); }
  bool empty() const { return entries.empty(); }

private:
  struct Entry {
    uint64_t end = 0;
    DeviceBuffer buffer;
    bool hostValid = true;
    bool deviceValid = false; // with no buffer: allocate without upload
  };
  using Map = std::map<uint64_t, Entry>; // by first byte

  // The entries that overlap [begin, end).
  std::vector<Map::iterator> overlapping(uint64_t begin, uint64_t end);
  std::string download(uint64_t begin, Entry &entry);
  // Gives `entry` a device buffer; out of memory, the entries not in
  // `inUse` (by first byte) leave the device first.
  std::string allocate(uint64_t begin, Entry &entry,
                       const std::set<uint64_t> &inUse);
  std::string ensureOnDevice(uint64_t begin, Entry &entry,
                             const std::set<uint64_t> &inUse);
  // Gives `entry`, whose buffer another entry shares, a buffer of its own:
  // with a device copy of the contents if `keepContents`.
  std::string unshare(uint64_t begin, Entry &entry, bool keepContents,
                      const std::set<uint64_t> &inUse);
  bool isShared(const Entry &entry) const {
    return entry.buffer.handle && sharers.count(entry.buffer.handle);
  }
  // Lets go of `entry`'s buffer, which goes back to the backend when no
  // other entry shares it.
  void dropBuffer(uint64_t begin, Entry &entry);
  void erase(Map::iterator it);

  DeviceMemory &memory;
  Map entries;
  // Buffers that several entries share (copies on potential write), by
  // handle: how many.
  std::map<void *, int> sharers;
  size_t residentBytes = 0; // of the entries' buffers, each counted once
};

// Runtime-wide residency state, guarded by runtimeMutex(): the tables of
// the backends, and the nesting depth of `vrir_gpu_scope_begin`. Outside
// every scope, a launch behaves as if it had a scope of its own (its results
// are on the host when it returns).
std::vector<ResidencyTable *> &residencyTables();
int64_t &scopeDepth();
// The backends' tables (VRIRGPURuntime.cpp, VulkanBackend.cpp); their
// memory is only used once the backend is initialized.
ResidencyTable &openclResidency();
ResidencyTable &vulkanResidency();
// After a launch outside every scope: results back, entries dropped.
std::string endImplicitScope(ResidencyTable &table);
// Grows [begin, end) to cover the arrays the host declared in its open
// scopes (vrir_gpu_host_array) that it overlaps, so that every view of an
// array shares one device buffer and the array moves as a whole, once.
void growToDeclaredArrays(uint64_t &begin, uint64_t &end);

// The device cannot take the current launch: its memory ran out for good
// (after making room), an array is larger than it can allocate or bind, or
// the grid is larger than it can launch. A backend or the table calls
// `noteDeviceLimitReached` where that happens, and the launch entry point
// asks `takeDeviceLimitReached` (which clears it) whether its error may be
// answered by running the kernel's work on the host.
void noteDeviceLimitReached();
bool takeDeviceLimitReached();

// The calling thread's CPU-fallback bracket (vrir_gpu_fallback_begin/end):
// whether its launches may leave their work to the host when the device is
// out of memory, and whether one did. A VRIR error closes it.
struct FallbackBracket {
  bool open = false;
  bool taken = false;
};
FallbackBracket &fallbackBracket();

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
