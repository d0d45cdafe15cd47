//===- InterruptPoints.cpp - Polls of the Ctrl-C flag in loops ------------===//
//
// A kernel called from Python runs with the GIL released and Python's
// SIGINT handler only records the signal: without polls, Ctrl-C waits for
// the kernel to end. vrir_rt_try_interruptible makes SIGINT set
// vrir_rt_interrupt_flag; this pass makes loops read it.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_INTERRUPTPOINTS
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

constexpr StringLiteral kFlagName = "vrir_rt_interrupt_flag";

/// The block each iteration of `loop` starts with (the `after` region of a
/// while loop).
Block *getIterationBlock(Operation *loop) {
  if (auto whileLoop = dyn_cast<scf::WhileOp>(loop))
    return whileLoop.getAfterBody();
  return &loop->getRegion(0).front();
}

/// Counted loops of at most this many iterations with no loop inside bound
/// the work of an iteration of the loop around them.
constexpr uint64_t kShortTripCount = 128;

/// A loop that adds no more than a short, fixed amount of work to each
/// iteration of the loop around it (LLVM unrolls it fully).
bool isShortLoop(Operation *op) {
  auto forOp = dyn_cast<scf::ForOp>(op);
  if (!forOp || lowering::hasLoopInside(forOp))
    return false;
  std::optional<APInt> tripCount = forOp.getStaticTripCount();
  return tripCount && tripCount->ule(kShortTripCount);
}

/// Loops whose iterations poll: while loops (their trip count is unknown)
/// and loops with loops inside, unless those are all short. An innermost
/// counted loop ends after its trip count, and a poll in it would keep it
/// from vectorizing; so would one in a loop around short ones, which
/// vectorizes once they are unrolled (a sliding window of constant width).
bool needsPoll(Operation *loop) {
  if (isa<scf::WhileOp>(loop))
    return true;
  for (Region &region : loop->getRegions()) {
    WalkResult found = region.walk([](LoopLikeOpInterface inner) {
      return isShortLoop(inner) ? WalkResult::advance()
                                : WalkResult::interrupt();
    });
    if (found.wasInterrupted())
      return true;
  }
  return false;
}

void insertPoll(OpBuilder &b, Operation *loop, LLVM::GlobalOp flag) {
  Location loc = loop->getLoc();
  b.setInsertionPointToStart(getIterationBlock(loop));
  Value address = LLVM::AddressOfOp::create(b, loc, flag);
  Value value = LLVM::LoadOp::create(
      b, loc, b.getI32Type(), address, /*alignment=*/4, /*isVolatile=*/false,
      /*isNonTemporal=*/false, /*isInvariant=*/false,
      /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic);
  Value set = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, value,
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
  auto ifSet = scf::IfOp::create(b, loc, set, /*withElse=*/false);
  b.setInsertionPointToStart(ifSet.thenBlock());
  lowering::callRuntime(b, loc, loop, "vrir_rt_raise_interrupt", ValueRange{},
                        /*noReturn=*/true);
}

struct InterruptPointsPass
    : public vrir::impl::InterruptPointsBase<InterruptPointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> loops;
    module.walk([&](func::FuncOp function) {
      function.walk([&](Operation *op) {
        if (isa<scf::ForOp, scf::WhileOp, scf::ParallelOp>(op) && needsPoll(op))
          loops.push_back(op);
      });
    });
    if (loops.empty())
      return;
    OpBuilder b(&getContext());
    auto flag = module.lookupSymbol<LLVM::GlobalOp>(kFlagName);
    if (!flag) {
      b.setInsertionPointToStart(module.getBody());
      flag = LLVM::GlobalOp::create(b, module.getLoc(), b.getI32Type(),
                                    /*isConstant=*/false,
                                    LLVM::Linkage::External, kFlagName,
                                    /*value=*/Attribute());
    }
    for (Operation *loop : loops)
      insertPoll(b, loop, flag);
  }
};

} // namespace
