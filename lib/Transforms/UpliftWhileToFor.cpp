//===- UpliftWhileToFor.cpp - Counted scf.while loops become scf.for ------===//

#include "VRIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_UPLIFTWHILETOFOR
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;

namespace {
struct UpliftWhileToForPass
    : public vrir::impl::UpliftWhileToForBase<UpliftWhileToForPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    scf::populateUpliftWhileToForPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
