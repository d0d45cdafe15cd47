//===- LinearAlgebraOps.cpp - matmul, matvec, transpose -------------------===//
//
// `f32`/`f64` products call OpenBLAS through its CBLAS interface (linked by
// the host at run time); other element types use the upstream named linalg
// ops, which accept memrefs of any strided layout. Transposition is a
// `linalg.transpose` into a new array.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/VRIRToMemRef.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::vrir;
using namespace mlir::vrir::lowering;

namespace {

/// Enumerators of cblas.h.
enum CblasConstant : int32_t {
  kCblasRowMajor = 101,
  kCblasColMajor = 102,
  kCblasNoTrans = 111,
  kCblasTrans = 112,
};

/// True for the element types that the BLAS path handles.
static bool isBlasElementType(Type type) {
  return type.isF32() || type.isF64();
}

/// Fails (with a diagnostic) on element types that neither BLAS nor the
/// linalg ops can multiply: complex integers have no arithmetic in the
/// complex dialect.
static LogicalResult checkProductElementType(Operation *op, Type element) {
  auto complex = dyn_cast<ComplexType>(element);
  if (complex && !isa<FloatType>(complex.getElementType()))
    return op->emitOpError("on ")
           << element << " elements cannot be lowered: complex arithmetic "
           << "needs floating-point parts";
  return success();
}

static Value constantI32(OpBuilder &b, Location loc, int32_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

static Value andOf(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return arith::AndIOp::create(b, loc, lhs, rhs);
}

static Value compare(OpBuilder &b, Location loc, arith::CmpIPredicate predicate,
                     Value lhs, Value rhs) {
  return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
}

/// `memref<?x...xT, strided<[?, ...], offset: ?>>`: a type that any memref
/// of the rank casts to.
static MemRefType getAnyLayoutType(Type elementType, unsigned rank) {
  return getMemRefType(ArrayType::get(elementType.getContext(), elementType,
                                      rank, Layout::Strided));
}

/// Calls the external C function `name` returning void (declared in the
/// module on first use, with the types of `args`). Unlike runtime calls
/// (lowering::callRuntime), the call keeps the default
/// "may read and write anything" effects: BLAS writes through its pointer
/// arguments.
static void callExternal(OpBuilder &b, Location loc, Operation *anchor,
                         StringRef name, ValueRange args) {
  LLVM::CallOp::create(b, loc,
                       declareVoidFunction(b, anchor, name, args.getTypes()),
                       args);
}

/// An `!llvm.ptr` to the first element of `memref` (aligned base pointer
/// plus the element offset).
static Value getDataPointer(OpBuilder &b, Location loc, Value memref) {
  Type elementType = cast<MemRefType>(memref.getType()).getElementType();
  auto pointerType = LLVM::LLVMPointerType::get(b.getContext());
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::IndexCastOp::create(b, loc, b.getI64Type(), aligned);
  Value base = LLVM::IntToPtrOp::create(b, loc, pointerType, address);
  Value offset = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractStridedMetadataOp::create(b, loc, memref).getOffset());
  return LLVM::GEPOp::create(b, loc, pointerType, elementType, base,
                             ValueRange{offset});
}

/// A BLAS operand: `memref` is the operand or, when BLAS cannot read it in
/// place, a packed copy.
struct BlasOperand {
  Value memref;
  Value pointer;
  /// 2-D: i1, true when the rows are contiguous (BLAS row-major).
  Value rowMajor;
  /// 2-D: the leading dimension; 1-D: the increment (index).
  Value stride;
};

/// `memref` if `usable`, else a row-major packed copy of it: the result of
/// an `scf.if` in the current block, so that ownership-based deallocation
/// frees the copy at the end of this block, after the BLAS call that reads
/// it through a raw pointer.
static Value packUnlessUsable(OpBuilder &b, Location loc, Value memref,
                              Value usable, ValueRange sizes) {
  auto type = cast<MemRefType>(memref.getType());
  MemRefType resultType =
      getAnyLayoutType(type.getElementType(), type.getRank());
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{resultType}, usable,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(
      b, loc, Value(memref::CastOp::create(b, loc, resultType, memref)));
  b.setInsertionPointToStart(ifOp.elseBlock());
  Value packed = allocateTemporary(b, loc, type.getElementType(), sizes);
  copyMemRef(b, loc, memref, packed);
  scf::YieldOp::create(
      b, loc, Value(memref::CastOp::create(b, loc, resultType, packed)));
  return ifOp.getResult(0);
}

/// A matrix as BLAS reads it. A BLAS matrix has one unit stride and a
/// leading dimension (the other stride) of at least max(1, extent of the
/// unit-stride dimension); any other matrix (a view with steps, negative or
/// zero strides) is packed first.
static BlasOperand prepareBlasMatrix(OpBuilder &b, Location loc, Value memref) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto isBlasLayout = [&](ValueRange sizes, ValueRange strides,
                          unsigned unitDim) -> Value {
    unsigned leadingDim = 1 - unitDim;
    Value minimum = arith::MaxSIOp::create(b, loc, sizes[unitDim], one);
    return andOf(
        b, loc,
        compare(b, loc, arith::CmpIPredicate::eq, strides[unitDim], one),
        compare(b, loc, arith::CmpIPredicate::sge, strides[leadingDim],
                minimum));
  };
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value usable = arith::OrIOp::create(
      b, loc, isBlasLayout(metadata.getSizes(), metadata.getStrides(), 1),
      isBlasLayout(metadata.getSizes(), metadata.getStrides(), 0));
  BlasOperand operand;
  operand.memref =
      packUnlessUsable(b, loc, memref, usable, metadata.getSizes());
  // The packed copy is row-major; an operand in place is row-major unless
  // only its columns are contiguous.
  auto layout =
      memref::ExtractStridedMetadataOp::create(b, loc, operand.memref);
  Value columnsContiguous =
      isBlasLayout(layout.getSizes(), layout.getStrides(), 0);
  Value rowsContiguous =
      isBlasLayout(layout.getSizes(), layout.getStrides(), 1);
  operand.rowMajor = arith::OrIOp::create(
      b, loc, rowsContiguous,
      arith::XOrIOp::create(b, loc, columnsContiguous,
                            arith::ConstantIntOp::create(b, loc, 1, 1)));
  operand.stride = arith::SelectOp::create(
      b, loc, operand.rowMajor, layout.getStrides()[0], layout.getStrides()[1]);
  operand.pointer = getDataPointer(b, loc, operand.memref);
  return operand;
}

