//===- RegionDetection.h - Potentially interesting regions ------*- C++ -*-===//
//
// Thesis sections 6.2-6.3 and appendix B: a backward data-flow analysis over
// each statement list (block) of a function that finds the potentially
// interesting regions (PIRs) worth specialising at run time, and for each
// its critical variables at entry: the arrays whose shapes and strides the
// region's shape facts depend on (critical shape variables) and the values
// they depend on (critical value variables).
//
// The thesis works on an AST with named variables; here statements are the
// ops of a block in SSA form (after mem2reg and lift-cf-to-scf), variables
// are SSA values, "name(LHS)" is an op's results and a definition in a
// branch is an `scf.if` result. A region is a contiguous range of ops of one
// block; loops (`scf.for`, `scf.while`, `vrir.pfor`), conditionals and GPU
// sections are taken whole or not at all, and no region is searched for
// inside a loop body, a `pfor` or a GPU section.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_ANALYSIS_REGIONDETECTION_H
#define VRIR_ANALYSIS_REGIONDETECTION_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace vrir {

/// The critical variables at one program point.
struct CriticalSets {
  /// Arrays whose sizes and strides must be known there.
  llvm::SetVector<Value> shapes;
  /// Integer values (or small index arrays) whose values must be known there.
  llvm::SetVector<Value> values;

  bool operator==(const CriticalSets &other) const {
    return shapes == other.shapes && values == other.values;
  }
  /// Adds every member of `other`; true if anything was new.
  bool merge(const CriticalSets &other);
};

/// A region found by the analysis: the ops `first` to `last` (inclusive) of
/// one block, and its critical variables at entry (constants left out).
struct DetectedRegion {
  Operation *first = nullptr, *last = nullptr;
  CriticalSets critical;
  /// What makes it interesting (6.2.1): loops that touch arrays, array
  /// (vector) operations, array operations inside loops, GPU sections.
  unsigned arrayLoops = 0, vectorOps = 0, vectorOpsInLoops = 0, gpuSections = 0;

  /// A PIR needs a loop nest on arrays, two or more vector operations, a
  /// vector operation inside a loop, or a GPU section.
  bool isInteresting() const {
    return arrayLoops > 0 || vectorOps >= 2 || vectorOpsInLoops > 0 ||
           gpuSections > 0;
  }
};

class RegionDetection {
public:
  /// Analyses every function in `root` (or `root` itself if it is one).
  explicit RegionDetection(Operation *root);

  /// Every legal region, interesting or not, in program order per block.
  ArrayRef<DetectedRegion> getLegalRegions() const { return regions; }
  /// The interesting ones: the PIRs to outline.
  SmallVector<DetectedRegion> getInterestingRegions() const;
  /// The critical sets just before `op`, a statement of a legal region
  /// (directly in the region's block); nullptr for other ops.
  const CriticalSets *getCriticalSetsBefore(Operation *op) const {
    auto it = before.find(op);
    return it == before.end() ? nullptr : &it->second;
  }

private:
  friend class RegionDetector;
  SmallVector<DetectedRegion> regions;
  llvm::DenseMap<Operation *, CriticalSets> before;
};

} // namespace vrir
} // namespace mlir

#endif // VRIR_ANALYSIS_REGIONDETECTION_H
