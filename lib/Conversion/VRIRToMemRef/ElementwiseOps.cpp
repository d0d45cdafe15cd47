//===- ElementwiseOps.cpp - Element-wise ops, casts, copies, reductions ---===//
//
// `vrir.unary`, `vrir.binary`, `vrir.cmp`, `vrir.select` and `vrir.cast` on
// scalars become arith/math/complex ops; on arrays, one `linalg.generic`
// over a new array whose body is that same scalar computation. Operands
// broadcast by NumPy's rules through stride-0 views. `vrir.copy` and axis
// reductions reuse that machinery; whole-array reductions are loop nests
// that carry the accumulator.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/VRIRToMemRef.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::vrir;
using namespace mlir::vrir::lowering;

namespace {

using ScalarFn = ElementFn;

//===----------------------------------------------------------------------===//
// Scalar computations, shared by the scalar and the array forms
//===----------------------------------------------------------------------===//

static bool isIntegerComplex(Type type) {
  auto complex = dyn_cast<ComplexType>(type);
  return complex && isa<IntegerType>(complex.getElementType());
}

/// The complex dialect only has floating-point complex arithmetic. (Ops
/// that only move integer complex values, select and copy, are fine.)
static LogicalResult rejectIntegerComplex(Operation *op) {
  auto isUnsupported = [](Type type) {
    return isIntegerComplex(getElementTypeOf(type));
  };
  if (llvm::any_of(op->getOperandTypes(), isUnsupported) ||
      llvm::any_of(op->getResultTypes(), isUnsupported))
    return op->emitOpError(
        "integer complex arithmetic is not supported by the CPU lowering");
  return success();
}

/// Creates the op of `IntOp`, `FloatOp` or `ComplexOp` that matches the
/// type of `first` (`void` where the verifier rules that domain out).
template <typename IntOp, typename FloatOp, typename ComplexOp,
          typename... Args>
static Value createForType(OpBuilder &b, Location loc, Value first,
                           Args... rest) {
  Type type = first.getType();
  if (isa<ComplexType>(type)) {
    if constexpr (!std::is_void_v<ComplexOp>)
      return ComplexOp::create(b, loc, first, rest...);
  } else if (isa<FloatType>(type)) {
    if constexpr (!std::is_void_v<FloatOp>)
      return FloatOp::create(b, loc, first, rest...);
  } else {
    if constexpr (!std::is_void_v<IntOp>)
      return IntOp::create(b, loc, first, rest...);
  }
  llvm_unreachable("element type rejected by the op verifier");
}

static Value getAllOnes(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(type, APInt::getAllOnes(type.getIntOrFloatBitWidth())));
}

static Value emitUnary(OpBuilder &b, Location loc, UnaryFn fn, Value x) {
  Type type = x.getType();
  bool isComplex = isa<ComplexType>(type);
  switch (fn) {
  case UnaryFn::Neg:
    if (isa<IntegerType>(type))
      return arith::SubIOp::create(b, loc, getZero(b, loc, type), x);
    return createForType<void, arith::NegFOp, complex::NegOp>(b, loc, x);
  case UnaryFn::Not:
    // Logical on i1 (all ones is `true`), bitwise on wider integers.
    return arith::XOrIOp::create(b, loc, x, getAllOnes(b, loc, type));
  case UnaryFn::Abs:
    return createForType<math::AbsIOp, math::AbsFOp, complex::AbsOp>(b, loc, x);
  case UnaryFn::Sqrt:
    return createForType<void, math::SqrtOp, complex::SqrtOp>(b, loc, x);
  case UnaryFn::Exp:
    return createForType<void, math::ExpOp, complex::ExpOp>(b, loc, x);
  case UnaryFn::Log:
    return createForType<void, math::LogOp, complex::LogOp>(b, loc, x);
  case UnaryFn::Sin:
    return createForType<void, math::SinOp, complex::SinOp>(b, loc, x);
  case UnaryFn::Cos:
    return createForType<void, math::CosOp, complex::CosOp>(b, loc, x);
  case UnaryFn::Tan:
    return createForType<void, math::TanOp, complex::TanOp>(b, loc, x);
  case UnaryFn::Tanh:
    return createForType<void, math::TanhOp, complex::TanhOp>(b, loc, x);
  case UnaryFn::Floor:
    return math::FloorOp::create(b, loc, x);
  case UnaryFn::Ceil:
    return math::CeilOp::create(b, loc, x);
  case UnaryFn::Round:
    // np.round rounds halves to even.
    return math::RoundEvenOp::create(b, loc, x);
  case UnaryFn::Real:
    return isComplex ? complex::ReOp::create(b, loc, x).getResult() : x;
  case UnaryFn::Imag:
    return isComplex ? complex::ImOp::create(b, loc, x).getResult()
                     : getZero(b, loc, type);
  case UnaryFn::Conj:
    return isComplex ? complex::ConjOp::create(b, loc, x).getResult() : x;
  }
  llvm_unreachable("unknown unary function");
}

