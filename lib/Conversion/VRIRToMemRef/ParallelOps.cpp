//===- ParallelOps.cpp - pfor, gpu_section and atomics on the CPU ---------===//

#include "VRIR/Conversion/VRIRToMemRef.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::vrir;
using namespace mlir::vrir::lowering;

namespace {

/// Chunks of the iterations of a reduction `pfor` on the CPU. Each chunk
/// combines its iterations in order and the chunks are combined in order,
/// so the result depends on this number only, not on the thread count.
constexpr int64_t kReductionChunks = 64;

/// `vrir.pfor`: the outermost one becomes an `scf.parallel` over its
/// outermost dimension (OpenMP later), the rest serial `scf.for`s. Loops
/// run over normalized counters; induction variables are rebuilt in the
/// module's index base. Reductions carry accumulators through the serial
/// loops; in parallel, each chunk of iterations (CPU) or the whole grid
/// (GPU section: `scf.reduce`, a reduction tree) starts from the identity,
/// and the initial value is combined in at the end.
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
    SmallVector<ReduceKind> kinds;
    for (unsigned i = 0, e = op.getInitValues().size(); i < e; ++i)
      kinds.push_back(op.getReductionKind(i));
    auto identities = [&](OpBuilder &b) {
      return llvm::map_to_vector(
          llvm::zip(kinds, op.getInitValues()), [&](auto kindAndInit) {
            auto [kind, init] = kindAndInit;
            return getReductionIdentity(b, loc, kind, init.getType(),
                                        /*negativeZero=*/true);
          });
    };
    auto combineAll = [&](OpBuilder &b, ValueRange lhs, ValueRange rhs) {
      SmallVector<Value> combined;
      for (auto [kind, l, r] : llvm::zip(kinds, lhs, rhs))
        combined.push_back(combineReduction(b, loc, kind, l, r));
      return combined;
    };

    Block *body = op.getBodyBlock();
    auto yield = cast<YieldOp>(body->getTerminator());
    SmallVector<Value> contributions(yield.getValues());
    rewriter.eraseOp(yield);

    // Serial loops over dimensions [from, dims) carrying `accumulators`,
    // the body inlined in the innermost with induction variables from
    // `counters` (the parallel ones) and the loops' own; the first serial
    // dimension runs over [firstLower, firstUpper) when they are given.
    // Returns the accumulators after the nest (the combined contributions
    // when there is no loop; the contributions without accumulators).
    auto serialNest = [&](SmallVector<Value> counters, unsigned from,
                          Value firstLower, Value firstUpper,
                          SmallVector<Value> accumulators) {
      SmallVector<scf::ForOp> loops;
      for (unsigned d = from; d < dims; ++d) {
        Value lower = d == from && firstLower ? firstLower : zero;
        Value upper = d == from && firstUpper ? firstUpper : counts[d];
        auto loop =
            scf::ForOp::create(rewriter, loc, lower, upper, one, accumulators);
        loops.push_back(loop);
        counters.push_back(loop.getInductionVar());
        accumulators.assign(loop.getRegionIterArgs().begin(),
                            loop.getRegionIterArgs().end());
        rewriter.setInsertionPointToStart(loop.getBody());
      }
      SmallVector<Value> inductionVars;
      for (unsigned d = 0; d < dims; ++d) {
        Value offset =
            arith::MulIOp::create(rewriter, loc, counters[d], space[3 * d + 2]);
        Value index =
            arith::AddIOp::create(rewriter, loc, space[3 * d], offset);
        if (base != 0)
          index = arith::AddIOp::create(
              rewriter, loc, index,
              arith::ConstantIndexOp::create(rewriter, loc, base));
        inductionVars.push_back(index);
      }
      rewriter.inlineBlockBefore(body, rewriter.getInsertionBlock(),
                                 rewriter.getInsertionPoint(), inductionVars);
      // Without accumulators (a GPU grid) the contributions go to scf.reduce.
      SmallVector<Value> results =
          accumulators.empty()
              ? contributions
              : combineAll(rewriter, accumulators, contributions);
      // Close the loops from the inside out: each yields what the loop in
      // it produced (loops without accumulators have their terminator).
      for (scf::ForOp loop : llvm::reverse(loops)) {
        if (!kinds.empty()) {
          rewriter.setInsertionPointToEnd(loop.getBody());
          scf::YieldOp::create(rewriter, loc, results);
        }
        results.assign(loop.getResults().begin(), loop.getResults().end());
        rewriter.setInsertionPointAfter(loop);
      }
      return results;
    };

