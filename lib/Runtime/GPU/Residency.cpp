//===- Residency.cpp - Where the fresh copy of each array lives -----------===//
//
// The array table of the GPU runtime (thesis, chapter 7) and the C entry
// points generated host code uses to keep it true: scopes around functions
// with GPU sections, and notices before the host touches memory a kernel
// may have.
//
// Correctness rests on three rules. Inside a scope, generated code
// announces every host access to memory a kernel may hold
// (`vrir_gpu_host_access`), and the CPU runtime reports every array it frees
// (the hook below): a device copy is never trusted after the host changed or
// reused its bytes. When a scope ends, everything comes back to the host and
// the table empties: memory outside the function (NumPy arrays, the
// caller's stack) may change behind the runtime's back once it returns.
// After a VRIR error, the table empties without downloads (the failing
// call's outputs are unspecified, as on the CPU).
//
//===----------------------------------------------------------------------===//

#include "GPURuntimeInternal.h"

#include "VRIR/Runtime/VRIRRuntime.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>

namespace vrir::gpu {

namespace {
// Whether any table may have an entry: lets the free hook, called for every
// array the CPU runtime frees, skip the lock.
std::atomic<bool> &tablesInUse() {
  static std::atomic<bool> inUse{false};
  return inUse;
}
} // namespace

//===----------------------------------------------------------------------===//
// ResidencyTable
//===----------------------------------------------------------------------===//

std::vector<ResidencyTable::Map::iterator>
ResidencyTable::overlapping(uint64_t begin, uint64_t end) {
  std::vector<Map::iterator> result;
  auto it = entries.upper_bound(begin);
  if (it != entries.begin()) {
    auto previous = std::prev(it);
    if (previous->second.end > begin)
      result.push_back(previous);
  }
  for (; it != entries.end() && it->first < end; ++it)
    result.push_back(it);
  return result;
}

std::string ResidencyTable::download(uint64_t begin, Entry &entry) {
  size_t bytes = static_cast<size_t>(entry.end - begin);
  std::string error = memory.download(
      entry.buffer, reinterpret_cast<void *>(static_cast<uintptr_t>(begin)),
      bytes);
  if (!error.empty())
    return error;
  entry.hostValid = true;
  ++runtimeStats().downloads;
  runtimeStats().bytesDownloaded += static_cast<int64_t>(bytes);
  return "";
}

namespace {
// The limit vrir_gpu_set_memory_limit set; negative: the environment's.
std::atomic<int64_t> memoryLimitOverride{-1};

// VRIR_GPU_MEMORY_LIMIT=BYTES: the most device memory the arrays may hold
// at once (to test running out of it); 0 or unset: no limit but the
// device's. Read once; vrir_gpu_set_memory_limit changes it at run time.
size_t memoryLimit() {
  int64_t set = memoryLimitOverride.load(std::memory_order_relaxed);
  if (set >= 0)
    return static_cast<size_t>(set);
  static const size_t fromEnvironment = [] {
    const char *text = std::getenv("VRIR_GPU_MEMORY_LIMIT");
    return text ? static_cast<size_t>(std::strtoull(text, nullptr, 10)) : 0;
  }();
  return fromEnvironment;
}
} // namespace

extern "C" void vrir_gpu_set_memory_limit(int64_t bytes) {
  memoryLimitOverride.store(bytes < 0 ? -1 : bytes, std::memory_order_relaxed);
}

std::string ResidencyTable::allocate(uint64_t begin, Entry &entry,
                                     const std::set<uint64_t> &inUse) {
  size_t bytes = static_cast<size_t>(entry.end - begin);
  std::string error;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (memoryLimit() && residentBytes + bytes > memoryLimit()) {
      error = formatString("GPU: the device memory limit of %zu bytes "
                           "(VRIR_GPU_MEMORY_LIMIT) is reached",
                           memoryLimit());
    } else {
      error = memory.allocate(bytes, entry.buffer);
      if (error.empty()) {
        residentBytes += bytes;
        return "";
      }
    }
    if (attempt == 1)
      break;
    // Out of memory: the arrays this launch does not use go back to the
    // host and leave the device, kernels in flight finish (returning the
    // buffers they held), and the backend frees what it keeps for reuse.
    ++runtimeStats().evictions;
    for (auto it = entries.begin(); it != entries.end();) {
      auto next = std::next(it);
      if (!inUse.count(it->first) && it->second.buffer.handle) {
        if (!it->second.hostValid) {
          std::string downloadError = download(it->first, it->second);
          if (!downloadError.empty())
            return downloadError;
        }
        erase(it);
      }
      it = next;
    }
    std::string flushError = memory.flush(/*report=*/true);
    if (!flushError.empty())
      return flushError;
    memory.trim();
  }
  noteDeviceLimitReached();
  size_t needed = 0;
  for (uint64_t key : inUse)
    if (auto it = entries.find(key); it != entries.end())
      needed += static_cast<size_t>(it->second.end - it->first);
  return formatString("GPU: out of device memory: a kernel's arrays need "
                      "%zu bytes on the device at once (%s)",
                      std::max(needed, bytes), error.c_str());
}

