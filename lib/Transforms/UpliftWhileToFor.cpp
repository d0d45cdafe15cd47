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
/// Records what an operation is replaced with, forwarding every notification
/// to the greedy driver's listener.
struct ReplacementCapture : public RewriterBase::ForwardingListener {
  ReplacementCapture(OpBuilder::Listener *listener, Operation *watched)
      : ForwardingListener(listener), watched(watched) {}
  void notifyOperationReplaced(Operation *op, ValueRange values) override {
    if (op == watched)
      replacements.assign(values.begin(), values.end());
    ForwardingListener::notifyOperationReplaced(op, values);
  }
  Operation *watched;
  SmallVector<Value> replacements;
};

/// `scf::upliftWhileToForLoop`, with the counter's value after the loop
/// corrected: upstream (LLVM 22) replaces it with `lb + (trip - 1) * step`,
/// the counter's value in the last iteration, also when the loop runs zero
/// times, but the while loop exits with `lb + trip * step`, or `lb`.
struct UpliftWhileOp : public OpRewritePattern<scf::WhileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::WhileOp loop,
                                PatternRewriter &rewriter) const override {
    ReplacementCapture capture(rewriter.getListener(), loop);
    IRRewriter uplifter(rewriter.getContext(), &capture);
    uplifter.setInsertionPoint(loop);
    FailureOr<scf::ForOp> forOp = scf::upliftWhileToForLoop(uplifter, loop);
    if (failed(forOp))
      return failure();
    // The counter is the one result that is not a result of the new loop.
    Value counter;
    for (Value value : capture.replacements)
      if (value.getDefiningOp() != forOp->getOperation())
        counter = value;
    if (!counter || counter.use_empty())
      return success();
    rewriter.setInsertionPointAfter(*forOp);
    Location loc = forOp->getLoc();
    Value lb = forOp->getLowerBound(), step = forOp->getStep();
    Value trip = arith::CeilDivSIOp::create(
        rewriter, loc,
        arith::SubIOp::create(rewriter, loc, forOp->getUpperBound(), lb), step);
    Value exit = arith::AddIOp::create(
        rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, trip, step));
    // A negative trip count means no iteration: the counter stays at lb.
    exit = arith::MaxSIOp::create(rewriter, loc, exit, lb);
    rewriter.replaceAllUsesWith(counter, exit);
    return success();
  }
};

struct UpliftWhileToForPass
    : public vrir::impl::UpliftWhileToForBase<UpliftWhileToForPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<UpliftWhileOp>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
