//===- GpuMapSections.cpp - Parallel loops of GPU sections to GPU mappings ===//
//
// Inside each GPU section kept by `convert-vrir-to-memref{gpu-sections}`,
// linalg ops become loops and every outermost parallel loop is tiled into
// work-groups and annotated for `convert-parallel-loops-to-gpu`; then the
// section is inlined. Code of the section outside parallel loops stays on
// the host (thesis, section 5.8).
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "../VRIRToMemRef/LoweringUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_GPUMAPSECTIONS
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

/// True when `value` is computed from `iv` through at most `depth` ops.
bool dependsOn(Value value, Value iv, unsigned depth = 8) {
  if (value == iv)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth == 0 || def->getNumRegions() != 0)
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOn(operand, iv, depth - 1);
  });
}

/// The loop dimension that walks memory with unit stride in most of the
/// loop's accesses: consecutive work-items on it touch consecutive elements
/// (the last index of a row-major array, the first of a column-major one).
unsigned pickContiguousDimension(scf::ParallelOp loop) {
  SmallVector<Value> ivs(loop.getInductionVars());
  SmallVector<unsigned> votes(ivs.size(), 0);
  loop.getBody()->walk([&](Operation *op) {
    Value memref;
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      memref = load.getMemRef();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      memref = store.getMemRef();
      indices = store.getIndices();
    } else {
      return;
    }
    auto type = cast<MemRefType>(memref.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (type.getRank() == 0 ||
        failed(type.getStridesAndOffset(strides, offset)))
      return;
    for (auto [dim, stride] : llvm::enumerate(strides)) {
      if (stride != 1)
        continue;
      for (auto [loopDim, iv] : llvm::enumerate(ivs))
        if (dependsOn(indices[dim], iv))
          ++votes[loopDim];
    }
  });
  unsigned best = ivs.size() - 1;
  for (unsigned dim = 0; dim < ivs.size(); ++dim)
    if (votes[dim] > votes[best])
      best = dim;
  return best;
}

gpu::ParallelLoopDimMappingAttr getMapping(MLIRContext *context,
                                           gpu::Processor processor) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  return gpu::ParallelLoopDimMappingAttr::get(context, processor, identity,
                                              identity);
}

/// Marks every loop of `loop` to run serially inside its work-item.
void mapSequential(scf::ParallelOp loop) {
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping(
      loop.getNumLoops(),
      getMapping(loop.getContext(), gpu::Processor::Sequential));
  (void)gpu::setMappingAttr(loop, mapping);
}

/// Tiles `loop` into work-groups (the contiguous dimension on x) and maps
/// tiles to blocks, elements of a tile to threads. Dimensions beyond the
/// third run serially.
void mapToGrid(scf::ParallelOp loop, ArrayRef<int64_t> blockSize) {
  MLIRContext *context = loop.getContext();
  unsigned rank = loop.getNumLoops();
  unsigned contiguous = pickContiguousDimension(loop);
  // Hardware dimension of each loop dimension: x for the contiguous one,
  // then y, z from the innermost loop dimension outwards.
  SmallVector<unsigned> hardware(rank);
  hardware[contiguous] = 0;
  unsigned next = 1;
  for (int dim = rank - 1; dim >= 0; --dim)
    if (static_cast<unsigned>(dim) != contiguous)
      hardware[dim] = next++;
  unsigned mappedRank = std::min<unsigned>(rank, 3);
  SmallVector<int64_t> tileSizes(rank);
  for (unsigned dim = 0; dim < rank; ++dim)
    tileSizes[dim] =
        hardware[dim] < 3 ? blockSize[(mappedRank - 1) * 3 + hardware[dim]] : 1;

  // Nested parallel loops (from linalg ops in a pfor body) run serially.
  loop.getBody()->walk([](scf::ParallelOp nested) { mapSequential(nested); });
  auto [outer, inner] =
      scf::tileParallelLoop(loop, tileSizes, /*noMinMaxBounds=*/true);
  SmallVector<gpu::ParallelLoopDimMappingAttr> blocks, threads;
  for (unsigned dim = 0; dim < rank; ++dim) {
    unsigned hw = hardware[dim];
    auto blockProcessor =
        hw < 3 ? static_cast<gpu::Processor>(
                     static_cast<int>(gpu::Processor::BlockX) + hw)
               : gpu::Processor::Sequential;
    auto threadProcessor =
        hw < 3 ? static_cast<gpu::Processor>(
                     static_cast<int>(gpu::Processor::ThreadX) + hw)
               : gpu::Processor::Sequential;
    blocks.push_back(getMapping(context, blockProcessor));
    threads.push_back(getMapping(context, threadProcessor));
  }
  (void)gpu::setMappingAttr(outer, blocks);
  (void)gpu::setMappingAttr(inner, threads);
}

struct GpuMapSectionsPass
    : public vrir::impl::GpuMapSectionsBase<GpuMapSectionsPass> {
  using GpuMapSectionsBase::GpuMapSectionsBase;

  void runOnOperation() override {
    SmallVector<int64_t> blockSize = {blockSize1D,
                                      1,
                                      1,
                                      blockSize2DX,
                                      blockSize2DY,
                                      1,
                                      blockSize3DX,
                                      blockSize3DY,
                                      blockSize3DZ};
    SmallVector<scf::ExecuteRegionOp> sections;
    getOperation()->walk([&](scf::ExecuteRegionOp op) {
      if (op->hasAttr(lowering::kGpuSectionAttrName))
        sections.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ExecuteRegionOp section : sections)
      if (failed(mapSection(rewriter, section, blockSize)))
        return signalPassFailure();
  }

  LogicalResult mapSection(IRRewriter &rewriter, scf::ExecuteRegionOp section,
                           ArrayRef<int64_t> blockSize) {
    // Array operations: parallel loops, except inside a kernel, where they
    // are serial loops of one work-item.
    SmallVector<linalg::LinalgOp> linalgOps;
    section.walk([&](linalg::LinalgOp op) { linalgOps.push_back(op); });
    for (linalg::LinalgOp op : linalgOps) {
      rewriter.setInsertionPoint(op);
      bool inKernel =
          op->getParentOfType<scf::ParallelOp>() &&
          section->isProperAncestor(op->getParentOfType<scf::ParallelOp>());
      if (inKernel ? failed(linalg::linalgOpToLoops(rewriter, op))
                   : failed(linalg::linalgOpToParallelLoops(rewriter, op)))
        return op->emitOpError("could not be lowered to loops for the GPU");
      rewriter.eraseOp(op);
    }

    // Fold the section's index arithmetic (constant loop steps, tile
    // bounds): outlining then sinks constants into kernels instead of
    // passing them. Folding only: canonicalization would inline the
    // section and merge the tiled loops.
    (void)applyPatternsGreedily(section, FrozenRewritePatternSet());

    // Outermost parallel loops become kernels. A loop with reductions stays
    // on the host.
    SmallVector<scf::ParallelOp> kernels;
    section.walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
      if (loop.getNumReductions() == 0)
        kernels.push_back(loop);
      return WalkResult::skip();
    });
    for (scf::ParallelOp loop : kernels)
      mapToGrid(loop, blockSize);
    (void)applyPatternsGreedily(section, FrozenRewritePatternSet());

    // The section's host code runs in place.
    if (!section.getRegion().hasOneBlock()) {
      section->removeAttr(lowering::kGpuSectionAttrName);
      return success();
    }
    Block *body = &section.getRegion().front();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    SmallVector<Value> results(yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(body, section);
    rewriter.replaceOp(section, results);
    return success();
  }
};

} // namespace
