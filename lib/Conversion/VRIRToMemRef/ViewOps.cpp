//===- ViewOps.cpp - Permuted, expanded and reshaped views ----------------===//
//
// `vrir.permute`, `vrir.expand_dims` and `vrir.reshape` become views of the
// operand's buffer: a `memref.reinterpret_cast` with the sizes and strides
// the op computes from the operand's. `vrir.part_view` becomes
// `vrir.memref_part_view` (memref cannot change an element type). The buffer
// deallocation pipeline sees them as views of their source
// (ViewLikeOpInterface): a view of a temporary keeps the temporary alive, and a
// returned view of an argument is cloned, as for slices. A reshape of a
// non-row-major array checks at run time whether its elements lie in row-major
// order and otherwise copies them into a new row-major buffer first, so the
// result is a view of either.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/VRIRToMemRef.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::vrir;
using namespace mlir::vrir::lowering;

namespace {

/// `memref.reinterpret_cast` of `buffer` to `type` with `offset`, `sizes`
/// and `strides`. Where `type`'s layout has a static stride or offset (a
/// row-major or column-major result), that value is used: the caller
/// guarantees that the computed one equals it.
static Value createView(OpBuilder &b, Location loc, MemRefType type,
                        Value buffer, Value offset, ValueRange sizes,
                        ValueRange strides) {
  SmallVector<int64_t> staticStrides;
  int64_t staticOffset;
  if (failed(type.getStridesAndOffset(staticStrides, staticOffset)))
    llvm_unreachable("arrays lower to strided memrefs");
  auto pick = [&](int64_t known, Value computed) -> OpFoldResult {
    if (ShapedType::isStatic(known))
      return b.getIndexAttr(known);
    return getAsOpFoldResult(computed);
  };
  SmallVector<OpFoldResult> foldedStrides;
  for (auto [known, stride] : llvm::zip_equal(staticStrides, strides))
    foldedStrides.push_back(pick(known, stride));
  return memref::ReinterpretCastOp::create(
      b, loc, type, buffer, pick(staticOffset, offset),
      getAsOpFoldResult(SmallVector<Value>(sizes)), foldedStrides);
}

/// Row-major strides of an array of `sizes`.
static SmallVector<Value> getRowMajorStrides(OpBuilder &b, Location loc,
                                             ValueRange sizes) {
  SmallVector<Value> strides(sizes.size());
  Value stride = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    if (d > 0)
      stride = arith::MulIOp::create(b, loc, stride, sizes[d]);
  }
  return strides;
}

//===----------------------------------------------------------------------===//
// Permutation
//===----------------------------------------------------------------------===//

struct PermuteOpLowering : public OpConversionPattern<PermuteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PermuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto metadata = memref::ExtractStridedMetadataOp::create(
        rewriter, loc, adaptor.getArray());
    SmallVector<Value> sizes, strides;
    for (int64_t dim : op.getPermutation()) {
      sizes.push_back(metadata.getSizes()[dim]);
      strides.push_back(metadata.getStrides()[dim]);
    }
    // A row-major matrix permuted is column-major: offset 0 and unit stride
    // in the first dimension, as createView takes from the type.
    rewriter.replaceOp(op, createView(rewriter, loc,
                                      getMemRefType(op.getResult().getType()),
                                      metadata.getBaseBuffer(),
                                      metadata.getOffset(), sizes, strides));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// New dimensions of size 1
//===----------------------------------------------------------------------===//

struct ExpandDimsOpLowering : public OpConversionPattern<ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getArray();
    ArrayType resultType = op.getResult().getType();
    MemRefType memrefType = getMemRefType(resultType);
    ArrayRef<int64_t> positions = op.getPositions();
    unsigned rank = resultType.getRank();
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto isNew = [&](unsigned d) { return llvm::is_contained(positions, d); };

    // A view with a stride for each new dimension that keeps the layout:
    // the column-major one (from the left) for col_major, the row-major one
    // (from the right) otherwise. Any stride would do for a dimension of
    // size 1; these keep the static strides of the type and look natural
    // to stride-inspecting code (BLAS operand checks). Not
    // memref.expand_shape for row-major arrays: on a group of dynamic sizes
    // expand-strided-metadata crashes on it in LLVM 22.
    Layout layout = resultType.getLayout();
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, source);
    SmallVector<Value> sizes(rank), strides(rank);
    for (unsigned d = 0, next = 0; d < rank; ++d) {
      if (isNew(d)) {
        sizes[d] = one;
        continue;
      }
      sizes[d] = metadata.getSizes()[next];
      strides[d] = metadata.getStrides()[next];
      ++next;
    }
    if (layout == Layout::ColMajor) {
      for (unsigned d = 0; d < rank; ++d)
        if (isNew(d))
          strides[d] = d == 0 ? one
                              : arith::MulIOp::create(
                                    rewriter, loc, strides[d - 1], sizes[d - 1])
                                    .getResult();
    } else {
      for (int64_t d = rank - 1; d >= 0; --d)
        if (isNew(d))
          strides[d] = d + 1 == rank
                           ? one
                           : arith::MulIOp::create(rewriter, loc,
                                                   strides[d + 1], sizes[d + 1])
                                 .getResult();
    }
    rewriter.replaceOp(op, createView(rewriter, loc, memrefType,
                                      metadata.getBaseBuffer(),
                                      metadata.getOffset(), sizes, strides));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reshape
//===----------------------------------------------------------------------===//

