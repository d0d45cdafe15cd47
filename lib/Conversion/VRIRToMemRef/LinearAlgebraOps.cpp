//===- LinearAlgebraOps.cpp - products, transpose, LAPACK ops -------------===//
//
// `f32`/`f64` products call OpenBLAS through its CBLAS interface (linked by
// the host at run time); other element types use the upstream named linalg
// ops, which accept memrefs of any strided layout. Transposition is a
// `linalg.transpose` into a new array. Factorizations and solvers
// (`vrir.cholesky`, `vrir.inv`, `vrir.solve`, `vrir.det`) call LAPACK's
// Fortran routines in OpenBLAS on a contiguous copy of the matrix.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/VRIRToMemRef.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/Twine.h"

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
  kCblasUpper = 121,
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
  LLVM::CallOp::create(
      b, loc, declareVoidFunction(b, anchor, name, args.getTypes()), args);
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

/// X when `value` is X's transpose: a view (`vrir.permute [1, 0]`) or a copy
/// (`vrir.transpose`) of the 2-D array X.
static Value getTransposeSource(Value value) {
  if (auto permute = value.getDefiningOp<PermuteOp>())
    if (permute.getPermutation() == ArrayRef<int64_t>{1, 0})
      return permute.getArray();
  if (auto transpose = value.getDefiningOp<TransposeOp>())
    if (transpose.getOperand().getType().getRank() == 2)
      return transpose.getOperand();
  return {};
}

/// Loops over the positions (row, column) of an n x n matrix above its
/// diagonal (column > row), calling `body` at each.
static void forEachAboveDiagonal(
    OpBuilder &b, Location loc, Value n,
    function_ref<void(OpBuilder &, Location, Value, Value)> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(
      b, loc, zero, n, one, ValueRange{},
      [&](OpBuilder &outer, Location loc, Value row, ValueRange) {
        Value next = arith::AddIOp::create(outer, loc, row, one);
        scf::ForOp::create(
            outer, loc, next, n, one, ValueRange{},
            [&](OpBuilder &inner, Location loc, Value column, ValueRange) {
              body(inner, loc, row, column);
              scf::YieldOp::create(inner, loc);
            });
        scf::YieldOp::create(outer, loc);
      });
}

