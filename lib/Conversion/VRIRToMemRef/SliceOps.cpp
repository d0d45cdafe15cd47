//===- SliceOps.cpp - Slices, slice assignment, gather, scatter -----------===//
//
// A slice is a view: a `memref.reinterpret_cast` of the array's buffer with
// the offset, sizes and strides the indices select (`memref.subview` cannot
// express negative steps). Ranges arrive as (start, stop, step) index
// triples, 0-based with an exclusive stop. Slice assignment, gather and
// scatter write through such views or through explicit loops, copying the
// assigned value first when it shares the target's buffer (NumPy reads the
// whole right-hand side before writing).
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

/// Flags of index `position` of a slice-like op, with the documented
/// default (both bounds checked).
static IndexFlags getFlagsAt(std::optional<ArrayAttr> flags,
                             unsigned position) {
  if (!flags)
    return getDefaultIndexFlags();
  return cast<IndexFlagsAttr>((*flags)[position]).getValue();
}

/// Flags of a gather or scatter (one value for all elements of the index
/// array).
static IndexFlags getIndexArrayFlags(std::optional<IndexFlags> flags) {
  return flags ? *flags : getDefaultIndexFlags();
}

/// `memref<?x...xT, strided<[?, ...], offset: ?>>`: the type of any view.
static MemRefType getViewType(Type elementType, unsigned rank) {
  return getMemRefType(ArrayType::get(elementType.getContext(), elementType,
                                      rank, Layout::Strided));
}

static Value orOf(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  return arith::OrIOp::create(b, loc, lhs, rhs);
}

static Value notOf(OpBuilder &b, Location loc, Value value) {
  return arith::XOrIOp::create(b, loc, value,
                               arith::ConstantIntOp::create(b, loc, 1, 1));
}

/// The selection of a range index in a dimension of `extent` elements:
/// first element and count (0-based), step unchanged.
struct LoweredRange {
  Value start;
  Value count;
};

/// Lowers one range index of a slice. Two semantics, chosen by `flags`:
///  - with `negative` (NumPy): bounds below 0 count from the end, then both
///    bounds are clipped to the dimension as Python's slice.indices() does
///    (into [0, extent] for a positive step, [-1, extent - 1] for a
///    negative one), so `A[2:100]` of 10 elements selects 2..9 and is never
///    an error;
///  - otherwise (MATLAB, and VRIR's default `lower|upper`): a non-empty
///    range whose first or last element is outside [0, extent) is a bounds
///    error, as far as `lower` / `upper` ask; `none` trusts the range.
/// A zero step is always an error (the count would divide by it).
static LoweredRange lowerRangeIndex(OpBuilder &b, Location loc,
                                    Operation *anchor, ValueRange range,
                                    Value extent, IndexFlags flags,
                                    int64_t indexBase, StringRef site,
                                    int64_t dimension, bool parallel,
                                    Value &anyFailed) {
  Value start = range[0], stop = range[1], step = range[2];
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  emitRuntimeErrorIf(
      b, loc, anchor,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, step, zero),
      "slice step cannot be zero");

  if (bitEnumContainsAny(flags, IndexFlags::WrapNegative)) {
    Value negativeStep =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, step, zero);
    Value minusOne = arith::ConstantIndexOp::create(b, loc, -1);
    Value lowest =
        arith::SelectOp::create(b, loc, negativeStep, minusOne, zero);
    Value highest = arith::SelectOp::create(
        b, loc, negativeStep, arith::SubIOp::create(b, loc, extent, one),
        extent);
    auto adjust = [&](Value bound) -> Value {
      Value negative =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bound, zero);
      Value wrapped = arith::SelectOp::create(
          b, loc, negative, arith::AddIOp::create(b, loc, bound, extent),
          bound);
      Value clipped = arith::MaxSIOp::create(b, loc, wrapped, lowest);
      return arith::MinSIOp::create(b, loc, clipped, highest);
    };
    start = adjust(start);
    stop = adjust(stop);
    return {start, getRangeTripCount(b, loc, start, stop, step)};
  }

  Value count = getRangeTripCount(b, loc, start, stop, step);
  IndexFlags checks = flags & (IndexFlags::CheckLower | IndexFlags::CheckUpper);
  if (checks == IndexFlags::None)
    return {start, count};
  // Check the first and the last element through lowerIndex, so that the
  // report is the usual bounds error. An empty range selects nothing and
  // must pass: it probes index 0 of a one-element dimension instead.
  Value nonEmpty =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, count, zero);
  Value probeExtent = arith::SelectOp::create(b, loc, nonEmpty, extent, one);
  Value last = arith::AddIOp::create(
      b, loc, start,
      arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, count, one),
                            step));
  for (Value element : {start, last}) {
    Value userIndex = arith::SelectOp::create(b, loc, nonEmpty, element, zero);
    // lowerIndex takes and reports indices in the module's index base.
    if (indexBase != 0)
      userIndex = arith::AddIOp::create(
          b, loc, userIndex, arith::ConstantIndexOp::create(b, loc, indexBase));
    lowerIndex(b, loc, anchor, userIndex, probeExtent, checks, indexBase, site,
               dimension, parallel, anyFailed);
  }
  return {start, count};
}