/// Truncating integer division or remainder with NumPy's results where C's
/// are undefined: `x / 0 == x % 0 == 0`, `INT_MIN / -1 == INT_MIN` (wraps)
/// and `INT_MIN % -1 == 0`. The divisor is replaced by 1 where it is 0 or -1
/// so that no `idiv` can trap; selects, not branches, keep loops
/// vectorizable.
static Value emitSafeIntegerDivRem(OpBuilder &b, Location loc, bool isRem,
                                   Value lhs, Value rhs) {
  Type type = rhs.getType();
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 1));
  // rhs + 1 <=u 1 exactly when rhs is 0 or -1.
  Value isUnsafe =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                            arith::AddIOp::create(b, loc, rhs, one), one);
  Value divisor = arith::SelectOp::create(b, loc, isUnsafe, one, rhs);
  // x % 1 == 0 is already the answer for both unsafe divisors.
  if (isRem)
    return arith::RemSIOp::create(b, loc, lhs, divisor);
  // x / 1 == x: 0 - x (wrapping) for -1, 0 for 0.
  Value quotient = arith::DivSIOp::create(b, loc, lhs, divisor);
  Value zero = getZero(b, loc, type);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value negated = arith::SubIOp::create(b, loc, zero, quotient);
  Value unsafeResult = arith::SelectOp::create(b, loc, isZero, zero, negated);
  return arith::SelectOp::create(b, loc, isUnsafe, unsafeResult, quotient);
}

static Value emitBinary(OpBuilder &b, Location loc, BinaryFn fn, Value lhs,
                        Value rhs) {
  switch (fn) {
  case BinaryFn::Add:
    return createForType<arith::AddIOp, arith::AddFOp, complex::AddOp>(
        b, loc, lhs, rhs);
  case BinaryFn::Sub:
    return createForType<arith::SubIOp, arith::SubFOp, complex::SubOp>(
        b, loc, lhs, rhs);
  case BinaryFn::Mul:
    return createForType<arith::MulIOp, arith::MulFOp, complex::MulOp>(
        b, loc, lhs, rhs);
  case BinaryFn::Div:
    // Integers divide with C truncation; the frontend emits floor division
    // itself where its language asks for it.
    if (isa<IntegerType>(lhs.getType()))
      return emitSafeIntegerDivRem(b, loc, /*isRem=*/false, lhs, rhs);
    return createForType<void, arith::DivFOp, complex::DivOp>(b, loc, lhs, rhs);
  case BinaryFn::Rem:
    if (isa<IntegerType>(lhs.getType()))
      return emitSafeIntegerDivRem(b, loc, /*isRem=*/true, lhs, rhs);
    return arith::RemFOp::create(b, loc, lhs, rhs);
  case BinaryFn::Pow:
    return createForType<math::IPowIOp, math::PowFOp, complex::PowOp>(b, loc,
                                                                      lhs, rhs);
  case BinaryFn::Min:
    // minimumf/maximumf propagate NaN, as np.minimum and np.min do.
    return createForType<arith::MinSIOp, arith::MinimumFOp, void>(b, loc, lhs,
                                                                  rhs);
  case BinaryFn::Max:
    return createForType<arith::MaxSIOp, arith::MaximumFOp, void>(b, loc, lhs,
                                                                  rhs);
  case BinaryFn::And:
    return arith::AndIOp::create(b, loc, lhs, rhs);
  case BinaryFn::Or:
    return arith::OrIOp::create(b, loc, lhs, rhs);
  case BinaryFn::Xor:
    return arith::XOrIOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown binary function");
}

static Value emitCmp(OpBuilder &b, Location loc, CmpPredicate predicate,
                     Value lhs, Value rhs) {
  Type type = lhs.getType();
  if (isa<ComplexType>(type)) {
    // The verifier only allows eq and ne on complex operands.
    if (predicate == CmpPredicate::EQ)
      return complex::EqualOp::create(b, loc, lhs, rhs);
    return complex::NotEqualOp::create(b, loc, lhs, rhs);
  }
  unsigned index = static_cast<unsigned>(predicate);
  if (isa<FloatType>(type)) {
    // Ordered, so that NaN compares false, except `ne`, true on NaN.
    static const arith::CmpFPredicate floatPredicates[] = {
        arith::CmpFPredicate::OEQ, arith::CmpFPredicate::UNE,
        arith::CmpFPredicate::OLT, arith::CmpFPredicate::OLE,
        arith::CmpFPredicate::OGT, arith::CmpFPredicate::OGE};
    return arith::CmpFOp::create(b, loc, floatPredicates[index], lhs, rhs);
  }
  // Booleans order False < True, which as signed i1 (-1 for true) they
  // would not.
  static const arith::CmpIPredicate signedPredicates[] = {
      arith::CmpIPredicate::eq,  arith::CmpIPredicate::ne,
      arith::CmpIPredicate::slt, arith::CmpIPredicate::sle,
      arith::CmpIPredicate::sgt, arith::CmpIPredicate::sge};
  static const arith::CmpIPredicate unsignedPredicates[] = {
      arith::CmpIPredicate::eq,  arith::CmpIPredicate::ne,
      arith::CmpIPredicate::ult, arith::CmpIPredicate::ule,
      arith::CmpIPredicate::ugt, arith::CmpIPredicate::uge};
  return arith::CmpIOp::create(b, loc,
                               type.isInteger(1) ? unsignedPredicates[index]
                                                 : signedPredicates[index],
                               lhs, rhs);
}

/// Converts `x` to `to` with C rules, NumPy's `astype(bool)` (`x != 0`,
/// so NaN is true) for i1 results, and the real part of complex values
/// converted to real types.
static Value emitCast(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (isa<ComplexType>(from)) {
    Value real = complex::ReOp::create(b, loc, x);
    if (!isa<ComplexType>(to) && !to.isInteger(1))
      return emitCast(b, loc, real, to);
    Value imag = complex::ImOp::create(b, loc, x);
    if (auto toComplex = dyn_cast<ComplexType>(to)) {
      Type part = toComplex.getElementType();
      return complex::CreateOp::create(b, loc, toComplex,
                                       emitCast(b, loc, real, part),
                                       emitCast(b, loc, imag, part));
    }
    // A complex number is true if either part is nonzero.
    return arith::OrIOp::create(b, loc, emitCast(b, loc, real, to),
                                emitCast(b, loc, imag, to));
  }
  if (auto toComplex = dyn_cast<ComplexType>(to)) {
    Type part = toComplex.getElementType();
    return complex::CreateOp::create(
        b, loc, toComplex, emitCast(b, loc, x, part), getZero(b, loc, part));
  }
  if (to.isInteger(1)) {
    Value zero = getZero(b, loc, from);
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  // From here on `to` is a wider-than-i1 integer or a float.
  bool fromBool = from.isInteger(1);
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (isa<FloatType>(from)) {
    if (isa<IntegerType>(to)) {
      // NaN and values out of range give the smallest integer, as NumPy's
      // casts do on x86-64 (cvttsd2si), not LLVM's poison.
      auto floatType = cast<FloatType>(from);
      double limit = std::ldexp(1.0, toWidth - 1);
      Value low =
          arith::ConstantOp::create(b, loc, FloatAttr::get(floatType, -limit));
      Value high =
          arith::ConstantOp::create(b, loc, FloatAttr::get(floatType, limit));
      Value aboveLow =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x, low);
      Value belowHigh =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, high);
      Value inRange = arith::AndIOp::create(b, loc, aboveLow, belowHigh);
      Value smallest = arith::ConstantOp::create(
          b, loc, IntegerAttr::get(to, APInt::getSignedMinValue(toWidth)));
      return arith::SelectOp::create(
          b, loc, inRange, arith::FPToSIOp::create(b, loc, to, x), smallest);
    }
    if (toWidth > fromWidth)
      return arith::ExtFOp::create(b, loc, to, x);
    return arith::TruncFOp::create(b, loc, to, x);
  }
  // Booleans are 0 or 1, never -1.
  if (isa<FloatType>(to))
    return fromBool ? arith::UIToFPOp::create(b, loc, to, x).getResult()
                    : arith::SIToFPOp::create(b, loc, to, x).getResult();
  if (fromBool)
    return arith::ExtUIOp::create(b, loc, to, x);
  if (toWidth > fromWidth)
    return arith::ExtSIOp::create(b, loc, to, x);
  return arith::TruncIOp::create(b, loc, to, x);
}

