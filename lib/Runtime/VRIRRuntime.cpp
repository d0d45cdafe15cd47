//===- VRIRRuntime.cpp - Error channel and host entry ---------------------===//
//
// Serial errors unwind with longjmp to the host's vrir_rt_invoke: generated
// code has no cleanups to run (temporaries of a failed call are not freed).
// Parallel errors are recorded (first one wins) and raised by the thread
// that runs the loop once all iterations have stopped (thesis 4.6).
//
//===----------------------------------------------------------------------===//

#include "VRIR/Runtime/VRIRRuntime.h"

#include <atomic>
#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace {
thread_local std::jmp_buf *activeHandler = nullptr;
thread_local std::string lastError;

std::atomic<bool> parallelErrorPending{false};
std::mutex parallelErrorMutex;
std::string parallelError;

std::string formatBoundsError(const char *site, int64_t dim, int64_t index,
                              int64_t extent) {
  char buffer[160];
  std::snprintf(buffer, sizeof(buffer),
                ": dimension %lld, index %lld, extent %lld",
                static_cast<long long>(dim), static_cast<long long>(index),
                static_cast<long long>(extent));
  return std::string("index out of bounds: ") + site + buffer;
}

//===----------------------------------------------------------------------===//
// Array memory
//===----------------------------------------------------------------------===//
//
// Generated code allocates through _mlir_memref_to_llvm_* (the lowering's
// generic allocation functions). Whole-array expressions allocate and free
// temporaries of the same large sizes over and over; glibc returns such
// blocks to the kernel on free, and every new one is then paid in page
// faults (3x the arithmetic for `sqrt(A*A + B*B)`). Freed large blocks are
// kept in a small cache and handed out again.

constexpr size_t kHeader = 64;                // keeps 64-byte alignment
constexpr size_t kCachedMin = 1 << 20;        // smaller blocks: malloc's
constexpr size_t kCacheCapacity = 512u << 20; // bytes kept at most
constexpr size_t kCacheSlots = 16;

struct BlockCache {
  std::mutex mutex;
  void *blocks[kCacheSlots] = {};
  size_t sizes[kCacheSlots] = {};
  size_t bytes = 0;
};
BlockCache &getBlockCache() {
  static BlockCache *cache = new BlockCache(); // outlives static destructors
  return *cache;
}

size_t &blockSize(void *block) { return *static_cast<size_t *>(block); }

// The GPU runtime's hooks (vrir_rt_set_gpu_hooks): it drops device copies
// of freed arrays, and its open scopes after an error.
std::atomic<vrir_rt_free_hook> freeHook{nullptr};
std::atomic<vrir_rt_error_hook> errorHook{nullptr};

[[noreturn]] void raise(std::string message);

/// An allocation the system refused: an error of the call (a clear message
/// and a non-zero exit from vr-run, MemoryError in Python), never a null
/// pointer for generated code to write through.
[[noreturn]] void raiseOutOfMemory(size_t size) {
  char text[160];
  std::snprintf(text, sizeof(text),
                "out of memory: cannot allocate an array of %zu bytes "
                "(%.1f GiB)",
                size, static_cast<double>(size) / (1u << 30));
  raise(text);
}

void *allocateBlock(size_t size) {
  if (size >= kCachedMin) {
    BlockCache &cache = getBlockCache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    // Best fit among cached blocks at most twice as large as needed.
    int best = -1;
    for (size_t i = 0; i < kCacheSlots; ++i)
      if (cache.blocks[i] && cache.sizes[i] >= size &&
          cache.sizes[i] <= 2 * size &&
          (best < 0 || cache.sizes[i] < cache.sizes[best]))
        best = static_cast<int>(i);
    if (best >= 0) {
      void *block = cache.blocks[best];
      cache.bytes -= cache.sizes[best];
      cache.blocks[best] = nullptr;
      return static_cast<char *>(block) + kHeader;
    }
  }
  void *block = nullptr;
  if (size > SIZE_MAX - kHeader ||
      posix_memalign(&block, kHeader, size + kHeader) != 0)
    raiseOutOfMemory(size);
  blockSize(block) = size;
  return static_cast<char *>(block) + kHeader;
}

