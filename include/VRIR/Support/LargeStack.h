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

#include <optional>

namespace mlir::vrir {

/// 1 GiB: about 200000 levels of nesting through MLIR's parser.
inline constexpr unsigned kToolStackBytes = 1u << 30;

/// Runs `body` on a thread with a `stackBytes` stack and returns its result.
inline int runWithLargeStack(llvm::function_ref<int()> body,
                             unsigned stackBytes = kToolStackBytes) {
  int result = 1;
  llvm::thread worker(std::optional<unsigned>(stackBytes),
                      [&] { result = body(); });
  worker.join();
  return result;
}

} // namespace mlir::vrir

#endif // VRIR_SUPPORT_LARGESTACK_H
