//===- ParallelOps.cpp - pfor, gpu_section and atomics on the CPU ---------===//

#include "VRIR/Conversion/VRIRToMemRef.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::vrir;
using namespace mlir::vrir::lowering;

namespace {

/// `vrir.pfor`: the outermost one becomes an `scf.parallel` over its
/// outermost dimension (OpenMP later), the rest serial `scf.for`s. Loops
/// run over normalized counters; induction variables are rebuilt in the
/// module's index base.
struct PforOpLowering : public OpConversionPattern<PforOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PforOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange space = adaptor.getDomain();
    unsigned dims = op.getNumDims();
    int64_t base = getModuleSemantics(op).indexBase;
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> counts;
    for (unsigned d = 0; d < dims; ++d)
      counts.push_back(getRangeTripCount(rewriter, loc, space[3 * d],
                                         space[3 * d + 1], space[3 * d + 2]));

    // On the CPU the outermost dimension of the outermost pfor runs in
    // parallel; the other dimensions, and nested pfors, are serial loops
    // inside it. (One collapsed OpenMP loop over all dimensions would divide
    // every iteration's counter back into indices and keep the innermost
    // loop from vectorizing.) In a GPU section every dimension is parallel:
    // each becomes a dimension of the kernel's grid.
    bool nested = isInParallelLoop(op);
    unsigned parallelDims = isInGpuSection(op) ? dims : 1;
    SmallVector<Value> counters;
    Operation *outermost = nullptr;
    if (!nested) {
      SmallVector<Value> zeros(parallelDims, zero), ones(parallelDims, one);
      auto loop = scf::ParallelOp::create(
          rewriter, loc, zeros, ArrayRef(counts).take_front(parallelDims),
          ones);
      llvm::append_range(counters, loop.getInductionVars());
      outermost = loop;
      rewriter.setInsertionPointToStart(loop.getBody());
    }
    for (unsigned d = counters.size(); d < dims; ++d) {
      auto loop = scf::ForOp::create(rewriter, loc, zero, counts[d], one);
      counters.push_back(loop.getInductionVar());
      if (!outermost)
        outermost = loop;
      rewriter.setInsertionPointToStart(loop.getBody());
    }
    Block *insertion = rewriter.getInsertionBlock();
    SmallVector<Value> inductionVars;
    for (unsigned d = 0; d < dims; ++d) {
      Value offset =
          arith::MulIOp::create(rewriter, loc, counters[d], space[3 * d + 2]);
      Value index = arith::AddIOp::create(rewriter, loc, space[3 * d], offset);
      if (base != 0)
        index = arith::AddIOp::create(
            rewriter, loc, index,
            arith::ConstantIndexOp::create(rewriter, loc, base));
      inductionVars.push_back(index);
    }
    Block *body = op.getBodyBlock();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, insertion, rewriter.getInsertionPoint(),
                               inductionVars);
    rewriter.setInsertionPointAfter(outermost);
    if (!nested) {
      // Raise the error one iteration recorded, once all have stopped.
      callRuntime(rewriter, loc, op, "vrir_rt_parallel_check", ValueRange{});
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// On the CPU a GPU section is its body, inline. For the GPU lowering
/// (sections marked with `kGpuSectionAttrName`) it becomes an
/// `scf.execute_region` carrying the mark, which `vrir-gpu-map-sections`
/// turns into kernel launches.
struct GpuSectionOpLowering : public OpConversionPattern<GpuSectionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GpuSectionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->hasAttr(kGpuSectionAttrName)) {
      SmallVector<Type> resultTypes;
      if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                  resultTypes)))
        return failure();
      auto region =
          scf::ExecuteRegionOp::create(rewriter, op.getLoc(), resultTypes);
      region->setAttr(kGpuSectionAttrName, rewriter.getUnitAttr());
      rewriter.inlineRegionBefore(op.getBody(), region.getRegion(),
                                  region.getRegion().end());
      rewriter.replaceOp(op, region.getResults());
      return success();
    }
    Block *body = &op.getBody().front();
    auto yield = cast<YieldOp>(body->getTerminator());
    SmallVector<Value> results(yield.getValues());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(body, op);
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The terminator of a kept GPU section (see GpuSectionOpLowering).
struct SectionYieldOpLowering : public OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto parent = dyn_cast<scf::ExecuteRegionOp>(op->getParentOp());
    if (!parent || !parent->hasAttr(kGpuSectionAttrName))
      return failure();
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    return success();
  }
};

/// 0-based indices of an atomic access, checked at both bounds; failures
/// are recorded (atomics only run in parallel loops) and skip the access.
template <typename AtomicOp>
static SmallVector<Value> lowerAtomicIndices(OpBuilder &b, AtomicOp op,
                                             Value memref, ValueRange indices,
                                             Value &anyFailed) {
  Location loc = op.getLoc();
  int64_t base = getModuleSemantics(op).indexBase;
  std::string site = getArraySite(op, op.getArray());
  SmallVector<Value> sizes = getMemRefSizes(b, loc, memref);
  SmallVector<Value> result;
  for (auto [d, index] : llvm::enumerate(indices))
    result.push_back(lowerIndex(b, loc, op, index, sizes[d],
                                getDefaultIndexFlags(), base, site, d,
                                /*parallel=*/true, anyFailed));
  return result;
}