/// C = X^T X (`xFirstTransposed`) or X X^T into the new n x n array
/// `result`: one syrk (the upper triangle, half of gemm's multiplications)
/// and a copy of that triangle into the lower one.
static void buildGramProduct(OpBuilder &b, Location loc, Operation *op, Value x,
                             bool xFirstTransposed, Value result,
                             bool resultRowMajor, Type elementType) {
  SmallVector<Value> xSizes = getMemRefSizes(b, loc, x);
  Value n = xFirstTransposed ? xSizes[1] : xSizes[0];
  Value k = xFirstTransposed ? xSizes[0] : xSizes[1];
  buildUnlessEmpty(b, loc, {n, k}, result, [&] {
    BlasOperand a = prepareBlasMatrix(b, loc, x);
    Value ldc = memref::ExtractStridedMetadataOp::create(b, loc, result)
                    .getStrides()[resultRowMajor ? 0 : 1];
    SmallVector<Value> ints =
        toBlasInts(b, loc, op, {n, k, a.stride, ldc}, "matmul");
    // X stored in the result's order is the k x n (X^T X) or n x k (X X^T)
    // matrix syrk reads; stored the other way round, it is its transpose.
    int32_t sameOrder = xFirstTransposed ? kCblasTrans : kCblasNoTrans;
    int32_t otherOrder = xFirstTransposed ? kCblasNoTrans : kCblasTrans;
    Value xInResultOrder =
        resultRowMajor
            ? a.rowMajor
            : arith::XOrIOp::create(b, loc, a.rowMajor,
                                    arith::ConstantIntOp::create(b, loc, 1, 1));
    Value trans = arith::SelectOp::create(b, loc, xInResultOrder,
                                          constantI32(b, loc, sameOrder),
                                          constantI32(b, loc, otherOrder));
    Value order =
        constantI32(b, loc, resultRowMajor ? kCblasRowMajor : kCblasColMajor);
    auto [alpha, beta] = getAlphaBeta(b, loc, elementType);
    callExternal(b, loc, op,
                 elementType.isF64() ? "cblas_dsyrk" : "cblas_ssyrk",
                 {order, constantI32(b, loc, kCblasUpper), trans, ints[0],
                  ints[1], alpha, a.pointer, ints[2], beta,
                  getDataPointer(b, loc, result), ints[3]});
    // Upper in the order passed is result[i, j] with j >= i in either
    // layout: mirror it.
    forEachAboveDiagonal(
        b, loc, n, [&](OpBuilder &b, Location loc, Value i, Value j) {
          Value upper = memref::LoadOp::create(b, loc, result, {i, j});
          memref::StoreOp::create(b, loc, upper, result, {j, i});
        });
  });
}

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

    // C is a new contiguous array: its layout picks the CBLAS order, and
    // an operand stored the other way round is passed transposed.
    bool resultRowMajor = resultType.getLayout() == Layout::RowMajor;
    Value lhsSource = getTransposeSource(op.getLhs());
    Value rhsSource = getTransposeSource(op.getRhs());
    // X^T X and X X^T (an operand the transpose of the other).
    bool xFirstTransposed = lhsSource && lhsSource == op.getRhs();
    if (xFirstTransposed || (rhsSource && rhsSource == op.getLhs())) {
      buildGramProduct(rewriter, loc, op, xFirstTransposed ? rhs : lhs,
                       xFirstTransposed, result, resultRowMajor, elementType);
      rewriter.replaceOp(op, result);
      return success();
    }

    buildUnlessEmpty(rewriter, loc, {m, n, k}, result, [&] {
      BlasOperand a = prepareBlasMatrix(rewriter, loc, lhs);
      BlasOperand b = prepareBlasMatrix(rewriter, loc, rhs);
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

//===----------------------------------------------------------------------===//
// LAPACK: cholesky, inv, solve, det
//===----------------------------------------------------------------------===//

/// LAPACK (Fortran) takes every argument by reference. The integers of one
/// call live in a stack array of this many i32 slots, inside the call's
/// `memref.alloca_scope`.
constexpr int64_t kFortranIntegerSlots = 8;

/// The `s`/`d` LAPACK routine `name` (without prefix) for `elementType`.
static std::string getLapackName(Type elementType, StringRef name) {
  return ((elementType.isF64() ? "d" : "s") + name + "_").str();
}

/// LAPACK ops run on the host: none may stay in a GPU section's kernels.
static LogicalResult checkOnHost(Operation *op) {
  if (isInGpuSection(op))
    return op->emitOpError("calls LAPACK on the host and cannot run in a "
                           "vrir.gpu_section; compute it before or after "
                           "the section");
  return success();
}

/// Raises "OP: matrix is not square (SITE)" unless `sizes` are equal.
static void checkSquare(OpBuilder &b, Location loc, Operation *op,
                        ArrayRef<Value> sizes) {
  emitRuntimeErrorIf(
      b, loc, op, compare(b, loc, arith::CmpIPredicate::ne, sizes[0], sizes[1]),
      (op->getName().stripDialect() + ": matrix is not square (" +
       getArraySite(op, op->getOperand(0)) + ")")
          .str());
}

/// The message of a failed factorization: "OP: WHAT (SITE)".
static std::string getLapackMessage(Operation *op, StringRef what) {
  return (op->getName().stripDialect() + ": " + what + " (" +
          getArraySite(op, op->getOperand(0)) + ")")
      .str();
}

/// Builds `if (size > 0) { body }`: LAPACK is not called on empty matrices
/// (its leading dimensions must be at least 1).
static void buildIfNotEmpty(OpBuilder &b, Location loc, Value size,
                            function_ref<void()> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  auto ifOp = scf::IfOp::create(
      b, loc, compare(b, loc, arith::CmpIPredicate::sgt, size, zero),
      /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

/// One LAPACK call: `integers` go by reference through stack slots (in
/// order, before the call), `build` makes the argument list from their
/// pointers and the `info` slot's, and the result is LAPACK's `info`.
static Value
callLapack(OpBuilder &b, Location loc, Operation *anchor, StringRef name,
           ValueRange integers,
           function_ref<SmallVector<Value>(ArrayRef<Value>, Value)> build) {
  assert(integers.size() < kFortranIntegerSlots && "too many LAPACK integers");
  auto scope = memref::AllocaScopeOp::create(b, loc, TypeRange{b.getI32Type()});
  OpBuilder::InsertionGuard guard(b);
  Block *body = b.createBlock(&scope.getBodyRegion());
  b.setInsertionPointToStart(body);
  Value slots = memref::AllocaOp::create(
      b, loc, MemRefType::get({kFortranIntegerSlots}, b.getI32Type()));
  auto slotPointer = [&](int64_t slot, Value value) {
    Value index = arith::ConstantIndexOp::create(b, loc, slot);
    memref::StoreOp::create(b, loc, value, slots, index);
    return getElementPointer(b, loc, slots, {index});
  };
  SmallVector<Value> pointers;
  for (auto [slot, value] : llvm::enumerate(integers))
    pointers.push_back(slotPointer(slot, value));
  int64_t infoSlot = kFortranIntegerSlots - 1;
  Value infoPointer = slotPointer(infoSlot, constantI32(b, loc, 0));
  callExternal(b, loc, anchor, name, build(pointers, infoPointer));
  Value info = memref::LoadOp::create(
      b, loc, slots,
      ValueRange{arith::ConstantIndexOp::create(b, loc, infoSlot)});
  memref::AllocaScopeReturnOp::create(b, loc, ValueRange{info});
  return scope.getResult(0);
}

/// `what` as a run-time error of `op` when LAPACK's `info` is positive (a
/// numerical failure; a negative one is an argument LAPACK rejected, which
/// the lowering never passes).
static void raiseIfInfoPositive(OpBuilder &b, Location loc, Operation *op,
                                Value info, StringRef what) {
  emitRuntimeErrorIf(
      b, loc, op,
      compare(b, loc, arith::CmpIPredicate::sgt, info, constantI32(b, loc, 0)),
      getLapackMessage(op, what));
}

/// A new column-major copy of the matrix `memref`: LAPACK's order.
static Value copyColumnMajor(OpBuilder &b, Location loc, Operation *anchor,
                             Value memref, ArrayRef<Value> sizes) {
  Type elementType = cast<MemRefType>(memref.getType()).getElementType();
  auto type = ArrayType::get(b.getContext(), elementType, sizes.size(),
                             Layout::ColMajor);
  Value copy = allocateArray(b, loc, anchor, type, sizes);
  copyMemRef(b, loc, memref, copy);
  return copy;
}

/// The LU factorization (`getrf`) of the contiguous square matrix `matrix`
/// of order `n` in place, with its pivots in `pivots` (i32); returns info.
static Value factorLU(OpBuilder &b, Location loc, Operation *op, Value matrix,
                      Value n, Value pivots) {
  Type elementType = cast<MemRefType>(matrix.getType()).getElementType();
  SmallVector<Value> ints =
      toBlasInts(b, loc, op, {n}, op->getName().stripDialect());
  Value a = getDataPointer(b, loc, matrix),
        ipiv = getDataPointer(b, loc, pivots);
  return callLapack(b, loc, op, getLapackName(elementType, "getrf"), {ints[0]},
                    [&](ArrayRef<Value> p, Value info) {
                      // m, n, a, lda (= n), ipiv, info
                      return SmallVector<Value>{p[0], p[0], a,
                                                p[0], ipiv, info};
                    });
}

/// The square matrix `operand` of `op` copied into a new array of
/// `resultType`, in which LAPACK factors it in place; also its order.
static std::pair<Value, Value> copySquareMatrix(OpBuilder &b, Location loc,
                                                Operation *op, Value operand,
                                                ArrayType resultType) {
  SmallVector<Value> sizes = getMemRefSizes(b, loc, operand);
  checkSquare(b, loc, op, sizes);
  Value n = sizes[0];
  Value result = allocateArray(b, loc, op, resultType, {n, n});
  copyMemRef(b, loc, operand, result);
  return {result, n};
}

/// The hidden length (1) of a one-letter Fortran character argument.
static Value getFortranLetterLength(OpBuilder &b, Location loc) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), 1);
}

/// A column-major copy (LAPACK's order) of the square matrix `operand` of
/// `op`, checked square, and its order.
static std::pair<Value, Value> copySquareColumnMajor(OpBuilder &b, Location loc,
                                                     Operation *op,
                                                     Value operand) {
  SmallVector<Value> sizes = getMemRefSizes(b, loc, operand);
  checkSquare(b, loc, op, sizes);
  return {copyColumnMajor(b, loc, op, operand, sizes), sizes[0]};
}

struct CholeskyOpLowering : public OpConversionPattern<CholeskyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CholeskyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOnHost(op)))
      return failure();
    Location loc = op.getLoc();
    ArrayType resultType = op.getResult().getType();
    Type elementType = resultType.getElementType();
    Value result, n;
    std::tie(result, n) =
        copySquareMatrix(rewriter, loc, op, adaptor.getOperand(), resultType);
    // A row-major buffer read in LAPACK's column-major order holds the
    // transpose: its upper triangle is the operand's lower one, and
    // potrf('U') leaves there U = transpose(L), which read row-major is L.
    bool rowMajor = resultType.getLayout() == Layout::RowMajor;
    buildIfNotEmpty(rewriter, loc, n, [&] {
      SmallVector<Value> ints = toBlasInts(rewriter, loc, op, {n}, "cholesky");
      Value uplo = getConstantString(rewriter, loc, op, rowMajor ? "U" : "L");
      Value a = getDataPointer(rewriter, loc, result);
      Value info =
          callLapack(rewriter, loc, op, getLapackName(elementType, "potrf"),
                     {ints[0]}, [&](ArrayRef<Value> p, Value infoPointer) {
                       // uplo, n, a, lda (= n), info, and the hidden length of
                       // uplo.
                       Value uploLength = getFortranLetterLength(rewriter, loc);
                       return SmallVector<Value>{uplo, p[0],        a,
                                                 p[0], infoPointer, uploLength};
                     });
      raiseIfInfoPositive(rewriter, loc, op, info,
                          "matrix is not positive definite");
    });
    // potrf leaves the other triangle as it was: zeros above the diagonal.
    Value zero = getZero(rewriter, loc, elementType);
    forEachAboveDiagonal(
        rewriter, loc, n,
        [&](OpBuilder &b, Location loc, Value row, Value column) {
          memref::StoreOp::create(b, loc, zero, result,
                                  ValueRange{row, column});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct InvOpLowering : public OpConversionPattern<InvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(InvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOnHost(op)))
      return failure();
    Location loc = op.getLoc();
    ArrayType resultType = op.getResult().getType();
    Type elementType = resultType.getElementType();
    // Inverted in place, whatever the layout: a row-major buffer read
    // column-major is the transpose, and inv(transpose(A)) =
    // transpose(inv(A)).
    Value result, n;
    std::tie(result, n) =
        copySquareMatrix(rewriter, loc, op, adaptor.getOperand(), resultType);
    buildIfNotEmpty(rewriter, loc, n, [&] {
      Value pivots =
          allocateTemporary(rewriter, loc, rewriter.getI32Type(), {n});
      Value info = factorLU(rewriter, loc, op, result, n, pivots);
      raiseIfInfoPositive(rewriter, loc, op, info, "singular matrix");
      // getri's workspace: n * 64 elements, room for its blocked algorithm.
      Value workSize = arith::MulIOp::create(
          rewriter, loc, n, arith::ConstantIndexOp::create(rewriter, loc, 64));
      Value work = allocateTemporary(rewriter, loc, elementType, {workSize});
      SmallVector<Value> ints =
          toBlasInts(rewriter, loc, op, {n, workSize}, "inv");
      Value a = getDataPointer(rewriter, loc, result);
      Value ipiv = getDataPointer(rewriter, loc, pivots);
      Value workPointer = getDataPointer(rewriter, loc, work);
      info =
          callLapack(rewriter, loc, op, getLapackName(elementType, "getri"),
                     ints, [&](ArrayRef<Value> p, Value infoPointer) {
                       // n, a, lda (= n), ipiv, work, lwork, info
                       return SmallVector<Value>{
                           p[0], a, p[0], ipiv, workPointer, p[1], infoPointer};
                     });
      raiseIfInfoPositive(rewriter, loc, op, info, "singular matrix");
    });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SolveOpLowering : public OpConversionPattern<SolveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SolveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOnHost(op)))
      return failure();
    Location loc = op.getLoc();
    ArrayType resultType = op.getResult().getType();
    Type elementType = resultType.getElementType();
    SmallVector<Value> sizes =
        getMemRefSizes(rewriter, loc, adaptor.getMatrix());
    checkSquare(rewriter, loc, op, sizes);
    Value n = sizes[0];
    SmallVector<Value> rhsSizes =
        getMemRefSizes(rewriter, loc, adaptor.getRhs());
    emitRuntimeErrorIf(
        rewriter, loc, op,
        compare(rewriter, loc, arith::CmpIPredicate::ne, rhsSizes[0], n),
        getLapackMessage(op, resultType.getRank() == 1
                                 ? "shapes (n,n) and (m,) not aligned"
                                 : "shapes (n,n) and (m,k) not aligned"));
    Value result = allocateArray(rewriter, loc, op, resultType, rhsSizes);
    // gesv overwrites the right-hand side, column-major, with x: the
    // result itself unless it is a row-major matrix.
    bool inPlace =
        resultType.getRank() == 1 || resultType.getLayout() == Layout::ColMajor;
    Value solution = inPlace ? result
                             : copyColumnMajor(rewriter, loc, op,
                                               adaptor.getRhs(), rhsSizes);
    if (inPlace)
      copyMemRef(rewriter, loc, adaptor.getRhs(), result);
    buildIfNotEmpty(rewriter, loc, n, [&] {
      Value matrix =
          copyColumnMajor(rewriter, loc, op, adaptor.getMatrix(), {n, n});
      Value columns = resultType.getRank() == 1
                          ? arith::ConstantIndexOp::create(rewriter, loc, 1)
                          : rhsSizes[1];
      SmallVector<Value> ints =
          toBlasInts(rewriter, loc, op, {n, columns}, "solve");
      Value a = getDataPointer(rewriter, loc, matrix);
      Value bPointer = getDataPointer(rewriter, loc, solution);
      if (std::optional<Triangle> triangle = op.getTriangular()) {
        // Substitution: only the triangle is read, a zero on the diagonal
        // is a singular matrix.
        OpBuilder &b = rewriter;
        Value uplo = getConstantString(
            b, loc, op, *triangle == Triangle::Lower ? "L" : "U");
        Value letterN = getConstantString(b, loc, op, "N");
        Value info = callLapack(
            b, loc, op, getLapackName(elementType, "trtrs"), ints,
            [&](ArrayRef<Value> p, Value infoPointer) {
              // uplo, trans, diag, n, nrhs, a, lda (= n), b, ldb (= n),
              // info, and the lengths of uplo, trans and diag.
              Value length = getFortranLetterLength(b, loc);
              return SmallVector<Value>{
                  uplo,     letterN, letterN,     p[0],   p[1],   a,     p[0],
                  bPointer, p[0],    infoPointer, length, length, length};
            });
        raiseIfInfoPositive(b, loc, op, info, "singular matrix");
        return;
      }
      Value pivots =
          allocateTemporary(rewriter, loc, rewriter.getI32Type(), {n});
      Value ipiv = getDataPointer(rewriter, loc, pivots);
      Value info = callLapack(
          rewriter, loc, op, getLapackName(elementType, "gesv"), ints,
          [&](ArrayRef<Value> p, Value infoPointer) {
            // n, nrhs, a, lda (= n), ipiv, b, ldb (= n), info
            return SmallVector<Value>{p[0], p[1],     a,    p[0],
                                      ipiv, bPointer, p[0], infoPointer};
          });
      raiseIfInfoPositive(rewriter, loc, op, info, "singular matrix");
    });
    if (!inPlace)
      copyMemRef(rewriter, loc, solution, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Folds the LU factorization (`getrf`) of a column-major copy of the
/// square `operand` into `initial`: `step(b, loc, pivot, exchanged,
/// accumulators)` for each pivot (U's diagonal) in order, `exchanged` when
/// the factorization swapped that row (getrf's pivots are 1-based row
/// numbers; pivot i == i + 1 swaps nothing). A positive info (an exact zero
/// pivot) is no error: the determinant is then 0. det(transpose(A)) =
/// det(A), so any contiguous copy will do.
static ValueRange
foldDeterminant(ConversionPatternRewriter &rewriter, Location loc,
                Operation *op, Value operand, ValueRange initial,
                function_ref<SmallVector<Value>(OpBuilder &, Location, Value,
                                                Value, ValueRange)>
                    step) {
  Value matrix, n;
  std::tie(matrix, n) = copySquareColumnMajor(rewriter, loc, op, operand);
  Value pivots = allocateTemporary(rewriter, loc, rewriter.getI32Type(), {n});
  buildIfNotEmpty(rewriter, loc, n,
                  [&] { factorLU(rewriter, loc, op, matrix, n, pivots); });
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto loop = scf::ForOp::create(
      rewriter, loc, zero, n, one, initial,
      [&](OpBuilder &b, Location loc, Value i, ValueRange accumulators) {
        Value pivot = memref::LoadOp::create(b, loc, matrix, ValueRange{i, i});
        Value row = memref::LoadOp::create(b, loc, pivots, ValueRange{i});
        Value unexchanged = arith::IndexCastOp::create(
            b, loc, b.getI32Type(), arith::AddIOp::create(b, loc, i, one));
        Value exchanged =
            compare(b, loc, arith::CmpIPredicate::ne, row, unexchanged);
        scf::YieldOp::create(b, loc,
                             step(b, loc, pivot, exchanged, accumulators));
      });
  return loop.getResults();
}

struct DetOpLowering : public OpConversionPattern<DetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOnHost(op)))
      return failure();
    Location loc = op.getLoc();
    Type elementType = op.getResult().getType();
    // The product of the pivots, negated for each row exchange.
    ValueRange determinant = foldDeterminant(
        rewriter, loc, op, adaptor.getOperand(),
        {getOne(rewriter, loc, elementType)},
        [](OpBuilder &b, Location loc, Value pivot, Value exchanged,
           ValueRange product) -> SmallVector<Value> {
          Value scaled = arith::MulFOp::create(b, loc, product[0], pivot);
          Value negated = arith::NegFOp::create(b, loc, scaled);
          return {arith::SelectOp::create(b, loc, exchanged, negated, scaled)};
        });
    rewriter.replaceOp(op, determinant);
    return success();
  }
};

