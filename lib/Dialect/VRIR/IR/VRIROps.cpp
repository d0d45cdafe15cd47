//===- VRIROps.cpp - VRIR operations --------------------------------------===//
//
// Verifiers, folders, canonicalization patterns and interface methods of the
// VRIR operations. Every verifier message names the offending operand.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::vrir;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

static bool isComplex(Type type) { return isa<ComplexType>(type); }
static bool isFloatLike(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return isa<FloatType>(complex.getElementType());
  return isa<FloatType>(type);
}
static bool isBool(Type type) { return type.isInteger(1); }
static bool isIntegerLike(Type type) { return type.isSignlessInteger(); }

/// Real part type of a complex type, the type itself otherwise.
static Type getRealPartType(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return complex.getElementType();
  return type;
}

static IndexFlags flagsAt(std::optional<ArrayAttr> flags, unsigned position) {
  if (!flags)
    return getDefaultIndexFlags();
  return cast<IndexFlagsAttr>((*flags)[position]).getValue();
}

/// Checks a `flags` list against the index count; `growAllowed` is false for
/// reads and for slices.
static LogicalResult verifyIndexFlags(Operation *op,
                                      std::optional<ArrayAttr> flags,
                                      unsigned numIndices, bool growAllowed) {
  if (!flags)
    return success();
  if (flags->size() != numIndices)
    return op->emitOpError("has ")
           << numIndices << " indices but " << flags->size()
           << " entries in 'flags'; give one #vrir.index<...> per index";
  for (auto [position, attr] : llvm::enumerate(*flags)) {
    IndexFlags value = cast<IndexFlagsAttr>(attr).getValue();
    if (!growAllowed && bitEnumContainsAny(value, IndexFlags::Grow))
      return op->emitOpError("index #")
             << position << " has the 'grow' flag, but only element writes "
             << "(vrir.store) can grow an array";
  }
  return success();
}

/// Constant indices below the index base fail a lower-bound check for sure:
/// report them at compile time (for example index 0 in a MATLAB module).
static LogicalResult verifyConstantIndices(Operation *op, ValueRange indices,
                                           std::optional<ArrayAttr> flags) {
  int64_t base = getModuleSemantics(op).indexBase;
  for (auto [position, index] : llvm::enumerate(indices)) {
    APInt value;
    if (!isa<IntegerType, IndexType>(index.getType()) ||
        !matchPattern(index, m_ConstantInt(&value)) ||
        value.getSignificantBits() > 64)
      continue;
    IndexFlags indexFlags = flagsAt(flags, position);
    if (!bitEnumContainsAny(indexFlags, IndexFlags::CheckLower) ||
        bitEnumContainsAny(indexFlags, IndexFlags::WrapNegative))
      continue;
    if (value.getSExtValue() < base)
      return op->emitOpError("index #")
             << position << " is the constant " << value.getSExtValue()
             << ", below the module's index base " << base;
  }
  return success();
}

/// Common rules of element access: index count against rank, flattening.
static LogicalResult verifyElementAccess(Operation *op, ArrayType arrayType,
                                         ValueRange indices,
                                         std::optional<ArrayAttr> flags,
                                         bool flattened, bool growAllowed) {
  unsigned rank = arrayType.getRank();
  unsigned count = indices.size();
  if (count > rank)
    return op->emitOpError("has ")
           << count << " indices but the array operand has rank " << rank;
  if (count < rank) {
    if (count == 0)
      return op->emitOpError("needs at least one index for an array of rank ")
             << rank;
    if (!flattened)
      return op->emitOpError("has ")
             << count << " indices for an array of rank " << rank
             << "; give one index per dimension, set 'flattened' for MATLAB "
                "linear indexing, or use vrir.slice for NumPy implicit full "
                "slices";
  }
  if (failed(verifyIndexFlags(op, flags, count, growAllowed)))
    return failure();
  return verifyConstantIndices(op, indices, flags);
}

/// Rank of the slice selected by `indices` of an array of rank `rank`:
/// ranges keep their dimension, integers drop it, missing trailing indices
/// keep theirs.
static unsigned getSliceRank(unsigned rank, ValueRange indices) {
  unsigned kept = rank - indices.size();
  for (Value index : indices)
    if (isa<RangeType>(index.getType()))
      ++kept;
  return kept;
}

static LogicalResult verifySliceIndices(Operation *op, ArrayType arrayType,
                                        ValueRange indices,
                                        std::optional<ArrayAttr> flags) {
  if (indices.size() > arrayType.getRank())
    return op->emitOpError("has ")
           << indices.size() << " indices but the array operand has rank "
           << arrayType.getRank();
  return verifyIndexFlags(op, flags, indices.size(), /*growAllowed=*/false);
}

static LogicalResult verifyContiguousResult(Operation *op, ArrayType type) {
  if (!type.isContiguous())
    return op->emitOpError("creates a new array, so its result layout must be "
                           "row_major or col_major, not strided");
  return success();
}

/// Element-wise shape rule: scalars expand, arrays broadcast, so the result
/// is a scalar iff every operand is and otherwise has the largest rank.
static LogicalResult verifyBroadcastResult(Operation *op, TypeRange operands,
                                           Type result) {
  bool anyArray = false;
  unsigned maxRank = 0;
  for (Type type : operands) {
    if (auto array = dyn_cast<ArrayType>(type)) {
      anyArray = true;
      maxRank = std::max(maxRank, array.getRank());
    }
  }
  auto resultArray = dyn_cast<ArrayType>(result);
  if (!anyArray && resultArray)
    return op->emitOpError("has only scalar operands, so its result must be "
                           "a scalar, got ")
           << result;
  if (anyArray && !resultArray)
    return op->emitOpError("has an array operand, so its result must be an "
                           "array, got ")
           << result;
  if (resultArray && resultArray.getRank() != maxRank)
    return op->emitOpError("result has rank ")
           << resultArray.getRank() << " but the operands broadcast to rank "
           << maxRank;
  if (resultArray)
    return verifyContiguousResult(op, resultArray);
  return success();
}

/// Effects of ops that read their array operands and return a new array.
static void getArrayValueEffects(
    Operation *op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : op->getOpOperands())
    if (isa<ArrayType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  for (OpResult result : op->getResults()) {
    if (!isa<ArrayType>(result.getType()))
      continue;
    effects.emplace_back(MemoryEffects::Allocate::get(), result,
                         SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Write::get(), result,
                         SideEffects::DefaultResource::get());
  }
}

/// Declares that the op may raise a run-time error (see ErrorStateResource).
static void addMayRaiseEffect(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), ErrorStateResource::get());
}

bool vrir::isErrorStateEffect(const MemoryEffects::EffectInstance &effect) {
  return isa<ErrorStateResource>(effect.getResource());
}

/// Whether the array operands of an element-wise op may fail to broadcast:
/// two different arrays of rank 1 or more (sizes are run-time values).
static bool mayFailToBroadcast(Operation *op) {
  SmallPtrSet<Value, 4> arrays;
  for (Value operand : op->getOperands())
    if (getRankOf(operand.getType()) > 0)
      arrays.insert(operand);
  return arrays.size() > 1;
}

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

SmallVector<MemorySlot> AllocaOp::getPromotableSlots() {
  return {MemorySlot{getVar(), getVar().getType().getValueType()}};
}

Value AllocaOp::getDefaultValue(const MemorySlot &slot, OpBuilder &builder) {
  return ub::PoisonOp::create(builder, getLoc(), slot.elemType);
}

void AllocaOp::handleBlockArgument(const MemorySlot &, BlockArgument,
                                   OpBuilder &) {}

std::optional<PromotableAllocationOpInterface>
AllocaOp::handlePromotionComplete(const MemorySlot &, Value defaultValue,
                                  OpBuilder &) {
  if (defaultValue && defaultValue.use_empty())
    defaultValue.getDefiningOp()->erase();
  erase();
  return std::nullopt;
}

bool ReadOp::loadsFrom(const MemorySlot &slot) { return getVar() == slot.ptr; }
bool ReadOp::storesTo(const MemorySlot &) { return false; }
Value ReadOp::getStored(const MemorySlot &, OpBuilder &, Value,
                        const DataLayout &) {
  llvm_unreachable("vrir.read does not store");
}
bool ReadOp::canUsesBeRemoved(const MemorySlot &slot,
                              const SmallPtrSetImpl<OpOperand *> &blockingUses,
                              SmallVectorImpl<OpOperand *> &,
                              const DataLayout &) {
  return blockingUses.size() == 1 && (*blockingUses.begin())->get() == slot.ptr;
}
DeletionKind ReadOp::removeBlockingUses(const MemorySlot &,
                                        const SmallPtrSetImpl<OpOperand *> &,
                                        OpBuilder &, Value reachingDefinition,
                                        const DataLayout &) {
  getResult().replaceAllUsesWith(reachingDefinition);
  return DeletionKind::Delete;
}

bool WriteOp::loadsFrom(const MemorySlot &) { return false; }
bool WriteOp::storesTo(const MemorySlot &slot) { return getVar() == slot.ptr; }
Value WriteOp::getStored(const MemorySlot &, OpBuilder &, Value,
                         const DataLayout &) {
  return getValue();
}
bool WriteOp::canUsesBeRemoved(const MemorySlot &slot,
                               const SmallPtrSetImpl<OpOperand *> &blockingUses,
                               SmallVectorImpl<OpOperand *> &,
                               const DataLayout &) {
  // Writing the slot into itself would leave a use of the slot behind.
  return blockingUses.size() == 1 &&
         (*blockingUses.begin())->get() == slot.ptr && getValue() != slot.ptr;
}
DeletionKind WriteOp::removeBlockingUses(const MemorySlot &,
                                         const SmallPtrSetImpl<OpOperand *> &,
                                         OpBuilder &, Value,
                                         const DataLayout &) {
  return DeletionKind::Delete;
}

