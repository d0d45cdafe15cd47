//===- Builder.h - C++ API for VRIR frontends -------------------*- C++ -*-===//
//
// The C++ side of thesis chapter 4: a containing compiler either prints the
// S-expression form of VRIR or builds the tree through a C++ API. This is
// that API, as a thin layer over mlir::OpBuilder:
//
//  * modules carry the language semantics (index base, range convention);
//  * a function's symbol table entries are `vrir.alloca` slots read and
//    written by name, so a frontend without SSA form emits reads and writes
//    and upstream `-mem2reg` builds SSA;
//  * the statements of VRIR (for, while, if, break, continue, return, pfor,
//    accelerated sections) take their bodies as callbacks. Serial control
//    flow becomes a CFG (`cf.br`/`cf.cond_br`) so that early exits need no
//    special form; `-mem2reg -lift-cf-to-scf -canonicalize` turns it back
//    into structured `scf` loops. Inside `vrir.pfor` and `vrir.gpu_section`
//    (single-block regions) the CFG lives in an `scf.execute_region`.
//
// docs/Builder.md walks through a complete example.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_BUILDER_BUILDER_H
#define VRIR_BUILDER_BUILDER_H

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <memory>
#include <optional>

namespace mlir {
namespace vrir {

/// Loads every dialect the builder emits (vrir, func, arith, cf, scf,
/// complex, ub) into `context`.
void loadFrontendDialects(MLIRContext &context);

/// An empty module with the `vrir.index_base`, `vrir.range_exclusive` and
/// `vrir.memory` attributes of `semantics` and, if `name` is not empty, that
/// symbol name.
OwningOpRef<ModuleOp> createModule(MLIRContext *context, Location loc,
                                   const ModuleSemantics &semantics,
                                   StringRef name = {});

/// A variable of the function being built: an entry of the thesis's symbol
/// table. Obtained from FunctionBuilder::declareVariable.
class Variable {
public:
  Variable() = default;
  explicit operator bool() const { return id != kInvalid; }
  bool operator==(Variable other) const { return id == other.id; }
  bool operator!=(Variable other) const { return id != other.id; }
  unsigned getId() const { return id; }

private:
  friend class FunctionBuilder;
  static constexpr unsigned kInvalid = ~0u;
  explicit Variable(unsigned id) : id(id) {}
  unsigned id = kInvalid;
};

/// The shared list of a parallel loop (thesis 4.5.1): given explicitly, or
/// `auto`, in which case every variable the body uses but never rebinds is
/// shared and the others are private.
class SharedList {
public:
  static SharedList automatic() { return SharedList(true, {}); }
  static SharedList of(ArrayRef<Variable> variables) {
    return SharedList(false, variables);
  }
  bool isAutomatic() const { return automaticList; }
  ArrayRef<Variable> getVariables() const { return variables; }

private:
  SharedList(bool automaticList, ArrayRef<Variable> variables)
      : automaticList(automaticList),
        variables(variables.begin(), variables.end()) {}
  bool automaticList;
  SmallVector<Variable> variables;
};

/// Bounds of one dimension of a serial loop, evaluated once before the loop
/// starts (thesis 4.1.3). Integer values of any width.
struct LoopBounds {
  Value start;
  Value stop;
  /// Null for a step of 1. The sign of the step picks the loop test.
  Value step;
  /// Whether `stop` is excluded; unset: the module's `vrir.range_exclusive`.
  std::optional<bool> exclusive;
};

/// Builds one func.func. Every method that can fail (a type mismatch, a
/// statement where the thesis forbids it) reports through the error handler
/// and returns failure; the function is then unusable.
class FunctionBuilder {
public:
  using BodyFn = function_ref<LogicalResult()>;
  using ConditionFn = function_ref<FailureOr<Value>()>;
  using ErrorHandler = std::function<void(Location, const Twine &)>;

  /// Starts the body of `function`, which has no body yet (for example one
  /// created by `declareFunction`).
  explicit FunctionBuilder(func::FuncOp function);
  ~FunctionBuilder();
  FunctionBuilder(const FunctionBuilder &) = delete;
  FunctionBuilder &operator=(const FunctionBuilder &) = delete;

  /// Creates `func.func @name` of `type` at the end of `module`, without a
  /// body (an external function until a FunctionBuilder fills it in).
  static func::FuncOp declareFunction(ModuleOp module, Location loc,
                                      StringRef name, FunctionType type);

  func::FuncOp getFunction() const;
  /// The builder at the current insertion point, for the expressions that
  /// the frontend builds itself with upstream ops.
  OpBuilder &getBuilder();
  const ModuleSemantics &getSemantics() const;
  /// Replaces the default handler, which emits an MLIR error at the location.
  void setErrorHandler(ErrorHandler handler);
  /// The `index`th argument of the function.
  BlockArgument getArgument(unsigned index) const;

  //===--------------------------------------------------------------------===//
  // Variables (thesis 4.1.2)
  //===--------------------------------------------------------------------===//

  /// Declares a variable of the function scope (a `vrir.alloca` slot in the
  /// entry block). Variables of tuple type are the frontend's business: give
  /// each component its own variable.
  Variable declareVariable(Location loc, StringRef name, Type type);
  Type getType(Variable variable) const;
  StringRef getName(Variable variable) const;
  /// The value of `variable` here. Inside a pfor or an accelerated section
  /// the first use of a variable from outside brings in its value from
  /// before the construct.
  Value read(Location loc, Variable variable);
  /// Rebinds `variable` to `value`, which must have the variable's type.
  /// Fails for a variable that the enclosing pfor shares.
  LogicalResult write(Location loc, Variable variable, Value value);

