//===- VerifyInput.h - Verify IR read from users ----------------*- C++ -*-===//
//
// VRIR's tools read IR that may be malformed. Some upstream verifiers assume
// facts they do not check and crash on input that breaks them; verifyInput
// checks those facts first (with a diagnostic) and then runs the verifier.
// Every tool parses with verification off and calls it instead.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_TRANSFORMS_VERIFYINPUT_H
#define VRIR_TRANSFORMS_VERIFYINPUT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
namespace vrir {

/// Checks the preconditions that upstream verifiers assume, then verifies
/// `root` and everything nested in it. Failures are reported as diagnostics.
LogicalResult verifyInput(Operation *root);

/// parseSourceString/parseSourceFile, verified by verifyInput.
OwningOpRef<ModuleOp> parseInputString(StringRef text, MLIRContext *context);
OwningOpRef<ModuleOp> parseInputFile(llvm::SourceMgr &sourceMgr,
                                     MLIRContext *context);

} // namespace vrir
} // namespace mlir

#endif // VRIR_TRANSFORMS_VERIFYINPUT_H