void freeBlock(void *pointer) {
  if (!pointer)
    return;
  void *block = static_cast<char *>(pointer) - kHeader;
  size_t size = blockSize(block);
  if (vrir_rt_free_hook hook = freeHook.load(std::memory_order_acquire))
    hook(pointer, size);
  if (size >= kCachedMin && size <= kCacheCapacity) {
    BlockCache &cache = getBlockCache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    // Make room: drop the oldest-found blocks until this one fits.
    for (size_t i = 0; i < kCacheSlots && cache.bytes + size > kCacheCapacity;
         ++i)
      if (cache.blocks[i]) {
        std::free(cache.blocks[i]);
        cache.bytes -= cache.sizes[i];
        cache.blocks[i] = nullptr;
      }
    for (size_t i = 0; i < kCacheSlots; ++i)
      if (!cache.blocks[i]) {
        cache.blocks[i] = block;
        cache.sizes[i] = size;
        cache.bytes += size;
        return;
      }
  }
  std::free(block);
}

[[noreturn]] void raise(std::string message) {
  lastError = std::move(message);
  // longjmp runs no destructors: leave no heap memory in `message` (a move
  // assignment may hand it lastError's old buffer). Callers pass temporaries,
  // which the move construction of `message` emptied.
  std::string().swap(message);
  if (activeHandler)
    std::longjmp(*activeHandler, 1);
  std::fprintf(stderr, "vrir: error: %s\n", lastError.c_str());
  std::exit(1);
}
} // namespace

extern "C" {

void vrir_rt_bounds_error(const char *site, int64_t dim, int64_t index,
                          int64_t extent) {
  raise(formatBoundsError(site, dim, index, extent));
}

void vrir_rt_parallel_bounds_error(const char *site, int64_t dim, int64_t index,
                                   int64_t extent) {
  if (parallelErrorPending.load(std::memory_order_relaxed))
    return;
  std::lock_guard<std::mutex> lock(parallelErrorMutex);
  if (parallelErrorPending.load(std::memory_order_relaxed))
    return;
  parallelError =
      formatBoundsError(site, dim, index, extent) + " (in a parallel loop)";
  parallelErrorPending.store(true, std::memory_order_release);
}

void vrir_rt_parallel_check(void) {
  if (!parallelErrorPending.load(std::memory_order_acquire))
    return;
  std::string message;
  {
    std::lock_guard<std::mutex> lock(parallelErrorMutex);
    message = std::move(parallelError);
    parallelError.clear();
    parallelErrorPending.store(false, std::memory_order_release);
  }
  raise(std::move(message));
}

void vrir_rt_error(const char *message) { raise(message); }

int vrir_rt_try(void (*fn)(void *), void *context) {
  std::jmp_buf handler;
  std::jmp_buf *enclosing = activeHandler;
  activeHandler = &handler;
  lastError.clear();
  if (setjmp(handler)) {
    activeHandler = enclosing;
    if (vrir_rt_error_hook hook = errorHook.load(std::memory_order_acquire))
      hook();
    return 1;
  }
  fn(context);
  activeHandler = enclosing;
  return 0;
}

int vrir_rt_invoke(void (*fn)(void **), void **args) {
  return vrir_rt_try(reinterpret_cast<void (*)(void *)>(fn), args);
}

const char *vrir_rt_last_error(void) { return lastError.c_str(); }

void vrir_rt_free(void *allocated) { freeBlock(allocated); }

void vrir_rt_set_gpu_hooks(vrir_rt_free_hook onFree,
                           vrir_rt_error_hook onError) {
  freeHook.store(onFree, std::memory_order_release);
  errorHook.store(onError, std::memory_order_release);
}

void *_mlir_memref_to_llvm_alloc(size_t size) { return allocateBlock(size); }

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  // Blocks are 64-byte aligned; larger alignments are not requested.
  if (alignment > kHeader)
    return nullptr;
  return allocateBlock(size);
}

void _mlir_memref_to_llvm_free(void *pointer) { freeBlock(pointer); }

} // extern "C"