std::string ResidencyTable::ensureOnDevice(uint64_t begin, Entry &entry,
                                           const std::set<uint64_t> &inUse) {
  size_t bytes = static_cast<size_t>(entry.end - begin);
  if (!entry.buffer.handle) {
    std::string error = allocate(begin, entry, inUse);
    if (!error.empty())
      return error;
  }
  if (entry.deviceValid)
    return "";
  // The upload replaces the contents: a copy sharing the buffer keeps it.
  if (isShared(entry)) {
    std::string error = unshare(begin, entry, /*keepContents=*/false, inUse);
    if (!error.empty())
      return error;
  }
  std::string error = memory.upload(
      entry.buffer,
      reinterpret_cast<const void *>(static_cast<uintptr_t>(begin)), bytes);
  if (!error.empty())
    return error;
  entry.deviceValid = true;
  ++runtimeStats().uploads;
  runtimeStats().bytesUploaded += static_cast<int64_t>(bytes);
  return "";
}

std::string ResidencyTable::unshare(uint64_t begin, Entry &entry,
                                    bool keepContents,
                                    const std::set<uint64_t> &inUse) {
  Entry own;
  own.end = entry.end;
  std::string error = allocate(begin, own, inUse);
  // Making room may have taken the other sharers off the device, leaving
  // the buffer to `entry` alone.
  if (!isShared(entry)) {
    if (error.empty())
      dropBuffer(begin, own);
    else
      takeDeviceLimitReached();
    return "";
  }
  if (!error.empty())
    return error;
  size_t bytes = static_cast<size_t>(entry.end - begin);
  if (keepContents) {
    error = memory.copy(entry.buffer, own.buffer, bytes);
    if (!error.empty()) {
      dropBuffer(begin, own);
      return error;
    }
    ++runtimeStats().deviceCopies;
  }
  dropBuffer(begin, entry);
  entry.buffer = own.buffer;
  return "";
}

void ResidencyTable::dropBuffer(uint64_t begin, Entry &entry) {
  if (!entry.buffer.handle)
    return;
  if (auto shared = sharers.find(entry.buffer.handle);
      shared != sharers.end()) {
    if (--shared->second == 1)
      sharers.erase(shared);
  } else {
    residentBytes -= static_cast<size_t>(entry.end - begin);
    memory.release(entry.buffer);
  }
  entry.buffer = DeviceBuffer();
}

void ResidencyTable::erase(Map::iterator it) {
  dropBuffer(it->first, it->second);
  entries.erase(it);
}

std::string ResidencyTable::prepare(const BufferPlan &plan, int64_t numArgs,
                                    const vrir_gpu_arg *args,
                                    std::vector<Placement> &placements) {
  tablesInUse().store(true, std::memory_order_relaxed);
  size_t numGroups = plan.groups.size();
  // The entry a group lies in, if it can use its buffer: every argument of
  // the group must start a whole number of elements into it.
  auto containing = [&](size_t g) -> Map::iterator {
    const HostGroup &group = plan.groups[g];
    std::vector<Map::iterator> found = overlapping(group.begin, group.end);
    if (found.size() != 1 || found[0]->first > group.begin ||
        found[0]->second.end < group.end)
      return entries.end();
    uint64_t delta = group.begin - found[0]->first;
    for (int64_t i = 0; i < numArgs; ++i)
      if (args[i].kind == VRIR_GPU_ARG_BUFFER && args[i].size > 0 &&
          plan.groupOf[i] == g &&
          delta % static_cast<uint64_t>(args[i].elemSize) != 0)
        return entries.end();
    return found[0];
  };

  // First the groups that cannot use an entry: what they overlap goes back
  // to the host and away, so that no placement made below is dropped.
  for (size_t g = 0; g < numGroups; ++g) {
    if (containing(g) != entries.end())
      continue;
    const HostGroup &group = plan.groups[g];
    for (Map::iterator it : overlapping(group.begin, group.end)) {
      if (!it->second.hostValid) {
        std::string error = download(it->first, it->second);
        if (!error.empty())
          return error;
      }
      erase(it);
    }
  }
  // The entries of this launch, which making room must not touch.
  std::set<uint64_t> inUse;
  for (size_t g = 0; g < numGroups; ++g) {
    Map::iterator it = containing(g);
    if (it == entries.end()) {
      Entry entry;
      entry.end = plan.groups[g].end;
      it = entries.emplace(plan.groups[g].begin, entry).first;
    }
    inUse.insert(it->first);
  }
  placements.assign(numGroups, Placement());
  for (size_t g = 0; g < numGroups; ++g) {
    const HostGroup &group = plan.groups[g];
    Map::iterator it = containing(g);
    std::string error = ensureOnDevice(it->first, it->second, inUse);
    if (!error.empty()) {
      if (!it->second.buffer.handle)
        entries.erase(it);
      return error;
    }
    // A kernel about to write a buffer that a copy shares: the copy is
    // made now.
    if (group.written && isShared(it->second)) {
      error = unshare(it->first, it->second, /*keepContents=*/true, inUse);
      if (!error.empty())
        return error;
    }
    placements[g].buffer = it->second.buffer;
    placements[g].byteOffset = group.begin - it->first;
  }
  return "";
}