/// A view selected by slice indices.
struct SliceView {
  /// The view, of `getViewType` type.
  Value view;
  /// Its sizes.
  SmallVector<Value> sizes;
  /// In a parallel loop, whether an index check failed (the error is
  /// recorded, the view is then empty); null when nothing can fail.
  Value anyFailed;
};

/// Builds the view of `memref` (the lowered `array`) that slice `indices`
/// select: one value per integer index (the dimension is dropped), three
/// per range (kept); dimensions past the last index are kept whole.
static SliceView buildSliceView(OpBuilder &b, Operation *op, Value array,
                                Value memref, OperandRange originalIndices,
                                ArrayRef<ValueRange> indices,
                                std::optional<ArrayAttr> flags) {
  Location loc = op->getLoc();
  auto arrayType = cast<ArrayType>(array.getType());
  int64_t base = getModuleSemantics(op).indexBase;
  bool parallel = isInParallelLoop(op);
  std::string site = getArraySite(op, array);

  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value offset = metadata.getOffset();
  SliceView result;
  SmallVector<Value> strides;
  for (unsigned d = 0, rank = arrayType.getRank(); d < rank; ++d) {
    Value extent = metadata.getSizes()[d];
    Value stride = metadata.getStrides()[d];
    if (d >= indices.size()) {
      result.sizes.push_back(extent);
      strides.push_back(stride);
      continue;
    }
    IndexFlags indexFlags = getFlagsAt(flags, d);
    if (!isa<RangeType>(originalIndices[d].getType())) {
      Value index =
          lowerIndex(b, loc, op, indices[d].front(), extent, indexFlags, base,
                     site, d, parallel, result.anyFailed);
      offset = arith::AddIOp::create(
          b, loc, offset, arith::MulIOp::create(b, loc, index, stride));
      continue;
    }
    LoweredRange range =
        lowerRangeIndex(b, loc, op, indices[d], extent, indexFlags, base, site,
                        d, parallel, result.anyFailed);
    offset = arith::AddIOp::create(
        b, loc, offset, arith::MulIOp::create(b, loc, range.start, stride));
    result.sizes.push_back(range.count);
    strides.push_back(arith::MulIOp::create(b, loc, stride, indices[d][2]));
  }
  // A failed (recorded) check in a parallel loop leaves an empty view, so
  // that nothing is read or written through a bad offset.
  if (result.anyFailed) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    for (Value &size : result.sizes)
      size = arith::SelectOp::create(b, loc, result.anyFailed, zero, size);
  }
  // An empty range may start before the buffer (`a[:k:-1]` of an empty
  // array starts at -1), a negative offset that memref rejects once it
  // folds to a constant. Nothing is read through an empty view: offset 0.
  // (A non-empty view of an argument with negative strides may have a
  // negative offset: that one is kept.)
  Value isEmpty;
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  for (Value size : result.sizes)
    isEmpty = orOf(b, loc, isEmpty,
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                                         zeroIndex));
  if (isEmpty)
    offset = arith::SelectOp::create(b, loc, isEmpty, zeroIndex, offset);
  MemRefType viewType =
      getViewType(arrayType.getElementType(), result.sizes.size());
  result.view = memref::ReinterpretCastOp::create(
      b, loc, viewType, metadata.getBaseBuffer(), getAsOpFoldResult(offset),
      getAsOpFoldResult(result.sizes), getAsOpFoldResult(strides));
  return result;
}

