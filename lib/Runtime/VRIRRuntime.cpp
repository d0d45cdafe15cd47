//===- VRIRRuntime.cpp - Error channel and host entry ---------------------===//
//
// Serial errors unwind with longjmp to the host's vrir_rt_invoke: generated
// code has no cleanups to run (temporaries of a failed call are not freed).
// Parallel errors are recorded (first one wins) and raised by the thread
// that runs the loop once all iterations have stopped (thesis 4.6): an
// error in a chunk of a CPU parallel loop unwinds to that chunk's start
// (vrir-parallel-error-scopes), and the loop's other iterations see the
// failure and do not start.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Runtime/VRIRRuntime.h"

#include <atomic>
#include <csetjmp>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {
thread_local std::jmp_buf *activeHandler = nullptr;
thread_local std::string lastError;

// A parallel bounds error outside a chunk (the GPU runtime reporting a
// kernel's, or a parallel loop run serially), raised by
// vrir_rt_parallel_check on the same thread.
thread_local bool parallelErrorPending = false;
thread_local std::string parallelError;

/// The chunk of a CPU parallel loop this thread runs (the innermost, when a
/// loop runs inside another's chunk), in the 512 bytes generated code
/// reserves on its stack for it.
struct ParallelChunk {
  std::jmp_buf jump; // first: generated code passes the chunk to _setjmp
  vrir_rt_parallel_status *status;
  ParallelChunk *enclosing;
  bool canJump; // _setjmp was called: errors unwind to the chunk
};
static_assert(sizeof(ParallelChunk) <= VRIR_RT_PARALLEL_CHUNK_BYTES,
              "generated code reserves too little for a chunk");
static_assert(alignof(ParallelChunk) <= 16, "chunks are 16-byte aligned");
thread_local ParallelChunk *currentChunk = nullptr;

/// Records `message` as the loop's error unless one is there already.
void recordParallelError(vrir_rt_parallel_status *status,
                         const std::string &message) {
  int64_t expected = 0;
  if (!__atomic_compare_exchange_n(&status->failed, &expected, 1,
                                   /*weak=*/false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_RELAXED))
    return;
  // Read by vrir_rt_parallel_finish once every thread has left the loop.
  status->message = strdup(message.c_str());
}

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

constexpr const char *kInterruptMessage = "KeyboardInterrupt: interrupted";

/// SIGINT during vrir_rt_try_interruptible: generated code polls the flag
/// (vrir-interrupt-points) and raises. Async-signal-safe: one atomic store.
void requestInterrupt(int) {
  __atomic_store_n(&vrir_rt_interrupt_flag, 1, __ATOMIC_RELAXED);
}

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
  if (ParallelChunk *chunk = currentChunk; chunk && chunk->canJump) {
    recordParallelError(chunk->status, message);
    std::string().swap(message); // see below
    std::longjmp(chunk->jump, 1);
  }
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
  std::string message =
      formatBoundsError(site, dim, index, extent) + " (in a parallel loop)";
  if (currentChunk) {
    recordParallelError(currentChunk->status, message);
    return;
  }
  if (parallelErrorPending)
    return;
  parallelError = std::move(message);
  parallelErrorPending = true;
}

void vrir_rt_parallel_check(void) {
  if (!parallelErrorPending)
    return;
  parallelErrorPending = false;
  std::string message;
  message.swap(parallelError);
  raise(std::move(message));
}

void vrir_rt_parallel_enter(void *chunkMemory, vrir_rt_parallel_status *status,
                            int32_t canJump) {
  auto *chunk = static_cast<ParallelChunk *>(chunkMemory);
  chunk->status = status;
  chunk->enclosing = currentChunk;
  chunk->canJump = canJump != 0;
  currentChunk = chunk;
}

void vrir_rt_parallel_leave(void *chunkMemory) {
  currentChunk = static_cast<ParallelChunk *>(chunkMemory)->enclosing;
}

void vrir_rt_parallel_finish(vrir_rt_parallel_status *status) {
  if (!status->failed)
    return;
  std::string message = status->message ? status->message : "error";
  std::free(status->message);
  status->message = nullptr;
  status->failed = 0;
  raise(std::move(message));
}

void vrir_rt_error(const char *message) { raise(message); }

int32_t vrir_rt_interrupt_flag = 0;

void vrir_rt_raise_interrupt(void) { raise(kInterruptMessage); }

int vrir_rt_try_interruptible(void (*fn)(void *), void *context) {
  // Two system calls per call (a host calls small kernels often): whether
  // this is the main thread is asked once per thread, and installing the
  // handler returns the previous one.
  static thread_local int onMainThread = -1;
  if (onMainThread < 0)
    onMainThread = getpid() == static_cast<pid_t>(syscall(SYS_gettid));
  if (!onMainThread)
    return vrir_rt_try(fn, context);
  struct sigaction onInterrupt = {};
  onInterrupt.sa_handler = requestInterrupt;
  sigemptyset(&onInterrupt.sa_mask);
  struct sigaction previous;
  if (sigaction(SIGINT, &onInterrupt, &previous) != 0)
    return vrir_rt_try(fn, context);
  if (previous.sa_handler == SIG_IGN) {
    // An ignored SIGINT stays ignored (one that came in between too).
    sigaction(SIGINT, &previous, nullptr);
    __atomic_store_n(&vrir_rt_interrupt_flag, 0, __ATOMIC_RELAXED);
    return vrir_rt_try(fn, context);
  }
  int status = vrir_rt_try(fn, context);
  sigaction(SIGINT, &previous, nullptr);
  if (__atomic_exchange_n(&vrir_rt_interrupt_flag, 0, __ATOMIC_RELAXED))
    // The host's own handler (Python's: KeyboardInterrupt) gets the signal
    // now, as if it had come after the call.
    pthread_kill(pthread_self(), SIGINT);
  return status;
}

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