void ResidencyTable::markWritten(const BufferPlan &plan) {
  for (const HostGroup &group : plan.groups) {
    if (!group.written)
      continue;
    for (Map::iterator it : overlapping(group.begin, group.end))
      it->second.hostValid = false;
  }
}

std::string ResidencyTable::hostAccess(uint64_t begin, uint64_t end,
                                       bool write) {
  for (Map::iterator it : overlapping(begin, end)) {
    Entry &entry = it->second;
    if (!entry.hostValid) {
      std::string error = download(it->first, entry);
      if (!error.empty())
        return error;
    }
    if (write)
      entry.deviceValid = false;
  }
  return "";
}

void ResidencyTable::markUninitialized(uint64_t begin, uint64_t end) {
  if (begin >= end)
    return;
  // Memory just allocated: an overlapping entry is stale.
  for (Map::iterator it : overlapping(begin, end))
    erase(it);
  Entry entry;
  entry.end = end;
  entry.deviceValid = true; // nothing to upload
  entries.emplace(begin, entry);
  tablesInUse().store(true, std::memory_order_relaxed);
}

std::string ResidencyTable::copy(uint64_t to, uint64_t from, uint64_t bytes,
                                 bool &shared) {
  shared = false;
  std::vector<Map::iterator> found = overlapping(from, from + bytes);
  if (found.size() != 1 || found[0]->first != from ||
      found[0]->second.end != from + bytes)
    return "";
  Map::iterator source = found[0];
  if (!source->second.buffer.handle || !source->second.deviceValid)
    return "";
  // The old contents of `to` go (bytes of its entries outside it are kept).
  // `source` does not overlap `to`: its iterator stays valid.
  std::string error = forget(to, to + bytes);
  if (!error.empty())
    return error;
  Entry copy;
  copy.end = to + bytes;
  copy.buffer = source->second.buffer;
  copy.deviceValid = true;
  copy.hostValid = source->second.hostValid;
  if (copy.hostValid)
    std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(to)),
                reinterpret_cast<const void *>(static_cast<uintptr_t>(from)),
                static_cast<size_t>(bytes));
  ++sharers.emplace(copy.buffer.handle, 1).first->second;
  entries.emplace(to, copy);
  ++runtimeStats().sharedCopies;
  shared = true;
  return "";
}

std::string ResidencyTable::forget(uint64_t begin, uint64_t end) {
  std::string error;
  for (Map::iterator it : overlapping(begin, end)) {
    bool inside = it->first >= begin && it->second.end <= end;
    if (!it->second.hostValid && !inside && error.empty())
      error = download(it->first, it->second);
    erase(it);
  }
  return error;
}

std::string ResidencyTable::syncAll() {
  for (auto &[begin, entry] : entries)
    if (!entry.hostValid) {
      std::string error = download(begin, entry);
      if (!error.empty())
        return error;
    }
  return "";
}

void ResidencyTable::clear() {
  for (auto &[begin, entry] : entries)
    dropBuffer(begin, entry);
  entries.clear();
  residentBytes = 0;
}

//===----------------------------------------------------------------------===//
// Runtime-wide state
//===----------------------------------------------------------------------===//

