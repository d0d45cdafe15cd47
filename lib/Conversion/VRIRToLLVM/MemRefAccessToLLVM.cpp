//===- MemRefAccessToLLVM.cpp - Row-then-element addresses ---------------===//
//
// Multi-dimensional loads and stores index the buffer by the outer
// dimensions first and then by the contiguous index, as C's A[i][j][k]
// does, so that LLVM's GVN can carry a stencil's loads from one iteration
// to the next.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_CONVERTMEMREFACCESSTOLLVM
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;

namespace {

/// Upstream's flags for memref accesses (memref.load/store indices are in
/// bounds); `vrir-allow-negative-strides` drops `nuw` later.
constexpr LLVM::GEPNoWrapFlags kAccessFlags =
    LLVM::GEPNoWrapFlags::inbounds | LLVM::GEPNoWrapFlags::nuw;

/// Whether an access of `type` is split into row and element steps.
bool isSplitAccess(MemRefType type) {
  if (type.getRank() < 2)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset));
}

/// The dimension whose index indexes the row: the innermost one with static
/// stride 1, else the last.
unsigned getContiguousDim(ArrayRef<int64_t> strides) {
  for (unsigned d = strides.size(); d-- > 0;)
    if (strides[d] == 1)
      return d;
  return strides.size() - 1;
}

/// The address of `indices` in `descriptor`: the row (every index but the
/// contiguous one times its stride), then the contiguous index within it.
Value getRowThenElementPtr(ConversionPatternRewriter &rewriter, Location loc,
                           const LLVMTypeConverter &converter, MemRefType type,
                           Value descriptor, ValueRange indices) {
  SmallVector<int64_t> strides = type.getStridesAndOffset().first;
  MemRefDescriptor memref(descriptor);
  Type indexType = converter.getIndexType();
  auto scaled = [&](unsigned d) -> Value {
    if (strides[d] == 1)
      return indices[d];
    Value stride = ShapedType::isDynamic(strides[d])
                       ? memref.stride(rewriter, loc, d)
                       : LLVM::ConstantOp::create(
                             rewriter, loc, indexType,
                             rewriter.getIntegerAttr(indexType, strides[d]));
    return LLVM::MulOp::create(rewriter, loc, indices[d], stride,
                               LLVM::IntegerOverflowFlags::nsw);
  };
  unsigned contiguous = getContiguousDim(strides);
  Value rowOffset;
  for (unsigned d = 0, rank = type.getRank(); d < rank; ++d) {
    if (d == contiguous)
      continue;
    Value term = scaled(d);
    rowOffset = rowOffset ? LLVM::AddOp::create(rewriter, loc, rowOffset, term,
                                                LLVM::IntegerOverflowFlags::nsw)
                          : term;
  }
  Type elementType = converter.convertType(type.getElementType());
  Type pointerType = memref.getElementPtrType();
  Value row =
      LLVM::GEPOp::create(rewriter, loc, pointerType, elementType,
                          memref.bufferPtr(rewriter, loc, converter, type),
                          rowOffset, kAccessFlags);
  return LLVM::GEPOp::create(rewriter, loc, pointerType, elementType, row,
                             scaled(contiguous), kAccessFlags);
}

struct LoadLowering : public ConvertOpToLLVMPattern<memref::LoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getMemRefType();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!isSplitAccess(type) || !resultType)
      return rewriter.notifyMatchFailure(op, "not a strided access of rank 2+");
    Value address =
        getRowThenElementPtr(rewriter, op.getLoc(), *getTypeConverter(), type,
                             adaptor.getMemref(), adaptor.getIndices());
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(
        op, resultType, address, op.getAlignment().value_or(0),
        /*isVolatile=*/false, op.getNontemporal());
    return success();
  }
};

struct StoreLowering : public ConvertOpToLLVMPattern<memref::StoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getMemRefType();
    if (!isSplitAccess(type))
      return rewriter.notifyMatchFailure(op, "not a strided access of rank 2+");
    Value address =
        getRowThenElementPtr(rewriter, op.getLoc(), *getTypeConverter(), type,
                             adaptor.getMemref(), adaptor.getIndices());
    rewriter.replaceOpWithNewOp<LLVM::StoreOp>(
        op, adaptor.getValue(), address, op.getAlignment().value_or(0),
        /*isVolatile=*/false, op.getNontemporal());
    return success();
  }
};

struct ConvertMemRefAccessToLLVM
    : public vrir::impl::ConvertMemRefAccessToLLVMBase<
          ConvertMemRefAccessToLLVM> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    LLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    patterns.add<LoadLowering, StoreLowering>(converter);
    ConversionTarget target(*context);
    target.addDynamicallyLegalOp<memref::LoadOp>(
        [](memref::LoadOp op) { return !isSplitAccess(op.getMemRefType()); });
    target.addDynamicallyLegalOp<memref::StoreOp>(
        [](memref::StoreOp op) { return !isSplitAccess(op.getMemRefType()); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