//===----------------------------------------------------------------------===//
// Array forms: broadcasting and linalg.generic
//===----------------------------------------------------------------------===//

/// Array dimensions from the outermost loop to the innermost, so that the
/// innermost loop walks the fastest-varying dimension of `layout`.
static SmallVector<unsigned> getLoopOrder(Layout layout, unsigned rank) {
  auto order = llvm::to_vector(llvm::seq<unsigned>(0, rank));
  if (layout == Layout::ColMajor)
    std::reverse(order.begin(), order.end());
  return order;
}

/// The indexing map from loops ordered by `loopOrder` to the array
/// dimensions, leaving out those in `dropped`.
static AffineMap getArrayMap(MLIRContext *context, ArrayRef<unsigned> loopOrder,
                             ArrayRef<unsigned> dropped = {}) {
  SmallVector<AffineExpr> results;
  for (unsigned dim = 0; dim < loopOrder.size(); ++dim) {
    if (llvm::is_contained(dropped, dim))
      continue;
    unsigned loop = llvm::find(loopOrder, dim) - loopOrder.begin();
    results.push_back(getAffineDimExpr(loop, context));
  }
  return AffineMap::get(loopOrder.size(), /*symbolCount=*/0, results, context);
}

/// Result sizes of NumPy broadcasting of the memrefs `arrays` to `rank`
/// dimensions (trailing dimensions aligned). Where several operands have
/// a dimension, each of their sizes must be 1 or the result's, checked at
/// run time.
static SmallVector<Value> getBroadcastSizes(OpBuilder &b, Location loc,
                                            Operation *op, ValueRange arrays,
                                            unsigned rank,
                                            StringRef description) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> result;
  for (unsigned dim = 0; dim < rank; ++dim) {
    // A size known to be 1 broadcasts to any other, and a size seen already
    // adds no check.
    SmallVector<OpFoldResult> sizes;
    for (Value array : arrays) {
      unsigned arrayRank = cast<MemRefType>(array.getType()).getRank();
      if (dim + arrayRank < rank)
        continue;
      // Folded, so that views of one array share its size values.
      OpFoldResult size = getAsOpFoldResult(
          b.createOrFold<memref::DimOp>(loc, array, dim + arrayRank - rank));
      if (!isConstantIntValue(size, 1) && !llvm::is_contained(sizes, size))
        sizes.push_back(size);
    }
    if (sizes.empty()) {
      result.push_back(one);
      continue;
    }
    SmallVector<Value> sizeValues =
        getValueOrCreateConstantIndexOp(b, loc, sizes);
    if (sizeValues.size() == 1) {
      result.push_back(sizeValues.front());
      continue;
    }
    // The result's size is the smallest size other than 1 (they must all
    // be equal), or 1. A minimum rather than a chain of selects on
    // "size == 1": sizes equal after folding then fold away, and LLVM's
    // value tracking, which walks both arms of every select for each
    // comparison with the result, stays linear (the select chain made
    // InstCombine take 0.2 s on a kernel with six fused operands).
    Value none = arith::ConstantIndexOp::create(
        b, loc, std::numeric_limits<int64_t>::max());
    Value smallest;
    SmallVector<Value> notOnes;
    for (Value other : sizeValues) {
      Value notOne =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, other, one);
      notOnes.push_back(notOne);
      Value candidate = arith::SelectOp::create(b, loc, notOne, other, none);
      smallest = smallest ? arith::MinSIOp::create(b, loc, smallest, candidate)
                          : candidate;
    }
    Value allOnes =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, smallest, none);
    result.push_back(arith::SelectOp::create(b, loc, allOnes, one, smallest));
    // A size other than 1 and the smallest one cannot broadcast.
    Value mismatch;
    for (auto [other, notOne] : llvm::zip_equal(sizeValues, notOnes)) {
      Value differs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                            other, smallest);
      Value bad = arith::AndIOp::create(b, loc, notOne, differs);
      mismatch = mismatch
                     ? arith::OrIOp::create(b, loc, mismatch, bad).getResult()
                     : bad;
    }
    Value firstArray = *llvm::find_if(op->getOperands(), [](Value operand) {
      return isa<ArrayType>(operand.getType());
    });
    std::string message =
        ("operands could not be broadcast together: " + description + " (" +
         getArraySite(op, firstArray) + "), dimension " + Twine(dim) +
         " of the result")
            .str();
    emitRuntimeErrorIf(b, loc, op, mismatch, message);
  }
  return result;
}

