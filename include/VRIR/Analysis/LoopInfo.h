//===- LoopInfo.h - Loop nests and what each loop touches -------*- C++ -*-===//
//
// Thesis section 5.5: for every loop of a function (`scf.for`, `scf.while`,
// `vrir.pfor`, anything implementing LoopLikeOpInterface), its place in the
// nest and a summary of its body: the element accesses with their
// subscripts, the arrays it reads and writes, the values it uses from
// outside, the calls and allocations it contains, and whether it can exit
// before its iteration space is exhausted. Region specialization and the
// loop passes query it instead of walking bodies themselves.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_ANALYSIS_LOOPINFO_H
#define VRIR_ANALYSIS_LOOPINFO_H

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <memory>

namespace mlir {
namespace vrir {

struct Loop {
  LoopLikeOpInterface op;
  Loop *parent = nullptr;
  SmallVector<Loop *> children;
  /// 1 for an outermost loop.
  unsigned depth = 1;

  /// `vrir.load`s and `vrir.store`s directly in this loop's body, not in a
  /// nested loop, in program order.
  SmallVector<ElementAccess> accesses;
  /// Arrays from outside the loop that it reads and writes anywhere (nested
  /// loops included), from the ops' declared memory effects.
  llvm::SetVector<Value> readArrays, writtenArrays;
  /// Values defined outside the loop and used inside it.
  llvm::SetVector<Value> liveIn;
  /// Calls and array-creating operations anywhere in the loop.
  SmallVector<Operation *> calls, allocations;
  /// True if the loop can stop before its iteration space is exhausted: a
  /// `break` or `return` lifted into a while loop (its exit is decided in the
  /// body and dispatched after it), or any loop whose exit is not a counter
  /// reaching its bound.
  bool hasEarlyExit = false;

  /// True for a loop with no loop nested in it.
  bool isInnermost() const { return children.empty(); }
};

class LoopInfo {
public:
  /// Builds the loop tree of every function in `root` (or of `root`).
  explicit LoopInfo(Operation *root);

  /// Outermost loops, in program order.
  ArrayRef<Loop *> getTopLevelLoops() const { return topLevel; }
  /// Every loop, outer before inner, in program order.
  ArrayRef<Loop *> getLoops() const { return all; }
  /// The loop `op` is, or nullptr.
  Loop *lookup(Operation *op) const { return byOp.lookup(op); }
  /// The innermost loop whose body contains `op`, or nullptr.
  Loop *getEnclosingLoop(Operation *op) const;

private:
  void summarize(Loop &loop);

  SmallVector<std::unique_ptr<Loop>> storage;
  SmallVector<Loop *> topLevel, all;
  llvm::DenseMap<Operation *, Loop *> byOp;
};

} // namespace vrir
} // namespace mlir

#endif // VRIR_ANALYSIS_LOOPINFO_H