//===----------------------------------------------------------------------===//
// Ranges, domains, allocation and shape queries
//===----------------------------------------------------------------------===//

LogicalResult DomainOp::verify() {
  unsigned rank = getResult().getType().getRank();
  if (getRanges().size() != rank)
    return emitOpError("builds a domain of rank ")
           << rank << " from " << getRanges().size()
           << " ranges; give one range per dimension";
  return success();
}

template <typename AllocLikeOp>
static LogicalResult verifyAllocLike(AllocLikeOp op) {
  ArrayType type = op.getResult().getType();
  if (op.getSizes().size() != type.getRank())
    return op.emitOpError("has ")
           << op.getSizes().size() << " sizes for an array of rank "
           << type.getRank() << "; give one size per dimension";
  return verifyContiguousResult(op, type);
}
LogicalResult ZerosOp::verify() { return verifyAllocLike(*this); }
LogicalResult OnesOp::verify() { return verifyAllocLike(*this); }
LogicalResult EmptyOp::verify() { return verifyAllocLike(*this); }

/// Whether an allocation's size checks may fail: some size is not a
/// constant, or the constants are negative or too large together.
static bool mayFailSizeChecks(ArrayType type, OperandRange sizes) {
  int64_t bytes = getElementBytes(type.getElementType());
  for (Value size : sizes) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    // MulOverflow: the product does not fit in int64_t.
    if (!constant || *constant < 0 ||
        llvm::MulOverflow(bytes, *constant, bytes))
      return true;
  }
  return false;
}

#define VRIR_ALLOC_LIKE_EFFECTS(OP)                                            \
  void OP::getEffects(                                                         \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    auto result = llvm::cast<OpResult>(getResult());                           \
    effects.emplace_back(MemoryEffects::Allocate::get(), result,               \
                         SideEffects::DefaultResource::get());                 \
    effects.emplace_back(MemoryEffects::Write::get(), result,                  \
                         SideEffects::DefaultResource::get());                 \
    if (mayFailSizeChecks(getType(), getSizes()))                              \
      addMayRaiseEffect(effects);                                              \
  }
VRIR_ALLOC_LIKE_EFFECTS(ZerosOp)
VRIR_ALLOC_LIKE_EFFECTS(OnesOp)
VRIR_ALLOC_LIKE_EFFECTS(EmptyOp)
#undef VRIR_ALLOC_LIKE_EFFECTS

/// Sizes operand of an allocation defining `array`, if any.
static std::optional<OperandRange> getAllocSizes(Value array) {
  Operation *def = array.getDefiningOp();
  if (auto op = dyn_cast_or_null<ZerosOp>(def))
    return op.getSizes();
  if (auto op = dyn_cast_or_null<OnesOp>(def))
    return op.getSizes();
  if (auto op = dyn_cast_or_null<EmptyOp>(def))
    return op.getSizes();
  return std::nullopt;
}

LogicalResult DimOp::verify() {
  unsigned rank = getArray().getType().getRank();
  if (static_cast<uint64_t>(getDim()) >= rank)
    return emitOpError("dimension ")
           << getDim() << " is out of range for the array operand of rank "
           << rank;
  return success();
}

std::optional<DimSource> vrir::traceDimension(Value array, int64_t dim) {
  // Growth returns a new array (vrir.store's `grown`), so the sizes of an
  // allocation never change.
  if (std::optional<OperandRange> sizes = getAllocSizes(array))
    return DimSource{(*sizes)[dim], std::nullopt, Value(), 0};
  Operation *def = array.getDefiningOp();
  if (!def) {
    // An argument of a region specialised for its shape
    // (vrir-specialize-region).
    auto arg = cast<BlockArgument>(array);
    auto function =
        dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!function || !arg.getOwner()->isEntryBlock())
      return std::nullopt;
    auto facts = function->getAttrOfType<ArrayAttr>("vrir.region_facts");
    if (!facts || arg.getArgNumber() >= facts.size())
      return std::nullopt;
    auto fact = dyn_cast<DictionaryAttr>(facts[arg.getArgNumber()]);
    auto shape = fact ? fact.getAs<DenseI64ArrayAttr>("shape") : nullptr;
    if (!shape || dim < 0 || dim >= static_cast<int64_t>(shape.size()))
      return std::nullopt;
    return DimSource{Value(), shape[dim], Value(), 0};
  }
  Value source;
  if (isa<CopyOp, CastOp, UnaryOp>(def)) {
    source = def->getOperand(0);
  } else if (auto part = dyn_cast<PartViewOp>(def)) {
    source = part.getArray();
  } else if (auto transpose = dyn_cast<TransposeOp>(def)) {
    source = transpose.getOperand();
    dim = getRankOf(source.getType()) - 1 - dim;
  } else if (auto permute = dyn_cast<PermuteOp>(def)) {
    source = permute.getArray();
    dim = permute.getPermutation()[dim];
  } else if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    ArrayRef<int64_t> positions = expand.getPositions();
    if (llvm::is_contained(positions, dim))
      return DimSource{Value(), 1, Value(), 0};
    source = expand.getArray();
    dim -= llvm::count_if(positions,
                          [&](int64_t position) { return position < dim; });
  }
  if (!source || !isa<ArrayType>(source.getType()))
    return std::nullopt;
  return DimSource{Value(), std::nullopt, source, dim};
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  std::optional<DimSource> source = traceDimension(getArray(), getDim());
  if (source && source->constant)
    return IntegerAttr::get(IndexType::get(getContext()), *source->constant);
  if (!source || !source->size)
    return {};
  return source->size;
}

void DimOp::inferResultRanges(ArrayRef<ConstantIntRanges>,
                              SetIntRangeFn setResultRange) {
  // A size is never negative (allocating one is a run-time error).
  unsigned width = IndexType::kInternalStorageBitWidth;
  setResultRange(getResult(),
                 ConstantIntRanges::fromSigned(
                     APInt::getZero(width), APInt::getSignedMaxValue(width)));
}

namespace {
/// dim(copy(x)), dim(cast(x)), dim(unary(x)) -> dim(x); dim(transpose(x), d)
/// -> dim(x, rank - 1 - d); dim(permute(x), d) -> dim(x, permutation[d]);
/// dim(expand_dims(x), d) -> 1 or the dimension of x it comes from: these
/// ops preserve (or rearrange) the shape.
struct DimOfShapePreservingOp : public OpRewritePattern<DimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DimOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<DimSource> source =
        traceDimension(op.getArray(), op.getDim());
    if (!source || source->size)
      return failure();
    if (source->constant) {
      rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op,
                                                          *source->constant);
      return success();
    }
    rewriter.replaceOpWithNewOp<DimOp>(op, source->array, source->dim);
    return success();
  }
};
} // namespace

void DimOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<DimOfShapePreservingOp>(context);
}

void NumelOp::inferResultRanges(ArrayRef<ConstantIntRanges>,
                                SetIntRangeFn setResultRange) {
  unsigned width = IndexType::kInternalStorageBitWidth;
  setResultRange(getResult(),
                 ConstantIntRanges::fromSigned(
                     APInt::getZero(width), APInt::getSignedMaxValue(width)));
}