/// The sizes a reshape asks for, with a -1 replaced by the size it stands
/// for, after the run-time checks of NumPy's reshape.
static SmallVector<Value> getCheckedReshapeSizes(OpBuilder &b, Location loc,
                                                 Operation *op,
                                                 ValueRange requested,
                                                 ValueRange sourceSizes,
                                                 StringRef site) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value minusOne = arith::ConstantIndexOp::create(b, loc, -1);
  Value count = one;
  for (Value size : sourceSizes)
    count = arith::MulIOp::create(b, loc, count, size);

  // Product of the given sizes, number of -1 sizes, any size below -1.
  Value known = one, unknowns = zero, negative;
  SmallVector<Value> isUnknown;
  for (Value size : requested) {
    Value unknown =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, minusOne);
    isUnknown.push_back(unknown);
    unknowns = arith::AddIOp::create(
        b, loc, unknowns,
        arith::SelectOp::create(b, loc, unknown, one, zero).getResult());
    known = arith::MulIOp::create(
        b, loc, known, arith::SelectOp::create(b, loc, unknown, one, size));
    Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, size,
                                        minusOne);
    negative = negative ? arith::OrIOp::create(b, loc, negative, below) : below;
  }
  if (requested.empty())
    negative = arith::ConstantIntOp::create(b, loc, 0, 1);
  emitRuntimeErrorIf(
      b, loc, op,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, unknowns, one),
      "cannot reshape " + site.str() + ": only one size can be -1");
  emitRuntimeErrorIf(b, loc, op, negative,
                     "cannot reshape " + site.str() +
                         ": negative sizes other than -1 are not allowed");

  // The unknown size: the count divided by the known sizes (0 divides by 1;
  // the check below fails then unless nothing has to be inferred).
  Value knownIsZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, known, zero);
  Value divisor = arith::SelectOp::create(b, loc, knownIsZero, one, known);
  Value inferred = arith::DivSIOp::create(b, loc, count, divisor);
  SmallVector<Value> sizes;
  Value total = one;
  for (auto [size, unknown] : llvm::zip_equal(requested, isUnknown)) {
    // Never negative: a constant -2 (an error above) would otherwise fold
    // into the view's static sizes, which the memref verifier rejects.
    sizes.push_back(arith::MaxSIOp::create(
        b, loc, arith::SelectOp::create(b, loc, unknown, inferred, size),
        zero));
    total = arith::MulIOp::create(b, loc, total, sizes.back());
  }
  Value anyUnknown =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, unknowns, zero);
  Value mismatch = arith::OrIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, total, count),
      arith::AndIOp::create(b, loc, anyUnknown, knownIsZero));
  emitRuntimeErrorIf(b, loc, op, mismatch,
                     "cannot reshape " + site.str() +
                         ": the new sizes do not hold as many elements");
  return sizes;
}

struct ReshapeOpLowering : public OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getArray();
    auto sourceType = cast<MemRefType>(source.getType());
    MemRefType resultType = getMemRefType(op.getResult().getType());
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, source);
    SmallVector<Value> sourceSizes(metadata.getSizes());
    SmallVector<Value> sizes =
        getCheckedReshapeSizes(rewriter, loc, op, adaptor.getSizes(),
                               sourceSizes, getArraySite(op, op.getArray()));
    SmallVector<Value> strides = getRowMajorStrides(rewriter, loc, sizes);

    if (op.getArray().getType().getLayout() == Layout::RowMajor) {
      rewriter.replaceOp(op, createView(rewriter, loc, resultType,
                                        metadata.getBaseBuffer(),
                                        metadata.getOffset(), sizes, strides));
      return success();
    }

    // Are the elements in row-major order, one `step` apart (the stride of
    // the last dimension: any 1-D view qualifies, a reversed one too)?
    // Dimensions of size 1 may have any stride.
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value step = sourceSizes.empty() ? one : metadata.getStrides().back();
    SmallVector<Value> expected =
        getRowMajorStrides(rewriter, loc, sourceSizes);
    Value inOrder = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    for (unsigned d = 0; d < sourceSizes.size(); ++d) {
      Value unit = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sle, sourceSizes[d], one);
      Value matches = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, metadata.getStrides()[d],
          arith::MulIOp::create(rewriter, loc, expected[d], step));
      inOrder = arith::AndIOp::create(
          rewriter, loc, inOrder,
          arith::OrIOp::create(rewriter, loc, unit, matches));
    }
    SmallVector<Value> steppedStrides;
    for (Value stride : strides)
      steppedStrides.push_back(
          arith::MulIOp::create(rewriter, loc, stride, step));
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{resultType}, inOrder,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(
          rewriter, loc,
          createView(rewriter, loc, resultType, metadata.getBaseBuffer(),
                     metadata.getOffset(), sizes, steppedStrides));
      // Copy into a row-major buffer of the operand's shape, then view it.
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      Value copy = allocateTemporary(rewriter, loc, sourceType.getElementType(),
                                     sourceSizes);
      copyMemRef(rewriter, loc, source, copy);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      scf::YieldOp::create(
          rewriter, loc,
          createView(rewriter, loc, resultType, copy, zero, sizes, strides));
    }
    rewriter.replaceOp(op, ifOp.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Real and imaginary parts of complex arrays
//===----------------------------------------------------------------------===//

struct PartViewOpLowering : public OpConversionPattern<PartViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PartViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<MemRefPartViewOp>(
        op, getMemRefType(op.getResult().getType()), op.getPart(),
        adaptor.getArray());
    return success();
  }
};

} // namespace

void mlir::vrir::populateVRIRViewToMemRefPatterns(
    const VRIRTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<PermuteOpLowering, ExpandDimsOpLowering, ReshapeOpLowering,
               PartViewOpLowering>(converter, patterns.getContext());
}
