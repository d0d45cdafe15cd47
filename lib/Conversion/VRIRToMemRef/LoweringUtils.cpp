//===- LoweringUtils.cpp - Helpers shared by the VRIR lowerings -----------===//

#include "LoweringUtils.h"

#include "../VRIRToGPU/GpuABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::vrir;

MemRefType lowering::getMemRefType(ArrayType type) {
  MLIRContext *context = type.getContext();
  unsigned rank = type.getRank();
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  Type element = type.getElementType();
  switch (type.getLayout()) {
  case Layout::RowMajor:
    return MemRefType::get(shape, element);
  case Layout::ColMajor: {
    SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
    if (rank > 0)
      strides[0] = 1;
    return MemRefType::get(shape, element,
                           StridedLayoutAttr::get(context, 0, strides));
  }
  case Layout::Strided: {
    SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
    return MemRefType::get(
        shape, element,
        StridedLayoutAttr::get(context, ShapedType::kDynamic, strides));
  }
  }
  llvm_unreachable("unknown layout");
}

Value lowering::toIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

LLVM::LLVMFuncOp lowering::declareFunction(OpBuilder &b, Operation *anchor,
                                           StringRef name, Type resultType,
                                           TypeRange argTypes) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return function;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto type =
      LLVM::LLVMFunctionType::get(resultType, llvm::to_vector(argTypes));
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

LLVM::LLVMFuncOp lowering::declareVoidFunction(OpBuilder &b, Operation *anchor,
                                               StringRef name,
                                               TypeRange argTypes) {
  return declareFunction(b, anchor, name,
                         LLVM::LLVMVoidType::get(b.getContext()), argTypes);
}

void lowering::callRuntime(OpBuilder &b, Location loc, Operation *anchor,
                           StringRef name, ValueRange args, bool noReturn) {
  LLVM::LLVMFuncOp function =
      declareVoidFunction(b, anchor, name, args.getTypes());
  if (noReturn && !function->hasAttr("passthrough"))
    function->setAttr(
        "passthrough",
        b.getArrayAttr({b.getStringAttr("noreturn"), b.getStringAttr("cold")}));
  auto call = LLVM::CallOp::create(b, loc, function, args);
  // The runtime reads its string arguments and touches only its own state.
  call.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
      b.getContext(), {/*other=*/LLVM::ModRefInfo::NoModRef,
                       /*argMem=*/LLVM::ModRefInfo::Ref,
                       /*inaccessibleMem=*/LLVM::ModRefInfo::ModRef,
                       /*errnoMem=*/LLVM::ModRefInfo::NoModRef,
                       /*targetMem0=*/LLVM::ModRefInfo::NoModRef,
                       /*targetMem1=*/LLVM::ModRefInfo::NoModRef}));
}

Value lowering::getConstantGlobal(OpBuilder &b, Location loc, Operation *anchor,
                                  StringRef prefix, Type type, Attribute value,
                                  ArrayRef<uint8_t> bytes, uint64_t alignment) {
  auto module = anchor->getParentOfType<ModuleOp>();
  std::string name =
      prefix.str() + llvm::utohexstr(llvm::xxh3_64bits(bytes), true);
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    global =
        LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                               LLVM::Linkage::Internal, name, value, alignment);
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

Value lowering::getConstantString(OpBuilder &b, Location loc, Operation *anchor,
                                  StringRef text) {
  std::string data = text.str();
  data.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
  return getConstantGlobal(b, loc, anchor, "__vrir_str_", type,
                           b.getStringAttr(data),
                           llvm::arrayRefFromStringRef(text));
}

std::string lowering::getArraySite(Operation *op, Value array) {
  if (auto site = op->getAttrOfType<StringAttr>(kSiteAttrName))
    return site.str();
  return describeArraySite(array, op->getLoc());
}

bool lowering::isInParallelLoop(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<PforOp, scf::ParallelOp>(parent))
      return true;
    if (isa<FunctionOpInterface>(parent))
      return false;
  }
  return false;
}

bool lowering::isInGpuSection(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<GpuSectionOp, scf::ExecuteRegionOp>(parent) &&
        parent->hasAttr(kGpuSectionAttrName))
      return true;
    if (isa<FunctionOpInterface>(parent))
      return false;
  }
  return false;
}

void lowering::emitRuntimeError(OpBuilder &b, Location loc, Operation *anchor,
                                StringRef message) {
  Value text = getConstantString(b, loc, anchor, message);
  callRuntime(b, loc, anchor, "vrir_rt_error", text, /*noReturn=*/true);
}