OpFoldResult NumelOp::fold(FoldAdaptor) {
  if (getArray().getType().getRank() == 0)
    return IntegerAttr::get(IndexType::get(getContext()), 1);
  // The product of sizes that are constants: allocated with constant
  // sizes, or known (a specialised region's argument, a unit dimension).
  int64_t product = 1;
  for (unsigned dim = 0, rank = getArray().getType().getRank(); dim < rank;
       ++dim) {
    std::optional<DimSource> source = traceDimension(getArray(), dim);
    APInt value;
    if (source && source->constant)
      product *= *source->constant;
    else if (source && source->size &&
             matchPattern(source->size, m_ConstantInt(&value)))
      product *= value.getSExtValue();
    else
      return {};
  }
  return IntegerAttr::get(IndexType::get(getContext()), product);
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

std::optional<ElementAccess> ElementAccess::get(Operation *op) {
  auto make = [&](auto access) {
    ElementAccess result{
        op, access.getArray(), access.getIndices(), access.getFlattened(), {}};
    for (unsigned i = 0, e = access.getIndices().size(); i < e; ++i)
      result.flags.push_back(access.getFlags(i));
    return result;
  };
  if (auto load = dyn_cast<LoadOp>(op))
    return make(load);
  if (auto store = dyn_cast<StoreOp>(op))
    return make(store);
  return std::nullopt;
}

void ElementAccess::setFlags(ArrayRef<IndexFlags> newFlags) {
  MLIRContext *context = op->getContext();
  SmallVector<Attribute> attrs;
  for (IndexFlags flag : newFlags)
    attrs.push_back(IndexFlagsAttr::get(context, flag));
  auto attr = ArrayAttr::get(context, attrs);
  if (auto load = dyn_cast<LoadOp>(op))
    load.setIndexFlagsAttr(attr);
  else
    cast<StoreOp>(op).setIndexFlagsAttr(attr);
  flags.assign(newFlags.begin(), newFlags.end());
}

IndexFlags LoadOp::getFlags(unsigned position) {
  return flagsAt(getIndexFlags(), position);
}

LogicalResult LoadOp::verify() {
  return verifyElementAccess(*this, getArray().getType(), getIndices(),
                             getIndexFlags(), getFlattened(),
                             /*growAllowed=*/false);
}

IndexFlags StoreOp::getFlags(unsigned position) {
  return flagsAt(getIndexFlags(), position);
}

bool StoreOp::mayGrow() {
  for (unsigned i = 0, e = getIndices().size(); i < e; ++i)
    if (bitEnumContainsAny(getFlags(i), IndexFlags::Grow))
      return true;
  return false;
}

LogicalResult StoreOp::verify() {
  ArrayType type = getArray().getType();
  if (failed(verifyElementAccess(*this, type, getIndices(), getIndexFlags(),
                                 getFlattened(), /*growAllowed=*/true)))
    return failure();
  if (mayGrow() && !type.isContiguous())
    return emitOpError("cannot grow a strided view: growth reallocates the "
                       "array, which a view does not own");
  if (mayGrow() != static_cast<bool>(getGrown()))
    return emitOpError(mayGrow() ? "has a 'grow' flag, so it must return the "
                                   "grown array (`-> type`)"
                                 : "returns a grown array but no index has "
                                   "the 'grow' flag");
  if (getGrown() && getGrown().getType() != type)
    return emitOpError("grown array type ")
           << getGrown().getType() << " differs from the array operand type "
           << type;
  return success();
}

LogicalResult SliceOp::verify() {
  ArrayType source = getArray().getType();
  ArrayType result = getResult().getType();
  if (failed(verifySliceIndices(*this, source, getIndices(), getIndexFlags())))
    return failure();
  if (result.getElementType() != source.getElementType())
    return emitOpError("result element type ")
           << result.getElementType()
           << " differs from the array operand's element type "
           << source.getElementType();
  unsigned rank = getSliceRank(source.getRank(), getIndices());
  if (rank == 0)
    return emitOpError("selects a single element; use vrir.load");
  if (result.getRank() != rank)
    return emitOpError("selects ")
           << rank << " dimensions but the result type has rank "
           << result.getRank();
  if (getCopy())
    return verifyContiguousResult(*this, result);
  if (result.isContiguous())
    return emitOpError("is a view (no 'copy'), so its result layout must be "
                       "strided");
  return success();
}

/// Whether a slice may raise: a checked integer index, a checked range
/// without NumPy's clipping, or a step that may be zero.
static bool sliceMayRaise(SliceOp op) {
  for (auto [position, index] : llvm::enumerate(op.getIndices())) {
    IndexFlags flags = flagsAt(op.getIndexFlags(), position);
    bool checked = bitEnumContainsAny(flags, IndexFlags::CheckLower |
                                                 IndexFlags::CheckUpper);
    if (!isa<RangeType>(index.getType())) {
      if (checked)
        return true;
      continue;
    }
    auto range = index.getDefiningOp<RangeOp>();
    if (!range ||
        (checked && !bitEnumContainsAny(flags, IndexFlags::WrapNegative)))
      return true;
    std::optional<int64_t> step = range.getStep()
                                      ? getConstantIntValue(range.getStep())
                                      : std::optional<int64_t>(1);
    if (!step || *step == 0)
      return true;
  }
  return false;
}

void SliceOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getArrayMutable(),
                       SideEffects::DefaultResource::get());
  if (sliceMayRaise(*this))
    addMayRaiseEffect(effects);
  if (getCopy()) {
    effects.emplace_back(MemoryEffects::Allocate::get(),
                         llvm::cast<OpResult>(getResult()),
                         SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Write::get(),
                         llvm::cast<OpResult>(getResult()),
                         SideEffects::DefaultResource::get());
  }
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// Views share the data of their operand: they read it and allocate nothing.
static void getViewEffects(
    OpOperand &array,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &array,
                       SideEffects::DefaultResource::get());
}

static LogicalResult verifyElementTypeKept(Operation *op, ArrayType source,
                                           ArrayType result) {
  if (result.getElementType() != source.getElementType())
    return op->emitOpError("result element type ")
           << result.getElementType()
           << " differs from the array operand's element type "
           << source.getElementType();
  return success();
}

static LogicalResult verifyViewLayout(Operation *op, ArrayType result,
                                      Layout expected, StringRef why) {
  if (result.getLayout() != expected)
    return op->emitOpError("result layout must be ")
           << stringifyLayout(expected) << " (" << why << "), got "
           << stringifyLayout(result.getLayout());
  return success();
}

Layout PermuteOp::getResultLayout(Layout layout,
                                  ArrayRef<int64_t> permutation) {
  if (layout == Layout::RowMajor && permutation.size() == 2 &&
      permutation[0] == 1 && permutation[1] == 0)
    return Layout::ColMajor;
  return Layout::Strided;
}

LogicalResult PermuteOp::verify() {
  ArrayType source = getArray().getType(), result = getResult().getType();
  ArrayRef<int64_t> permutation = getPermutation();
  unsigned rank = source.getRank();
  if (permutation.size() != rank)
    return emitOpError("permutation has ")
           << permutation.size() << " entries for an array operand of rank "
           << rank << "; give one per dimension";
  SmallVector<bool> seen(rank, false);
  for (auto [position, dim] : llvm::enumerate(permutation)) {
    if (dim < 0 || static_cast<uint64_t>(dim) >= rank)
      return emitOpError("permutation entry #")
             << position << " is " << dim
             << ", not a dimension of the array operand of rank " << rank;
    if (seen[dim])
      return emitOpError("permutation names dimension ")
             << dim << " twice; it must name each dimension once";
    seen[dim] = true;
  }
  if (result.getRank() != rank)
    return emitOpError("result has rank ")
           << result.getRank() << " but the array operand has rank " << rank;
  if (failed(verifyElementTypeKept(*this, source, result)))
    return failure();
  Layout expected = getResultLayout(source.getLayout(), permutation);
  return verifyViewLayout(*this, result, expected,
                          expected == Layout::ColMajor
                              ? "a row_major matrix read by columns"
                              : "a permuted view has arbitrary strides");
}

void PermuteOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getViewEffects(getArrayMutable(), effects);
}

LogicalResult ExpandDimsOp::verify() {
  ArrayType source = getArray().getType(), result = getResult().getType();
  ArrayRef<int64_t> positions = getPositions();
  unsigned rank = source.getRank() + positions.size();
  if (result.getRank() != rank)
    return emitOpError("result has rank ")
           << result.getRank() << " but inserting " << positions.size()
           << " dimensions into the array operand of rank " << source.getRank()
           << " gives rank " << rank;
  for (auto [index, position] : llvm::enumerate(positions)) {
    if (position < 0 || static_cast<uint64_t>(position) >= rank)
      return emitOpError("position #")
             << index << " is " << position
             << ", not a dimension of the result of rank " << rank;
    if (index > 0 && position <= positions[index - 1])
      return emitOpError("positions must be strictly increasing, but ")
             << position << " follows " << positions[index - 1];
  }
  if (failed(verifyElementTypeKept(*this, source, result)))
    return failure();
  return verifyViewLayout(*this, result, source.getLayout(),
                          "dimensions of size 1 keep the operand's layout");
}

void ExpandDimsOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getViewEffects(getArrayMutable(), effects);
}

/// The component type of `complex<T>` (T), or null for other types.
static Type getComplexComponentType(Type type) {
  auto complex = dyn_cast<ComplexType>(type);
  return complex ? complex.getElementType() : Type();
}

LogicalResult PartViewOp::verify() {
  ArrayType source = getArray().getType(), result = getResult().getType();
  Type component = getComplexComponentType(source.getElementType());
  if (!component)
    return emitOpError("needs a complex array operand, got elements of ")
           << source.getElementType()
           << " (the parts of a real array are the array and zeros)";
  if (result.getElementType() != component)
    return emitOpError("result element type ")
           << result.getElementType() << " must be " << component
           << ", the component type of " << source.getElementType();
  if (result.getRank() != source.getRank())
    return emitOpError("result has rank ")
           << result.getRank() << " but the array operand has rank "
           << source.getRank();
  return verifyViewLayout(*this, result, Layout::Strided,
                          "one part of each element, two components apart");
}

void PartViewOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getViewEffects(getArrayMutable(), effects);
}

LogicalResult MemRefPartViewOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  auto result = dyn_cast<MemRefType>(getResult().getType());
  if (!result)
    return emitOpError("result must be a ranked memref, got ")
           << getResult().getType();
  Type component = getComplexComponentType(source.getElementType());
  if (result.getElementType() != component)
    return emitOpError("result element type ")
           << result.getElementType() << " must be " << component
           << ", the component type of " << source.getElementType();
  if (result.getShape() != source.getShape())
    return emitOpError("result shape must be the source's");
  if (result.getMemorySpace() != source.getMemorySpace())
    return emitOpError("result memory space must be the source's");
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(result.getStridesAndOffset(strides, offset)) ||
      ShapedType::isStatic(offset) ||
      llvm::any_of(strides, ShapedType::isStatic))
    return emitOpError("result layout must be strided with dynamic offset "
                       "and strides, got ")
           << result;
  return success();
}

Value MemRefPartViewOp::getViewSource() { return getSource(); }

LogicalResult ReshapeOp::verify() {
  ArrayType source = getArray().getType(), result = getResult().getType();
  if (getSizes().size() != result.getRank())
    return emitOpError("has ")
           << getSizes().size() << " sizes for a result of rank "
           << result.getRank() << "; give one size per result dimension";
  if (failed(verifyElementTypeKept(*this, source, result)))
    return failure();
  if (source.getLayout() == Layout::RowMajor)
    return verifyViewLayout(*this, result, Layout::RowMajor,
                            "a row_major array is reshaped as a view");
  return verifyViewLayout(*this, result, Layout::Strided,
                          "the result of reshaping a non-row_major array is "
                          "a view or a copy, decided at run time");
}

void ReshapeOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getViewEffects(getArrayMutable(), effects);
  // Only `reshape(-1)` (ravel) cannot fail the size checks.
  if (getSizes().size() != 1 || getConstantIntValue(getSizes()[0]) != -1)
    addMayRaiseEffect(effects);
  if (getArray().getType().getLayout() == Layout::RowMajor)
    return;
  // May copy (a new array), so that two reshapes are never merged.
  effects.emplace_back(MemoryEffects::Allocate::get(),
                       llvm::cast<OpResult>(getResult()),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(),
                       llvm::cast<OpResult>(getResult()),
                       SideEffects::DefaultResource::get());
}