/// `array` (of the result's rank and, where this is called, its sizes) with
/// `sizes` in its type, its own strides and offset kept (static ones
/// included, for the vectorizer). Canonicalization folds casts of
/// constant-size arrays into a linalg.generic; without this, a branch that
/// never runs (operands of sizes 1 and 4) would not verify.
static Value getSameShapeView(OpBuilder &b, Location loc, Value array,
                              ArrayRef<Value> sizes) {
  auto type = cast<MemRefType>(array.getType());
  SmallVector<int64_t> staticStrides;
  int64_t staticOffset;
  if (failed(type.getStridesAndOffset(staticStrides, staticOffset)))
    return array;
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, array);
  auto pick = [&](int64_t known, Value computed) -> OpFoldResult {
    if (ShapedType::isStatic(known))
      return b.getIndexAttr(known);
    return computed;
  };
  SmallVector<OpFoldResult> strides;
  for (auto [known, stride] :
       llvm::zip_equal(staticStrides, metadata.getStrides()))
    strides.push_back(pick(known, stride));
  SmallVector<int64_t> dynamicSizes(type.getRank(), ShapedType::kDynamic);
  auto viewType = MemRefType::get(
      dynamicSizes, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), staticOffset, staticStrides));
  return memref::ReinterpretCastOp::create(
      b, loc, viewType, metadata.getBaseBuffer(),
      pick(staticOffset, metadata.getOffset()), getAsOpFoldResult(sizes),
      strides);
}

/// Whether every one of `arrays` (memrefs of the result's rank) has exactly
/// the broadcast `sizes`.
static Value getSameShapeCondition(OpBuilder &b, Location loc,
                                   ValueRange arrays, ArrayRef<Value> sizes) {
  Value sameShape;
  for (Value array : arrays) {
    for (auto [dim, expected] : llvm::enumerate(sizes)) {
      Value size = memref::DimOp::create(b, loc, array, dim);
      Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          size, expected);
      sameShape =
          sameShape
              ? arith::AndIOp::create(b, loc, sameShape, equal).getResult()
              : equal;
    }
  }
  return sameShape;
}

/// A view of `array` with the rank and `sizes` of the broadcast result, in
/// which the missing leading dimensions and those of size 1 have stride 0.
static Value getBroadcastView(OpBuilder &b, Location loc, Value array,
                              ArrayRef<Value> sizes) {
  auto type = cast<MemRefType>(array.getType());
  unsigned rank = sizes.size();
  unsigned missing = rank - type.getRank();
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, array);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<OpFoldResult> strides;
  for (unsigned dim = 0; dim < rank; ++dim) {
    if (dim < missing) {
      strides.push_back(zero);
      continue;
    }
    Value isOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                              metadata.getSizes()[dim - missing], one);
    strides.push_back(
        arith::SelectOp::create(b, loc, isOne, zero,
                                metadata.getStrides()[dim - missing])
            .getResult());
  }
  SmallVector<int64_t> dynamic(rank, ShapedType::kDynamic);
  auto viewType = MemRefType::get(
      dynamic, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, dynamic));
  return memref::ReinterpretCastOp::create(
      b, loc, viewType, metadata.getBaseBuffer(),
      OpFoldResult(metadata.getOffset()), getAsOpFoldResult(sizes), strides);
}