void lowering::emitRuntimeErrorIf(OpBuilder &b, Location loc, Operation *anchor,
                                  Value condition, StringRef message) {
  auto ifOp = scf::IfOp::create(b, loc, condition, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  emitRuntimeError(b, loc, anchor, message);
}

Value lowering::lowerIndex(OpBuilder &b, Location loc, Operation *anchor,
                           Value userIndex, Value extent, IndexFlags flags,
                           int64_t indexBase, StringRef site, int64_t dimension,
                           bool parallel, Value &anyFailed) {
  Value index = toIndex(b, loc, userIndex);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (indexBase != 0)
    index = arith::SubIOp::create(
        b, loc, index, arith::ConstantIndexOp::create(b, loc, indexBase));
  if (bitEnumContainsAny(flags, IndexFlags::WrapNegative)) {
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
    Value wrapped = arith::AddIOp::create(b, loc, index, extent);
    index = arith::SelectOp::create(b, loc, negative, wrapped, index);
  }
  Value failed;
  bool checkLower = bitEnumContainsAny(flags, IndexFlags::CheckLower);
  bool checkUpper = bitEnumContainsAny(flags, IndexFlags::CheckUpper);
  if (checkLower && checkUpper)
    // Extents are never negative, so one unsigned comparison is both
    // checks (LLVM cannot merge the two signed ones without knowing that).
    failed =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, index, extent);
  else if (checkLower)
    failed =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  else if (checkUpper)
    failed =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, extent);
  if (!failed)
    return index;

  Type i64 = b.getI64Type();
  StringRef callee =
      parallel ? kParallelBoundsErrorFunction : "vrir_rt_bounds_error";
  auto ifOp = scf::IfOp::create(b, loc, failed, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value text = getConstantString(b, loc, anchor, site);
    Value dim =
        arith::ConstantIntOp::create(b, loc, i64, dimension + indexBase);
    Value reported =
        arith::IndexCastOp::create(b, loc, i64, toIndex(b, loc, userIndex));
    Value size = arith::IndexCastOp::create(b, loc, i64, extent);
    callRuntime(b, loc, anchor, callee, ValueRange{text, dim, reported, size},
                /*noReturn=*/!parallel);
  }
  if (parallel)
    anyFailed =
        anyFailed ? arith::OrIOp::create(b, loc, anyFailed, failed).getResult()
                  : failed;
  return index;
}

SmallVector<Value> lowering::getMemRefSizes(OpBuilder &b, Location loc,
                                            Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> sizes;
  for (unsigned d = 0; d < type.getRank(); ++d)
    sizes.push_back(memref::DimOp::create(b, loc, memref, d));
  return sizes;
}

/// Raises an error when the array's size in bytes does not fit in an i64
/// (the allocation would wrap to a small buffer and every write past it
/// would corrupt memory). Sizes are known non-negative here, so an unsigned
/// product whose high half is non-zero, or whose low half has the sign bit,
/// is too large.
static void checkByteSize(OpBuilder &b, Location loc, Operation *anchor,
                          Type element, ValueRange sizes) {
  Type i64 = b.getI64Type();
  Value bytes =
      arith::ConstantIntOp::create(b, loc, i64, getElementBytes(element));
  Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
  Value overflow;
  for (Value size : sizes) {
    Value size64 = arith::IndexCastUIOp::create(b, loc, i64, size);
    auto product = arith::MulUIExtendedOp::create(b, loc, bytes, size64);
    bytes = product.getLow();
    Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                       product.getHigh(), zero);
    overflow = overflow
                   ? arith::OrIOp::create(b, loc, overflow, high).getResult()
                   : high;
  }
  Value signBit =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bytes, zero);
  overflow = arith::OrIOp::create(b, loc, overflow, signBit);
  lowering::emitRuntimeErrorIf(
      b, loc, anchor, overflow,
      "array too large: its size in bytes does not fit in "
      "64 bits");
}

void lowering::checkArraySizes(OpBuilder &b, Location loc, Operation *anchor,
                               ArrayType type, ValueRange sizes) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value anyNegative;
  for (Value size : sizes) {
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, size, zero);
    anyNegative =
        anyNegative
            ? arith::OrIOp::create(b, loc, anyNegative, negative).getResult()
            : negative;
  }
  if (anyNegative)
    emitRuntimeErrorIf(b, loc, anchor, anyNegative,
                       "negative dimensions are not allowed");
  if (!sizes.empty())
    checkByteSize(b, loc, anchor, type.getElementType(), sizes);
}