LogicalResult StoreSliceOp::verify() {
  ArrayType target = getArray().getType();
  if (failed(verifySliceIndices(*this, target, getIndices(), getIndexFlags())))
    return failure();
  if (getElementTypeOf(getValue().getType()) != target.getElementType())
    return emitOpError("value element type ")
           << getElementTypeOf(getValue().getType())
           << " differs from the array operand's element type "
           << target.getElementType();
  unsigned rank = getSliceRank(target.getRank(), getIndices());
  if (getRankOf(getValue().getType()) > rank)
    return emitOpError("value has rank ")
           << getRankOf(getValue().getType()) << ", more than the rank " << rank
           << " of the slice it is assigned to";
  return success();
}

static LogicalResult verifyIndexArray(Operation *op, ArrayType array,
                                      ArrayType indices, int64_t axis) {
  if (!indices.getElementType().isSignlessInteger(32) &&
      !indices.getElementType().isSignlessInteger(64))
    return op->emitOpError("index array must have i32 or i64 elements, got ")
           << indices.getElementType();
  if (axis < 0 || static_cast<uint64_t>(axis) >= array.getRank())
    return op->emitOpError("axis ")
           << axis << " is out of range for the array operand of rank "
           << array.getRank();
  return success();
}

LogicalResult GatherOp::verify() {
  ArrayType array = getArray().getType();
  ArrayType indices = getIndices().getType();
  ArrayType result = getResult().getType();
  if (failed(verifyIndexArray(*this, array, indices, getAxis())))
    return failure();
  if (getIndexFlags() && bitEnumContainsAny(*getIndexFlags(), IndexFlags::Grow))
    return emitOpError("'grow' is not allowed on a gather");
  if (result.getElementType() != array.getElementType())
    return emitOpError("result element type ")
           << result.getElementType()
           << " differs from the array operand's element type "
           << array.getElementType();
  unsigned rank = array.getRank() - 1 + indices.getRank();
  if (result.getRank() != rank)
    return emitOpError("result must have rank ")
           << rank << " (array rank - 1 + index array rank), got "
           << result.getRank();
  return verifyContiguousResult(*this, result);
}

LogicalResult ScatterOp::verify() {
  ArrayType array = getArray().getType();
  ArrayType indices = getIndices().getType();
  if (failed(verifyIndexArray(*this, array, indices, getAxis())))
    return failure();
  if (getIndexFlags() && bitEnumContainsAny(*getIndexFlags(), IndexFlags::Grow))
    return emitOpError("'grow' is not allowed on a scatter");
  if (getElementTypeOf(getValue().getType()) != array.getElementType())
    return emitOpError("value element type ")
           << getElementTypeOf(getValue().getType())
           << " differs from the array operand's element type "
           << array.getElementType();
  unsigned rank = array.getRank() - 1 + indices.getRank();
  if (getRankOf(getValue().getType()) > rank)
    return emitOpError("value has rank ")
           << getRankOf(getValue().getType()) << ", more than the rank " << rank
           << " of the selection it is assigned to";
  return success();
}

//===----------------------------------------------------------------------===//
// Element-wise operations
//===----------------------------------------------------------------------===//

#define VRIR_ARRAY_VALUE_EFFECTS(OP)                                           \
  void OP::getEffects(                                                         \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    getArrayValueEffects(getOperation(), effects);                             \
  }
VRIR_ARRAY_VALUE_EFFECTS(UnaryOp)
VRIR_ARRAY_VALUE_EFFECTS(CastOp)
VRIR_ARRAY_VALUE_EFFECTS(CopyOp)
VRIR_ARRAY_VALUE_EFFECTS(TransposeOp)
#undef VRIR_ARRAY_VALUE_EFFECTS

// Ops that may also raise: a broadcast or inner-dimension mismatch, the
// minimum or maximum of nothing.
#define VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(OP, MAY_RAISE)                     \
  void OP::getEffects(                                                         \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    getArrayValueEffects(getOperation(), effects);                             \
    if (MAY_RAISE)                                                             \
      addMayRaiseEffect(effects);                                              \
  }
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(BinaryOp, mayFailToBroadcast(*this))
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(CmpOp, mayFailToBroadcast(*this))
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(SelectOp, mayFailToBroadcast(*this))
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(MatmulOp, true)
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(MatvecOp, true)
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(CholeskyOp, true)
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(InvOp, true)
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(SolveOp, true)
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(DetOp, true)
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(SlogdetOp, true)
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(EighOp, true)
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(SvdOp, true)
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(QrOp, true)
VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF(ReduceOp, getKind() == ReduceKind::Min ||
                                                  getKind() == ReduceKind::Max)
#undef VRIR_ARRAY_VALUE_EFFECTS_RAISING_IF

LogicalResult UnaryOp::verify() {
  Type operandType = getOperand().getType();
  if (failed(verifyBroadcastResult(*this, operandType, getResult().getType())))
    return failure();
  Type element = getElementTypeOf(operandType);
  Type resultElement = getElementTypeOf(getResult().getType());
  Type expected = element;
  StringRef fn = stringifyUnaryFn(getFn());
  switch (getFn()) {
  case UnaryFn::Neg:
    if (isBool(element))
      return emitOpError("'neg' needs a numeric operand, got ") << element;
    break;
  case UnaryFn::Not:
    if (!isIntegerLike(element))
      return emitOpError("'not' needs an i1 or integer operand, got ")
             << element;
    break;
  case UnaryFn::Abs:
    if (isBool(element))
      return emitOpError("'abs' needs a numeric operand, got ") << element;
    expected = getRealPartType(element);
    break;
  case UnaryFn::Sqrt:
  case UnaryFn::Exp:
  case UnaryFn::Log:
  case UnaryFn::Sin:
  case UnaryFn::Cos:
  case UnaryFn::Tan:
  case UnaryFn::Tanh:
    if (!isFloatLike(element))
      return emitOpError("'")
             << fn << "' needs a floating-point operand (cast integers "
             << "first), got " << element;
    break;
  case UnaryFn::Floor:
  case UnaryFn::Ceil:
  case UnaryFn::Round:
    if (!isa<FloatType>(element))
      return emitOpError("'")
             << fn << "' needs a real floating-point operand, got " << element;
    break;
  case UnaryFn::Real:
  case UnaryFn::Imag:
    if (isBool(element))
      return emitOpError("'")
             << fn << "' needs a numeric operand, got " << element;
    expected = getRealPartType(element);
    break;
  case UnaryFn::Conj:
    if (isBool(element))
      return emitOpError("'conj' needs a numeric operand, got ") << element;
    break;
  }
  if (resultElement != expected)
    return emitOpError("'")
           << fn << "' of " << element << " gives " << expected
           << ", but the result element type is " << resultElement;
  return success();
}

/// Operand element types must agree: type promotion is the frontend's job.
static LogicalResult verifySameOperandElements(Operation *op, Type lhs,
                                               Type rhs) {
  if (getElementTypeOf(lhs) != getElementTypeOf(rhs))
    return op->emitOpError("operand element types differ: ")
           << getElementTypeOf(lhs) << " and " << getElementTypeOf(rhs)
           << "; insert a vrir.cast";
  return success();
}

LogicalResult BinaryOp::verify() {
  Type lhs = getLhs().getType(), rhs = getRhs().getType();
  Type result = getResult().getType();
  if (failed(verifySameOperandElements(*this, lhs, rhs)) ||
      failed(verifyBroadcastResult(*this, {lhs, rhs}, result)))
    return failure();
  Type element = getElementTypeOf(lhs);
  if (getElementTypeOf(result) != element)
    return emitOpError("result element type ")
           << getElementTypeOf(result) << " differs from the operand element "
           << "type " << element;
  StringRef fn = stringifyBinaryFn(getFn());
  switch (getFn()) {
  case BinaryFn::And:
  case BinaryFn::Or:
  case BinaryFn::Xor:
    if (!isIntegerLike(element))
      return emitOpError("'")
             << fn << "' needs i1 or integer operands, got " << element;
    break;
  case BinaryFn::Rem:
  case BinaryFn::Min:
  case BinaryFn::Max:
    if (isComplex(element) || isBool(element))
      return emitOpError("'")
             << fn << "' needs real numeric operands, got " << element;
    break;
  default:
    if (isBool(element))
      return emitOpError("'") << fn << "' is arithmetic; cast i1 operands to "
                              << "a numeric type first";
    break;
  }
  return success();
}

