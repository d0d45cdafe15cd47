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

[[noreturn]] void raise(std::string message) {
  lastError = std::move(message);
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

void vrir_rt_parallel_bounds_error(const char *site, int64_t dim,
                                   int64_t index, int64_t extent) {
  if (parallelErrorPending.load(std::memory_order_relaxed))
    return;
  std::lock_guard<std::mutex> lock(parallelErrorMutex);
  if (parallelErrorPending.load(std::memory_order_relaxed))
    return;
  parallelError = formatBoundsError(site, dim, index, extent) +
                  " (in a parallel loop)";
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

void vrir_rt_free(void *allocated) { std::free(allocated); }

} // extern "C"