/// Lowers an element-wise op whose converted operands are `operands`
/// (memrefs for arrays) and whose element computation is `fn`: a scalar
/// result is `fn` of the operands; an array result is a new array (of the
/// op's result layout) filled by fillElementwise over the broadcast
/// operands. `description` names the op in error messages.
static void lowerElementwise(ConversionPatternRewriter &rewriter, Operation *op,
                             ValueRange operands, StringRef description,
                             ScalarFn fn) {
  Location loc = op->getLoc();
  auto resultType = dyn_cast<ArrayType>(op->getResult(0).getType());
  if (!resultType) {
    rewriter.replaceOp(op, fn(rewriter, loc, operands));
    return;
  }
  SmallVector<Value> arrays;
  for (Value operand : operands)
    if (isa<MemRefType>(operand.getType()))
      arrays.push_back(operand);
  SmallVector<Value> sizes = getBroadcastSizes(
      rewriter, loc, op, arrays, resultType.getRank(), description);
  Value result = allocateArray(rewriter, loc, op, resultType, sizes);
  fillElementwise(rewriter, loc, operands, sizes, /*sizesFromOperands=*/true,
                  result, resultType.getLayout(), fn);
  rewriter.replaceOp(op, result);
}

} // namespace

void lowering::fillElementwise(OpBuilder &b, Location loc, ValueRange operands,
                               ArrayRef<Value> sizes, bool sizesFromOperands,
                               Value result, Layout loopLayout, ElementFn fn) {
  SmallVector<Value> arrays;
  for (Value operand : operands)
    if (isa<MemRefType>(operand.getType()))
      arrays.push_back(operand);
  unsigned rank = sizes.size();

  // Every operand is viewed with the result's shape: one map for all.
  AffineMap map = getArrayMap(b.getContext(), getLoopOrder(loopLayout, rank));
  SmallVector<AffineMap> maps(arrays.size() + 1, map);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto emitGeneric = [&](OpBuilder &b, ValueRange inputs) {
    linalg::GenericOp::create(
        b, loc, inputs, ValueRange{result}, maps, iterators,
        [&](OpBuilder &nested, Location loc, ValueRange args) {
          // Array elements come in as block arguments, scalars from above.
          SmallVector<Value> elements;
          unsigned next = 0;
          for (Value operand : operands)
            elements.push_back(isa<MemRefType>(operand.getType()) ? args[next++]
                                                                  : operand);
          linalg::YieldOp::create(nested, loc, fn(nested, loc, elements));
        });
  };
  auto emitBroadcasting = [&](OpBuilder &b) {
    SmallVector<Value> views;
    for (Value array : arrays)
      views.push_back(getBroadcastView(b, loc, array, sizes));
    emitGeneric(b, views);
  };

  // A lone array operand of the result's rank gives the result its sizes:
  // it cannot broadcast and needs no view.
  bool sameRank = llvm::all_of(arrays, [&](Value array) {
    return cast<MemRefType>(array.getType()).getRank() == rank;
  });
  if ((arrays.size() == 1 || rank == 0) && sameRank && sizesFromOperands) {
    emitGeneric(b, arrays);
  } else if (!sameRank) {
    emitBroadcasting(b);
  } else {
    // Operands of one rank usually have one shape: then the loops read them
    // through their own layouts (unit inner strides the vectorizer can
    // use), and only a real broadcast goes through the stride-0 views.
    Value sameShape = getSameShapeCondition(b, loc, arrays, sizes);
    auto ifOp = scf::IfOp::create(b, loc, sameShape, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> views;
    for (Value array : arrays)
      views.push_back(getSameShapeView(b, loc, array, sizes));
    emitGeneric(b, views);
    b.setInsertionPointToStart(ifOp.elseBlock());
    emitBroadcasting(b);
  }
}

namespace {

//===----------------------------------------------------------------------===//
// Element-wise patterns
//===----------------------------------------------------------------------===//

struct UnaryOpLowering : public OpConversionPattern<UnaryOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UnaryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(rejectIntegerComplex(op)))
      return failure();
    UnaryFn fn = op.getFn();
    lowerElementwise(rewriter, op, adaptor.getOperands(),
                     ("vrir.unary " + stringifyUnaryFn(fn)).str(),
                     [&](OpBuilder &b, Location loc, ValueRange args) {
                       return emitUnary(b, loc, fn, args[0]);
                     });
    return success();
  }
};

struct BinaryOpLowering : public OpConversionPattern<BinaryOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BinaryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(rejectIntegerComplex(op)))
      return failure();
    BinaryFn fn = op.getFn();
    lowerElementwise(rewriter, op, adaptor.getOperands(),
                     ("vrir.binary " + stringifyBinaryFn(fn)).str(),
                     [&](OpBuilder &b, Location loc, ValueRange args) {
                       return emitBinary(b, loc, fn, args[0], args[1]);
                     });
    return success();
  }
};