namespace {
/// `FloatOp` or `IntOp` of `lhs` and `rhs`.
template <typename FloatOp, typename IntOp>
Value createArith(PatternRewriter &rewriter, Location loc, bool isFloat,
                  Value lhs, Value rhs) {
  if (isFloat)
    return FloatOp::create(rewriter, loc, lhs, rhs);
  return IntOp::create(rewriter, loc, lhs, rhs);
}

/// A `vrir.binary` of two scalars is plain `arith`.
struct ScalarBinaryToArith : public OpRewritePattern<BinaryOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BinaryOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getResult().getType();
    if (isa<ArrayType>(type) || isComplex(type))
      return failure();
    Value lhs = op.getLhs(), rhs = op.getRhs();
    Location loc = op.getLoc();
    bool isFloat = isa<FloatType>(type);
    Value result;
    switch (op.getFn()) {
    case BinaryFn::Add:
      result = createArith<arith::AddFOp, arith::AddIOp>(rewriter, loc, isFloat,
                                                         lhs, rhs);
      break;
    case BinaryFn::Sub:
      result = createArith<arith::SubFOp, arith::SubIOp>(rewriter, loc, isFloat,
                                                         lhs, rhs);
      break;
    case BinaryFn::Mul:
      result = createArith<arith::MulFOp, arith::MulIOp>(rewriter, loc, isFloat,
                                                         lhs, rhs);
      break;
    case BinaryFn::Min:
      result = createArith<arith::MinimumFOp, arith::MinSIOp>(
          rewriter, loc, isFloat, lhs, rhs);
      break;
    case BinaryFn::Max:
      result = createArith<arith::MaximumFOp, arith::MaxSIOp>(
          rewriter, loc, isFloat, lhs, rhs);
      break;
    case BinaryFn::Div:
      // Integer division rounding differs between languages (C truncates,
      // Python floors); only the float case is unambiguous.
      if (!isFloat)
        return failure();
      result = arith::DivFOp::create(rewriter, loc, lhs, rhs);
      break;
    case BinaryFn::And:
      result = arith::AndIOp::create(rewriter, loc, lhs, rhs);
      break;
    case BinaryFn::Or:
      result = arith::OrIOp::create(rewriter, loc, lhs, rhs);
      break;
    case BinaryFn::Xor:
      result = arith::XOrIOp::create(rewriter, loc, lhs, rhs);
      break;
    case BinaryFn::Rem:
    case BinaryFn::Pow:
      return failure();
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void BinaryOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<ScalarBinaryToArith>(context);
}

LogicalResult CmpOp::verify() {
  Type lhs = getLhs().getType(), rhs = getRhs().getType();
  Type result = getResult().getType();
  if (failed(verifySameOperandElements(*this, lhs, rhs)) ||
      failed(verifyBroadcastResult(*this, {lhs, rhs}, result)))
    return failure();
  if (!isBool(getElementTypeOf(result)))
    return emitOpError("result element type must be i1, got ")
           << getElementTypeOf(result);
  CmpPredicate predicate = getPredicate();
  if (isComplex(getElementTypeOf(lhs)) && predicate != CmpPredicate::EQ &&
      predicate != CmpPredicate::NE)
    return emitOpError("complex operands are only ordered by 'eq' and 'ne'");
  return success();
}

namespace {
/// A `vrir.cmp` of two scalars is `arith.cmpf` / `arith.cmpi`.
struct ScalarCmpToArith : public OpRewritePattern<CmpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CmpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getLhs().getType();
    if (isa<ArrayType>(type) || isa<ArrayType>(op.getRhs().getType()) ||
        isComplex(type))
      return failure();
    if (isa<FloatType>(type)) {
      static const arith::CmpFPredicate floatPredicates[] = {
          arith::CmpFPredicate::OEQ, arith::CmpFPredicate::UNE,
          arith::CmpFPredicate::OLT, arith::CmpFPredicate::OLE,
          arith::CmpFPredicate::OGT, arith::CmpFPredicate::OGE};
      rewriter.replaceOpWithNewOp<arith::CmpFOp>(
          op, floatPredicates[static_cast<unsigned>(op.getPredicate())],
          op.getLhs(), op.getRhs());
      return success();
    }
    static const arith::CmpIPredicate intPredicates[] = {
        arith::CmpIPredicate::eq,  arith::CmpIPredicate::ne,
        arith::CmpIPredicate::slt, arith::CmpIPredicate::sle,
        arith::CmpIPredicate::sgt, arith::CmpIPredicate::sge};
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(
        op, intPredicates[static_cast<unsigned>(op.getPredicate())],
        op.getLhs(), op.getRhs());
    return success();
  }
};
} // namespace

void CmpOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<ScalarCmpToArith>(context);
}

LogicalResult SelectOp::verify() {
  Type condition = getCondition().getType();
  Type onTrue = getTrueValue().getType(), onFalse = getFalseValue().getType();
  if (!isBool(getElementTypeOf(condition)))
    return emitOpError("condition element type must be i1, got ")
           << getElementTypeOf(condition);
  if (failed(verifySameOperandElements(*this, onTrue, onFalse)) ||
      failed(verifyBroadcastResult(*this, {condition, onTrue, onFalse},
                                   getResult().getType())))
    return failure();
  if (getElementTypeOf(getResult().getType()) != getElementTypeOf(onTrue))
    return emitOpError("result element type ")
           << getElementTypeOf(getResult().getType())
           << " differs from the element type of the values "
           << getElementTypeOf(onTrue);
  return success();
}

LogicalResult CastOp::verify() {
  Type operand = getOperand().getType(), result = getResult().getType();
  if (isa<ArrayType>(operand) != isa<ArrayType>(result) ||
      getRankOf(operand) != getRankOf(result))
    return emitOpError("converts element types only: operand ")
           << operand << " and result " << result
           << " must both be scalars or both arrays of one rank";
  if (auto array = dyn_cast<ArrayType>(result))
    return verifyContiguousResult(*this, array);
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  // Only scalars: a cast of an array is a new array, not an alias.
  if (getOperand().getType() == getResult().getType() &&
      !isa<ArrayType>(getResult().getType()))
    return getOperand();
  return {};
}

LogicalResult CopyOp::verify() {
  ArrayType operand = getOperand().getType(), result = getResult().getType();
  if (operand.getRank() != result.getRank() ||
      operand.getElementType() != result.getElementType())
    return emitOpError("result ")
           << result << " must have the rank and element type of the operand "
           << operand;
  return verifyContiguousResult(*this, result);
}

//===----------------------------------------------------------------------===//
// Linear algebra and reductions
//===----------------------------------------------------------------------===//

static LogicalResult verifyLinearAlgebra(Operation *op, ArrayRef<Value> inputs,
                                         ArrayRef<unsigned> ranks,
                                         ArrayType result,
                                         unsigned resultRank) {
  Type element = cast<ArrayType>(inputs[0].getType()).getElementType();
  for (auto [position, input] : llvm::enumerate(inputs)) {
    auto type = cast<ArrayType>(input.getType());
    if (type.getRank() != ranks[position])
      return op->emitOpError("operand #")
             << position << " must have rank " << ranks[position] << ", got "
             << type.getRank();
    if (type.getElementType() != element)
      return op->emitOpError("operand element types differ: ")
             << element << " and " << type.getElementType()
             << "; insert a vrir.cast";
  }
  if (isBool(element))
    return op->emitOpError("needs numeric operands, got ") << element;
  if (result.getRank() != resultRank || result.getElementType() != element)
    return op->emitOpError("result must be a rank-")
           << resultRank << " array of " << element << ", got " << result;
  return verifyContiguousResult(op, result);
}

LogicalResult MatmulOp::verify() {
  return verifyLinearAlgebra(*this, {getLhs(), getRhs()}, {2, 2},
                             getResult().getType(), 2);
}

LogicalResult MatvecOp::verify() {
  return verifyLinearAlgebra(*this, {getMatrix(), getVector()}, {2, 1},
                             getResult().getType(), 1);
}

/// The operands of a LAPACK op: the matrix (rank 2) and the optional
/// right-hand side (rank 1 or 2), of one element type, `f32` or `f64`.
static LogicalResult verifyLapackOperands(Operation *op, Value matrix,
                                          Value rhs = {}) {
  auto matrixType = cast<ArrayType>(matrix.getType());
  Type element = matrixType.getElementType();
  if (!element.isF32() && !element.isF64())
    return op->emitOpError("takes f32 or f64 matrices (LAPACK), got ")
           << element << "; insert a vrir.cast";
  if (matrixType.getRank() != 2)
    return op->emitOpError("needs a matrix (rank 2), got rank ")
           << matrixType.getRank();
  if (!rhs)
    return success();
  auto rhsType = cast<ArrayType>(rhs.getType());
  if (rhsType.getElementType() != element)
    return op->emitOpError("operand element types differ: ")
           << element << " and " << rhsType.getElementType()
           << "; insert a vrir.cast";
  if (rhsType.getRank() != 1 && rhsType.getRank() != 2)
    return op->emitOpError("right-hand side must have rank 1 or 2, got ")
           << rhsType.getRank();
  return success();
}

/// The array result of a LAPACK op: `rank` dimensions of `element`,
/// contiguous.
static LogicalResult verifyLapackResult(Operation *op, ArrayType result,
                                        Type element, unsigned rank) {
  if (result.getRank() != rank || result.getElementType() != element)
    return op->emitOpError("result must be a rank-")
           << rank << " array of " << element << ", got " << result;
  return verifyContiguousResult(op, result);
}

LogicalResult CholeskyOp::verify() {
  if (failed(verifyLapackOperands(*this, getOperand())))
    return failure();
  return verifyLapackResult(*this, getResult().getType(),
                            getOperand().getType().getElementType(), 2);
}

LogicalResult InvOp::verify() {
  if (failed(verifyLapackOperands(*this, getOperand())))
    return failure();
  return verifyLapackResult(*this, getResult().getType(),
                            getOperand().getType().getElementType(), 2);
}

LogicalResult SolveOp::verify() {
  if (failed(verifyLapackOperands(*this, getMatrix(), getRhs())))
    return failure();
  return verifyLapackResult(*this, getResult().getType(),
                            getMatrix().getType().getElementType(),
                            getRhs().getType().getRank());
}

namespace {
/// Whether nothing writes the elements of `array`: every user declares its
/// memory effects, none writes `array` (or memory it does not name), and
/// the same holds for the arrays users make of it (views). Conservative:
/// a fresh array computed from `array` that is then written also counts.
bool isNeverWritten(Value array, unsigned depth = 0) {
  if (depth > 8)
    return false;
  for (Operation *user : array.getUsers()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    if (!effects)
      return false;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &instance : instances)
      if (isa<MemoryEffects::Write>(instance.getEffect()) &&
          !isErrorStateEffect(instance) &&
          (!instance.getValue() || instance.getValue() == array))
        return false;
    for (Value result : user->getResults())
      if (isa<ArrayType>(result.getType()) &&
          !isNeverWritten(result, depth + 1))
        return false;
  }
  return true;
}

