//===- LargeStack.h - Run a tool's work on a large stack --------*- C++ -*-===//
//
// MLIR's parser, verifier and IR walks recurse once per level of region
// nesting: a module nested 20000 levels deep overflows the main thread's
// 8 MiB stack and the tool dies of SIGSEGV. The tools run their work on a
// thread whose stack is large enough for any input they can read (the
// memory is reserved, and only touched as deep as the input goes).
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_SUPPORT_LARGESTACK_H
#define VRIR_SUPPORT_LARGESTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/thread.h"

#include <cstdlib>
#include <optional>

namespace mlir::vrir {

/// 1 GiB: about 200000 levels of nesting through MLIR's parser.
inline constexpr unsigned kToolStackBytes = 1u << 30;

/// Runs a tool's `body` on a thread with a `stackBytes` stack and exits the
/// process with its result from that thread. The thread is never torn
/// down: AddressSanitizer's teardown of a thread that ran MLIR fails to
/// unmap part of its state (sanitized builds), and a tool has nothing left
/// to do after its body anyway.
[[noreturn]] inline void
exitWithLargeStack(llvm::function_ref<int()> body,
                   unsigned stackBytes = kToolStackBytes) {
  llvm::thread worker(std::optional<unsigned>(stackBytes),
                      [&] { std::exit(body()); });
  worker.join();
  std::abort(); // not reached: the worker exits the process
}

} // namespace mlir::vrir

#endif // VRIR_SUPPORT_LARGESTACK_H