std::vector<ResidencyTable *> &residencyTables() {
  // Both tables from the start: arrays are declared uninitialized before
  // the first launch initializes its backend.
  static auto *tables = new std::vector<ResidencyTable *>(
      {&openclResidency(), &vulkanResidency()});
  return *tables;
}

int64_t &scopeDepth() {
  static int64_t depth = 0;
  return depth;
}

namespace {
bool &deviceLimitReached() {
  static bool outOfMemory = false;
  return outOfMemory;
}
} // namespace

void noteDeviceLimitReached() { deviceLimitReached() = true; }

bool takeDeviceLimitReached() {
  return std::exchange(deviceLimitReached(), false);
}

FallbackBracket &fallbackBracket() {
  thread_local FallbackBracket bracket;
  return bracket;
}

namespace {

// An array the host declared, and the scope depth it was declared at.
struct DeclaredArray {
  uint64_t begin, end;
  int64_t depth;
};

std::vector<DeclaredArray> &declaredArrays() {
  static auto *arrays = new std::vector<DeclaredArray>();
  return *arrays;
}

} // namespace

void growToDeclaredArrays(uint64_t &begin, uint64_t &end) {
  // Declarations do not overlap (they merge when made): one pass suffices.
  for (const DeclaredArray &array : declaredArrays())
    if (array.begin < end && begin < array.end) {
      begin = std::min(begin, array.begin);
      end = std::max(end, array.end);
    }
}

namespace {

// Empties every table (after downloading, when `download`); returns the
// first error.
std::string endScope(bool download) {
  std::string error;
  for (ResidencyTable *table : residencyTables()) {
    // Launches in flight finish first (after an error: unreported).
    std::string flushError = table->flush(/*report=*/download);
    if (error.empty())
      error = flushError;
    if (download && error.empty())
      error = table->syncAll();
    table->clear();
  }
  tablesInUse().store(false, std::memory_order_relaxed);
  return error;
}

// The CPU runtime frees an array.
void onArrayFreed(void *pointer, size_t bytes) {
  if (!tablesInUse().load(std::memory_order_relaxed))
    return;
  std::lock_guard<std::mutex> lock(runtimeMutex());
  uint64_t begin = reinterpret_cast<uintptr_t>(pointer);
  for (ResidencyTable *table : residencyTables()) {
    std::string error = table->forget(begin, begin + bytes);
    // Nothing can be raised from inside free(): the bytes were the
    // device's only fresh copy of a neighbour, now lost.
    if (!error.empty() && verboseEnabled())
      std::fprintf(stderr, "vrir: %s\n", error.c_str());
  }
}

// A VRIR error unwound the host: scopes that were open are gone.
void onError() {
  fallbackBracket() = FallbackBracket();
  std::lock_guard<std::mutex> lock(runtimeMutex());
  scopeDepth() = 0;
  declaredArrays().clear();
  endScope(/*download=*/false);
}

// The error raised by an entry point, once its lock is released.
thread_local std::string residencyError;

__attribute__((constructor)) void installHooks() {
  vrir_rt_set_gpu_hooks(onArrayFreed, onError);
}

} // namespace

std::string endImplicitScope(ResidencyTable &table) {
  std::string error = table.flush();
  if (error.empty())
    error = table.syncAll();
  table.clear();
  // Outside scopes every table is empty after its launch (each launch ends
  // its own implicit scope): the free hook can skip the lock again, as
  // after endScope.
  tablesInUse().store(false, std::memory_order_relaxed);
  return error;
}

} // namespace vrir::gpu

using namespace vrir::gpu;

