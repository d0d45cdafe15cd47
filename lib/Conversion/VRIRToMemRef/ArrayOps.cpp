//===- ArrayOps.cpp - Allocation, shape queries, element access -----------===//

#include "VRIR/Conversion/VRIRToMemRef.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;
using namespace mlir::vrir;
using namespace mlir::vrir::lowering;

VRIRTypeConverter::VRIRTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([](ArrayType type) -> Type { return getMemRefType(type); });
  addConversion([](RangeType type, SmallVectorImpl<Type> &results) {
    results.append(3, IndexType::get(type.getContext()));
    return success();
  });
  addConversion([](DomainType type, SmallVectorImpl<Type> &results) {
    results.append(3 * type.getRank(), IndexType::get(type.getContext()));
    return success();
  });
  addConversion([this](VarType type) -> std::optional<Type> {
    Type value = convertType(type.getValueType());
    if (!value || !MemRefType::isValidElementType(value))
      return std::nullopt;
    return MemRefType::get({}, value);
  });
}

namespace {

//===----------------------------------------------------------------------===//
// Ranges and domains: (start, stop, step), 0-based, exclusive stop
//===----------------------------------------------------------------------===//

struct RangeOpLowering : public OpConversionPattern<RangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ModuleSemantics semantics = getModuleSemantics(op);
    Value step =
        adaptor.getStep()
            ? adaptor.getStep()
            : arith::ConstantIndexOp::create(rewriter, loc, 1).getResult();
    Value start = adaptor.getStart(), stop = adaptor.getStop();
    if (!semantics.rangeExclusive) {
      // An inclusive stop moves one step's sign past the last element.
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value minusOne = arith::ConstantIndexOp::create(rewriter, loc, -1);
      Value positive = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sgt, step, zero);
      Value sign =
          arith::SelectOp::create(rewriter, loc, positive, one, minusOne);
      stop = arith::AddIOp::create(rewriter, loc, stop, sign);
    }
    if (semantics.indexBase != 0) {
      Value base =
          arith::ConstantIndexOp::create(rewriter, loc, semantics.indexBase);
      start = arith::SubIOp::create(rewriter, loc, start, base);
      stop = arith::SubIOp::create(rewriter, loc, stop, base);
    }
    rewriter.replaceOpWithMultiple(op, {{start, stop, step}});
    return success();
  }
};

struct DomainOpLowering : public OpConversionPattern<DomainOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DomainOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values;
    for (ValueRange range : adaptor.getRanges())
      values.append(range.begin(), range.end());
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Allocation and shape queries
//===----------------------------------------------------------------------===//

template <typename AllocLikeOp>
struct AllocLowering : public OpConversionPattern<AllocLikeOp> {
  using OpConversionPattern<AllocLikeOp>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<AllocLikeOp>::OpAdaptor;
  LogicalResult
  matchAndRewrite(AllocLikeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayType type = op.getResult().getType();
    // Kept only for its checks (an unused allocation that may raise).
    if (op.getResult().use_empty()) {
      checkArraySizes(rewriter, loc, op, type, adaptor.getSizes());
      rewriter.eraseOp(op);
      return success();
    }
    Value memref = allocateArray(rewriter, loc, op, type, adaptor.getSizes());
    if constexpr (std::is_same_v<AllocLikeOp, ZerosOp>)
      fillArray(rewriter, loc, memref,
                getZero(rewriter, loc, type.getElementType()));
    else if constexpr (std::is_same_v<AllocLikeOp, OnesOp>)
      fillArray(rewriter, loc, memref,
                getOne(rewriter, loc, type.getElementType()));
    rewriter.replaceOp(op, memref);
    return success();
  }
};

struct DimOpLowering : public OpConversionPattern<DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<memref::DimOp>(op, adaptor.getArray(),
                                               op.getDim());
    return success();
  }
};

struct NumelOpLowering : public OpConversionPattern<NumelOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NumelOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (Value size : getMemRefSizes(rewriter, loc, adaptor.getArray()))
      count = arith::MulIOp::create(rewriter, loc, count, size);
    rewriter.replaceOp(op, count);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