struct SlogdetOpLowering : public OpConversionPattern<SlogdetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SlogdetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOnHost(op)))
      return failure();
    Location loc = op.getLoc();
    Type elementType = op.getSign().getType();
    Value one = getOne(rewriter, loc, elementType);
    Value zero = getZero(rewriter, loc, elementType);
    // The product of the pivots' signs (0 for a zero pivot, NaN for a NaN
    // one), negated for each row exchange, and the sum of the logarithms of
    // their magnitudes.
    ValueRange folded = foldDeterminant(
        rewriter, loc, op, adaptor.getOperand(), {one, zero},
        [&](OpBuilder &b, Location loc, Value pivot, Value exchanged,
            ValueRange accumulators) -> SmallVector<Value> {
          auto compareToZero = [&](arith::CmpFPredicate predicate) {
            return arith::CmpFOp::create(b, loc, predicate, pivot, zero);
          };
          Value minusOne = arith::NegFOp::create(b, loc, one);
          Value pivotSign = arith::SelectOp::create(
              b, loc, compareToZero(arith::CmpFPredicate::OGT), one,
              arith::SelectOp::create(b, loc,
                                      compareToZero(arith::CmpFPredicate::OLT),
                                      minusOne, pivot));
          Value sign =
              arith::MulFOp::create(b, loc, accumulators[0], pivotSign);
          sign = arith::SelectOp::create(
              b, loc, exchanged, arith::NegFOp::create(b, loc, sign), sign);
          Value magnitude = math::AbsFOp::create(b, loc, pivot);
          Value logarithm = arith::AddFOp::create(
              b, loc, accumulators[1], math::LogOp::create(b, loc, magnitude));
          return {sign, logarithm};
        });
    // + 0 turns the -0 a singular matrix with exchanges leaves into 0.
    Value sign = arith::AddFOp::create(rewriter, loc, folded[0], zero);
    rewriter.replaceOp(op, {sign, folded[1]});
    return success();
  }
};