  //===--------------------------------------------------------------------===//
  // Scalars, ranges and element-wise operators
  //===--------------------------------------------------------------------===//

  Value constantIndex(Location loc, int64_t value);
  /// `value` (index, i32 or i64) as an index; null for other types.
  Value toIndex(Location loc, Value value);
  /// `vrir.range`; `exclusive` says whether `stop` is excluded, and the stop
  /// is adjusted when that differs from the module's convention.
  Value range(Location loc, Value start, Value stop, Value step = {},
              std::optional<bool> exclusive = std::nullopt);
  /// `vrir.domain` of `ranges` (at least one).
  Value domain(Location loc, ArrayRef<Value> ranges);
  /// Element-wise operators on scalars or arrays (`vrir.binary`, `vrir.cmp`,
  /// `vrir.unary`, `vrir.cast`). Scalar arithmetic and comparisons come out
  /// as `arith` through the dialect's own canonicalization patterns, so their
  /// meaning is the dialect's.
  Value binary(Location loc, BinaryFn fn, Value lhs, Value rhs,
               Type resultType);
  Value compare(Location loc, CmpPredicate predicate, Value lhs, Value rhs,
                Type resultType);
  Value unary(Location loc, UnaryFn fn, Value operand, Type resultType);
  /// `value` converted to `type` (a no-op when it already has that type).
  Value cast(Location loc, Value value, Type type);

  //===--------------------------------------------------------------------===//
  // Element access (thesis 4.3). `flags` holds one entry per index, or is
  // empty for the dialect's default (both bounds checked). Indices are
  // index, i32 or i64 values, converted to index.
  //===--------------------------------------------------------------------===//

  FailureOr<Value> load(Location loc, Value array, ValueRange indices,
                        ArrayRef<IndexFlags> flags = {},
                        bool flattened = false);
  /// Writes one element of the array held by `array`. With a `grow` flag the
  /// store returns the (possibly new) array and the variable is rebound to
  /// it (thesis figure 4.4).
  LogicalResult store(Location loc, Value value, Variable array,
                      ValueRange indices, ArrayRef<IndexFlags> flags = {},
                      bool flattened = false);
  /// A slice (integers and `!vrir.range`s): a strided view, or with `copy`
  /// a new array of `copyLayout` (default: the source's layout if it is
  /// contiguous, else row-major).
  FailureOr<Value> slice(Location loc, Value array, ValueRange indices,
                         ArrayRef<IndexFlags> flags = {}, bool copy = false,
                         std::optional<Layout> copyLayout = std::nullopt);
  LogicalResult storeSlice(Location loc, Value value, Variable array,
                           ValueRange indices, ArrayRef<IndexFlags> flags = {});
  /// `array` indexed along `axis` by the integer array `indices` (a copy).
  FailureOr<Value> gather(Location loc, Value array, Value indices,
                          unsigned axis = 0,
                          std::optional<IndexFlags> flags = std::nullopt);
  LogicalResult scatter(Location loc, Value value, Variable array,
                        Value indices, unsigned axis = 0,
                        std::optional<IndexFlags> flags = std::nullopt);

  //===--------------------------------------------------------------------===//
  // Statements (thesis 4.1.3, 4.5). Bodies are callbacks that build into the
  // current insertion point; their failure is passed on.
  //===--------------------------------------------------------------------===//

  /// A serial loop over the ranges of `bounds`, the first outermost; one
  /// integer variable per dimension takes the values of the iteration.
  /// `break` leaves the whole loop nest, `continue` goes to the next point.
  LogicalResult forLoop(Location loc, ArrayRef<Variable> inductionVars,
                        ArrayRef<LoopBounds> bounds, BodyFn body);
  /// `condition` is built at the head of every iteration; it returns i1.
  LogicalResult whileLoop(Location loc, ConditionFn condition, BodyFn body);
  /// `elseBody` may be null.
  LogicalResult ifThenElse(Location loc, Value condition, BodyFn thenBody,
                           BodyFn elseBody = nullptr);
  LogicalResult breakLoop(Location loc);
  LogicalResult continueLoop(Location loc);
  /// Returns `values`, which must have the function's result types.
  LogicalResult returnValues(Location loc, ValueRange values);
  /// A parallel loop over a `!vrir.range` or `!vrir.domain<n>` (thesis
  /// 4.5.1). Shared variables are read once before the loop and cannot be
  /// rebound inside; every other variable is private to an iteration and
  /// starts with its value from before the loop.
  LogicalResult pfor(Location loc, Value domain,
                     ArrayRef<Variable> inductionVars, const SharedList &shared,
                     BodyFn body);
  /// An accelerated section (thesis 4.5.4): variables rebound inside are
  /// yielded and rebound after it.
  LogicalResult gpuSection(Location loc, BodyFn body);

  /// Ends the body: a function without results returns at its end, one with
  /// results must not reach its end. Unreachable blocks are removed.
  LogicalResult finish(Location loc);

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace vrir
} // namespace mlir

#endif // VRIR_BUILDER_BUILDER_H