/// Emits the NumPy broadcast check of an array of `valueSizes` assigned to
/// a selection of `targetSizes` (at least as many): aligned from the last
/// dimension, each value size must be 1 or the target size.
static void checkBroadcast(OpBuilder &b, Location loc, Operation *anchor,
                           ValueRange valueSizes, ValueRange targetSizes,
                           StringRef message) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  unsigned lead = targetSizes.size() - valueSizes.size();
  Value bad;
  for (auto [j, size] : llvm::enumerate(valueSizes)) {
    Value differs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          size, targetSizes[lead + j]);
    Value notOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, size, one);
    bad = orOf(b, loc, bad, arith::AndIOp::create(b, loc, differs, notOne));
  }
  if (bad)
    emitRuntimeErrorIf(b, loc, anchor, bad, message);
}

/// A view of `value` with the shape `targetSizes` (checked by
/// checkBroadcast): missing leading dimensions and dimensions of size 1
/// get stride 0, so every element of the selection reads the one value.
static Value broadcastView(OpBuilder &b, Location loc, Value value,
                           ValueRange targetSizes) {
  auto type = cast<MemRefType>(value.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, value);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  unsigned lead = targetSizes.size() - type.getRank();
  SmallVector<Value> strides(lead, zero);
  for (unsigned j = 0; j < type.getRank(); ++j) {
    Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        metadata.getSizes()[j], one);
    strides.push_back(
        arith::SelectOp::create(b, loc, isOne, zero, metadata.getStrides()[j]));
  }
  MemRefType viewType = getViewType(type.getElementType(), targetSizes.size());
  return memref::ReinterpretCastOp::create(
      b, loc, viewType, metadata.getBaseBuffer(),
      getAsOpFoldResult(metadata.getOffset()),
      getAsOpFoldResult(SmallVector<Value>(targetSizes)),
      getAsOpFoldResult(strides));
}

/// `value`, or a copy of it when its memory overlaps the selection
/// `target`: the assignment must read all of the value before writing
/// (NumPy's `A[1:] = A[:-1]`, also when the two views come from Python as
/// separate arguments). The result has `getViewType` type.
static Value copyIfAliased(OpBuilder &b, Location loc, Value value,
                           Value target) {
  auto type = cast<MemRefType>(value.getType());
  MemRefType resultType = getViewType(type.getElementType(), type.getRank());
  Value aliased = mayOverlap(b, loc, value, target);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{resultType}, aliased,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value copy = allocateTemporary(b, loc, type.getElementType(),
                                 getMemRefSizes(b, loc, value));
  copyMemRef(b, loc, value, copy);
  scf::YieldOp::create(b, loc,
                       Value(memref::CastOp::create(b, loc, resultType, copy)));
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(
      b, loc, Value(memref::CastOp::create(b, loc, resultType, value)));
  return ifOp.getResult(0);
}

/// The array or scalar `value` (lowered), ready to be read at every point
/// of a selection of `targetSizes` in `target`: a scalar is returned as is,
/// an array is checked for broadcasting, copied if it aliases `target` and
/// viewed with the selection's shape.
static Value prepareAssignedValue(OpBuilder &b, Location loc, Operation *anchor,
                                  Value value, Value target,
                                  ValueRange targetSizes, StringRef message) {
  if (!isa<MemRefType>(value.getType()))
    return value;
  checkBroadcast(b, loc, anchor, getMemRefSizes(b, loc, value), targetSizes,
                 message);
  Value source = copyIfAliased(b, loc, value, target);
  return broadcastView(b, loc, source, targetSizes);
}

/// Runs `body` at the current point unless `anyFailed` (a recorded check
/// failure in a parallel loop) is set.
static void runUnlessFailed(OpBuilder &b, Location loc, Value anyFailed,
                            function_ref<void()> body) {
  if (!anyFailed) {
    body();
    return;
  }
  auto ifOp =
      scf::IfOp::create(b, loc, notOf(b, loc, anyFailed), /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

//===----------------------------------------------------------------------===//
// Slices
//===----------------------------------------------------------------------===//

struct SliceOpLowering : public OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SliceView slice = buildSliceView(
        rewriter, op, op.getArray(), adaptor.getArray().front(),
        op.getIndices(), adaptor.getIndices(), op.getIndexFlags());
    ArrayType resultType = op.getResult().getType();
    if (!op.getCopy()) {
      // The view already has the converted type of a strided result.
      rewriter.replaceOp(op, slice.view);
      return success();
    }
    Value copy = allocateArray(rewriter, loc, op, resultType, slice.sizes);
    copyMemRef(rewriter, loc, slice.view, copy);
    rewriter.replaceOp(op, copy);
    return success();
  }
};