extern "C" {

void vrir_gpu_scope_begin(void) {
  std::lock_guard<std::mutex> lock(runtimeMutex());
  ++scopeDepth();
}

void vrir_gpu_scope_end(void) {
  const char *message = nullptr;
  {
    std::lock_guard<std::mutex> lock(runtimeMutex());
    if (scopeDepth() > 0)
      --scopeDepth();
    std::vector<DeclaredArray> &arrays = declaredArrays();
    arrays.erase(std::remove_if(arrays.begin(), arrays.end(),
                                [](const DeclaredArray &array) {
                                  return array.depth > scopeDepth();
                                }),
                 arrays.end());
    residencyError = endScope(/*download=*/true);
    if (!residencyError.empty())
      message = residencyError.c_str();
  }
  if (message)
    vrir_rt_error(message);
  // A bounds check that failed in a launch since the last wait.
  vrir_rt_parallel_check();
}

void vrir_gpu_host_access(int64_t address, int64_t bytes, int64_t write) {
  if (bytes <= 0 || !tablesInUse().load(std::memory_order_relaxed))
    return;
  const char *message = nullptr;
  {
    std::lock_guard<std::mutex> lock(runtimeMutex());
    uint64_t begin = static_cast<uint64_t>(address);
    for (ResidencyTable *table : residencyTables()) {
      residencyError = table->hostAccess(
          begin, begin + static_cast<uint64_t>(bytes), write != 0);
      if (!residencyError.empty()) {
        message = residencyError.c_str();
        break;
      }
    }
  }
  if (message)
    vrir_rt_error(message);
  vrir_rt_parallel_check();
}

namespace {
// VRIR_GPU_COPY_ON_WRITE=0: copies are made at once, on the host (to
// measure what sharing saves). Read once.
bool copyOnWriteEnabled() {
  static const bool enabled = [] {
    const char *text = std::getenv("VRIR_GPU_COPY_ON_WRITE");
    return !(text && std::strcmp(text, "0") == 0);
  }();
  return enabled;
}
} // namespace

void vrir_gpu_copy(int64_t to, int64_t from, int64_t bytes) {
  if (bytes <= 0)
    return;
  void *target = reinterpret_cast<void *>(static_cast<uintptr_t>(to));
  const void *source =
      reinterpret_cast<const void *>(static_cast<uintptr_t>(from));
  if (!tablesInUse().load(std::memory_order_relaxed)) {
    std::memmove(target, source, static_cast<size_t>(bytes));
    return;
  }
  uint64_t begin = static_cast<uint64_t>(from);
  uint64_t targetBegin = static_cast<uint64_t>(to);
  uint64_t size = static_cast<uint64_t>(bytes);
  bool disjoint = targetBegin + size <= begin || begin + size <= targetBegin;
  const char *message = nullptr;
  {
    std::lock_guard<std::mutex> lock(runtimeMutex());
    std::vector<ResidencyTable *> &tables = residencyTables();
    std::string error;
    bool shared = false;
    if (disjoint && scopeDepth() > 0 && copyOnWriteEnabled())
      for (ResidencyTable *table : tables) {
        error = table->copy(targetBegin, begin, size, shared);
        if (shared || !error.empty()) {
          // The other tables' copies of the target are stale.
          for (ResidencyTable *other : tables)
            if (other != table && error.empty())
              error = other->forget(targetBegin, targetBegin + size);
          break;
        }
      }
    // Otherwise the host copies, as it would without a device.
    if (!shared)
      for (ResidencyTable *table : tables) {
        if (error.empty())
          error = table->hostAccess(begin, begin + size, /*write=*/false);
        if (error.empty())
          error = table->hostAccess(targetBegin, targetBegin + size,
                                    /*write=*/true);
      }
    if (error.empty() && !shared)
      std::memmove(target, source, static_cast<size_t>(bytes));
    residencyError = std::move(error);
    if (!residencyError.empty())
      message = residencyError.c_str();
  }
  if (message)
    vrir_rt_error(message);
  vrir_rt_parallel_check();
}

void vrir_gpu_host_array(int64_t address, int64_t bytes) {
  if (bytes <= 0)
    return;
  std::lock_guard<std::mutex> lock(runtimeMutex());
  if (scopeDepth() == 0)
    return;
  // Overlapping declarations (views of one buffer passed apart) merge.
  DeclaredArray array = {static_cast<uint64_t>(address),
                         static_cast<uint64_t>(address) +
                             static_cast<uint64_t>(bytes),
                         scopeDepth()};
  std::vector<DeclaredArray> &arrays = declaredArrays();
  for (auto it = arrays.begin(); it != arrays.end();) {
    if (it->begin < array.end && array.begin < it->end) {
      array.begin = std::min(array.begin, it->begin);
      array.end = std::max(array.end, it->end);
      array.depth = std::min(array.depth, it->depth);
      it = arrays.erase(it);
    } else {
      ++it;
    }
  }
  arrays.push_back(array);
}

void vrir_gpu_host_uninitialized(int64_t address, int64_t bytes) {
  if (bytes <= 0)
    return;
  std::lock_guard<std::mutex> lock(runtimeMutex());
  // Outside a scope nothing stays on the device: there is nothing to save.
  if (scopeDepth() == 0)
    return;
  uint64_t begin = static_cast<uint64_t>(address);
  for (ResidencyTable *table : residencyTables())
    table->markUninitialized(begin, begin + static_cast<uint64_t>(bytes));
}

} // extern "C"
