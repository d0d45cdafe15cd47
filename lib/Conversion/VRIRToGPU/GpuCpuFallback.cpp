//===- GpuCpuFallback.cpp - Host versions of GPU kernels ------------------===//
//
// A GPU section must give its results even when the device cannot hold a
// kernel's arrays (thesis, chapter 7: VRruntime runs such work on the CPU).
// Before the section's loops are mapped to the GPU, this pass keeps a host
// copy of each future kernel next to it:
//
//   vrir_gpu_fallback_begin()
//   <the loop or linalg op, to become one or two launches>
//   %r = scf.if (vrir_gpu_fallback_end() != 0) {   // vrir.gpu_fallback
//     <a copy of it, lowered for the host>
//   } else { <its results> }
//
// The runtime skips the launches of a bracket once one finds no memory, and
// the host copy reads and writes host memory through the usual host-access
// notices (`vrir-gpu-host-sync` keeps them inside the `scf.if`).
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "../VRIRToMemRef/LoweringUtils.h"
#include "GpuABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_GPUCPUFALLBACK
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

bool gpuabi::isGpuFallback(Operation *op) {
  return isa<scf::IfOp>(op) && op->hasAttr(kGpuFallbackAttrName);
}

namespace {

/// What becomes kernels: the outermost parallel loops of the section and
/// its array operations outside them (mapping turns those into parallel
/// loops, or into the tiled matmul and matvec kernels).
SmallVector<Operation *> collectKernelWork(scf::ExecuteRegionOp section) {
  SmallVector<Operation *> work;
  section.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<scf::ParallelOp, linalg::LinalgOp>(op)) {
      work.push_back(op);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  return work;
}

/// The host form of a kernel's compare-and-swap loop: the host pipeline
/// cannot take `memref.generic_atomic_rmw` (the deallocation analysis
/// rejects region ops that are not region branches), so the loop is
/// written out with LLVM's cmpxchg, as the CPU lowering of `vrir.atomic_cas`
/// does. Returns the old value, as the op does.
LogicalResult lowerGenericAtomicOnHost(OpBuilder &b,
                                       memref::GenericAtomicRMWOp atomic) {
  Location loc = atomic.getLoc();
  Type type = atomic.getResult().getType();
  if (!type.isIntOrFloat())
    return atomic.emitOpError("has no host version for elements of ") << type;
  Type bitsType = b.getIntegerType(type.getIntOrFloatBitWidth());
  b.setInsertionPoint(atomic);
  auto toBits = [&](OpBuilder &b, Value value) -> Value {
    return type == bitsType ? value
                            : arith::BitcastOp::create(b, loc, bitsType, value);
  };
  Value pointer = lowering::getElementPointer(b, loc, atomic.getMemref(),
                                              atomic.getIndices());
  Value initial =
      memref::LoadOp::create(b, loc, atomic.getMemref(), atomic.getIndices());
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{type}, ValueRange{initial},
      [&](OpBuilder &before, Location loc, ValueRange args) {
        Value current = args[0];
        IRMapping mapping;
        mapping.map(atomic.getCurrentValue(), current);
        for (Operation &op : atomic.getBody()->without_terminator())
          before.clone(op, mapping);
        auto yield = cast<memref::AtomicYieldOp>(atomic.getBody()->back());
        Value next = mapping.lookupOrDefault(yield.getResult());
        Value seenBits = lowering::callCompareExchange(
            before, loc, atomic, pointer, toBits(before, current),
            toBits(before, next));
        Value retry =
            arith::CmpIOp::create(before, loc, arith::CmpIPredicate::ne,
                                  seenBits, toBits(before, current));
        Value seen =
            type == bitsType
                ? seenBits
                : arith::BitcastOp::create(before, loc, type, seenBits);
        scf::ConditionOp::create(before, loc, retry, seen);
      },
      [&](OpBuilder &after, Location loc, ValueRange args) {
        scf::YieldOp::create(after, loc, args);
      });
  atomic.replaceAllUsesWith(loop.getResult(0));
  atomic.erase();
  return success();
}

/// A parallel loop with reductions as a serial loop nest carrying the
/// accumulators: OpenMP's conversion takes only the combiners it recognizes
/// (not NumPy's NaN-propagating min and max), and a host version only runs
/// when the device could not.
void serializeReductionLoop(OpBuilder &b, scf::ParallelOp loop) {
  b.setInsertionPoint(loop);
  auto reduce = cast<scf::ReduceOp>(loop.getBody()->getTerminator());
  scf::LoopNest nest = scf::buildLoopNest(
      b, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), loop.getInitVals(),
      [&](OpBuilder &body, Location loc, ValueRange ivs,
          ValueRange accumulators) -> scf::ValueVector {
        IRMapping mapping;
        mapping.map(loop.getInductionVars(), ivs);
        for (Operation &op : loop.getBody()->without_terminator())
          body.clone(op, mapping);
        scf::ValueVector next;
        for (auto [index, combiner] : llvm::enumerate(reduce.getReductions())) {
          Block &block = combiner.front();
          mapping.map(block.getArgument(0), accumulators[index]);
          mapping.map(block.getArgument(1),
                      mapping.lookupOrDefault(reduce.getOperands()[index]));
          for (Operation &op : block.without_terminator())
            body.clone(op, mapping);
          auto result = cast<scf::ReduceReturnOp>(block.getTerminator());
          next.push_back(mapping.lookupOrDefault(result.getResult()));
        }
        return next;
      });
  loop.replaceAllUsesWith(nest.results);
  loop.erase();
}