/// The first element of the 1-element workspace `query` (LAPACK's optimal
/// size after a call with size -1), as an index of at least `minimum`.
static Value readWorkspaceSize(OpBuilder &b, Location loc, Value query,
                               Value minimum) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value first = memref::LoadOp::create(b, loc, query, ValueRange{zero});
  Value size =
      isa<FloatType>(first.getType())
          ? arith::FPToSIOp::create(b, loc, b.getI64Type(), first).getResult()
          : arith::ExtSIOp::create(b, loc, b.getI64Type(), first).getResult();
  size = arith::IndexCastOp::create(b, loc, b.getIndexType(), size);
  return arith::MaxSIOp::create(b, loc, size, minimum);
}

/// `array` (column-major, as LAPACK left it) as a result of `type`: itself
/// when `type` is column-major, else a copy.
static Value toResultLayout(OpBuilder &b, Location loc, Operation *op,
                            Value array, ArrayType type) {
  if (type.getLayout() == Layout::ColMajor)
    return array;
  Value result = allocateArray(b, loc, op, type, getMemRefSizes(b, loc, array));
  copyMemRef(b, loc, array, result);
  return result;
}

struct EighOpLowering : public OpConversionPattern<EighOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EighOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOnHost(op)))
      return failure();
    Location loc = op.getLoc();
    ArrayType valuesType = op.getValues().getType();
    Type elementType = valuesType.getElementType();
    bool vectors = static_cast<bool>(op.getVectors());
    // syevd overwrites a column-major copy with the eigenvectors, reading
    // its lower triangle (NumPy's UPLO='L').
    Value matrix, n;
    std::tie(matrix, n) =
        copySquareColumnMajor(rewriter, loc, op, adaptor.getOperand());
    Value values = allocateArray(rewriter, loc, op, valuesType, {n});
    buildIfNotEmpty(rewriter, loc, n, [&] {
      OpBuilder &b = rewriter;
      std::string name = getLapackName(elementType, "syevd");
      Value jobz = getConstantString(b, loc, op, vectors ? "V" : "N");
      Value uplo = getConstantString(b, loc, op, "L");
      Value a = getDataPointer(b, loc, matrix);
      Value w = getDataPointer(b, loc, values);
      auto call = [&](Value work, Value iwork, ValueRange counts) {
        SmallVector<Value> ints =
            toBlasInts(b, loc, op, {n, counts[0], counts[1]}, "eigh");
        return callLapack(
            b, loc, op, name, ints, [&](ArrayRef<Value> p, Value info) {
              // jobz, uplo, n, a, lda (= n), w, work, lwork, iwork,
              // liwork, info, and the lengths of jobz and uplo.
              return SmallVector<Value>{jobz,
                                        uplo,
                                        p[0],
                                        a,
                                        p[0],
                                        w,
                                        work,
                                        p[1],
                                        iwork,
                                        p[2],
                                        info,
                                        getFortranLetterLength(b, loc),
                                        getFortranLetterLength(b, loc)};
            });
      };
      // A workspace query (sizes -1), then the call.
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value minusOne = arith::ConstantIndexOp::create(b, loc, -1);
      Value workQuery = allocateTemporary(b, loc, elementType, {one});
      Value iworkQuery = allocateTemporary(b, loc, b.getI32Type(), {one});
      call(getDataPointer(b, loc, workQuery),
           getDataPointer(b, loc, iworkQuery), {minusOne, minusOne});
      Value workSize = readWorkspaceSize(b, loc, workQuery, one);
      Value iworkSize = readWorkspaceSize(b, loc, iworkQuery, one);
      Value work = allocateTemporary(b, loc, elementType, {workSize});
      Value iwork = allocateTemporary(b, loc, b.getI32Type(), {iworkSize});
      Value info = call(getDataPointer(b, loc, work),
                        getDataPointer(b, loc, iwork), {workSize, iworkSize});
      raiseIfInfoPositive(b, loc, op, info, "eigenvalues did not converge");
    });
    SmallVector<Value> results = {values};
    if (vectors)
      results.push_back(
          toResultLayout(rewriter, loc, op, matrix,
                         cast<ArrayType>(op.getVectors().getType())));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct SvdOpLowering : public OpConversionPattern<SvdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SvdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOnHost(op)))
      return failure();
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    auto valuesType = cast<ArrayType>(op.getSingularValues().getType());
    Type elementType = valuesType.getElementType();
    bool vectors = op.getResults().size() == 3;
    bool full = op.getFullMatrices();
    SmallVector<Value> sizes = getMemRefSizes(b, loc, adaptor.getOperand());
    Value m = sizes[0], n = sizes[1];
    Value k = arith::MinSIOp::create(b, loc, m, n);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    // gesdd destroys its (column-major) copy of the operand.
    Value matrix = copyColumnMajor(b, loc, op, adaptor.getOperand(), sizes);
    Value values = allocateArray(b, loc, op, valuesType, {k});
    Value uColumns = full ? m : k, vtRows = full ? n : k;
    Value u, vt;
    if (vectors) {
      auto colMajor =
          ArrayType::get(b.getContext(), elementType, 2, Layout::ColMajor);
      u = allocateArray(b, loc, op, colMajor, {m, uColumns});
      vt = allocateArray(b, loc, op, colMajor, {vtRows, n});
    }
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    auto empty = compare(b, loc, arith::CmpIPredicate::eq, k, zero);
    auto ifOp = scf::IfOp::create(b, loc, empty, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      if (vectors) {
        // No singular values (an empty operand): NumPy's factors are
        // identities.
        Value element = getOne(b, loc, elementType);
        for (auto [array, order] :
             {std::pair(u, uColumns), std::pair(vt, vtRows)}) {
          fillArray(b, loc, array, getZero(b, loc, elementType));
          scf::ForOp::create(b, loc, zero, order, one, ValueRange{},
                             [&, array = array](OpBuilder &b, Location loc,
                                                Value i, ValueRange) {
                               memref::StoreOp::create(b, loc, element, array,
                                                       ValueRange{i, i});
                               scf::YieldOp::create(b, loc);
                             });
        }
      }
      b.setInsertionPointToStart(ifOp.elseBlock());
      std::string name = getLapackName(elementType, "gesdd");
      Value jobz = getConstantString(b, loc, op,
                                     !vectors ? "N"
                                     : full   ? "A"
                                              : "S");
      Value a = getDataPointer(b, loc, matrix);
      Value s = getDataPointer(b, loc, values);
      Value uPointer = vectors ? getDataPointer(b, loc, u) : a;
      Value vtPointer = vectors ? getDataPointer(b, loc, vt) : a;
      // Leading dimensions of U and Vh (at least 1 when not referenced).
      Value ldu = vectors ? m : one, ldvt = vectors ? vtRows : one;
      Value iworkSize = arith::MulIOp::create(
          b, loc, k, arith::ConstantIndexOp::create(b, loc, 8));
      Value iwork = allocateTemporary(b, loc, b.getI32Type(), {iworkSize});
      Value iworkPointer = getDataPointer(b, loc, iwork);
      auto call = [&](Value work, Value workSize) {
        SmallVector<Value> ints =
            toBlasInts(b, loc, op, {m, n, ldu, ldvt, workSize}, "svd");
        return callLapack(
            b, loc, op, name, ints, [&](ArrayRef<Value> p, Value info) {
              // jobz, m, n, a, lda (= m), s, u, ldu, vt, ldvt, work,
              // lwork, iwork, info, and the length of jobz.
              return SmallVector<Value>{jobz,
                                        p[0],
                                        p[1],
                                        a,
                                        p[0],
                                        s,
                                        uPointer,
                                        p[2],
                                        vtPointer,
                                        p[3],
                                        work,
                                        p[4],
                                        iworkPointer,
                                        info,
                                        getFortranLetterLength(b, loc)};
            });
      };
      Value workQuery = allocateTemporary(b, loc, elementType, {one});
      call(getDataPointer(b, loc, workQuery),
           arith::ConstantIndexOp::create(b, loc, -1));
      Value workSize = readWorkspaceSize(b, loc, workQuery, one);
      Value work = allocateTemporary(b, loc, elementType, {workSize});
      Value info = call(getDataPointer(b, loc, work), workSize);
      // Older LAPACKs (Debian's OpenBLAS 0.3.21) return NaNs for a matrix
      // with NaNs where newer ones reject it (info -4); NumPy raises.
      Value failed = compare(b, loc, arith::CmpIPredicate::ne, info,
                             constantI32(b, loc, 0));
      auto anyNaN = scf::ForOp::create(
          b, loc, zero, k, one, ValueRange{failed},
          [&](OpBuilder &b, Location loc, Value i, ValueRange seen) {
            Value value = memref::LoadOp::create(b, loc, values, ValueRange{i});
            Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                              value, value);
            scf::YieldOp::create(
                b, loc, ValueRange{arith::OrIOp::create(b, loc, seen[0], nan)});
          });
      emitRuntimeErrorIf(b, loc, op, anyNaN.getResult(0),
                         getLapackMessage(op, "SVD did not converge"));
    }
    if (!vectors) {
      rewriter.replaceOp(op, values);
      return success();
    }
    rewriter.replaceOp(
        op, {toResultLayout(b, loc, op, u,
                            cast<ArrayType>(op.getResult(0).getType())),
             values,
             toResultLayout(b, loc, op, vt,
                            cast<ArrayType>(op.getResult(2).getType()))});
    return success();
  }
};