/// NumPy's message when an assigned value does not broadcast into the
/// slice of `array` (store_slice and store_map).
static std::string getSliceBroadcastMessage(Operation *op, Value array) {
  return "could not broadcast input array into the shape of the slice of " +
         getArraySite(op, array);
}

struct StoreSliceOpLowering : public OpConversionPattern<StoreSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreSliceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value target = adaptor.getArray().front();
    SliceView slice =
        buildSliceView(rewriter, op, op.getArray(), target, op.getIndices(),
                       adaptor.getIndices(), op.getIndexFlags());
    Value value = adaptor.getValue().front();
    std::string message = getSliceBroadcastMessage(op, op.getArray());
    runUnlessFailed(rewriter, loc, slice.anyFailed, [&] {
      Value source = prepareAssignedValue(rewriter, loc, op, value, slice.view,
                                          slice.sizes, message);
      if (isa<MemRefType>(source.getType()))
        copyMemRef(rewriter, loc, source, slice.view);
      else
        fillArray(rewriter, loc, slice.view, source);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// `A[indices] = expression`, fused: the expression's elements are written
/// straight into the selection, unless an input overlaps it other than as
/// the same view (NumPy computes the whole value first): then into a
/// temporary, copied into the selection afterwards. One loop nest serves
/// both cases (its destination is chosen at run time), so the code does not
/// double, nor LLVM's work on it.
struct StoreMapOpLowering : public OpConversionPattern<StoreMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreMapOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value target = adaptor.getArray().front();
    SliceView slice =
        buildSliceView(rewriter, op, op.getArray(), target, op.getIndices(),
                       adaptor.getIndices(), op.getIndexFlags());
    SmallVector<Value> operands;
    for (ValueRange input : adaptor.getInputs())
      operands.push_back(input.front());
    std::string message = getSliceBroadcastMessage(op, op.getArray());
    ArrayType targetType = op.getArray().getType();
    auto element = [&](OpBuilder &b, Location, ValueRange elements) {
      return op.cloneBody(b, elements);
    };
    runUnlessFailed(rewriter, loc, slice.anyFailed, [&] {
      Value conflict = arith::ConstantIntOp::create(rewriter, loc, 0, 1);
      for (Value operand : operands) {
        auto type = dyn_cast<MemRefType>(operand.getType());
        if (!type)
          continue;
        checkBroadcast(rewriter, loc, op,
                       getMemRefSizes(rewriter, loc, operand), slice.sizes,
                       message);
        Value overlaps = mayOverlap(rewriter, loc, operand, slice.view);
        if (type.getRank() == static_cast<int64_t>(slice.sizes.size()))
          overlaps = arith::AndIOp::create(
              rewriter, loc, overlaps,
              notOf(rewriter, loc,
                    isSameView(rewriter, loc, operand, slice.view)));
        conflict = arith::OrIOp::create(rewriter, loc, conflict, overlaps);
      }
      auto viewType = cast<MemRefType>(slice.view.getType());
      auto destination = scf::IfOp::create(rewriter, loc, TypeRange{viewType},
                                           conflict, /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(destination.thenBlock());
        // (Freed by the buffer deallocation pipeline.)
        Value temporary = allocateTemporary(
            rewriter, loc, targetType.getElementType(), slice.sizes);
        scf::YieldOp::create(
            rewriter, loc,
            Value(memref::CastOp::create(rewriter, loc, viewType, temporary)));
        rewriter.setInsertionPointToStart(destination.elseBlock());
        scf::YieldOp::create(rewriter, loc, slice.view);
      }
      fillElementwise(rewriter, loc, operands, slice.sizes,
                      /*sizesFromOperands=*/false, destination.getResult(0),
                      targetType.getLayout() == Layout::ColMajor
                          ? Layout::ColMajor
                          : Layout::RowMajor,
                      element);
      auto copyBack = scf::IfOp::create(rewriter, loc, conflict,
                                        /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(copyBack.thenBlock());
      copyMemRef(rewriter, loc, destination.getResult(0), slice.view);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Gather and scatter
//===----------------------------------------------------------------------===//

/// The loops shared by gather and scatter: for every element of the index
/// array (in order, so that the last of duplicate indices wins a scatter),
/// the index is lowered and checked, then `body` runs for every point of
/// the selected hyperplane with the position in `array` and the position
/// in the selection (the shape of array with dimension `axis` replaced by
/// the index array's).
static void buildIndexArrayLoops(
    OpBuilder &b, Operation *op, Value array, Value memref, Value indices,
    int64_t axis, IndexFlags flags,
    function_ref<void(OpBuilder &, Location, ValueRange arrayPosition,
                      ValueRange selectionPosition)>
        body) {
  Location loc = op->getLoc();
  int64_t base = getModuleSemantics(op).indexBase;
  bool parallel = isInParallelLoop(op);
  std::string site = getArraySite(op, array);
  SmallVector<Value> sizes = getMemRefSizes(b, loc, memref);
  SmallVector<Value> indexSizes = getMemRefSizes(b, loc, indices);
  // The dimensions of `array` other than `axis`.
  SmallVector<Value> otherSizes(sizes);
  otherSizes.erase(otherSizes.begin() + axis);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> indexZeros(indexSizes.size(), zero),
      indexOnes(indexSizes.size(), one);
  SmallVector<Value> otherZeros(otherSizes.size(), zero),
      otherOnes(otherSizes.size(), one);
  scf::buildLoopNest(
      b, loc, indexZeros, indexSizes, indexOnes,
      [&](OpBuilder &nb, Location nloc, ValueRange indexPosition) {
        Value userIndex =
            memref::LoadOp::create(nb, nloc, indices, indexPosition);
        Value anyFailed;
        Value index = lowerIndex(nb, nloc, op, userIndex, sizes[axis], flags,
                                 base, site, axis, parallel, anyFailed);
        runUnlessFailed(nb, nloc, anyFailed, [&] {
          scf::buildLoopNest(
              nb, nloc, otherZeros, otherSizes, otherOnes,
              [&](OpBuilder &ib, Location iloc, ValueRange other) {
                SmallVector<Value> arrayPosition(other.begin(), other.end());
                arrayPosition.insert(arrayPosition.begin() + axis, index);
                SmallVector<Value> selection(other.begin(), other.end());
                selection.insert(selection.begin() + axis,
                                 indexPosition.begin(), indexPosition.end());
                body(ib, iloc, arrayPosition, selection);
              });
        });
      });
}

/// Sizes of the selection of a gather or scatter: those of `memref` with
/// dimension `axis` replaced by those of `indices`.
static SmallVector<Value> getSelectionSizes(OpBuilder &b, Location loc,
                                            Value memref, Value indices,
                                            int64_t axis) {
  SmallVector<Value> sizes = getMemRefSizes(b, loc, memref);
  SmallVector<Value> indexSizes = getMemRefSizes(b, loc, indices);
  sizes.erase(sizes.begin() + axis);
  sizes.insert(sizes.begin() + axis, indexSizes.begin(), indexSizes.end());
  return sizes;
}

struct GatherOpLowering : public OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value memref = adaptor.getArray(), indices = adaptor.getIndices();
    int64_t axis = op.getAxis();
    Value result =
        allocateArray(rewriter, loc, op, op.getResult().getType(),
                      getSelectionSizes(rewriter, loc, memref, indices, axis));
    buildIndexArrayLoops(
        rewriter, op, op.getArray(), memref, indices, axis,
        getIndexArrayFlags(op.getIndexFlags()),
        [&](OpBuilder &b, Location l, ValueRange from, ValueRange to) {
          Value element = memref::LoadOp::create(b, l, memref, from);
          memref::StoreOp::create(b, l, element, result, to);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ScatterOpLowering : public OpConversionPattern<ScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value memref = adaptor.getArray(), indices = adaptor.getIndices();
    int64_t axis = op.getAxis();
    std::string message =
        "could not broadcast input array into the shape of the selection of " +
        getArraySite(op, op.getArray());
    Value source = prepareAssignedValue(
        rewriter, loc, op, adaptor.getValue(), memref,
        getSelectionSizes(rewriter, loc, memref, indices, axis), message);
    bool isArray = isa<MemRefType>(source.getType());
    buildIndexArrayLoops(
        rewriter, op, op.getArray(), memref, indices, axis,
        getIndexArrayFlags(op.getIndexFlags()),
        [&](OpBuilder &b, Location l, ValueRange to, ValueRange from) {
          Value element =
              isArray ? memref::LoadOp::create(b, l, source, from).getResult()
                      : source;
          memref::StoreOp::create(b, l, element, memref, to);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::vrir::populateVRIRSliceToMemRefPatterns(
    const VRIRTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SliceOpLowering, StoreSliceOpLowering, StoreMapOpLowering,
               GatherOpLowering, ScatterOpLowering>(converter,
                                                    patterns.getContext());
}
