//===- IndexFacts.h - Linear facts about array indices ----------*- C++ -*-===//
//
// The constraint systems of the thesis, section 6.6: an index is written as
// a linear expression over "atoms" (loop induction variables, array
// extents, other integer values), and the loops, ranges and conditions
// around an access give linear inequalities over those atoms. A bounds
// check can be dropped when the set of atom values that satisfy the facts
// and violate the check has no integer point (upstream Presburger library).
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_ANALYSIS_INDEXFACTS_H
#define VRIR_ANALYSIS_INDEXFACTS_H

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <optional>

namespace mlir {
namespace vrir {

/// `sum(coefficient * atom) + constant`, atoms numbered by an IndexFacts.
struct LinearExpr {
  llvm::SmallMapVector<unsigned, int64_t, 4> terms;
  int64_t constant = 0;

  static LinearExpr ofConstant(int64_t value) {
    LinearExpr expr;
    expr.constant = value;
    return expr;
  }
  static LinearExpr ofAtom(unsigned atom) {
    LinearExpr expr;
    expr.terms[atom] = 1;
    return expr;
  }
  bool isConstant() const { return terms.empty(); }
  bool operator==(const LinearExpr &other) const {
    if (constant != other.constant || terms.size() != other.terms.size())
      return false;
    for (auto [atom, coefficient] : terms)
      if (other.terms.lookup(atom) != coefficient)
        return false;
    return true;
  }
  /// `this + scale * other`; std::nullopt if a coefficient overflows.
  std::optional<LinearExpr> plus(const LinearExpr &other,
                                 int64_t scale = 1) const;
  /// `scale * this`; std::nullopt if a coefficient overflows.
  std::optional<LinearExpr> times(int64_t scale) const;
};

/// Builds linear expressions for integer values and the facts that hold at
/// an operation. Expressions are exact for every execution: an `arith` op
/// is looked through only when the integer ranges of its operands (upstream
/// integer range analysis, which `solver` must have run) prove it cannot
/// wrap around; otherwise its result is an atom, bounded by its range.
class IndexFacts {
public:
  explicit IndexFacts(DataFlowSolver &solver) : solver(solver) {}

  /// Loads into `solver` and runs on `root` the analyses IndexFacts reads:
  /// dead code, constants and upstream integer range analysis.
  static LogicalResult runAnalyses(DataFlowSolver &solver, Operation *root);

  /// `value` (an integer or index) as a linear expression.
  LinearExpr getExpr(Value value);
  /// The size of dimension `dim` of `array` as a linear expression.
  LinearExpr getExtent(Value array, int64_t dim);

  /// The facts that hold whenever `at` executes about the atoms of `exprs`
  /// (and, transitively, of the loop bounds and conditions they bring in),
  /// with one column per atom.
  class System {
  public:
    /// True if no integer point satisfies the facts and `expr >= 0`.
    bool isInfeasibleWith(const LinearExpr &expr) const;

  private:
    friend class IndexFacts;
    std::optional<presburger::IntegerPolyhedron> polyhedron;
    llvm::DenseMap<unsigned, unsigned> columns;
    SmallVector<int64_t> toRow(const LinearExpr &expr) const;
  };
  System buildSystem(Operation *at, ArrayRef<LinearExpr> exprs);

  /// What atom `atom` stands for: an integer value (`dim` = -1), the size
  /// of dimension `dim` >= 0 of the array `value`, or (`dim` = -2) the trip
  /// counter of the strided induction variable `value`.
  std::pair<Value, int64_t> getAtomMeaning(unsigned atom) const {
    return {atoms[atom].value, atoms[atom].dim};
  }

private:
  struct Atom {
    Value value;
    /// -1 for an integer value; otherwise `value` is an array and the atom
    /// is the size of this dimension.
    int64_t dim = -1;
  };
  unsigned getAtom(Value value, int64_t dim);
  /// Signed bounds of an integer value: its integer range, narrowed for
  /// induction variables by their loop's bounds.
  std::optional<std::pair<int64_t, int64_t>> getBounds(Value value);
  std::optional<LinearExpr> lookThrough(Operation *op);
  /// Adds what is known about `atom` (its range, the loop it counts) to
  /// `facts`, as rows over atoms.
  void addAtomFacts(unsigned atom,
                    SmallVectorImpl<std::pair<LinearExpr, bool>> &facts);
  void addConditionFacts(Value condition, bool holds,
                         SmallVectorImpl<std::pair<LinearExpr, bool>> &facts);
  /// `value` <= (>=) each operand of a minimum (maximum): `arith.minsi`,
  /// `arith.maxsi`, or a select between the two values its condition
  /// compares.
  void addMinMaxFacts(Value value, const LinearExpr &self,
                      SmallVectorImpl<std::pair<LinearExpr, bool>> &facts);
  /// `0 <= value < b` for Python's floor modulo by a non-negative `b`
  /// (the remsi/select pattern frontends emit) and for `remsi` of a
  /// non-negative number.
  void addModuloFacts(Value value, const LinearExpr &self,
                      SmallVectorImpl<std::pair<LinearExpr, bool>> &facts);

  DataFlowSolver &solver;
  llvm::DenseMap<Value, LinearExpr> exprCache;
  llvm::DenseMap<std::pair<Value, int64_t>, unsigned> atomIds;
  SmallVector<Atom> atoms;
};

} // namespace vrir
} // namespace mlir

#endif // VRIR_ANALYSIS_INDEXFACTS_H