/// 0-based memref indices of an element access, with checks emitted.
/// Flattened accesses (fewer indices than dimensions) check the last index
/// against the product of the remaining sizes and split it in the order of
/// the array's layout (column-major arrays: first dimension fastest).
template <typename AccessOp>
static SmallVector<Value>
lowerElementIndices(OpBuilder &b, AccessOp op, Value memref,
                    ValueRange userIndices, bool &checked, Value &anyFailed) {
  Location loc = op.getLoc();
  ArrayType arrayType = op.getArray().getType();
  int64_t base = getModuleSemantics(op).indexBase;
  bool parallel = isInParallelLoop(op);
  std::string site = getArraySite(op, op.getArray());
  SmallVector<Value> sizes = getMemRefSizes(b, loc, memref);
  unsigned count = userIndices.size();
  SmallVector<Value> indices;
  for (unsigned i = 0; i < count; ++i) {
    Value extent = sizes[i];
    bool isFlat = i + 1 == count && count < arrayType.getRank();
    if (isFlat)
      for (unsigned d = i + 1; d < arrayType.getRank(); ++d)
        extent = arith::MulIOp::create(b, loc, extent, sizes[d]);
    IndexFlags flags = op.getFlags(i);
    checked |= bitEnumContainsAny(flags, IndexFlags::CheckLower |
                                             IndexFlags::CheckUpper);
    Value index = lowerIndex(b, loc, op, userIndices[i], extent, flags, base,
                             site, i, parallel, anyFailed);
    if (!isFlat) {
      indices.push_back(index);
      continue;
    }
    // Split the flat index over dimensions i .. rank-1.
    unsigned rank = arrayType.getRank();
    SmallVector<Value> parts(rank - i);
    bool firstFastest = arrayType.getLayout() == Layout::ColMajor;
    Value rest = index;
    for (unsigned k = 0; k < rank - i; ++k) {
      unsigned d = firstFastest ? i + k : rank - 1 - k;
      Value size = sizes[d];
      parts[d - i] = arith::RemSIOp::create(b, loc, rest, size);
      rest = arith::DivSIOp::create(b, loc, rest, size);
    }
    indices.append(parts.begin(), parts.end());
  }
  return indices;
}

struct LoadOpLowering : public OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool checked = false;
    Value anyFailed;
    SmallVector<Value> indices =
        lowerElementIndices(rewriter, op, adaptor.getArray(),
                            adaptor.getIndices(), checked, anyFailed);
    if (!anyFailed) {
      rewriter.replaceOpWithNewOp<memref::LoadOp>(op, adaptor.getArray(),
                                                  indices);
      return success();
    }
    // In a parallel loop a failed check skips the access (the error is
    // raised after the loop).
    Type type = op.getResult().getType();
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{type}, anyFailed,
                                  /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(rewriter, loc, getZero(rewriter, loc, type));
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    Value value =
        memref::LoadOp::create(rewriter, loc, adaptor.getArray(), indices);
    scf::YieldOp::create(rewriter, loc, value);
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct StoreOpLowering : public OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value memref = adaptor.getArray();
    if (op.mayGrow()) {
      if (op.getFlattened() &&
          adaptor.getIndices().size() != op.getArray().getType().getRank())
        return rewriter.notifyMatchFailure(
            op, "growth through a flattened index is not supported");
      memref = growIfNeeded(rewriter, op, memref, adaptor.getIndices());
    }
    bool checked = false;
    Value anyFailed;
    SmallVector<Value> indices = lowerElementIndices(
        rewriter, op, memref, adaptor.getIndices(), checked, anyFailed);
    if (anyFailed) {
      Value ok = arith::XOrIOp::create(
          rewriter, loc, anyFailed,
          arith::ConstantIntOp::create(rewriter, loc, 1, 1));
      auto ifOp = scf::IfOp::create(rewriter, loc, ok, /*withElse=*/false);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
    }
    memref::StoreOp::create(rewriter, loc, adaptor.getValue(), memref, indices);
    if (op.getGrown())
      rewriter.replaceOp(op, memref);
    else
      rewriter.eraseOp(op);
    return success();
  }

  /// MATLAB growth: if an index with the `grow` flag is past the end, a new
  /// zero-filled array with the larger extent receives the old elements.
  static Value growIfNeeded(ConversionPatternRewriter &b, StoreOp op,
                            Value memref, ValueRange userIndices) {
    Location loc = op.getLoc();
    ArrayType type = op.getArray().getType();
    int64_t base = getModuleSemantics(op).indexBase;
    SmallVector<Value> sizes = getMemRefSizes(b, loc, memref);
    SmallVector<Value> newSizes = sizes;
    Value grows;
    for (auto [d, userIndex] : llvm::enumerate(userIndices)) {
      if (!bitEnumContainsAny(op.getFlags(d), IndexFlags::Grow))
        continue;
      Value index = toIndex(b, loc, userIndex);
      // Needed extent: the 0-based index + 1.
      Value needed = arith::AddIOp::create(
          b, loc, index, arith::ConstantIndexOp::create(b, loc, 1 - base));
      Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                         needed, sizes[d]);
      newSizes[d] = arith::SelectOp::create(b, loc, past, needed, sizes[d]);
      grows =
          grows ? arith::OrIOp::create(b, loc, grows, past).getResult() : past;
    }
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{memref.getType()}, grows,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value grown = allocateArray(b, loc, op, type, newSizes);
    fillArray(b, loc, grown, getZero(b, loc, type.getElementType()));
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> subSizes(sizes.begin(), sizes.end());
    SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
    Value window =
        memref::SubViewOp::create(b, loc, grown, offsets, subSizes, strides);
    copyMemRef(b, loc, memref, window);
    scf::YieldOp::create(b, loc, grown);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, memref);
    return ifOp.getResult(0);
  }
};