/// A vector as BLAS reads it: a positive increment, else packed (BLAS
/// reads negative increments from the other end, and zero ones are
/// invalid).
static BlasOperand prepareBlasVector(OpBuilder &b, Location loc, Value memref) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value usable = compare(b, loc, arith::CmpIPredicate::sgt,
                         metadata.getStrides()[0], zero);
  BlasOperand operand;
  operand.memref =
      packUnlessUsable(b, loc, memref, usable, metadata.getSizes());
  operand.stride =
      memref::ExtractStridedMetadataOp::create(b, loc, operand.memref)
          .getStrides()[0];
  operand.pointer = getDataPointer(b, loc, operand.memref);
  return operand;
}

/// OpenBLAS takes 32-bit sizes (`blasint` is `int` in Debian's LP64
/// build): larger `values` are a run-time error rather than a truncation.
static SmallVector<Value> toBlasInts(OpBuilder &b, Location loc,
                                     Operation *anchor, ValueRange values,
                                     StringRef opName) {
  Value limit = arith::ConstantIndexOp::create(
      b, loc, std::numeric_limits<int32_t>::max());
  Value tooLarge;
  SmallVector<Value> result;
  for (Value value : values) {
    Value above = compare(b, loc, arith::CmpIPredicate::sgt, value, limit);
    tooLarge = tooLarge
                   ? arith::OrIOp::create(b, loc, tooLarge, above).getResult()
                   : above;
    result.push_back(arith::IndexCastOp::create(b, loc, b.getI32Type(), value));
  }
  emitRuntimeErrorIf(b, loc, anchor, tooLarge,
                     (opName + ": array too large for BLAS (sizes and "
                               "strides must fit in 32 bits)")
                         .str());
  return result;
}

