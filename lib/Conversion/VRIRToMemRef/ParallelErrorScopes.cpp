//===- ParallelErrorScopes.cpp - Errors in CPU parallel loops -------------===//
//
// OpenMP runs the iterations of an `scf.parallel` on worker threads, where an
// error raised the serial way (a longjmp to the host's vrir_rt_invoke) has
// nowhere to go: the runtime used to print it and exit the process. This
// pass runs each loop that can fail as chunks that the runtime can unwind
// to, with a per-call status that stops the other iterations (see
// vrir_rt_parallel_enter in VRIRRuntime.h).
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_PARALLELERRORSCOPES
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

/// At most this many chunks per loop: enough for load balance over the
/// threads, few enough that entering each costs nothing measurable.
constexpr int64_t kMaxChunks = 64;
/// Iterations of a flat body run between two reads of the loop's status.
constexpr int64_t kBlock = 64;
/// Stack bytes the runtime gets per chunk (VRIR_RT_PARALLEL_CHUNK_BYTES).
constexpr int64_t kChunkBytes = 512;

enum class Failure { None, Recorded, Raised };

/// How an iteration of `loop` can fail: not at all; only by a parallel
/// bounds error, which the runtime records and returns from; or by an error
/// that unwinds (any other call, or an allocation that can run out of
/// memory).
Failure getFailure(scf::ParallelOp loop) {
  Failure failure = Failure::None;
  loop.getBody()->walk([&](Operation *op) {
    if (auto call = dyn_cast<CallOpInterface>(op)) {
      auto callee =
          dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
      if (callee &&
          callee.getLeafReference() == lowering::kParallelBoundsErrorFunction) {
        failure = std::max(failure, Failure::Recorded);
        return WalkResult::advance();
      }
      failure = Failure::Raised;
      return WalkResult::interrupt();
    }
    if (isa<memref::AllocOp, memref::ReallocOp>(op)) {
      failure = Failure::Raised;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure;
}

/// `_setjmp`, which returns twice: LLVM must not keep values in registers
/// across it that the second return would find clobbered.
LLVM::LLVMFuncOp declareSetJmp(OpBuilder &b, Operation *anchor) {
  MLIRContext *context = b.getContext();
  LLVM::LLVMFuncOp function =
      lowering::declareFunction(b, anchor, "_setjmp", b.getI32Type(),
                                LLVM::LLVMPointerType::get(context));
  function->setAttr("passthrough",
                    b.getArrayAttr({b.getStringAttr("returns_twice")}));
  return function;
}

/// Calls the runtime's `void name(args)`, which may touch any memory (the
/// status and the chunk's record among it).
void callChunkRuntime(OpBuilder &b, Location loc, Operation *anchor,
                      StringRef name, ValueRange args) {
  LLVM::CallOp::create(
      b, loc, lowering::declareVoidFunction(b, anchor, name, args.getTypes()),
      args);
}

/// The stack memory of a function's guarded loops, allocated once at its
/// entry (an alloca in a loop body would need a single-block alloca scope,
/// which scf-to-cf breaks): the status {failed, message} and one runtime
/// record per chunk. The loops of one call run one after the other.
struct GuardMemory {
  Value status;
  Value chunks;
};

GuardMemory allocateGuardMemory(OpBuilder &b, Operation *scope, Location loc) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&scope->getRegion(0).front());
  MLIRContext *context = b.getContext();
  Type i64 = b.getI64Type();
  Type ptr = LLVM::LLVMPointerType::get(context);
  Value one = LLVM::ConstantOp::create(b, loc, i64, 1);
  auto statusType = LLVM::LLVMStructType::getLiteral(context, {i64, ptr});
  Value status =
      LLVM::AllocaOp::create(b, loc, ptr, statusType, one, /*alignment=*/8);
  Value bytes = LLVM::ConstantOp::create(b, loc, i64, kMaxChunks * kChunkBytes);
  Value chunks = LLVM::AllocaOp::create(b, loc, ptr, b.getI8Type(), bytes,
                                        /*alignment=*/16);
  return {status, chunks};
}

/// Rewrites `loop` (an outermost `scf.parallel` without results) as chunks
/// of its first dimension guarded by the status in `memory`.
void guardLoop(IRRewriter &rewriter, scf::ParallelOp loop, bool canJump,
               const GuardMemory &memory) {
  Location loc = loop.getLoc();
  Type i64 = rewriter.getI64Type();
  Value status = memory.status;
  rewriter.setInsertionPoint(loop);
  Value zero64 = LLVM::ConstantOp::create(rewriter, loc, i64, 0);
  LLVM::StoreOp::create(rewriter, loc, zero64, status);

  // Iterations of the first dimension, and the chunks they are cut into.
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value lower = loop.getLowerBound()[0], upper = loop.getUpperBound()[0],
        step = loop.getStep()[0];
  Value span = arith::MaxSIOp::create(
      rewriter, loc, arith::SubIOp::create(rewriter, loc, upper, lower), zero);
  Value count = arith::CeilDivUIOp::create(rewriter, loc, span, step);
  Value chunks = arith::MinUIOp::create(
      rewriter, loc, count,
      arith::ConstantIndexOp::create(rewriter, loc, kMaxChunks));

  auto chunkLoop = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                           ValueRange{chunks}, ValueRange{one});
  rewriter.setInsertionPointToStart(chunkLoop.getBody());
  Value chunkIndex = chunkLoop.getInductionVars()[0];
  auto boundary = [&](Value index) {
    Value scaled = arith::MulIOp::create(rewriter, loc, index, count);
    return arith::DivUIOp::create(rewriter, loc, scaled, chunks).getResult();
  };
  Value first = boundary(chunkIndex);
  Value last = boundary(arith::AddIOp::create(rewriter, loc, chunkIndex, one));

  Value chunkOffset = arith::IndexCastOp::create(
      rewriter, loc, i64,
      arith::MulIOp::create(
          rewriter, loc, chunkIndex,
          arith::ConstantIndexOp::create(rewriter, loc, kChunkBytes)));
  Value chunkMemory = LLVM::GEPOp::create(
      rewriter, loc, memory.chunks.getType(), rewriter.getI8Type(),
      memory.chunks, ArrayRef<LLVM::GEPArg>{chunkOffset});
  Value jumps = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                         canJump ? 1 : 0);
  callChunkRuntime(rewriter, loc, loop, "vrir_rt_parallel_enter",
                   ValueRange{chunkMemory, status, jumps});
  // The chunk's iterations; with canJump, only on _setjmp's first return.
  OpBuilder::InsertionGuard bodyGuard(rewriter);
  if (canJump) {
    auto setJmp = LLVM::CallOp::create(
        rewriter, loc, declareSetJmp(rewriter, loop), ValueRange{chunkMemory});
    Value direct = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, setJmp.getResult(),
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), 0));
    auto ifDirect =
        scf::IfOp::create(rewriter, loc, direct, /*withElse=*/false);
    rewriter.setInsertionPointToStart(ifDirect.thenBlock());
  }
  // Nothing starts once an iteration has failed. An iteration with loops of
  // its own reads the status first; flat bodies (element-wise work) read
  // it once per block of kBlock iterations, so that the loop over the
  // block stays free of it and vectorizes as before.
  Block *body = loop.getBody();
  bool heavyIterations =
      loop.getNumLoops() > 1 || lowering::hasLoopInside(loop);
  Value blockStep =
      heavyIterations
          ? one
          : arith::ConstantIndexOp::create(rewriter, loc, kBlock).getResult();
  // while (iteration < last && status.failed == 0): a failure ends the
  // chunk's loop, however many iterations are left.
  Type indexType = rewriter.getIndexType();
  auto blocks = scf::WhileOp::create(rewriter, loc, TypeRange{indexType},
                                     ValueRange{first});
  {
    OpBuilder::InsertionGuard guard(rewriter);
    Block *before =
        rewriter.createBlock(&blocks.getBefore(), {}, {indexType}, {loc});
    Value current = before->getArgument(0);
    Value inRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, current, last);
    Value failed = LLVM::LoadOp::create(
        rewriter, loc, i64, status, /*alignment=*/8, /*isVolatile=*/false,
        /*isNonTemporal=*/false, /*isInvariant=*/false,
        /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic);
    Value running = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, failed, zero64);
    scf::ConditionOp::create(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, inRange, running),
        ValueRange{current});
  }
  Block *after =
      rewriter.createBlock(&blocks.getAfter(), {}, {indexType}, {loc});
  Value iteration = after->getArgument(0);
  scf::YieldOp::create(
      rewriter, loc,
      ValueRange{arith::AddIOp::create(rewriter, loc, iteration, blockStep)});
  rewriter.setInsertionPointToStart(after);
  if (!heavyIterations) {
    Value blockEnd = arith::MinUIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, iteration, blockStep), last);
    auto iterations =
        scf::ForOp::create(rewriter, loc, iteration, blockEnd, one);
    rewriter.setInsertionPointToStart(iterations.getBody());
    iteration = iterations.getInductionVar();
  }
  SmallVector<Value> inductionVars = {arith::AddIOp::create(
      rewriter, loc, lower,
      arith::MulIOp::create(rewriter, loc, iteration, step))};
  // The other dimensions, serial inside the iteration.
  for (unsigned d = 1, e = loop.getNumLoops(); d < e; ++d) {
    auto inner = scf::ForOp::create(rewriter, loc, loop.getLowerBound()[d],
                                    loop.getUpperBound()[d], loop.getStep()[d]);
    inductionVars.push_back(inner.getInductionVar());
    rewriter.setInsertionPointToStart(inner.getBody());
  }
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, rewriter.getInsertionBlock(),
                             rewriter.getInsertionPoint(), inductionVars);

  rewriter.setInsertionPoint(chunkLoop.getBody()->getTerminator());
  callChunkRuntime(rewriter, loc, loop, "vrir_rt_parallel_leave",
                   ValueRange{chunkMemory});
  rewriter.setInsertionPointAfter(chunkLoop);
  callChunkRuntime(rewriter, loc, loop, "vrir_rt_parallel_finish",
                   ValueRange{status});
  rewriter.eraseOp(loop);
}

struct ParallelErrorScopesPass
    : public vrir::impl::ParallelErrorScopesBase<ParallelErrorScopesPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ParallelOp, Failure>> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      // GPU kernels are elsewhere by now; nested loops run in their
      // enclosing loop's chunk.
      if (!loop->getParentOfType<func::FuncOp>() ||
          loop->getParentOfType<scf::ParallelOp>() || loop.getNumResults())
        return;
      Failure failure = getFailure(loop);
      if (failure != Failure::None)
        loops.push_back({loop, failure});
    });
    IRRewriter rewriter(&getContext());
    DenseMap<Operation *, GuardMemory> memoryOfScope;
    for (auto [loop, failure] : loops) {
      // The function, not the nearest AutomaticAllocationScope: that may be
      // an enclosing scf.for, whose lowering would allocate the memory anew
      // at every iteration (32 KiB each) without freeing it.
      Operation *scope = loop->getParentOfType<func::FuncOp>();
      auto [it, inserted] = memoryOfScope.try_emplace(scope);
      if (inserted)
        it->second = allocateGuardMemory(rewriter, scope, loop.getLoc());
      guardLoop(rewriter, loop, failure == Failure::Raised, it->second);
    }
  }
};

} // namespace