/// The leading `rows` x `columns` part of the matrix `memref`.
static Value getLeadingPart(OpBuilder &b, Location loc, Value memref,
                            Value rows, Value columns) {
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  return memref::SubViewOp::create(b, loc, memref, {zero, zero},
                                   {rows, columns}, {one, one});
}

struct QrOpLowering : public OpConversionPattern<QrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOnHost(op)))
      return failure();
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    bool withQ = op.getResults().size() == 2;
    bool complete = op.getComplete();
    auto rType = cast<ArrayType>(op.getResults().back().getType());
    Type elementType = rType.getElementType();
    SmallVector<Value> sizes = getMemRefSizes(b, loc, adaptor.getOperand());
    Value m = sizes[0], n = sizes[1];
    Value k = arith::MinSIOp::create(b, loc, m, n);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value qColumns = complete ? m : k, rRows = complete ? m : k;
    // geqrf leaves R above the diagonal of a column-major copy and the
    // reflectors below it; orgqr then turns the copy's first qColumns
    // columns into Q (a complete Q of a wide-enough copy: m columns).
    Value width = withQ ? arith::MaxSIOp::create(b, loc, n, qColumns) : n;
    auto colMajor =
        ArrayType::get(b.getContext(), elementType, 2, Layout::ColMajor);
    Value factors = allocateArray(b, loc, op, colMajor, {m, width});
    if (withQ && complete)
      fillArray(b, loc, factors, getZero(b, loc, elementType));
    copyMemRef(b, loc, adaptor.getOperand(),
               getLeadingPart(b, loc, factors, m, n));
    Value tau = allocateTemporary(b, loc, elementType,
                                  {arith::MaxSIOp::create(b, loc, k, one)});
    Value a = getDataPointer(b, loc, factors);
    Value tauPointer = getDataPointer(b, loc, tau);
    // One LAPACK routine with a workspace query first (size -1).
    auto callWithWorkspace = [&](StringRef routine, ValueRange sizesFirst) {
      std::string name = getLapackName(elementType, routine);
      auto call = [&](Value work, Value workSize) {
        SmallVector<Value> values(sizesFirst);
        values.push_back(workSize);
        SmallVector<Value> ints = toBlasInts(b, loc, op, values, "qr");
        return callLapack(
            b, loc, op, name, ints, [&](ArrayRef<Value> p, Value info) {
              // geqrf: m, n, a, lda (= m), tau, work, lwork, info;
              // orgqr: m, n, k, a, lda (= m), tau, work, lwork, info.
              SmallVector<Value> args(p.begin(), p.end() - 1);
              args.append({a, p[0], tauPointer, work, p.back(), info});
              return args;
            });
      };
      Value workQuery = allocateTemporary(b, loc, elementType, {one});
      call(getDataPointer(b, loc, workQuery),
           arith::ConstantIndexOp::create(b, loc, -1));
      Value workSize = readWorkspaceSize(b, loc, workQuery, one);
      Value work = allocateTemporary(b, loc, elementType, {workSize});
      call(getDataPointer(b, loc, work), workSize);
    };
    buildIfNotEmpty(b, loc, k, [&] { callWithWorkspace("geqrf", {m, n}); });
    // R: the copy's upper triangle, zeros below (rows past n too).
    Value r = allocateArray(b, loc, op, rType, {rRows, n});
    scf::ForOp::create(
        b, loc, zero, rRows, one, ValueRange{},
        [&](OpBuilder &b, Location loc, Value i, ValueRange) {
          scf::ForOp::create(
              b, loc, zero, n, one, ValueRange{},
              [&](OpBuilder &b, Location loc, Value j, ValueRange) {
                Value above = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::sle, i, j);
                auto ifOp = scf::IfOp::create(b, loc, TypeRange{elementType},
                                              above, /*withElseRegion=*/true);
                {
                  OpBuilder::InsertionGuard guard(b);
                  b.setInsertionPointToStart(ifOp.thenBlock());
                  scf::YieldOp::create(b, loc,
                                       ValueRange{memref::LoadOp::create(
                                           b, loc, factors, ValueRange{i, j})});
                  b.setInsertionPointToStart(ifOp.elseBlock());
                  scf::YieldOp::create(
                      b, loc, ValueRange{getZero(b, loc, elementType)});
                }
                memref::StoreOp::create(b, loc, ifOp.getResult(0), r,
                                        ValueRange{i, j});
                scf::YieldOp::create(b, loc);
              });
          scf::YieldOp::create(b, loc);
        });
    if (!withQ) {
      rewriter.replaceOp(op, r);
      return success();
    }
    // With no reflectors (k = 0) orgqr still writes Q: an identity.
    buildIfNotEmpty(b, loc, qColumns, [&] {
      callWithWorkspace("orgqr", {m, qColumns, k});
    });
    auto qType = cast<ArrayType>(op.getResult(0).getType());
    Value q = allocateArray(b, loc, op, qType, {m, qColumns});
    copyMemRef(b, loc, getLeadingPart(b, loc, factors, m, qColumns), q);
    rewriter.replaceOp(op, {q, r});
    return success();
  }
};

} // namespace

void mlir::vrir::populateVRIRLinearAlgebraPatterns(
    const VRIRTypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<MatmulOpLowering, MatvecOpLowering, TransposeOpLowering,
           CholeskyOpLowering, InvOpLowering, SolveOpLowering, DetOpLowering,
           SlogdetOpLowering, EighOpLowering, SvdOpLowering, QrOpLowering>(
          converter, patterns.getContext());
}