Value lowering::allocateArray(OpBuilder &b, Location loc, Operation *anchor,
                              ArrayType type, ValueRange sizes) {
  checkArraySizes(b, loc, anchor, type, sizes);
  // 64-byte alignment: whole cache lines, and vector loads of any width.
  IntegerAttr alignment = b.getI64IntegerAttr(64);
  MemRefType memrefType = getMemRefType(type);
  if (type.getLayout() == Layout::RowMajor || type.getRank() <= 1) {
    auto identity =
        MemRefType::get(memrefType.getShape(), memrefType.getElementType());
    Value buffer = memref::AllocOp::create(b, loc, identity, sizes,
                                           ValueRange{}, alignment);
    if (identity == memrefType)
      return buffer;
    return memref::CastOp::create(b, loc, memrefType, buffer);
  }
  // Column-major: one flat buffer viewed with Fortran strides.
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<OpFoldResult> strides, foldedSizes;
  for (Value size : sizes) {
    strides.push_back(strides.empty() ? OpFoldResult(b.getIndexAttr(1))
                                      : OpFoldResult(count));
    foldedSizes.push_back(getAsOpFoldResult(size));
    count = arith::MulIOp::create(b, loc, count, size);
  }
  auto flatType =
      MemRefType::get({ShapedType::kDynamic}, memrefType.getElementType());
  Value flat = memref::AllocOp::create(b, loc, flatType, ValueRange{count},
                                       ValueRange{}, alignment);
  return memref::ReinterpretCastOp::create(
      b, loc, memrefType, flat, b.getIndexAttr(0), foldedSizes, strides);
}

void lowering::fillArray(OpBuilder &b, Location loc, Value memref,
                         Value value) {
  linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{memref});
}

Value lowering::getElementPointer(OpBuilder &b, Location loc, Value memref,
                                  ValueRange indices) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::IndexCastOp::create(b, loc, b.getI64Type(), base);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value pointer = LLVM::IntToPtrOp::create(b, loc, ptrType, address);
  Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), linear);
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  return LLVM::GEPOp::create(b, loc, ptrType, element, pointer,
                             ValueRange{offset});
}

static Value getScalarConstant(OpBuilder &b, Location loc, Type type,
                               double value) {
  if (auto complex = dyn_cast<ComplexType>(type)) {
    Type part = complex.getElementType();
    Attribute real, imag;
    if (isa<FloatType>(part)) {
      real = b.getFloatAttr(part, value);
      imag = b.getFloatAttr(part, 0.0);
    } else {
      real = b.getIntegerAttr(part, static_cast<int64_t>(value));
      imag = b.getIntegerAttr(part, 0);
    }
    return complex::ConstantOp::create(b, loc, complex,
                                       b.getArrayAttr({real, imag}));
  }
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

Value lowering::getZero(OpBuilder &b, Location loc, Type elementType) {
  return getScalarConstant(b, loc, elementType, 0.0);
}

Value lowering::getOne(OpBuilder &b, Location loc, Type elementType) {
  return getScalarConstant(b, loc, elementType, 1.0);
}

bool lowering::hasLoopInside(Operation *op) {
  for (Region &region : op->getRegions())
    if (region.walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return true;
  return false;
}

Value lowering::getRangeTripCount(OpBuilder &b, Location loc, Value start,
                                  Value stop, Value step) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value positive =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, step, zero);
  // ceil((stop - start) / step) for either sign of step: round the distance
  // away from zero by |step| - 1 before the truncating division.
  Value distance = arith::SubIOp::create(b, loc, stop, start);
  Value towardsZero = arith::SelectOp::create(
      b, loc, positive, arith::SubIOp::create(b, loc, step, one),
      arith::AddIOp::create(b, loc, step, one));
  Value count = arith::DivSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, distance, towardsZero), step);
  return arith::MaxSIOp::create(b, loc, count, zero);
}

Value lowering::allocateTemporary(OpBuilder &b, Location loc, Type elementType,
                                  ValueRange sizes) {
  SmallVector<int64_t> shape(sizes.size(), ShapedType::kDynamic);
  return memref::AllocOp::create(b, loc, MemRefType::get(shape, elementType),
                                 sizes, ValueRange{}, b.getI64IntegerAttr(64));
}

