//===- LoopInfo.cpp - Loop nests and what each loop touches ---------------===//

#include "VRIR/Analysis/LoopInfo.h"
#include "VRIR/Analysis/AliasGroups.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::vrir;

LoopInfo::LoopInfo(Operation *root) {
  // Pre-order: a loop is created after the loops around it.
  root->walk<WalkOrder::PreOrder>([&](LoopLikeOpInterface loopOp) {
    storage.push_back(std::make_unique<Loop>());
    Loop *loop = storage.back().get();
    loop->op = loopOp;
    loop->parent = getEnclosingLoop(loopOp);
    if (loop->parent) {
      loop->depth = loop->parent->depth + 1;
      loop->parent->children.push_back(loop);
    } else {
      topLevel.push_back(loop);
    }
    byOp[loopOp] = loop;
    all.push_back(loop);
  });
  for (Loop *loop : all)
    summarize(*loop);
}

Loop *LoopInfo::getEnclosingLoop(Operation *op) const {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (Loop *loop = byOp.lookup(parent))
      return loop;
  return nullptr;
}

/// A while loop whose condition region does the body's work (nested
/// regions or side effects) is how a `break` or `return` inside a loop looks
/// once control flow is lifted to `scf`: the exit is decided mid-body.
static bool decidesExitInBody(LoopLikeOpInterface loopOp) {
  auto whileOp = dyn_cast<scf::WhileOp>(loopOp.getOperation());
  if (!whileOp)
    return false;
  for (Operation &op : whileOp.getBefore().getOps())
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return true;
  return false;
}

void LoopInfo::summarize(Loop &loop) {
  Operation *loopOp = loop.op;
  loop.hasEarlyExit = decidesExitInBody(loop.op);
  loopOp->walk([&](Operation *op) {
    if (op != loopOp && getEnclosingLoop(op) == &loop)
      if (auto access = ElementAccess::get(op))
        loop.accesses.push_back(*access);
    if (isa<CallOpInterface>(op) && op != loopOp)
      loop.calls.push_back(op);
    if (createsNewArrays(op))
      loop.allocations.push_back(op);
    for (Value operand : op->getOperands())
      if (!loopOp->isAncestor(operand.getParentRegion()->getParentOp()) &&
          !matchPattern(operand, m_Constant()))
        loop.liveIn.insert(operand);
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      for (const MemoryEffects::EffectInstance &effect : instances) {
        // Arrays from outside the loop: those created in it are its own.
        Value value = effect.getValue();
        if (!value || !isa<ArrayType>(value.getType()) ||
            loopOp->isAncestor(value.getParentRegion()->getParentOp()))
          continue;
        if (isa<MemoryEffects::Read>(effect.getEffect()))
          loop.readArrays.insert(value);
        else if (isa<MemoryEffects::Write>(effect.getEffect()))
          loop.writtenArrays.insert(value);
      }
    }
  });
}