struct GpuCpuFallbackPass
    : public vrir::impl::GpuCpuFallbackBase<GpuCpuFallbackPass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    for (Operation *section : lowering::collectGpuSections(getOperation()))
      for (Operation *work :
           collectKernelWork(cast<scf::ExecuteRegionOp>(section)))
        if (failed(addHostVersion(b, work)))
          return signalPassFailure();
  }

  LogicalResult addHostVersion(OpBuilder &b, Operation *work) {
    Location loc = work->getLoc();
    b.setInsertionPoint(work);
    LLVM::CallOp::create(
        b, loc,
        lowering::declareVoidFunction(b, work, "vrir_gpu_fallback_begin", {}),
        ValueRange());

    b.setInsertionPointAfter(work);
    // No memory-effect attribute: the bracket must stay where it is with
    // respect to the launches and the host's accesses.
    Value taken = LLVM::CallOp::create(
                      b, loc,
                      lowering::declareFunction(
                          b, work, "vrir_gpu_fallback_end", b.getI64Type(), {}),
                      ValueRange())
                      .getResult();
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
    Value onHost =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, taken, zero);
    Operation *copy = nullptr;
    auto buildHostVersion = [&](OpBuilder &then, Location loc) {
      copy = then.clone(*work);
      scf::YieldOp::create(then, loc, copy->getResults());
    };
    auto yieldDeviceResults = [&](OpBuilder &otherwise, Location loc) {
      scf::YieldOp::create(otherwise, loc, work->getResults());
    };
    auto fallback = scf::IfOp::create(
        b, loc, onHost, buildHostVersion,
        work->getNumResults()
            ? function_ref<void(OpBuilder &, Location)>(yieldDeviceResults)
            : nullptr);
    fallback->setAttr(gpuabi::kGpuFallbackAttrName, b.getUnitAttr());
    if (work->getNumResults() != 0) {
      Block *elseBlock = &fallback.getElseRegion().front();
      work->replaceUsesWithIf(fallback.getResults(), [&](OpOperand &use) {
        return use.getOwner()->getBlock() != elseBlock;
      });
    }
    SmallVector<scf::ParallelOp> reductions;
    copy->walk([&](scf::ParallelOp loop) {
      if (loop.getNumReductions() != 0)
        reductions.push_back(loop);
    });
    for (scf::ParallelOp loop : reductions) // innermost first
      serializeReductionLoop(b, loop);
    // Serializing may have replaced `copy` itself (a reduction loop): walk
    // what the then-region holds now.
    SmallVector<memref::GenericAtomicRMWOp> atomics;
    fallback.getThenRegion().walk(
        [&](memref::GenericAtomicRMWOp op) { atomics.push_back(op); });
    for (memref::GenericAtomicRMWOp atomic : atomics)
      if (failed(lowerGenericAtomicOnHost(b, atomic)))
        return failure();
    return outlineHostVersion(fallback);
  }

  /// Moves the host version into a function of its own, marked cold and
  /// optimized for size: it only runs when the device cannot, and LLVM
  /// would otherwise spend as long on it as on the rest of the host code.
  LogicalResult outlineHostVersion(scf::IfOp fallback) {
    auto parent = fallback->getParentOfType<func::FuncOp>();
    auto module = parent ? parent->getParentOfType<ModuleOp>() : nullptr;
    if (!module)
      return fallback.emitOpError(
          "GPU section outside a func.func of a module: no place for the "
          "kernel's host version");
    std::string name;
    do
      name = (parent.getSymName() + "_host_kernel" + Twine(nextHostVersion++))
                 .str();
    while (module.lookupSymbol(name));
    IRRewriter rewriter(fallback.getContext());
    func::FuncOp function;
    if (failed(outlineIfOp(rewriter, fallback, &function, name,
                           /*elseFn=*/nullptr, "")))
      return fallback.emitOpError("could not outline the host version");
    function.setPrivate();
    Builder b(function.getContext());
    function->setAttr(
        "passthrough",
        b.getArrayAttr({b.getStringAttr("cold"), b.getStringAttr("noinline"),
                        b.getStringAttr("minsize"),
                        b.getStringAttr("optsize")}));
    return success();
  }

  unsigned nextHostVersion = 0;
};

} // namespace
