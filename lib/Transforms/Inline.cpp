//===- Inline.cpp - Inlining bounded by callee size -----------------------===//
//
// Thesis section 5.3: calls are inlined when the callee is small (the thesis
// uses 300 statements), and always where the code must be one body: in GPU
// sections (kernels cannot call host functions) and parallel loops. Upstream
// MLIR's inliner does the work (bottom-up over the call graph, never a
// self-recursive callee); this pass only decides what is profitable.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Dialect/VRIR/IR/VRIR.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/Analysis/CallGraph.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/Passes.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_INLINE
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {
struct Inline : public vrir::impl::InlineBase<Inline> {
  using InlineBase::InlineBase;

  void runOnOperation() override;

  // Pass::runPipeline is protected; the inliner driver calls it through
  // this (as upstream's inliner pass does).
  static LogicalResult runPipelineHelper(Pass &pass, OpPassManager &pipeline,
                                         Operation *op) {
    return cast<Inline>(pass).runPipeline(pipeline, op);
  }
};

/// Operations in `region`, nested ones included (the thesis counts
/// statements; ops are the closest measure).
unsigned countOps(Region &region) {
  unsigned count = 0;
  region.walk([&](Operation *) { ++count; });
  return count;
}

bool mustBeOneBody(Operation *call) {
  return call->getParentOfType<GpuSectionOp>() ||
         call->getParentOfType<PforOp>();
}
} // namespace

void Inline::runOnOperation() {
  Operation *op = getOperation();
  if (!op->hasTrait<OpTrait::SymbolTable>()) {
    op->emitOpError("was scheduled to run under vrir-inline, but does not "
                    "define a symbol table");
    return signalPassFailure();
  }
  CallGraph &callGraph = getAnalysis<CallGraph>();
  InlinerConfig config(
      [](OpPassManager &pm) { pm.addPass(createCanonicalizerPass()); },
      /*maxInliningIterations=*/4);
  unsigned limit = maxCalleeSize;
  auto isProfitable = [limit](const Inliner::ResolvedCall &call) {
    Region *callee = call.targetNode->getCallableRegion();
    return !callee || mustBeOneBody(call.call) || countOps(*callee) <= limit;
  };
  Inliner inliner(op, callGraph, *this, getAnalysisManager(), runPipelineHelper,
                  config, isProfitable);
  if (failed(inliner.doInlining()))
    signalPassFailure();
}
