//===- RaiseToAffine.cpp - scf.for and memref accesses to affine ----------===//
//
// The CPU lowering produces `scf.for` loops and `memref` accesses; where
// their bounds and subscripts are affine functions of enclosing affine loop
// counters and of values fixed in the function (arguments, array extents,
// constants), they become `affine.for`, `affine.load` and `affine.store`,
// so upstream affine analyses and transformations (dependence analysis,
// scalar replacement) apply to them.
//
// The frontends compute subscripts in i64 and convert them with
// `arith.index_cast`; those casts are looked through. Integer arithmetic is
// modelled without wrap-around, as affine analyses assume: subscripts that
// reach an access have been checked (or proven) in bounds as i64 values
// before, so a wrapped value never reaches memory.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_RAISETOAFFINE
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;

namespace {

/// True for the integer types whose arithmetic is looked through: index and
/// i64 (the same width on the targets VRIR supports, so the same wrap).
bool isWordInteger(Type type) {
  return type.isIndex() || type.isSignlessInteger(64);
}

/// Affine expressions for integer values, with the dimension and symbol
/// operands they need, valid in one affine scope.
class AffineExprBuilder {
public:
  AffineExprBuilder(Operation *user, llvm::DenseMap<Value, Value> &indexCasts)
      : scope(affine::getAffineScope(user)), context(user->getContext()),
        indexCasts(indexCasts) {}

  std::optional<AffineExpr> build(Value value) {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return getAffineConstantExpr(constant.getSExtValue(), context);
    Operation *def = value.getDefiningOp();
    if (auto cast = dyn_cast_or_null<arith::IndexCastOp>(def))
      if (isWordInteger(cast.getIn().getType()))
        return build(cast.getIn());
    if (def && isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def) &&
        isWordInteger(value.getType())) {
      std::optional<AffineExpr> lhs = build(def->getOperand(0));
      std::optional<AffineExpr> rhs =
          lhs ? build(def->getOperand(1)) : std::nullopt;
      if (!rhs)
        return leaf(value);
      if (isa<arith::AddIOp>(def))
        return *lhs + *rhs;
      if (isa<arith::SubIOp>(def))
        return *lhs - *rhs;
      if (isa<AffineConstantExpr>(*lhs) || isa<AffineConstantExpr>(*rhs))
        return *lhs * *rhs;
      return leaf(value);
    }
    return leaf(value);
  }

  /// The operands of a map built from this builder's expressions: the
  /// dimensions, then the symbols.
  SmallVector<Value> getOperands() const {
    SmallVector<Value> operands(dims.getArrayRef());
    llvm::append_range(operands, symbols.getArrayRef());
    return operands;
  }
  AffineMap getMap(ArrayRef<AffineExpr> results) const {
    return AffineMap::get(dims.size(), symbols.size(), results, context);
  }

private:
  /// `value` as a dimension (an affine counter, or what is computed from
  /// them) or a symbol (fixed in the scope); i64 values fixed in the scope
  /// get an index cast next to their definition.
  std::optional<AffineExpr> leaf(Value value) {
    if (!value.getType().isIndex()) {
      if (!value.getType().isSignlessInteger(64) || !scope ||
          !affine::isTopLevelValue(value, scope))
        return std::nullopt;
      Value &cast = indexCasts[value];
      if (!cast) {
        OpBuilder builder(context);
        builder.setInsertionPointAfterValue(value);
        cast = arith::IndexCastOp::create(builder, value.getLoc(),
                                          builder.getIndexType(), value);
      }
      value = cast;
    }
    if (affine::isValidSymbol(value, scope))
      return getAffineSymbolExpr(positionOf(symbols, value), context);
    if (affine::isValidDim(value, scope))
      return getAffineDimExpr(positionOf(dims, value), context);
    return std::nullopt;
  }
  static unsigned positionOf(llvm::SetVector<Value> &values, Value value) {
    values.insert(value);
    return llvm::find(values, value) - values.begin();
  }

  Region *scope;
  MLIRContext *context;
  llvm::DenseMap<Value, Value> &indexCasts;
  llvm::SetVector<Value> dims, symbols;
};

/// Replaces `loop` by an `affine.for` if its bounds are affine and its step
/// a positive constant.
void raiseLoop(IRRewriter &rewriter, scf::ForOp loop,
               llvm::DenseMap<Value, Value> &indexCasts) {
  APInt step;
  Type counterType = loop.getInductionVar().getType();
  if (loop.getUnsignedCmp() || !isWordInteger(counterType) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return;
  AffineExprBuilder lowerBuilder(loop, indexCasts);
  AffineExprBuilder upperBuilder(loop, indexCasts);
  std::optional<AffineExpr> lower = lowerBuilder.build(loop.getLowerBound());
  std::optional<AffineExpr> upper = upperBuilder.build(loop.getUpperBound());
  if (!lower || !upper)
    return;

  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto affineLoop = affine::AffineForOp::create(
      rewriter, loc, lowerBuilder.getOperands(), lowerBuilder.getMap(*lower),
      upperBuilder.getOperands(), upperBuilder.getMap(*upper),
      step.getSExtValue(), loop.getInitArgs());
  Block *body = affineLoop.getBody();
  if (!body->empty())
    rewriter.eraseOp(body->getTerminator());
  rewriter.setInsertionPointToStart(body);
  SmallVector<Value> arguments;
  Value counter = affineLoop.getInductionVar();
  if (counterType != counter.getType())
    counter = arith::IndexCastOp::create(rewriter, loc, counterType, counter);
  arguments.push_back(counter);
  llvm::append_range(arguments, affineLoop.getRegionIterArgs());
  rewriter.mergeBlocks(loop.getBody(), body, arguments);
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<affine::AffineYieldOp>(yield,
                                                     yield.getOperands());
  rewriter.replaceOp(loop, affineLoop.getResults());
}

/// Affine expressions for all of `indices`, or std::nullopt.
std::optional<SmallVector<AffineExpr>>
buildSubscripts(AffineExprBuilder &builder, ValueRange indices) {
  SmallVector<AffineExpr> exprs;
  for (Value index : indices) {
    std::optional<AffineExpr> expr = builder.build(index);
    if (!expr)
      return std::nullopt;
    exprs.push_back(*expr);
  }
  return exprs;
}

struct RaiseToAffine : public vrir::impl::RaiseToAffineBase<RaiseToAffine> {
  void runOnOperation() override {
    // Outer loops first: an inner loop's bounds may use an outer counter,
    // which is an affine dimension only once its loop is affine.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk<WalkOrder::PreOrder>(
        [&](scf::ForOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    llvm::DenseMap<Value, Value> indexCasts;
    for (scf::ForOp loop : loops)
      raiseLoop(rewriter, loop, indexCasts);

    getOperation()->walk([&](Operation *op) {
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        AffineExprBuilder builder(load, indexCasts);
        if (auto exprs = buildSubscripts(builder, load.getIndices())) {
          rewriter.setInsertionPoint(load);
          rewriter.replaceOpWithNewOp<affine::AffineLoadOp>(
              load, load.getMemRef(), builder.getMap(*exprs),
              builder.getOperands());
        }
      } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
        AffineExprBuilder builder(store, indexCasts);
        if (auto exprs = buildSubscripts(builder, store.getIndices())) {
          rewriter.setInsertionPoint(store);
          rewriter.replaceOpWithNewOp<affine::AffineStoreOp>(
              store, store.getValueToStore(), store.getMemRef(),
              builder.getMap(*exprs), builder.getOperands());
        }
      }
    });
  }
};

} // namespace