/// Which triangle of `matrix` can be nonzero, when it is a Cholesky factor
/// (lower) or a transpose of one (upper) that nothing writes.
std::optional<Triangle> getKnownTriangle(Value matrix) {
  bool transposed = false;
  if (auto permute = matrix.getDefiningOp<PermuteOp>()) {
    if (permute.getPermutation() != ArrayRef<int64_t>{1, 0})
      return std::nullopt;
    matrix = permute.getArray();
    transposed = true;
  }
  auto factor = matrix.getDefiningOp<CholeskyOp>();
  if (!factor || !isNeverWritten(factor.getResult()))
    return std::nullopt;
  return transposed ? Triangle::Upper : Triangle::Lower;
}

/// vrir.solve of a Cholesky factor (or its transpose): by substitution.
struct SolveTriangularFactor : public OpRewritePattern<SolveOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SolveOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getTriangular())
      return failure();
    std::optional<Triangle> triangle = getKnownTriangle(op.getMatrix());
    if (!triangle)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.setTriangular(*triangle); });
    return success();
  }
};
} // namespace

void SolveOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<SolveTriangularFactor>(context);
}

LogicalResult DetOp::verify() {
  if (failed(verifyLapackOperands(*this, getOperand())))
    return failure();
  if (getResult().getType() != getOperand().getType().getElementType())
    return emitOpError("result type ")
           << getResult().getType() << " differs from the element type "
           << getOperand().getType().getElementType();
  return success();
}

LogicalResult SlogdetOp::verify() {
  if (failed(verifyLapackOperands(*this, getOperand())))
    return failure();
  Type element = getOperand().getType().getElementType();
  for (Value result : getResults())
    if (result.getType() != element)
      return emitOpError("result type ")
             << result.getType() << " differs from the element type "
             << element;
  return success();
}

LogicalResult EighOp::verify() {
  if (failed(verifyLapackOperands(*this, getOperand())))
    return failure();
  Type element = getOperand().getType().getElementType();
  if (failed(verifyLapackResult(*this, getValues().getType(), element, 1)))
    return failure();
  if (Value vectors = getVectors())
    return verifyLapackResult(*this, cast<ArrayType>(vectors.getType()),
                              element, 2);
  return success();
}

LogicalResult SvdOp::verify() {
  if (failed(verifyLapackOperands(*this, getOperand())))
    return failure();
  unsigned count = getResults().size();
  if (count != 1 && count != 3)
    return emitOpError("has the singular values as its one result, or U, "
                       "the singular values and Vh as three; got ")
           << count << " results";
  if (count == 1 && getFullMatrices())
    return emitOpError("full_matrices needs the U and Vh results");
  Type element = getOperand().getType().getElementType();
  for (auto [index, result] : llvm::enumerate(getResults()))
    if (failed(verifyLapackResult(*this, cast<ArrayType>(result.getType()),
                                  element, count == 3 && index != 1 ? 2 : 1)))
      return failure();
  return success();
}

LogicalResult QrOp::verify() {
  if (failed(verifyLapackOperands(*this, getOperand())))
    return failure();
  unsigned count = getResults().size();
  if (count != 1 && count != 2)
    return emitOpError("has R as its one result, or Q and R as two; got ")
           << count << " results";
  if (count == 1 && getComplete())
    return emitOpError("complete needs the Q result");
  Type element = getOperand().getType().getElementType();
  for (Value result : getResults())
    if (failed(verifyLapackResult(*this, cast<ArrayType>(result.getType()),
                                  element, 2)))
      return failure();
  return success();
}

LogicalResult TransposeOp::verify() {
  ArrayType operand = getOperand().getType(), result = getResult().getType();
  if (operand.getRank() != result.getRank() ||
      operand.getElementType() != result.getElementType())
    return emitOpError("result ")
           << result << " must have the rank and element type of the operand "
           << operand;
  return verifyContiguousResult(*this, result);
}

LogicalResult ReduceOp::verify() {
  ArrayType operand = getOperand().getType();
  Type element = operand.getElementType();
  Type result = getResult().getType();
  StringRef kind = stringifyReduceKind(getKind());
  if (isBool(element))
    return emitOpError("'") << kind << "' of i1 elements; cast to a numeric "
                            << "type first";
  if (isComplex(element) &&
      (getKind() == ReduceKind::Min || getKind() == ReduceKind::Max))
    return emitOpError("'") << kind << "' is not defined on complex elements";
  if (getElementTypeOf(result) != element)
    return emitOpError("result element type ")
           << getElementTypeOf(result)
           << " differs from the operand element type " << element;
  std::optional<uint64_t> axis = getAxis();
  if (!axis || operand.getRank() <= 1) {
    if (axis && *axis >= operand.getRank())
      return emitOpError("axis ")
             << *axis << " is out of range for the operand of rank "
             << operand.getRank();
    if (isa<ArrayType>(result))
      return emitOpError("reduces to a scalar, but the result type is ")
             << result;
    return success();
  }
  if (*axis >= operand.getRank())
    return emitOpError("axis ")
           << *axis << " is out of range for the operand of rank "
           << operand.getRank();
  auto resultArray = dyn_cast<ArrayType>(result);
  if (!resultArray || resultArray.getRank() != operand.getRank() - 1)
    return emitOpError("reducing axis ")
           << *axis << " of a rank-" << operand.getRank()
           << " array gives a rank-" << operand.getRank() - 1
           << " array, but the result type is " << result;
  return verifyContiguousResult(*this, resultArray);
}

//===----------------------------------------------------------------------===//
// PforOp
//===----------------------------------------------------------------------===//

void PforOp::build(OpBuilder &builder, OperationState &state, Value domain,
                   ValueRange shared, ValueRange inits,
                   ArrayRef<ReduceKind> kinds) {
  state.addOperands(domain);
  state.addOperands(shared);
  state.addOperands(inits);
  state.addTypes(inits.getTypes());
  Properties &properties = state.getOrAddProperties<Properties>();
  properties.operandSegmentSizes = {1, static_cast<int32_t>(shared.size()),
                                    static_cast<int32_t>(inits.size())};
  properties.reductions = builder.getArrayAttr(
      llvm::map_to_vector(kinds, [&](ReduceKind kind) -> Attribute {
        return builder.getI32IntegerAttr(static_cast<int32_t>(kind));
      }));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  unsigned rank = 1;
  if (auto domainType = dyn_cast<DomainType>(domain.getType()))
    rank = domainType.getRank();
  for (unsigned i = 0; i < rank; ++i)
    block->addArgument(builder.getIndexType(), state.location);
  // With reductions the caller builds the terminator (it yields values).
  if (inits.empty()) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block);
    YieldOp::create(builder, state.location);
  }
}

ReduceKind PforOp::getReductionKind(unsigned i) {
  return static_cast<ReduceKind>(
      cast<IntegerAttr>(getReductions()[i]).getInt());
}

unsigned PforOp::getNumDims() {
  if (auto domain = dyn_cast<DomainType>(getDomain().getType()))
    return domain.getRank();
  return 1;
}

bool PforOp::isShared(Value value) {
  return llvm::is_contained(getShared(), value);
}

ParseResult PforOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  SmallVector<OpAsmParser::Argument> inductionVars;
  OpAsmParser::UnresolvedOperand domain;
  Type domainType;
  int32_t numShared = 0;
  if (parser.parseArgumentList(inductionVars, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in") || parser.parseOperand(domain) ||
      parser.parseColonType(domainType) ||
      parser.resolveOperand(domain, domainType, result.operands))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("shared"))) {
    SmallVector<OpAsmParser::UnresolvedOperand> shared;
    SmallVector<Type> sharedTypes;
    llvm::SMLoc sharedLoc = parser.getCurrentLocation();
    if (parser.parseLParen() || parser.parseOperandList(shared))
      return failure();
    if (!shared.empty() && parser.parseColonTypeList(sharedTypes))
      return failure();
    if (parser.parseRParen() ||
        parser.resolveOperands(shared, sharedTypes, sharedLoc, result.operands))
      return failure();
    numShared = shared.size();
  }
  // reduce(sum %a : f64, max %b : i64)
  SmallVector<Attribute> kinds;
  if (succeeded(parser.parseOptionalKeyword("reduce"))) {
    auto parseReduction = [&]() -> ParseResult {
      StringRef keyword;
      OpAsmParser::UnresolvedOperand init;
      Type type;
      llvm::SMLoc kindLoc = parser.getCurrentLocation();
      if (parser.parseKeyword(&keyword))
        return failure();
      std::optional<ReduceKind> kind = symbolizeReduceKind(keyword);
      if (!kind)
        return parser.emitError(kindLoc, "unknown reduction kind '")
               << keyword << "' (sum, prod, min or max)";
      if (parser.parseOperand(init) || parser.parseColonType(type) ||
          parser.resolveOperand(init, type, result.operands))
        return failure();
      kinds.push_back(builder.getI32IntegerAttr(static_cast<int32_t>(*kind)));
      result.addTypes(type);
      return success();
    };
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                       parseReduction))
      return failure();
  }
  Properties &properties = result.getOrAddProperties<Properties>();
  properties.operandSegmentSizes = {1, numShared,
                                    static_cast<int32_t>(kinds.size())};
  properties.reductions = builder.getArrayAttr(kinds);
  for (OpAsmParser::Argument &inductionVar : inductionVars)
    inductionVar.type = builder.getIndexType();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, inductionVars))
    return failure();
  if (kinds.empty())
    PforOp::ensureTerminator(*body, builder, result.location);
  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

void PforOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(getInductionVars(), p,
                        [&](BlockArgument arg) { p.printOperand(arg); });
  p << ") in " << getDomain() << " : " << getDomain().getType();
  if (!getShared().empty()) {
    p << " shared(" << getShared() << " : ";
    llvm::interleaveComma(getShared().getTypes(), p);
    p << ")";
  }
  if (!getInitValues().empty()) {
    p << " reduce(";
    for (unsigned i = 0, e = getInitValues().size(); i < e; ++i) {
      if (i)
        p << ", ";
      p << stringifyReduceKind(getReductionKind(i)) << ' ' << getInitValues()[i]
        << " : " << getInitValues()[i].getType();
    }
    p << ")";
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/!getInitValues().empty());
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getOperandSegmentSizesAttrName(), getReductionsAttrName()});
}

LogicalResult PforOp::verify() {
  if (!getBody().hasOneBlock())
    return emitOpError("body must have exactly one block");
  unsigned dims = getNumDims();
  if (getInductionVars().size() != dims)
    return emitOpError("iterates over a ")
           << dims << "-dimensional " << getDomain().getType() << " but has "
           << getInductionVars().size()
           << " induction variables; give one per dimension";
  for (BlockArgument arg : getInductionVars())
    if (!arg.getType().isIndex())
      return emitOpError("induction variables must have index type, got ")
             << arg.getType();
  if (getReductions().size() != getInitValues().size())
    return emitOpError("has ")
           << getInitValues().size() << " reduction initial values but "
           << getReductions().size() << " reduction kinds";
  if (getResultTypes() != getInitValues().getTypes())
    return emitOpError("results must have the types of the reduction "
                       "initial values");
  for (auto [i, reduction] : llvm::enumerate(getReductions())) {
    Type type = getInitValues()[i].getType();
    if (!type.isIntOrFloat() || type.isInteger(1))
      return emitOpError("reduction #")
             << i << " is over " << type
             << "; reductions combine integer or float scalars";
    if (!isa<IntegerAttr>(reduction) ||
        !symbolizeReduceKind(cast<IntegerAttr>(reduction).getInt()))
      return emitOpError("reduction #") << i << " has no valid kind";
  }
  auto yield = dyn_cast<YieldOp>(getBodyBlock()->getTerminator());
  if (!yield)
    return emitOpError("body must end with 'vrir.yield'");
  if (yield.getValues().getTypes() != getResultTypes()) {
    InFlightDiagnostic diag = yield.emitOpError("yields (");
    llvm::interleaveComma(yield.getValues().getTypes(), diag);
    diag << ") but the enclosing 'vrir.pfor' reduces (";
    llvm::interleaveComma(getResultTypes(), diag);
    return diag << "): one contribution per reduction";
  }
  return success();
}

/// The array `array` is a view of, if it is one (reshapes of non-row_major
/// arrays may copy, but may also be views).
static Value getViewedArray(Value array) {
  Operation *def = array.getDefiningOp();
  if (auto slice = dyn_cast_or_null<SliceOp>(def); slice && !slice.getCopy())
    return slice.getArray();
  if (isa_and_nonnull<PermuteOp, ExpandDimsOp, ReshapeOp, PartViewOp>(def))
    return def->getOperand(0);
  return {};
}

/// The value whose array object a write to `array` modifies: views write
/// their source, and arrays read from a variable belong to the variable.
static Value getWrittenObject(Value array) {
  while (Value viewed = getViewedArray(array))
    array = viewed;
  if (auto read = array.getDefiningOp<ReadOp>())
    return read.getVar();
  return array;
}

/// Array operand written by an indexed-write op, if `op` is one.
static Value getIndexedWriteTarget(Operation *op) {
  if (auto store = dyn_cast<StoreOp>(op))
    return store.getArray();
  if (auto store = dyn_cast<StoreSliceOp>(op))
    return store.getArray();
  if (auto scatter = dyn_cast<ScatterOp>(op))
    return scatter.getArray();
  if (auto cas = dyn_cast<AtomicCasOp>(op))
    return cas.getArray();
  if (auto rmw = dyn_cast<AtomicRMWOp>(op))
    return rmw.getArray();
  return {};
}