void lowering::copyMemRef(OpBuilder &b, Location loc, Value source,
                          Value target) {
  linalg::CopyOp::create(b, loc, ValueRange{source}, ValueRange{target});
}

Value lowering::callCompareExchange(OpBuilder &b, Location loc,
                                    Operation *anchor, Value pointer,
                                    Value expected, Value desired) {
  Type type = expected.getType();
  auto module = anchor->getParentOfType<ModuleOp>();
  std::string name =
      "__vrir_cas_i" + std::to_string(type.getIntOrFloatBitWidth());
  auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!function) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    function = LLVM::LLVMFuncOp::create(
        b, loc, name, LLVM::LLVMFunctionType::get(type, {ptrType, type, type}),
        LLVM::Linkage::Internal);
    Block *body = function.addEntryBlock(b);
    b.setInsertionPointToStart(body);
    auto exchange = LLVM::AtomicCmpXchgOp::create(
        b, loc, body->getArgument(0), body->getArgument(1),
        body->getArgument(2), LLVM::AtomicOrdering::seq_cst,
        LLVM::AtomicOrdering::seq_cst);
    Value old = LLVM::ExtractValueOp::create(b, loc, exchange, 0);
    LLVM::ReturnOp::create(b, loc, old);
  }
  auto call = LLVM::CallOp::create(b, loc, function,
                                   ValueRange{pointer, expected, desired});
  call.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
      b.getContext(), {/*other=*/LLVM::ModRefInfo::NoModRef,
                       /*argMem=*/LLVM::ModRefInfo::ModRef,
                       /*inaccessibleMem=*/LLVM::ModRefInfo::NoModRef,
                       /*errnoMem=*/LLVM::ModRefInfo::NoModRef,
                       /*targetMem0=*/LLVM::ModRefInfo::NoModRef,
                       /*targetMem1=*/LLVM::ModRefInfo::NoModRef}));
  return call.getResult();
}

SmallVector<Operation *> lowering::collectGpuSections(Operation *root) {
  SmallVector<Operation *> sections;
  root->walk([&](scf::ExecuteRegionOp op) {
    if (op->hasAttr(kGpuSectionAttrName))
      sections.push_back(op);
  });
  return sections;
}

/// The bytes `memref` addresses, from its lowest to its highest element.
static gpuabi::ByteRange getByteRange(OpBuilder &b, Location loc,
                                      Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  return gpuabi::computeByteRange(b, loc, base, metadata.getOffset(),
                                  metadata.getSizes(), metadata.getStrides(),
                                  getElementBytes(type.getElementType()));
}

Value lowering::mayOverlap(OpBuilder &b, Location loc, Value first,
                           Value second) {
  gpuabi::ByteRange x = getByteRange(b, loc, first);
  gpuabi::ByteRange y = getByteRange(b, loc, second);
  auto endOf = [&](const gpuabi::ByteRange &range) -> Value {
    return arith::AddIOp::create(b, loc, range.lowestByte, range.bytes);
  };
  auto isEmpty = [&](const gpuabi::ByteRange &range) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, range.bytes,
                                 arith::ConstantIndexOp::create(b, loc, 0));
  };
  Value xEnd = endOf(x), yEnd = endOf(y);
  Value anyEmpty = arith::OrIOp::create(b, loc, isEmpty(x), isEmpty(y));
  Value intersect = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x.lowestByte,
                            yEnd),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, y.lowestByte,
                            xEnd));
  return arith::AndIOp::create(
      b, loc, intersect,
      arith::XOrIOp::create(b, loc, anyEmpty,
                            arith::ConstantIntOp::create(b, loc, 1, 1)));
}

Value lowering::isSameView(OpBuilder &b, Location loc, Value first,
                           Value second) {
  auto x = memref::ExtractStridedMetadataOp::create(b, loc, first);
  auto y = memref::ExtractStridedMetadataOp::create(b, loc, second);
  auto equal = [&](Value p, Value q) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, p, q);
  };
  Value same =
      equal(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, first),
            memref::ExtractAlignedPointerAsIndexOp::create(b, loc, second));
  same =
      arith::AndIOp::create(b, loc, same, equal(x.getOffset(), y.getOffset()));
  for (auto [p, q] : llvm::zip_equal(x.getSizes(), y.getSizes()))
    same = arith::AndIOp::create(b, loc, same, equal(p, q));
  for (auto [p, q] : llvm::zip_equal(x.getStrides(), y.getStrides()))
    same = arith::AndIOp::create(b, loc, same, equal(p, q));
  return same;
}