/// `ub.poison` of an array type (mem2reg's value of a variable read before
/// any write, and lift-cf-to-scf's of a variable set on some loop exits
/// only) is an empty array on the stack, not a poison memref: buffer
/// deallocation compares the pointers of loop-carried memrefs, and a branch
/// on a comparison with a poison pointer is undefined behavior in LLVM (it
/// freed live buffers).
struct PoisonOpLowering : public OpConversionPattern<ub::PoisonOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ub::PoisonOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<MemRefType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "no single converted type");
    SmallVector<int64_t> staticStrides;
    int64_t staticOffset;
    if (failed(type.getStridesAndOffset(staticStrides, staticOffset)))
      return rewriter.notifyMatchFailure(op, "not a strided memref");
    Location loc = op.getLoc();
    // A static alloca at the function entry, not one per loop iteration.
    OpBuilder::InsertionGuard guard(rewriter);
    auto func = op->getParentOfType<FunctionOpInterface>();
    if (func && !func.getFunctionBody().empty())
      rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
    Value buffer = memref::AllocaOp::create(
        rewriter, loc, MemRefType::get({0}, type.getElementType()));
    // Static strides and offset must match the type; dynamic ones are any.
    auto pick = [&](int64_t known, int64_t fallback) -> OpFoldResult {
      return rewriter.getIndexAttr(ShapedType::isStatic(known) ? known
                                                               : fallback);
    };
    SmallVector<OpFoldResult> sizes(type.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides;
    for (int64_t stride : staticStrides)
      strides.push_back(pick(stride, 1));
    Value empty = memref::ReinterpretCastOp::create(
        rewriter, loc, type, buffer, pick(staticOffset, 0), sizes, strides);
    rewriter.replaceOp(op, empty);
    return success();
  }
};

/// `arith.select` of two arrays (mem2reg's choice between the values of an
/// array variable assigned in one branch, once canonicalized) selects the
/// memrefs.
struct ArithSelectOpLowering : public OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "no single converted type");
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, type, adaptor.getCondition(), adaptor.getTrueValue(),
        adaptor.getFalseValue());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Scalar variables left after mem2reg
//===----------------------------------------------------------------------===//

struct AllocaOpLowering : public OpConversionPattern<AllocaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getVar().getType());
    if (!type)
      return op.emitOpError("holds a value that cannot live in memory; run "
                            "-mem2reg first so that the variable is promoted");
    rewriter.replaceOpWithNewOp<memref::AllocaOp>(op, cast<MemRefType>(type));
    return success();
  }
};

struct ReadOpLowering : public OpConversionPattern<ReadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<memref::LoadOp>(op, adaptor.getVar());
    return success();
  }
};

struct WriteOpLowering : public OpConversionPattern<WriteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<memref::StoreOp>(op, adaptor.getValue(),
                                                 adaptor.getVar());
    return success();
  }
};

} // namespace

void mlir::vrir::populateVRIRArrayToMemRefPatterns(
    const VRIRTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RangeOpLowering, DomainOpLowering, AllocLowering<ZerosOp>,
               AllocLowering<OnesOp>, AllocLowering<EmptyOp>, DimOpLowering,
               NumelOpLowering, LoadOpLowering, StoreOpLowering,
               AllocaOpLowering, ReadOpLowering, WriteOpLowering,
               PoisonOpLowering, ArithSelectOpLowering>(converter,
                                                        patterns.getContext());
}
