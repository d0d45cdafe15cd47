//===- AliasGroups.h - Flow-insensitive array alias groups ------*- C++ -*-===//
//
// Thesis section 5.4: array values are put in groups (union-find) such that
// two values in different groups never refer to overlapping memory. A view
// joins the group of the array it views, values merged by control flow
// (loop-carried, branch and region results) join each other, and the array
// arguments of a function form one group: arguments may alias unless proven
// otherwise (by region specialization, at run time). Every op that creates
// an array (allocations, element-wise results, copies) starts a group.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_ANALYSIS_ALIASGROUPS_H
#define VRIR_ANALYSIS_ALIASGROUPS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir {
namespace vrir {

/// True for ops whose array results are new arrays (allocations, element-wise
/// results, copies), never views of an operand.
bool createsNewArrays(Operation *op);

class AliasGroups {
public:
  /// Analyses every function in `root` (or `root` itself if it is one).
  explicit AliasGroups(Operation *root);

  /// True if `a` and `b` (array values) may refer to overlapping memory.
  bool mayAlias(Value a, Value b) const;
  /// A number per group, in order of first appearance in `root` (stable
  /// across runs); -1 for values that are not arrays of `root`.
  int64_t getGroup(Value array) const;
  /// True if the group of `array` holds a function argument.
  bool holdsArgument(Value array) const;

private:
  void join(Value a, Value b);
  void visit(Operation *op);

  llvm::EquivalenceClasses<Value> classes;
  llvm::DenseMap<Value, int64_t> numbers;
  llvm::DenseMap<Value, bool> argumentLeaders;
};

} // namespace vrir
} // namespace mlir

#endif // VRIR_ANALYSIS_ALIASGROUPS_H
