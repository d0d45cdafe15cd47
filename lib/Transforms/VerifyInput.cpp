//===- VerifyInput.cpp - Verify IR read from users ------------------------===//
//
// The checks here guard upstream verifiers that crash on malformed input
// instead of reporting it; each names the verifier and what it assumes.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Transforms/VerifyInput.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_VERIFYINPUT
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;

/// linalg.matmul's verifier (LLVM 22) reads the first result of an input's
/// indexing map whenever the map has fewer results than two (a broadcast),
/// so a map without results makes it read out of bounds.
static LogicalResult checkMatmulIndexingMaps(linalg::MatmulOp matmul) {
  ArrayAttr maps = matmul.getIndexingMaps();
  if (!maps)
    return success();
  for (auto [index, attribute] : llvm::enumerate(maps)) {
    auto map = dyn_cast<AffineMapAttr>(attribute);
    if (index < 2 && map && map.getValue().getNumResults() == 0)
      return matmul.emitOpError("expects indexing map #")
             << index << " (of an input) to have at least one result";
  }
  return success();
}

LogicalResult mlir::vrir::verifyInput(Operation *root) {
  WalkResult walk = root->walk([](Operation *op) {
    if (auto matmul = dyn_cast<linalg::MatmulOp>(op))
      if (failed(checkMatmulIndexingMaps(matmul)))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return verify(root);
}

/// `module` if it parsed and passes verifyInput, else null.
static OwningOpRef<ModuleOp> verified(OwningOpRef<ModuleOp> module) {
  if (!module || failed(vrir::verifyInput(*module)))
    return {};
  return module;
}

OwningOpRef<ModuleOp> mlir::vrir::parseInputString(StringRef text,
                                                   MLIRContext *context) {
  return verified(parseSourceString<ModuleOp>(
      text, ParserConfig(context, /*verifyAfterParse=*/false)));
}

OwningOpRef<ModuleOp> mlir::vrir::parseInputFile(llvm::SourceMgr &sourceMgr,
                                                 MLIRContext *context) {
  return verified(parseSourceFile<ModuleOp>(
      sourceMgr, ParserConfig(context, /*verifyAfterParse=*/false)));
}

namespace {
struct VerifyInputPass : public vrir::impl::VerifyInputBase<VerifyInputPass> {
  void runOnOperation() override {
    if (failed(vrir::verifyInput(getOperation())))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
