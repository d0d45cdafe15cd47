//===- PartViewsToLLVM.cpp - Complex part views on LLVM descriptors -------===//
//
// `vrir.memref_part_view` reads one component of each complex element. The
// LLVM memref descriptor has no element type (its pointers are opaque), so
// the view is the source's descriptor with the offset and strides counted
// in components: offset 2 * offset (+ 1 for the imaginary part), strides
// 2 * stride, the same pointers and sizes.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"
#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_CONVERTPARTVIEWSTOLLVM
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

struct MemRefPartViewLowering
    : public ConvertOpToLLVMPattern<MemRefPartViewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MemRefPartViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<MemRefType>(op.getResult().getType());
    Type descriptorType = getTypeConverter()->convertType(resultType);
    if (!descriptorType)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    MemRefDescriptor source(adaptor.getSource());
    auto result = MemRefDescriptor::poison(rewriter, loc, descriptorType);
    result.setAllocatedPtr(rewriter, loc, source.allocatedPtr(rewriter, loc));
    result.setAlignedPtr(rewriter, loc, source.alignedPtr(rewriter, loc));

    Type indexType = getIndexType();
    Value two = createIndexAttrConstant(rewriter, loc, indexType, 2);
    Value offset =
        LLVM::MulOp::create(rewriter, loc, source.offset(rewriter, loc), two);
    if (op.getPart() == ComplexPart::Imag)
      offset = LLVM::AddOp::create(
          rewriter, loc, offset,
          createIndexAttrConstant(rewriter, loc, indexType, 1));
    result.setOffset(rewriter, loc, offset);
    for (unsigned d = 0, rank = resultType.getRank(); d < rank; ++d) {
      result.setSize(rewriter, loc, d, source.size(rewriter, loc, d));
      result.setStride(rewriter, loc, d,
                       LLVM::MulOp::create(rewriter, loc,
                                           source.stride(rewriter, loc, d),
                                           two));
    }
    rewriter.replaceOp(op, Value(result));
    return success();
  }
};

struct ConvertPartViewsToLLVM
    : public vrir::impl::ConvertPartViewsToLLVMBase<ConvertPartViewsToLLVM> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    LLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    patterns.add<MemRefPartViewLowering>(converter);
    ConversionTarget target(*context);
    target.addIllegalOp<MemRefPartViewOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