    // On the CPU the outermost dimension of the outermost pfor runs in
    // parallel; the other dimensions, and nested pfors, are serial loops
    // inside it. (One collapsed OpenMP loop over all dimensions would divide
    // every iteration's counter back into indices and keep the innermost
    // loop from vectorizing.) In a GPU section every dimension is parallel:
    // each becomes a dimension of the kernel's grid.
    SmallVector<Value> results;
    if (isInParallelLoop(op)) {
      results = serialNest({}, 0, nullptr, nullptr, op.getInitValues());
      rewriter.replaceOp(op, results);
      return success();
    }
    OpBuilder::InsertionGuard guard(rewriter);
    if (isInGpuSection(op)) {
      SmallVector<Value> zeros(dims, zero), ones(dims, one);
      auto loop = scf::ParallelOp::create(
          rewriter, loc, zeros, counts, ones, identities(rewriter),
          [&](OpBuilder &, Location, ValueRange counters, ValueRange) {
            SmallVector<Value> values = serialNest(SmallVector<Value>(counters),
                                                   dims, nullptr, nullptr, {});
            auto reduce = scf::ReduceOp::create(rewriter, loc, values);
            for (auto [kind, region] :
                 llvm::zip(kinds, reduce.getReductions())) {
              OpBuilder::InsertionGuard guard(rewriter);
              rewriter.setInsertionPointToStart(&region.front());
              scf::ReduceReturnOp::create(
                  rewriter, loc,
                  combineReduction(rewriter, loc, kind,
                                   region.front().getArgument(0),
                                   region.front().getArgument(1)));
            }
          });
      rewriter.setInsertionPointAfter(loop);
      results = combineAll(rewriter, op.getInitValues(), loop.getResults());
    } else if (kinds.empty()) {
      auto loop =
          scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                  ValueRange{counts[0]}, ValueRange{one});
      rewriter.setInsertionPointToStart(loop.getBody());
      serialNest({loop.getInductionVars()[0]}, 1, nullptr, nullptr, {});
      rewriter.setInsertionPointAfter(loop);
    } else {
      results = reduceInChunks(
          rewriter, op, counts[0], kinds, [&](Value lower, Value upper) {
            return serialNest({}, 0, lower, upper, identities(rewriter));
          });
    }
    // Raise the error one iteration recorded, once all have stopped.
    callRuntime(rewriter, loc, op, "vrir_rt_parallel_check", ValueRange{});
    rewriter.replaceOp(op, results);
    return success();
  }

private:
  /// The CPU's parallel reduction: kReductionChunks parallel chunks of the
  /// `count` outermost iterations, `chunk(lower, upper)` building each
  /// chunk's accumulators; each chunk's accumulators are stored in a buffer
  /// that is then combined in order into the initial values (first, as in
  /// a serial loop). Returns the combined values.
  static SmallVector<Value>
  reduceInChunks(ConversionPatternRewriter &rewriter, PforOp op, Value count,
                 ArrayRef<ReduceKind> kinds,
                 function_ref<SmallVector<Value>(Value, Value)> chunk) {
    Location loc = op.getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value chunks =
        arith::ConstantIndexOp::create(rewriter, loc, kReductionChunks);
    // One buffer per reduction, on the stack once per function (only the
    // outermost pfor runs in chunks): an alloca in a loop body would grow
    // the stack at every iteration, since scf.for is an
    // AutomaticAllocationScope that its LLVM lowering does not honour.
    SmallVector<Value> partials;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(
          &op->getParentOfType<FunctionOpInterface>()
               .getFunctionBody()
               .front());
      for (Value init : op.getInitValues())
        partials.push_back(memref::AllocaOp::create(
            rewriter, loc,
            MemRefType::get({kReductionChunks}, init.getType())));
    }
    // Chunk c runs [c*q + min(c, r), (c+1)*q + min(c+1, r)) for
    // count = q*chunks + r: balanced, and no product can overflow.
    Value quotient = arith::DivUIOp::create(rewriter, loc, count, chunks);
    Value remainder = arith::RemUIOp::create(rewriter, loc, count, chunks);
    auto chunkStart = [&](OpBuilder &b, Value c) -> Value {
      return arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, c, quotient),
          arith::MinUIOp::create(b, loc, c, remainder));
    };
    auto loop = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                        ValueRange{chunks}, ValueRange{one});
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value c = loop.getInductionVars()[0];
      Value lower = chunkStart(rewriter, c);
      Value upper =
          chunkStart(rewriter, arith::AddIOp::create(rewriter, loc, c, one));
      SmallVector<Value> values = chunk(lower, upper);
      for (auto [value, partial] : llvm::zip(values, partials))
        memref::StoreOp::create(rewriter, loc, value, partial, c);
    }
    rewriter.setInsertionPointAfter(loop);
    auto combine = scf::ForOp::create(
        rewriter, loc, zero, chunks, one, op.getInitValues(),
        [&](OpBuilder &b, Location loc, Value c, ValueRange accumulators) {
          SmallVector<Value> combined;
          for (auto [kind, accumulator, partial] :
               llvm::zip(kinds, accumulators, partials))
            combined.push_back(
                combineReduction(b, loc, kind, accumulator,
                                 memref::LoadOp::create(b, loc, partial, c)));
          scf::YieldOp::create(b, loc, combined);
        });
    return SmallVector<Value>(combine.getResults());
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
      Value old = lowering::callCompareExchange(b, loc, op, pointer,
                                                expectedBits, desiredBits);
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
               AtomicRMWOpLowering, AtomicCasOpLowering>(converter,
                                                         patterns.getContext());
}