struct CmpOpLowering : public OpConversionPattern<CmpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CmpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(rejectIntegerComplex(op)))
      return failure();
    CmpPredicate predicate = op.getPredicate();
    lowerElementwise(rewriter, op, adaptor.getOperands(),
                     ("vrir.cmp " + stringifyCmpPredicate(predicate)).str(),
                     [&](OpBuilder &b, Location loc, ValueRange args) {
                       return emitCmp(b, loc, predicate, args[0], args[1]);
                     });
    return success();
  }
};

struct SelectOpLowering : public OpConversionPattern<SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    lowerElementwise(rewriter, op, adaptor.getOperands(), "vrir.select",
                     [](OpBuilder &b, Location loc, ValueRange args) {
                       return arith::SelectOp::create(b, loc, args[0], args[1],
                                                      args[2])
                           .getResult();
                     });
    return success();
  }
};

struct CastOpLowering : public OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(rejectIntegerComplex(op)))
      return failure();
    Type to = getElementTypeOf(op.getResult().getType());
    lowerElementwise(rewriter, op, adaptor.getOperands(), "vrir.cast",
                     [&](OpBuilder &b, Location loc, ValueRange args) {
                       return emitCast(b, loc, args[0], to);
                     });
    return success();
  }
};

/// The body is cloned into the loop nest once per element; its scalar VRIR
/// ops are then lowered like any others.
struct MapOpLowering : public OpConversionPattern<MapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getReduce())
      return failure(); // MapReduceLowering
    lowerElementwise(rewriter, op, adaptor.getOperands(),
                     "element-wise expression",
                     [&](OpBuilder &b, Location, ValueRange args) {
                       return op.cloneBody(b, args);
                     });
    return success();
  }
};

/// Between identity-layout (row-major) memrefs, memref.copy becomes a
/// memcpy. Otherwise it would become a call to the runner library's
/// element-by-element `memrefCopy`; a copy is instead lowered as the
/// identity element-wise op, a loop nest walking the result's layout.
struct CopyOpLowering : public OpConversionPattern<CopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value source = adaptor.getOperand();
    auto sourceType = cast<MemRefType>(source.getType());
    MemRefType resultType = getMemRefType(op.getResult().getType());
    if (!sourceType.getLayout().isIdentity() ||
        !resultType.getLayout().isIdentity()) {
      lowerElementwise(
          rewriter, op, source, "vrir.copy",
          [](OpBuilder &, Location, ValueRange args) { return args[0]; });
      return success();
    }
    Location loc = op.getLoc();
    Value result = allocateArray(rewriter, loc, op, op.getResult().getType(),
                                 getMemRefSizes(rewriter, loc, source));
    memref::CopyOp::create(rewriter, loc, source, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static BinaryFn getCombiner(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
    return BinaryFn::Add;
  case ReduceKind::Prod:
    return BinaryFn::Mul;
  case ReduceKind::Min:
    return BinaryFn::Min;
  case ReduceKind::Max:
    return BinaryFn::Max;
  }
  llvm_unreachable("unknown reduction kind");
}

} // namespace

Value lowering::getReductionIdentity(OpBuilder &b, Location loc,
                                     ReduceKind kind, Type type,
                                     bool negativeZero) {
  switch (kind) {
  case ReduceKind::Sum:
    if (auto floatType = dyn_cast<FloatType>(type); floatType && negativeZero)
      return arith::ConstantOp::create(
          b, loc,
          b.getFloatAttr(type, APFloat::getZero(floatType.getFloatSemantics(),
                                                /*Negative=*/true)));
    return getZero(b, loc, type);
  case ReduceKind::Prod:
    return getOne(b, loc, type);
  case ReduceKind::Min:
  case ReduceKind::Max:
    break;
  }
  bool isMin = kind == ReduceKind::Min;
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(type, APFloat::getInf(floatType.getFloatSemantics(),
                                             /*Negative=*/!isMin)));
  unsigned width = type.getIntOrFloatBitWidth();
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(type, isMin ? APInt::getSignedMaxValue(width)
                                   : APInt::getSignedMinValue(width)));
}

Value lowering::combineReduction(OpBuilder &b, Location loc, ReduceKind kind,
                                 Value lhs, Value rhs) {
  return emitBinary(b, loc, getCombiner(kind), lhs, rhs);
}

