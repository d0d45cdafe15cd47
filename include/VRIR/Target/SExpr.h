//===- SExpr.h - Import the textual VRIR of the thesis ----------*- C++ -*-===//
//
// Thesis appendix A defines an S-expression form of VRIR that containing
// compilers print and Velociraptor reads. This translation imports it into
// the VRIR dialect: variables of a function's symbol table become
// `vrir.alloca` slots and statements a CFG, so the result is meant to be run
// through `-mem2reg -lift-cf-to-scf -canonicalize`. docs/SExpr.md describes
// the accepted syntax, including the spellings of figure 4.2.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_TARGET_SEXPR_H
#define VRIR_TARGET_SEXPR_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;

namespace vrir {

/// Imports the VRIR S-expressions of the main buffer of `sourceMgr`. Errors
/// are emitted as MLIR diagnostics located in the buffer (line and column,
/// and the grammar rule that was broken); the result is then null.
OwningOpRef<ModuleOp> importVRIRSExpr(llvm::SourceMgr &sourceMgr,
                                      MLIRContext *context);

/// Registers the `--import-vrir-sexpr` translation.
void registerImportVRIRSExprTranslation();

} // namespace vrir
} // namespace mlir

#endif // VRIR_TARGET_SEXPR_H
