//===- ConvertVRIRToMemRef.cpp - The convert-vrir-to-memref pass ----------===//

#include "VRIR/Conversion/Passes.h"
#include "VRIR/Conversion/VRIRToMemRef.h"
#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_CONVERTVRIRTOMEMREF
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {
/// The array an op reads or writes by index (the target of an assignment),
/// else its first array operand.
Value getAccessedArray(Operation *op) {
  Value accessed = TypeSwitch<Operation *, Value>(op)
                       .Case<LoadOp, StoreOp, SliceOp, StoreSliceOp, StoreMapOp,
                             GatherOp, ScatterOp, AtomicCasOp, AtomicRMWOp>(
                           [](auto access) { return access.getArray(); })
                       .Default([](Operation *) { return Value(); });
  if (accessed)
    return accessed;
  for (Value operand : op->getOperands())
    if (isa<ArrayType>(operand.getType()))
      return operand;
  return {};
}

/// The generic path of a region dispatch: a call of the region function.
/// (Specialization happens at run time on the lowered module; until a
/// dispatcher takes over the call, this is the whole semantics.)
struct DispatchOpLowering : public OpConversionPattern<DispatchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DispatchOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    if (failed(
            getTypeConverter()->convertTypes(op.getResultTypes(), resultTypes)))
      return rewriter.notifyMatchFailure(op, "unconvertible result type");
    SmallVector<Value> operands;
    for (ValueRange converted : adaptor.getOperands())
      llvm::append_range(operands, converted);
    rewriter.replaceOpWithNewOp<func::CallOp>(op, op.getCalleeAttr(),
                                              resultTypes, operands);
    return success();
  }
};

struct ConvertVRIRToMemRefPass
    : public vrir::impl::ConvertVRIRToMemRefBase<ConvertVRIRToMemRefPass> {
  using ConvertVRIRToMemRefBase::ConvertVRIRToMemRefBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    VRIRTypeConverter converter(context);

    // Name the array of every access while function arguments still belong
    // to their function: error messages report it.
    getOperation()->walk([&](Operation *op) {
      if (!isa<VRIRDialect>(op->getDialect()))
        return;
      if (Value array = getAccessedArray(op))
        op->setAttr(
            lowering::kSiteAttrName,
            StringAttr::get(context, describeArraySite(array, op->getLoc())));
    });

    // Sections to keep for the GPU lowering carry a mark that the patterns
    // of the ops inside see.
    if (gpuSections) {
      getOperation()->walk([&](GpuSectionOp section) {
        section->setAttr(lowering::kGpuSectionAttrName, UnitAttr::get(context));
      });
      // A section's parallel loop becomes one kernel grid, which computes
      // one reduction (a reduction tree).
      WalkResult tooMany = getOperation()->walk([&](PforOp pfor) {
        if (pfor.getInitValues().size() < 2 ||
            !pfor->getParentOfType<GpuSectionOp>() ||
            pfor->getParentOp()->getParentOfType<PforOp>())
          return WalkResult::advance();
        pfor.emitOpError("has ")
            << pfor.getInitValues().size()
            << " reductions in a GPU section; GPU kernels compute one "
               "reduction per loop (write one loop per reduction)";
        return WalkResult::interrupt();
      });
      if (tooMany.wasInterrupted())
        return signalPassFailure();
    }

    ConversionTarget target(*context);
    target.addIllegalDialect<VRIRDialect>();
    target.addLegalDialect<arith::ArithDialect, complex::ComplexDialect,
                           LLVM::LLVMDialect, linalg::LinalgDialect,
                           math::MathDialect, memref::MemRefDialect,
                           scf::SCFDialect, ub::UBDialect>();
    // The one VRIR op on memrefs (lowered on the LLVM descriptor).
    target.addLegalOp<ModuleOp, MemRefPartViewOp>();
    target.addDynamicallyLegalOp<ub::PoisonOp, arith::SelectOp>(
        [&](Operation *op) { return converter.isLegal(op->getResultTypes()); });
    // Everything else (func, cf, ...) is legal once no VRIR type is left.
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto function = dyn_cast<FunctionOpInterface>(op))
        return converter.isSignatureLegal(
                   cast<FunctionType>(function.getFunctionType())) &&
               converter.isLegal(&function.getFunctionBody());
      return converter.isLegal(op);
    });

    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    populateVRIRArrayToMemRefPatterns(converter, patterns);
    populateVRIRParallelToSCFPatterns(converter, patterns);
    populateVRIRElementwiseToLinalgPatterns(converter, patterns);
    populateVRIRSliceToMemRefPatterns(converter, patterns);
    populateVRIRViewToMemRefPatterns(converter, patterns);
    populateVRIRLinearAlgebraPatterns(converter, patterns);
    patterns.add<DispatchOpLowering>(converter, context);

    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