/// alpha = 1 and beta = 0 of the BLAS element type.
static std::pair<Value, Value> getAlphaBeta(OpBuilder &b, Location loc,
                                            Type elementType) {
  return {getOne(b, loc, elementType), getZero(b, loc, elementType)};
}

/// Builds `if (all of sizes > 0) { then } else { fill result with zeros }`:
/// BLAS is only called on non-empty operands, and a product over an empty
/// inner dimension is zero.
static void buildUnlessEmpty(OpBuilder &b, Location loc, ValueRange sizes,
                             Value result, function_ref<void()> thenBuilder) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value nonEmpty;
  for (Value size : sizes) {
    Value positive = compare(b, loc, arith::CmpIPredicate::sgt, size, zero);
    nonEmpty = nonEmpty ? andOf(b, loc, nonEmpty, positive) : positive;
  }
  auto ifOp = scf::IfOp::create(b, loc, nonEmpty, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  thenBuilder();
  b.setInsertionPointToStart(ifOp.elseBlock());
  Type elementType = cast<MemRefType>(result.getType()).getElementType();
  fillArray(b, loc, result, getZero(b, loc, elementType));
}

/// The error message of mismatched inner dimensions.
static std::string getShapeMessage(Operation *op, StringRef shapes) {
  return (op->getName().stripDialect() + ": shapes " + shapes +
          " not aligned (" + getArraySite(op, op->getOperand(0)) + ")")
      .str();
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

struct MatmulOpLowering : public OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayType resultType = op.getResult().getType();
    Type elementType = resultType.getElementType();
    if (failed(checkProductElementType(op, elementType)))
      return failure();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    SmallVector<Value> lhsSizes = getMemRefSizes(rewriter, loc, lhs);
    SmallVector<Value> rhsSizes = getMemRefSizes(rewriter, loc, rhs);
    Value m = lhsSizes[0], k = lhsSizes[1], n = rhsSizes[1];
    emitRuntimeErrorIf(
        rewriter, loc, op,
        compare(rewriter, loc, arith::CmpIPredicate::ne, k, rhsSizes[0]),
        getShapeMessage(op, "(m,k) and (k2,n)"));
    Value result = allocateArray(rewriter, loc, op, resultType, {m, n});

    // GPU sections take the linalg form, which becomes a kernel.
    if (!isBlasElementType(elementType) || isInGpuSection(op)) {
      fillArray(rewriter, loc, result, getZero(rewriter, loc, elementType));
      linalg::MatmulOp::create(rewriter, loc, ValueRange{lhs, rhs},
                               ValueRange{result});
      rewriter.replaceOp(op, result);
      return success();
    }

    buildUnlessEmpty(rewriter, loc, {m, n, k}, result, [&] {
      BlasOperand a = prepareBlasMatrix(rewriter, loc, lhs);
      BlasOperand b = prepareBlasMatrix(rewriter, loc, rhs);
      // C is a new contiguous array: its layout picks the CBLAS order, and
      // an operand stored the other way round is passed transposed.
      bool resultRowMajor = resultType.getLayout() == Layout::RowMajor;
      auto resultMetadata =
          memref::ExtractStridedMetadataOp::create(rewriter, loc, result);
      Value ldc = resultMetadata.getStrides()[resultRowMajor ? 0 : 1];
      SmallVector<Value> ints = toBlasInts(
          rewriter, loc, op, {m, n, k, a.stride, b.stride, ldc}, "matmul");
      Value sameOrder = constantI32(
          rewriter, loc, resultRowMajor ? kCblasNoTrans : kCblasTrans);
      Value otherOrder = constantI32(
          rewriter, loc, resultRowMajor ? kCblasTrans : kCblasNoTrans);
      Value transA = arith::SelectOp::create(rewriter, loc, a.rowMajor,
                                             sameOrder, otherOrder);
      Value transB = arith::SelectOp::create(rewriter, loc, b.rowMajor,
                                             sameOrder, otherOrder);
      Value order = constantI32(
          rewriter, loc, resultRowMajor ? kCblasRowMajor : kCblasColMajor);
      auto [alpha, beta] = getAlphaBeta(rewriter, loc, elementType);
      Value c = getDataPointer(rewriter, loc, result);
      callExternal(rewriter, loc, op,
                   elementType.isF64() ? "cblas_dgemm" : "cblas_sgemm",
                   {order, transA, transB, ints[0], ints[1], ints[2], alpha,
                    a.pointer, ints[3], b.pointer, ints[4], beta, c, ints[5]});
    });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// matvec
//===----------------------------------------------------------------------===//

struct MatvecOpLowering : public OpConversionPattern<MatvecOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatvecOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayType resultType = op.getResult().getType();
    Type elementType = resultType.getElementType();
    if (failed(checkProductElementType(op, elementType)))
      return failure();
    Value matrix = adaptor.getMatrix(), vector = adaptor.getVector();
    SmallVector<Value> sizes = getMemRefSizes(rewriter, loc, matrix);
    Value m = sizes[0], n = sizes[1];
    Value length = memref::DimOp::create(rewriter, loc, vector, 0);
    emitRuntimeErrorIf(
        rewriter, loc, op,
        compare(rewriter, loc, arith::CmpIPredicate::ne, n, length),
        getShapeMessage(op, "(m,n) and (n2,)"));
    Value result = allocateArray(rewriter, loc, op, resultType, {m});

    // GPU sections take the linalg form, which becomes a kernel.
    if (!isBlasElementType(elementType) || isInGpuSection(op)) {
      fillArray(rewriter, loc, result, getZero(rewriter, loc, elementType));
      linalg::MatvecOp::create(rewriter, loc, ValueRange{matrix, vector},
                               ValueRange{result});
      rewriter.replaceOp(op, result);
      return success();
    }

    buildUnlessEmpty(rewriter, loc, {m, n}, result, [&] {
      BlasOperand a = prepareBlasMatrix(rewriter, loc, matrix);
      BlasOperand x = prepareBlasVector(rewriter, loc, vector);
      Value incy =
          memref::ExtractStridedMetadataOp::create(rewriter, loc, result)
              .getStrides()[0];
      SmallVector<Value> ints = toBlasInts(
          rewriter, loc, op, {m, n, a.stride, x.stride, incy}, "matvec");
      // y = A x in the operand's own order: no transposition needed.
      Value order = arith::SelectOp::create(
          rewriter, loc, a.rowMajor, constantI32(rewriter, loc, kCblasRowMajor),
          constantI32(rewriter, loc, kCblasColMajor));
      Value noTrans = constantI32(rewriter, loc, kCblasNoTrans);
      auto [alpha, beta] = getAlphaBeta(rewriter, loc, elementType);
      Value y = getDataPointer(rewriter, loc, result);
      callExternal(rewriter, loc, op,
                   elementType.isF64() ? "cblas_dgemv" : "cblas_sgemv",
                   {order, noTrans, ints[0], ints[1], alpha, a.pointer, ints[2],
                    x.pointer, ints[3], beta, y, ints[4]});
    });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

struct TransposeOpLowering : public OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value operand = adaptor.getOperand();
    SmallVector<Value> sizes = getMemRefSizes(rewriter, loc, operand);
    std::reverse(sizes.begin(), sizes.end());
    Value result =
        allocateArray(rewriter, loc, op, op.getResult().getType(), sizes);
    // result[i0, ..., in] = operand[in, ..., i0].
    SmallVector<int64_t> permutation(
        llvm::reverse(llvm::seq<int64_t>(0, sizes.size())));
    linalg::TransposeOp::create(rewriter, loc, operand, result, permutation);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::vrir::populateVRIRLinearAlgebraPatterns(
    const VRIRTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MatmulOpLowering, MatvecOpLowering, TransposeOpLowering>(
      converter, patterns.getContext());
}