LogicalResult PforOp::verifyRegions() {
  Region &body = getBody();
  auto isOutside = [&](Value value) {
    return !body.isAncestor(value.getParentRegion());
  };
  WalkResult result = body.walk([&](Operation *op) -> WalkResult {
    if (auto write = dyn_cast<WriteOp>(op)) {
      if (isShared(write.getVar())) {
        write.emitOpError("rebinds a variable that the enclosing 'vrir.pfor' "
                          "lists as shared; shared values can be written by "
                          "index but not rebound");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    Value target = getIndexedWriteTarget(op);
    if (!target)
      return WalkResult::advance();
    Value object = getWrittenObject(target);
    // Writing through a view (`A.T[i, j] = x`) writes the shared array.
    bool shared = isShared(object);
    for (Value array = target; array && !shared; array = getViewedArray(array))
      shared = isShared(array);
    if (isOutside(object) && !shared) {
      op->emitOpError("writes an array defined outside the enclosing "
                      "'vrir.pfor' that is not in its 'shared' list");
      return WalkResult::interrupt();
    }
    if (auto store = dyn_cast<StoreOp>(op);
        store && store.mayGrow() && isOutside(object)) {
      store.emitOpError("may grow an array defined outside the enclosing "
                        "'vrir.pfor'; growth would rebind it");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

SmallVector<Region *> PforOp::getLoopRegions() { return {&getBody()}; }

/// The `vrir.range` ops of each dimension of `op`'s domain when they are
/// visible and the module's ranges exclude their stop: then the induction
/// variables run over `[start, stop)` by `step` as LoopLikeOpInterface
/// means it (MATLAB's inclusive stop has no such value).
static std::optional<SmallVector<RangeOp>> getExclusiveRanges(PforOp op) {
  if (!getModuleSemantics(op).rangeExclusive)
    return std::nullopt;
  SmallVector<Value> ranges;
  if (auto domain = op.getDomain().getDefiningOp<DomainOp>())
    llvm::append_range(ranges, domain.getRanges());
  else
    ranges.push_back(op.getDomain());
  SmallVector<RangeOp> result;
  for (Value range : ranges) {
    auto rangeOp = range.getDefiningOp<RangeOp>();
    if (!rangeOp)
      return std::nullopt;
    result.push_back(rangeOp);
  }
  if (result.size() != op.getNumDims())
    return std::nullopt;
  return result;
}

// Induction variables are reported only with their bounds: upstream integer
// range analysis (LLVM 22) reads the bounds of every loop that reports them.
std::optional<SmallVector<Value>> PforOp::getLoopInductionVars() {
  if (!getExclusiveRanges(*this))
    return std::nullopt;
  return SmallVector<Value>(getInductionVars().begin(),
                            getInductionVars().end());
}

std::optional<SmallVector<OpFoldResult>> PforOp::getLoopLowerBounds() {
  auto ranges = getExclusiveRanges(*this);
  if (!ranges)
    return std::nullopt;
  return llvm::map_to_vector(
      *ranges, [](RangeOp range) -> OpFoldResult { return range.getStart(); });
}

std::optional<SmallVector<OpFoldResult>> PforOp::getLoopUpperBounds() {
  auto ranges = getExclusiveRanges(*this);
  if (!ranges)
    return std::nullopt;
  return llvm::map_to_vector(
      *ranges, [](RangeOp range) -> OpFoldResult { return range.getStop(); });
}

std::optional<SmallVector<OpFoldResult>> PforOp::getLoopSteps() {
  auto ranges = getExclusiveRanges(*this);
  if (!ranges)
    return std::nullopt;
  Builder b(getContext());
  return llvm::map_to_vector(*ranges, [&](RangeOp range) -> OpFoldResult {
    if (Value step = range.getStep())
      return step;
    return b.getIndexAttr(1);
  });
}

void PforOp::getSuccessorRegions(RegionBranchPoint point,
                                 SmallVectorImpl<RegionSuccessor> &regions) {
  // The body runs zero or more times, then control returns to the parent.
  // Reduction results are not any one iteration's yielded values (they
  // combine all of them with the initial values): nothing is forwarded to
  // them, so dataflow analyses treat them as unknown.
  regions.push_back(RegionSuccessor(&getBody()));
  regions.push_back(RegionSuccessor(
      getOperation(), getOperation()->getResults().take_front(0)));
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

static LogicalResult verifyAtomic(Operation *op, ArrayType array,
                                  ValueRange indices) {
  if (!op->getParentOfType<PforOp>())
    return op->emitOpError("must be nested inside a 'vrir.pfor': atomics "
                           "order the iterations of a parallel loop");
  if (indices.size() != array.getRank())
    return op->emitOpError("has ")
           << indices.size() << " indices for an array of rank "
           << array.getRank() << "; give one index per dimension";
  return success();
}

LogicalResult AtomicCasOp::verify() {
  return verifyAtomic(*this, getArray().getType(), getIndices());
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyAtomic(*this, getArray().getType(), getIndices())))
    return failure();
  Type element = getValue().getType();
  AtomicKind kind = getKind();
  if (isa<FloatType>(element) &&
      (kind == AtomicKind::And || kind == AtomicKind::Or ||
       kind == AtomicKind::Xor))
    return emitOpError("'") << stringifyAtomicKind(kind)
                            << "' needs integer elements, got " << element;
  return success();
}

//===----------------------------------------------------------------------===//
// GpuSectionOp and YieldOp
//===----------------------------------------------------------------------===//

LogicalResult GpuSectionOp::verifyRegions() {
  WalkResult result = getBody().walk([&](Operation *op) -> WalkResult {
    if (isa<GpuSectionOp>(op)) {
      op->emitOpError("cannot be nested inside another 'vrir.gpu_section'");
      return WalkResult::interrupt();
    }
    if (isa<func::ConstantOp>(op)) {
      op->emitOpError("creates a function value inside a 'vrir.gpu_section'; "
                      "function values must be fixed before the section "
                      "starts");
      return WalkResult::interrupt();
    }
    if (auto write = dyn_cast<WriteOp>(op);
        write && isa<FunctionType>(write.getValue().getType())) {
      op->emitOpError("rebinds a function-valued variable inside a "
                      "'vrir.gpu_section'");
      return WalkResult::interrupt();
    }
    auto pfor = op->getParentOfType<PforOp>();
    if (!pfor || !getOperation()->isProperAncestor(pfor) || isa<AllocaOp>(op))
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    auto store = dyn_cast<StoreOp>(op);
    if ((effects && effects.hasEffect<MemoryEffects::Allocate>()) ||
        (store && store.mayGrow())) {
      op->emitOpError("allocates an array inside a 'vrir.pfor' of a "
                      "'vrir.gpu_section'; GPU kernels cannot allocate");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void GpuSectionOp::getSuccessorRegions(
    RegionBranchPoint point, SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent()) {
    regions.push_back(RegionSuccessor(&getBody()));
    return;
  }
  regions.push_back(RegionSuccessor(getOperation(), getResults()));
}

MutableOperandRange
YieldOp::getMutableSuccessorOperands(RegionSuccessor successor) {
  // A pfor's contributions are combined, not forwarded (see
  // PforOp::getSuccessorRegions).
  if (isa<PforOp>((*this)->getParentOp()))
    return MutableOperandRange(getOperation(), 0, 0);
  return MutableOperandRange(getOperation());
}

LogicalResult YieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (isa<PforOp>(parent))
    return success(); // PforOp::verify checks the contributions.
  if (auto map = dyn_cast<MapOp>(parent)) {
    Type element = getElementTypeOf(map.getType());
    if (getValues().size() != 1 || getValues()[0].getType() != element)
      return emitOpError("in a 'vrir.map' yields one ")
             << element << " (the result's element type)";
    return success();
  }
  if (auto store = dyn_cast<StoreMapOp>(parent)) {
    Type element = store.getArray().getType().getElementType();
    if (getValues().size() != 1 || getValues()[0].getType() != element)
      return emitOpError("in a 'vrir.store_map' yields one ")
             << element << " (the array's element type)";
    return success();
  }
  TypeRange expected = parent->getResultTypes();
  if (getValues().getTypes() != expected) {
    InFlightDiagnostic diag = emitOpError("yields types (");
    llvm::interleaveComma(getValues().getTypes(), diag);
    diag << ") but the enclosing 'vrir.gpu_section' returns (";
    llvm::interleaveComma(expected, diag);
    return diag << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MapOp
//===----------------------------------------------------------------------===//

void MapOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // The body is free of effects (verified): only the arrays count.
  getArrayValueEffects(getOperation(), effects);
  std::optional<ReduceKind> kind = getReduce();
  if (mayFailToBroadcast(*this) ||
      (kind && (*kind == ReduceKind::Min || *kind == ReduceKind::Max)))
    addMayRaiseEffect(effects);
}

Value MapOp::getYieldedValue() {
  return cast<YieldOp>(getBody().front().getTerminator()).getValues()[0];
}

/// Clones the scalar body of a map or store_map at `builder`, its arguments
/// bound to `elements`, and returns the clone of the yielded value.
static Value cloneElementBody(Block &body, OpBuilder &builder,
                              ValueRange elements) {
  IRMapping mapping;
  mapping.map(body.getArguments(), elements);
  for (Operation &nested : body.without_terminator())
    builder.clone(nested, mapping);
  return mapping.lookup(
      cast<YieldOp>(body.getTerminator()).getValues().front());
}

Value MapOp::cloneBody(OpBuilder &builder, ValueRange elements) {
  return cloneElementBody(getBody().front(), builder, elements);
}

/// The body of a map or store_map: one argument per input, of its element
/// type, and side-effect free scalar ops ending in a `vrir.yield`.
static LogicalResult verifyElementBody(Operation *op, ValueRange inputs,
                                       Block &body) {
  if (body.getNumArguments() != inputs.size())
    return op->emitOpError("body has ")
           << body.getNumArguments() << " arguments but the op has "
           << inputs.size() << " inputs";
  for (auto [index, input, argument] :
       llvm::enumerate(inputs, body.getArguments())) {
    Type element = getElementTypeOf(input.getType());
    if (argument.getType() != element)
      return op->emitOpError("body argument #")
             << index << " has type " << argument.getType() << " but input #"
             << index << " has elements of type " << element;
  }
  if (!isa<YieldOp>(body.getTerminator()))
    return op->emitOpError("body must end with 'vrir.yield'");
  for (Operation &nested : body.without_terminator()) {
    auto isArray = [](Type type) { return isa<ArrayType>(type); };
    if (llvm::any_of(nested.getOperandTypes(), isArray) ||
        llvm::any_of(nested.getResultTypes(), isArray))
      return op->emitOpError("body computes on scalars, but '")
             << nested.getName() << "' takes or returns an array";
    if (!isMemoryEffectFree(&nested) || nested.getNumRegions() != 0)
      return op->emitOpError("body may only hold side-effect free scalar ops, "
                             "found '")
             << nested.getName() << "'";
  }
  return success();
}

LogicalResult MapOp::verifyRegions() {
  if (std::optional<ReduceKind> kind = getReduce()) {
    StringRef name = stringifyReduceKind(*kind);
    if (!llvm::any_of(getInputs().getTypes(),
                      [](Type type) { return isa<ArrayType>(type); }))
      return emitOpError("reduce(") << name << ") needs an array input";
    Type result = getType();
    if (isa<ArrayType>(result))
      return emitOpError("reduce(")
             << name << ") gives a scalar, but the result type is " << result;
    if (isBool(result))
      return emitOpError("reduce(") << name << ") of i1 elements";
    if (isComplex(result) &&
        (*kind == ReduceKind::Min || *kind == ReduceKind::Max))
      return emitOpError("reduce(")
             << name << ") is not defined on complex elements";
  } else {
    if (!isa<ArrayType>(getType()))
      return emitOpError("without 'reduce' returns an array, got ")
             << getType();
    if (failed(verifyBroadcastResult(*this, getInputs().getTypes(), getType())))
      return failure();
  }
  return verifyElementBody(*this, getInputs(), getBody().front());
}

//===----------------------------------------------------------------------===//
// StoreMapOp
//===----------------------------------------------------------------------===//

void StoreMapOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &input : getInputsMutable())
    if (isa<ArrayType>(input.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &input,
                           SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getArrayMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getArrayMutable(),
                       SideEffects::DefaultResource::get());
  addMayRaiseEffect(effects);
}

Value StoreMapOp::cloneBody(OpBuilder &builder, ValueRange elements) {
  return cloneElementBody(getBody().front(), builder, elements);
}

LogicalResult StoreMapOp::verifyRegions() {
  ArrayType target = getArray().getType();
  if (failed(verifySliceIndices(*this, target, getIndices(), getIndexFlags())))
    return failure();
  if (!llvm::any_of(getInputs().getTypes(),
                    [](Type type) { return isa<ArrayType>(type); }))
    return emitOpError("needs an array input (a scalar is assigned by "
                       "'vrir.store_slice')");
  unsigned rank = getSliceRank(target.getRank(), getIndices());
  for (auto [index, input] : llvm::enumerate(getInputs()))
    if (getRankOf(input.getType()) > rank)
      return emitOpError("input #")
             << index << " has rank " << getRankOf(input.getType())
             << ", more than the rank " << rank
             << " of the slice it is assigned to";
  return verifyElementBody(*this, getInputs(), getBody().front());
}

//===----------------------------------------------------------------------===//
// DispatchOp
//===----------------------------------------------------------------------===//

LogicalResult DispatchOp::verify() {
  // Positions listed once each, in increasing order, naming operands of the
  // kind each list is for.
  auto checkList = [&](ArrayRef<int64_t> positions, StringRef list,
                       function_ref<bool(Type)> accepts,
                       StringRef what) -> LogicalResult {
    int64_t previous = -1;
    for (int64_t position : positions) {
      if (position <= previous)
        return emitOpError() << list
                             << " must list operand positions once each, in "
                                "increasing order";
      if (position >= static_cast<int64_t>(getNumOperands()))
        return emitOpError() << list << " names operand #" << position << " of "
                             << getNumOperands();
      Type type = getOperand(position).getType();
      if (!accepts(type))
        return emitOpError() << list << " names operand #" << position
                             << " of type " << type << ", not " << what;
      previous = position;
    }
    return success();
  };
  if (failed(checkList(
          getCriticalShapes(), "critical_shapes",
          [](Type type) { return isa<ArrayType>(type); }, "an array")))
    return failure();
  return checkList(
      getCriticalValues(), "critical_values",
      [](Type type) {
        if (auto array = dyn_cast<ArrayType>(type))
          type = array.getElementType();
        return type.isIntOrIndex();
      },
      "an integer or an integer array");
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "names " << getCalleeAttr()
                         << ", which is not a function of this module";
  FunctionType type = callee.getFunctionType();
  if (!llvm::equal(type.getInputs(), getOperandTypes()) ||
      !llvm::equal(type.getResults(), getResultTypes()))
    return emitOpError() << "has type "
                         << FunctionType::get(getContext(), getOperandTypes(),
                                              getResultTypes())
                         << " but the region " << getCalleeAttr()
                         << " has type " << type;
  if (callee.isExternal())
    return emitOpError() << "names " << getCalleeAttr()
                         << ", a declaration: a region has a body";
  return success();
}

#define GET_OP_CLASSES
#include "VRIR/Dialect/VRIR/IR/VRIROps.cpp.inc"