/// Runs `build` (which yields the atomic's result) unless a check failed.
static Value guardAtomic(ConversionPatternRewriter &rewriter, Location loc,
                         Value anyFailed, Type type,
                         function_ref<Value(OpBuilder &)> build) {
  auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{type}, anyFailed,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(rewriter, loc, getZero(rewriter, loc, type));
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(rewriter, loc, build(rewriter));
  return ifOp.getResult(0);
}

struct AtomicRMWOpLowering : public OpConversionPattern<AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getValue().getType();
    bool isFloat = isa<FloatType>(type);
    arith::AtomicRMWKind kind;
    switch (op.getKind()) {
    case AtomicKind::Add:
      kind = isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
      break;
    case AtomicKind::Min:
      kind =
          isFloat ? arith::AtomicRMWKind::minimumf : arith::AtomicRMWKind::mins;
      break;
    case AtomicKind::Max:
      kind =
          isFloat ? arith::AtomicRMWKind::maximumf : arith::AtomicRMWKind::maxs;
      break;
    case AtomicKind::And:
      kind = arith::AtomicRMWKind::andi;
      break;
    case AtomicKind::Or:
      kind = arith::AtomicRMWKind::ori;
      break;
    case AtomicKind::Xor:
      kind = arith::AtomicRMWKind::xori;
      break;
    case AtomicKind::Xchg:
      kind = arith::AtomicRMWKind::assign;
      break;
    }
    Value anyFailed;
    SmallVector<Value> indices = lowerAtomicIndices(
        rewriter, op, adaptor.getArray(), adaptor.getIndices(), anyFailed);
    auto build = [&](OpBuilder &b) -> Value {
      return memref::AtomicRMWOp::create(b, loc, kind, adaptor.getValue(),
                                         adaptor.getArray(), indices);
    };
    rewriter.replaceOp(op, guardAtomic(rewriter, loc, anyFailed, type, build));
    return success();
  }
};

/// Calls (defining on first use) `__vrir_cas_iN(ptr, expected, desired)`,
/// a private function around LLVM's cmpxchg that returns the old value. The
/// call carries its memory effects, which the deallocation analysis needs
/// (a bare cmpxchg has none it can read); LLVM inlines it.
static Value callCompareExchange(OpBuilder &b, Location loc, Operation *anchor,
                                 Value pointer, Value expected, Value desired) {
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

struct AtomicCasOpLowering : public OpConversionPattern<AtomicCasOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtomicCasOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getResult().getType();
    Value anyFailed;
    SmallVector<Value> indices = lowerAtomicIndices(
        rewriter, op, adaptor.getArray(), adaptor.getIndices(), anyFailed);
    Value expected = adaptor.getExpected(), desired = adaptor.getDesired();
    if (isInGpuSection(op)) {
      // In a kernel: a compare-and-swap loop the GPU targets implement
      // natively (storing the value read when the compare fails changes
      // nothing); the comparison is of bits, as on the CPU.
      auto build = [&](OpBuilder &b) -> Value {
        auto atomic = memref::GenericAtomicRMWOp::create(
            b, loc, adaptor.getArray(), indices);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(atomic.getBody());
        Value current = atomic.getCurrentValue();
        Value currentBits = current, expectedBits = expected;
        if (auto floatType = dyn_cast<FloatType>(type)) {
          Type bitsType = b.getIntegerType(floatType.getWidth());
          currentBits = arith::BitcastOp::create(b, loc, bitsType, current);
          expectedBits = arith::BitcastOp::create(b, loc, bitsType, expected);
        }
        Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            currentBits, expectedBits);
        Value next = arith::SelectOp::create(b, loc, equal, desired, current);
        memref::AtomicYieldOp::create(b, loc, next);
        return atomic.getResult();
      };
      rewriter.replaceOp(op,
                         guardAtomic(rewriter, loc, anyFailed, type, build));
      return success();
    }
    auto build = [&](OpBuilder &b) -> Value {
      // memref has no compare-and-swap (generic_atomic_rmw is a CAS loop
      // that also stores when the compare fails, and it is no region-branch
      // op for the deallocation analysis): use LLVM's cmpxchg on the element.
      Value pointer = getElementPointer(b, loc, adaptor.getArray(), indices);
      Value expectedBits = expected, desiredBits = desired;
      Type bitsType = type;
      if (auto floatType = dyn_cast<FloatType>(type)) {
        bitsType = b.getIntegerType(floatType.getWidth());
        expectedBits = arith::BitcastOp::create(b, loc, bitsType, expected);
        desiredBits = arith::BitcastOp::create(b, loc, bitsType, desired);
      }
      Value old =
          callCompareExchange(b, loc, op, pointer, expectedBits, desiredBits);
      if (bitsType != type)
        old = arith::BitcastOp::create(b, loc, type, old);
      return old;
    };
    rewriter.replaceOp(op, guardAtomic(rewriter, loc, anyFailed, type, build));
    return success();
  }
};

} // namespace

void mlir::vrir::populateVRIRParallelToSCFPatterns(
    const VRIRTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<PforOpLowering, GpuSectionOpLowering, SectionYieldOpLowering,
               AtomicRMWOpLowering, AtomicCasOpLowering>(converter, patterns.getContext());
}