namespace {

/// One step of a sum or product reduction. Float sums and products may be
/// reassociated (`fastmath<reassoc>`), so that LLVM vectorises them with
/// several partial results, as BLAS and NumPy's pairwise summation do:
/// added strictly in order, each step waits for the last (a dot product of
/// slices ran 2.5x slower than BLAS's). Integer, min and max steps are exact
/// in any order already; complex steps stay in order.
static Value emitReductionStep(OpBuilder &b, Location loc, BinaryFn combiner,
                               Value accumulator, Value element) {
  Value result = emitBinary(b, loc, combiner, accumulator, element);
  auto fastMath = result.getDefiningOp<arith::ArithFastMathInterface>();
  if (fastMath && isa<FloatType>(result.getType()) &&
      (combiner == BinaryFn::Add || combiner == BinaryFn::Mul))
    result.getDefiningOp()->setAttr(
        fastMath.getFastMathAttrName(),
        arith::FastMathFlagsAttr::get(b.getContext(),
                                      arith::FastMathFlags::reassoc));
  return result;
}

/// Reduces dimension `axis` of `input` into `output`, which has the other
/// dimensions and holds the identity. Loops follow `input`'s layout: the
/// input is the larger operand to stream through.
static void reduceAxis(OpBuilder &b, Location loc, Value input, Layout layout,
                       Value output, unsigned axis, BinaryFn combiner) {
  unsigned rank = cast<MemRefType>(input.getType()).getRank();
  SmallVector<unsigned> order = getLoopOrder(layout, rank);
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps = {getArrayMap(context, order),
                                 getArrayMap(context, order, axis)};
  SmallVector<utils::IteratorType> iterators;
  for (unsigned dim : order)
    iterators.push_back(dim == axis ? utils::IteratorType::reduction
                                    : utils::IteratorType::parallel);
  linalg::GenericOp::create(
      b, loc, input, output, maps, iterators,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        linalg::YieldOp::create(
            b, loc, emitReductionStep(b, loc, combiner, args[1], args[0]));
      });
}

/// Reduces all of `input` (with `sizes`) to a scalar: a loop nest in
/// `layout` order that carries the accumulator. A linalg reduction would
/// need a rank-0 buffer, and there is no good place for one: in a serial
/// loop an alloca grows the stack at every iteration (the CPU pipeline does
/// not release allocations of scf.for bodies), and in a parallel loop body
/// it keeps the OpenMP lowering from dropping the body's alloca_scope,
/// which must then survive scf-to-cf as a single block, and cannot.
static Value reduceAll(OpBuilder &b, Location loc, ScalarFn element,
                       ArrayRef<Value> sizes, Layout layout, Value identity,
                       BinaryFn combiner) {
  SmallVector<unsigned> order = getLoopOrder(layout, sizes.size());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lower(sizes.size(), zero), steps(sizes.size(), one);
  SmallVector<Value> upper;
  for (unsigned dim : order)
    upper.push_back(sizes[dim]);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lower, upper, steps, identity,
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange accumulator) -> scf::ValueVector {
        SmallVector<Value> indices(sizes.size());
        for (auto [loop, dim] : llvm::enumerate(order))
          indices[dim] = ivs[loop];
        return {emitReductionStep(b, loc, combiner, accumulator.front(),
                                  element(b, loc, indices))};
      });
  return nest.results.front();
}

/// The same reduction in a GPU section: an `scf.parallel` with an
/// `scf.reduce`, which `vrir-gpu-map-sections` turns into a two-level tree
/// of kernels (work-groups, then one final group).
static Value reduceAllInParallel(OpBuilder &b, Location loc, ScalarFn element,
                                 ArrayRef<Value> sizes, Value identity,
                                 BinaryFn combiner) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lower(sizes.size(), zero), steps(sizes.size(), one);
  auto loop = scf::ParallelOp::create(
      b, loc, lower, sizes, steps, ValueRange{identity},
      [&](OpBuilder &b, Location loc, ValueRange ivs, ValueRange) {
        auto reduce =
            scf::ReduceOp::create(b, loc, ValueRange{element(b, loc, ivs)});
        Block &combine = reduce.getReductions()[0].front();
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&combine);
        scf::ReduceReturnOp::create(b, loc,
                                    emitBinary(b, loc, combiner,
                                               combine.getArgument(0),
                                               combine.getArgument(1)));
      });
  return loop.getResult(0);
}

/// Like NumPy, the min and max of nothing (any of `sizes` zero) are errors,
/// not +-inf. `array` names the array in the message.
static void checkNotEmpty(OpBuilder &b, Location loc, Operation *op,
                          ReduceKind kind, ArrayRef<Value> sizes, Value array) {
  if (kind != ReduceKind::Min && kind != ReduceKind::Max)
    return;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value empty;
  for (Value size : sizes) {
    Value isZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, zero);
    empty = empty ? arith::OrIOp::create(b, loc, empty, isZero).getResult()
                  : isZero;
  }
  if (empty)
    emitRuntimeErrorIf(b, loc, op, empty,
                       ("zero-size array to reduction operation " +
                        stringifyReduceKind(kind) + " which has no identity (" +
                        getArraySite(op, array) + ")")
                           .str());
}

struct ReduceOpLowering : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(rejectIntegerComplex(op)))
      return failure();
    Location loc = op.getLoc();
    Value input = adaptor.getOperand();
    ArrayType inputType = op.getOperand().getType();
    Type element = inputType.getElementType();
    unsigned rank = inputType.getRank();
    ReduceKind kind = op.getKind();
    std::optional<uint64_t> axis = op.getAxis();
    bool toScalar = !axis || rank <= 1;
    SmallVector<unsigned> reduced;
    if (toScalar)
      llvm::append_range(reduced, llvm::seq<unsigned>(0, rank));
    else
      reduced.push_back(*axis);

    SmallVector<Value> sizes = getMemRefSizes(rewriter, loc, input);
    SmallVector<Value> reducedSizes;
    for (unsigned dim : reduced)
      reducedSizes.push_back(sizes[dim]);
    checkNotEmpty(rewriter, loc, op, kind, reducedSizes, op.getOperand());

    Value identity = getReductionIdentity(rewriter, loc, kind, element);
    BinaryFn combiner = getCombiner(kind);
    Layout layout = inputType.getLayout();
    auto load = [&](OpBuilder &b, Location loc, ValueRange indices) -> Value {
      return memref::LoadOp::create(b, loc, input, indices);
    };
    if (toScalar && rank > 0 && isInGpuSection(op)) {
      rewriter.replaceOp(op, reduceAllInParallel(rewriter, loc, load, sizes,
                                                 identity, combiner));
      return success();
    }
    if (toScalar) {
      rewriter.replaceOp(op, reduceAll(rewriter, loc, load, sizes, layout,
                                       identity, combiner));
      return success();
    }
    SmallVector<Value> resultSizes = sizes;
    resultSizes.erase(resultSizes.begin() + *axis);
    auto resultType = cast<ArrayType>(op.getResult().getType());
    Value result = allocateArray(rewriter, loc, op, resultType, resultSizes);
    fillArray(rewriter, loc, result, identity);
    reduceAxis(rewriter, loc, input, layout, result, *axis, combiner);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A reducing map: the loop nest of a whole-array reduction over the
/// broadcast shape of the inputs, whose elements are the body's values (no
/// array is stored). Operands of one shape are read through their own
/// layouts, as in lowerElementwise; a real broadcast through stride-0
/// views.
struct MapReduceLowering : public OpConversionPattern<MapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<ReduceKind> kind = op.getReduce();
    if (!kind)
      return failure(); // MapOpLowering
    if (failed(rejectIntegerComplex(op)))
      return failure();
    Location loc = op.getLoc();
    ValueRange operands = adaptor.getOperands();
    SmallVector<Value> arrays;
    Value firstArray;
    unsigned rank = 0;
    for (auto [input, operand] : llvm::zip_equal(op.getInputs(), operands)) {
      auto memref = dyn_cast<MemRefType>(operand.getType());
      if (!memref)
        continue;
      if (arrays.empty())
        firstArray = input;
      arrays.push_back(operand);
      rank = std::max<unsigned>(rank, memref.getRank());
    }
    SmallVector<Value> sizes = getBroadcastSizes(
        rewriter, loc, op, arrays, rank, "element-wise expression");
    checkNotEmpty(rewriter, loc, op, *kind, sizes, firstArray);

    Type type = op.getType();
    Value identity = getReductionIdentity(rewriter, loc, *kind, type);
    BinaryFn combiner = getCombiner(*kind);
    Layout layout =
        cast<ArrayType>(firstArray.getType()).getLayout() == Layout::ColMajor
            ? Layout::ColMajor
            : Layout::RowMajor;
    bool parallel = isInGpuSection(op);
    auto reduceViews = [&](OpBuilder &b, ArrayRef<Value> views) -> Value {
      auto element = [&](OpBuilder &b, Location loc,
                         ValueRange indices) -> Value {
        SmallVector<Value> elements;
        unsigned next = 0;
        for (Value operand : operands)
          elements.push_back(
              isa<MemRefType>(operand.getType())
                  ? memref::LoadOp::create(b, loc, views[next++], indices)
                        .getResult()
                  : operand);
        return op.cloneBody(b, elements);
      };
      if (rank == 0)
        return emitBinary(b, loc, combiner, identity,
                          element(b, loc, ValueRange{}));
      if (parallel)
        return reduceAllInParallel(b, loc, element, sizes, identity, combiner);
      return reduceAll(b, loc, element, sizes, layout, identity, combiner);
    };
    auto broadcastViews = [&](OpBuilder &b) {
      SmallVector<Value> views;
      for (Value array : arrays)
        views.push_back(getBroadcastView(b, loc, array, sizes));
      return views;
    };

    bool sameRank = llvm::all_of(arrays, [&](Value array) {
      return cast<MemRefType>(array.getType()).getRank() == rank;
    });
    if ((arrays.size() == 1 || rank == 0) && sameRank) {
      rewriter.replaceOp(op, reduceViews(rewriter, arrays));
      return success();
    }
    if (!sameRank) {
      rewriter.replaceOp(op, reduceViews(rewriter, broadcastViews(rewriter)));
      return success();
    }
    Value sameShape = getSameShapeCondition(rewriter, loc, arrays, sizes);
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{type}, sameShape,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      SmallVector<Value> views;
      for (Value array : arrays)
        views.push_back(getSameShapeView(rewriter, loc, array, sizes));
      scf::YieldOp::create(rewriter, loc, reduceViews(rewriter, views));
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(rewriter, loc,
                           reduceViews(rewriter, broadcastViews(rewriter)));
    }
    rewriter.replaceOp(op, ifOp.getResult(0));
    return success();
  }
};

} // namespace

void mlir::vrir::populateVRIRElementwiseToLinalgPatterns(
    const VRIRTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<UnaryOpLowering, BinaryOpLowering, CmpOpLowering,
               SelectOpLowering, CastOpLowering, MapOpLowering,
               MapReduceLowering, CopyOpLowering, ReduceOpLowering>(
      converter, patterns.getContext());
}
