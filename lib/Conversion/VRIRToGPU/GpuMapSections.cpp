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
#include "GpuABI.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
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

/// `combiner`'s block (two arguments, `scf.reduce.return` terminator)
/// applied to `lhs` and `rhs` at the builder's insertion point.
Value combine(OpBuilder &b, Block &combiner, Value lhs, Value rhs) {
  IRMapping mapping;
  mapping.map(combiner.getArgument(0), lhs);
  mapping.map(combiner.getArgument(1), rhs);
  for (Operation &op : combiner.without_terminator())
    b.clone(op, mapping);
  return mapping.lookupOrDefault(combiner.getTerminator()->getOperand(0));
}

/// Reduces the values `value` of the `size` work-items of a work-group
/// (a power of two) through `shared`, a work-group buffer of `size`
/// elements: a tree of halving steps with a barrier after each. Leaves the
/// group's result in `shared[0]`.
void reduceInWorkGroup(OpBuilder &b, Location loc, Block &combiner,
                       Value shared, Value threadId, Value value,
                       int64_t size) {
  memref::StoreOp::create(b, loc, value, shared, threadId);
  gpu::BarrierOp::create(b, loc);
  for (int64_t half = size / 2; half >= 1; half /= 2) {
    Value halfValue = arith::ConstantIndexOp::create(b, loc, half);
    Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         threadId, halfValue);
    auto ifOp = scf::IfOp::create(b, loc, active, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value other = arith::AddIOp::create(b, loc, threadId, halfValue);
      Value mine = memref::LoadOp::create(b, loc, shared, threadId);
      Value theirs = memref::LoadOp::create(b, loc, shared, other);
      memref::StoreOp::create(b, loc, combine(b, combiner, mine, theirs),
                              shared, threadId);
    }
    gpu::BarrierOp::create(b, loc);
  }
}

/// Builds `gpu.launch` of `groups` x `size` work-items with a work-group
/// buffer of `size` elements of `type`; `body` fills it before the
/// terminator.
void buildLaunch(OpBuilder &b, Location loc, Value groups, int64_t size,
                 Type type,
                 function_ref<void(OpBuilder &, gpu::LaunchOp)> body) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value threads = arith::ConstantIndexOp::create(b, loc, size);
  auto sharedType = MemRefType::get(
      {size}, type, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  auto launch = gpu::LaunchOp::create(
      b, loc, groups, one, one, threads, one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/ValueRange{},
      /*workgroupAttributions=*/TypeRange{sharedType});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  body(b, launch);
  gpu::TerminatorOp::create(b, loc);
}

/// A parallel loop with one scalar reduction (a whole-array `reduce`)
/// becomes a two-level tree: a kernel in which each work-item folds a
/// grid-strided share of the iterations and each work-group reduces its
/// work-items' values to one partial result, then a one-group kernel that
/// reduces the partial results. The host reads the final value.
LogicalResult reduceOnGrid(IRRewriter &rewriter, scf::ParallelOp loop,
                           int64_t blockSize) {
  if (loop.getNumReductions() != 1)
    return success(); // Stays on the host.
  Type type = loop.getResult(0).getType();
  if (!type.isIntOrFloat())
    return success();
  // A power of two for the halving tree.
  int64_t size = 1;
  while (size * 2 <= blockSize)
    size *= 2;
  constexpr int64_t kMaxGroups = 1024;

  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  OpBuilder &b = rewriter;
  auto reduce = cast<scf::ReduceOp>(loop.getBody()->getTerminator());
  Block &combiner = reduce.getReductions()[0].front();
  Value identity = loop.getInitVals()[0];
  unsigned rank = loop.getNumLoops();

  // Iteration counts (steps of scf.parallel are positive).
  SmallVector<Value> counts;
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (unsigned dim = 0; dim < rank; ++dim) {
    Value extent = arith::SubIOp::create(b, loc, loop.getUpperBound()[dim],
                                         loop.getLowerBound()[dim]);
    Value count =
        arith::CeilDivSIOp::create(b, loc, extent, loop.getStep()[dim]);
    count = arith::MaxSIOp::create(b, loc, count,
                                   arith::ConstantIndexOp::create(b, loc, 0));
    counts.push_back(count);
    total = arith::MulIOp::create(b, loc, total, count);
  }
  Value sizeValue = arith::ConstantIndexOp::create(b, loc, size);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value groups = arith::CeilDivSIOp::create(b, loc, total, sizeValue);
  groups = arith::MinSIOp::create(
      b, loc, groups, arith::ConstantIndexOp::create(b, loc, kMaxGroups));
  groups = arith::MaxSIOp::create(b, loc, groups, one);
  auto partialType = MemRefType::get({ShapedType::kDynamic}, type);
  Value partial = memref::AllocOp::create(b, loc, partialType, groups);
  Value result = memref::AllocOp::create(b, loc, MemRefType::get({1}, type));

  // Level 1: every work-item folds iterations k, k + stride, ... (k its
  // global number), then its work-group reduces.
  buildLaunch(b, loc, groups, size, type, [&](OpBuilder &b, gpu::LaunchOp l) {
    Value thread = l.getThreadIds().x, group = l.getBlockIds().x;
    Value shared = l.getWorkgroupAttributions()[0];
    Value first = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, group, sizeValue), thread);
    Value stride = arith::MulIOp::create(b, loc, groups, sizeValue);
    auto fold = scf::ForOp::create(
        b, loc, first, total, stride, ValueRange{identity},
        [&](OpBuilder &b, Location loc, Value k, ValueRange accumulator) {
          // Iteration k, row-major over the loop's dimensions. What is
          // left for the outermost dimension is below its count (k <
          // total): no division there, and none at all in one dimension
          // (a 64-bit division per element halved the bandwidth of a sum
          // through NVIDIA's Vulkan driver).
          IRMapping mapping;
          Value rest = k;
          for (int dim = rank - 1; dim >= 0; --dim) {
            Value within = rest;
            if (dim > 0) {
              within = arith::RemUIOp::create(b, loc, rest, counts[dim]);
              rest = arith::DivUIOp::create(b, loc, rest, counts[dim]);
            }
            Value iv = arith::AddIOp::create(
                b, loc, loop.getLowerBound()[dim],
                arith::MulIOp::create(b, loc, within, loop.getStep()[dim]));
            mapping.map(loop.getInductionVars()[dim], iv);
          }
          for (Operation &op : loop.getBody()->without_terminator())
            b.clone(op, mapping);
          Value element = mapping.lookupOrDefault(reduce.getOperands()[0]);
          scf::YieldOp::create(b, loc,
                               combine(b, combiner, accumulator[0], element));
        });
    reduceInWorkGroup(b, loc, combiner, shared, thread, fold.getResult(0),
                      size);
    Value leader =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                              arith::ConstantIndexOp::create(b, loc, 0));
    auto ifOp = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    memref::StoreOp::create(
        b, loc, memref::LoadOp::create(b, loc, shared, zero), partial, group);
  });

  // Level 2: one work-group reduces the partial results.
  buildLaunch(b, loc, one, size, type, [&](OpBuilder &b, gpu::LaunchOp l) {
    Value thread = l.getThreadIds().x;
    Value shared = l.getWorkgroupAttributions()[0];
    auto fold = scf::ForOp::create(
        b, loc, thread, groups, sizeValue, ValueRange{identity},
        [&](OpBuilder &b, Location loc, Value k, ValueRange accumulator) {
          Value element = memref::LoadOp::create(b, loc, partial, k);
          scf::YieldOp::create(b, loc,
                               combine(b, combiner, accumulator[0], element));
        });
    reduceInWorkGroup(b, loc, combiner, shared, thread, fold.getResult(0),
                      size);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value leader =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, zero);
    auto ifOp = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::StoreOp::create(
        b, loc, memref::LoadOp::create(b, loc, shared, zero), result, zero);
  });

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value value = memref::LoadOp::create(b, loc, result, zero);
  rewriter.replaceOp(loop, value);
  return success();
}

/// a + b and a * b in the integer or float type of the values.
Value addValues(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return arith::AddFOp::create(b, loc, lhs, rhs);
  return arith::AddIOp::create(b, loc, lhs, rhs);
}
Value mulValues(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return arith::MulFOp::create(b, loc, lhs, rhs);
  return arith::MulIOp::create(b, loc, lhs, rhs);
}

/// `acc + lhs * rhs`: fused for floats (one rounding, one instruction, as
/// BLAS does; the OpenCL C is compiled without contraction).
Value multiplyAdd(OpBuilder &b, Location loc, Value lhs, Value rhs, Value acc) {
  if (isa<FloatType>(acc.getType()))
    return math::FmaOp::create(b, loc, lhs, rhs, acc);
  return arith::AddIOp::create(b, loc, acc,
                               arith::MulIOp::create(b, loc, lhs, rhs));
}

/// The shape of the tiled matrix-product kernel: each work-group of
/// `threadsX` x `threadsY` work-items computes a `tileM` x `tileN` tile of C
/// from `tileM` x `tileK` tiles of A and `tileK` x `tileN` tiles of B staged
/// in work-group memory; each work-item keeps (tileM / threadsY) x
/// (tileN / threadsX) sums in registers.
struct MatmulTiling {
  int64_t tileM, tileN, tileK, threadsX, threadsY;

  int64_t rowsPerItem() const { return tileM / threadsY; }
  int64_t colsPerItem() const { return tileN / threadsX; }
  int64_t threads() const { return threadsX * threadsY; }

  /// Why this shape cannot be used, or an empty string.
  std::string check() const {
    if (tileM <= 0 || tileN <= 0 || tileK <= 0 || threadsX <= 0 ||
        threadsY <= 0)
      return "tile sizes and thread counts must be positive";
    if (tileN % threadsX || tileM % threadsY)
      return "tile-n must be a multiple of threads-x and tile-m of threads-y";
    if ((tileM * tileK) % threads() || (tileK * tileN) % threads())
      return "the tiles of A (tile-m x tile-k) and of B (tile-k x tile-n) "
             "must have a multiple of threads-x * threads-y elements";
    if (rowsPerItem() * colsPerItem() > 256)
      return "more than 256 sums per work-item";
    return "";
  }
};

/// The tilings of matrix products by element type: the pass's options
/// where set (non-zero), else the element type's default, the fastest of
/// those measured on an H200 through OpenCL and Vulkan (2026-11-29,
/// benchmarks/gpu/README.md): `f64` takes 64x64 tiles 8 deep with 8x8
/// work-items (8x8 sums each; 128x64 tiles ran 1.1x faster through OpenCL
/// and 1.03x slower through Vulkan), other types 128x128 tiles 16 deep
/// with 16x16 work-items (8x8 sums each: SGEMM 4096 through Vulkan in 4.8
/// ms against 6.4 with the tiles 8 deep, 6.0 with 128x64x8 and 7.4 with
/// 64x128x8; through OpenCL 5.3 ms with 128x128x8 in an earlier run,
/// against 5.9 with 64x64x8 and 7.4 with 64x64x16 tiles).
struct MatmulTilings {
  MatmulTiling f64, other;

  MatmulTilings(ArrayRef<int64_t> options) {
    const int64_t f64Defaults[] = {64, 64, 8, 8, 8};
    const int64_t otherDefaults[] = {128, 128, 16, 16, 16};
    auto pick = [&](ArrayRef<int64_t> defaults) {
      SmallVector<int64_t, 5> chosen;
      for (auto [option, fallback] : llvm::zip(options, defaults))
        chosen.push_back(option != 0 ? option : fallback);
      return MatmulTiling{chosen[0], chosen[1], chosen[2], chosen[3],
                          chosen[4]};
    };
    f64 = pick(f64Defaults);
    other = pick(otherDefaults);
  }

  const MatmulTiling &get(Type element) const {
    return element.isF64() ? f64 : other;
  }

  /// Why the tiling of some element type cannot be used, or "".
  std::string check() const {
    if (std::string problem = f64.check(); !problem.empty())
      return problem + " (the tiling of f64)";
    return other.check();
  }
};

/// `C += A @ B` (a `linalg.matmul` on 2-D memrefs of integers or floats,
/// no user-defined maps) as a tiled kernel with register blocking (the
/// scheme of RaijinCL, thesis chapter 8, and of CUDA's SGEMM kernels).
///
/// Work-item (x, y) keeps the sums of its rows and columns of the group's
/// tile of C in runs of up to 16 bytes (4 floats, 2 doubles): rows
/// y * run + i and, per further run, threadsY * run rows further down (the
/// same for columns with x), so that a warp's updates of C cover
/// consecutive elements. The tiles of A and B staged in work-group memory
/// hold such runs as vectors: each of the work-item's runs of A or B values
/// for one depth is one 16-byte load there (device compilers do not form
/// those from scalar loads of work-group arrays), four times fewer loads
/// per multiply-add than scalars. A's tile is k-major (transposed) with a
/// run of padding per row, so that the runs of consecutive rows a work-item
/// stores fall in distinct banks.
///
/// The work-items of a group stage the tiles walking them in row-major
/// order, run by run (consecutive work-items read consecutive elements of
/// A's rows and runs of B's). The loads of the next tiles are issued before
/// the products of the current ones (their values wait in registers),
/// which hides their latency; the loop over a tile's depth is unrolled.
/// Elements outside A, B or C read as zero and are not written; a group
/// whose tiles lie inside the matrices loads them without bounds tests
/// (SGEMM 4096 on an H200: 4.84 ms against 5.72 with them). Returns false
/// (and changes nothing) for other matmuls.
bool tileMatmul(IRRewriter &rewriter, linalg::MatmulOp matmul,
                const MatmulTilings &tilings) {
  if (matmul.hasUserDefinedMaps() || !matmul.hasPureBufferSemantics())
    return false;
  Value a = matmul.getDpsInputOperand(0)->get();
  Value bMatrix = matmul.getDpsInputOperand(1)->get();
  Value c = matmul.getDpsInitOperand(0)->get();
  auto cType = dyn_cast<MemRefType>(c.getType());
  if (!cType || cType.getRank() != 2)
    return false;
  Type type = cType.getElementType();
  if (!type.isIntOrFloat() ||
      cast<MemRefType>(a.getType()).getElementType() != type ||
      cast<MemRefType>(bMatrix.getType()).getElementType() != type)
    return false;

  const MatmulTiling &tiling = tilings.get(type);
  const int64_t rowsPerItem = tiling.rowsPerItem();
  const int64_t colsPerItem = tiling.colsPerItem();
  // Runs of 16 bytes (at most 4 elements) of floats and 32- or 64-bit
  // integers: the vectors the tiles hold. A tiling whose work-items have
  // no whole runs of rows (columns), or whose tiles would not split evenly
  // into runs among the work-items, keeps scalars there.
  const unsigned bits = type.getIntOrFloatBitWidth();
  const int64_t width = isa<FloatType>(type) || bits == 32 || bits == 64
                            ? std::clamp<int64_t>(128 / bits, 1, 4)
                            : 1;
  auto runOf = [&](int64_t perItem, int64_t tileElements) -> int64_t {
    return perItem % width == 0 &&
                   (tileElements / width) % tiling.threads() == 0
               ? width
               : 1;
  };
  const int64_t rowRun = runOf(rowsPerItem, tiling.tileM * tiling.tileK);
  const int64_t colRun = runOf(colsPerItem, tiling.tileK * tiling.tileN);
  auto runType = [&](int64_t run) -> Type {
    return run == 1 ? type : VectorType::get({run}, type);
  };
  Location loc = matmul.getLoc();
  OpBuilder &b = rewriter;
  rewriter.setInsertionPoint(matmul);
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value m = memref::DimOp::create(b, loc, c, 0);
  Value n = memref::DimOp::create(b, loc, c, 1);
  Value k = memref::DimOp::create(b, loc, a, 1);
  Value one = index(1);
  Value groupsX = arith::CeilDivSIOp::create(b, loc, n, index(tiling.tileN));
  Value groupsY = arith::CeilDivSIOp::create(b, loc, m, index(tiling.tileM));
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  // A's tile is k-major, with one run of padding per row.
  auto aTileType = MemRefType::get({tiling.tileK, tiling.tileM / rowRun + 1},
                                   runType(rowRun), AffineMap(), workgroup);
  auto bTileType = MemRefType::get({tiling.tileK, tiling.tileN / colRun},
                                   runType(colRun), AffineMap(), workgroup);
  auto launch = gpu::LaunchOp::create(
      b, loc, groupsX, groupsY, one, index(tiling.threadsX),
      index(tiling.threadsY), one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/ValueRange{},
      /*workgroupAttributions=*/TypeRange{aTileType, bTileType});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  auto add = [&](Value lhs, Value rhs) -> Value {
    return arith::AddIOp::create(b, loc, lhs, rhs);
  };
  auto mul = [&](Value lhs, int64_t rhs) -> Value {
    return arith::MulIOp::create(b, loc, lhs, index(rhs));
  };
  Value rowBase = mul(launch.getBlockIds().y, tiling.tileM);
  Value colBase = mul(launch.getBlockIds().x, tiling.tileN);
  // The work-item's place in row-major order within its group.
  Value linearId = add(mul(ty, tiling.threadsX), tx);
  Value aTile = launch.getWorkgroupAttributions()[0];
  Value bTile = launch.getWorkgroupAttributions()[1];
  Value zero = lowering::getZero(b, loc, type);
  auto inBounds = [&](Value i, Value extent) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i, extent);
  };
  auto guardedLoad = [&](Value memref, Value i, Value iExtent, Value j,
                         Value jExtent) -> Value {
    Value ok = arith::AndIOp::create(b, loc, inBounds(i, iExtent),
                                     inBounds(j, jExtent));
    auto ifOp = scf::IfOp::create(
        b, loc, ok,
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(
              b, loc,
              memref::LoadOp::create(b, loc, memref, ValueRange{i, j})
                  .getResult());
        },
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(b, loc, zero);
        });
    return ifOp.getResult(0);
  };
  // The places of a `height` x `tileWidth` tile (counted in runs) that the
  // work-item stages: every threads()-th in row-major order from its own.
  // Computed once, before the loop over k; when a group's share is whole
  // rows, the others are whole rows further down.
  struct Placement {
    Value row, col;
  };
  auto placements = [&](int64_t height, int64_t tileWidth) {
    Placement first{arith::DivUIOp::create(b, loc, linearId, index(tileWidth)),
                    arith::RemUIOp::create(b, loc, linearId, index(tileWidth))};
    SmallVector<Placement> elements;
    for (int64_t offset = 0; offset < height * tileWidth;
         offset += tiling.threads()) {
      if (offset == 0) {
        elements.push_back(first);
      } else if (offset % tileWidth == 0) {
        elements.push_back(
            {add(first.row, index(offset / tileWidth)), first.col});
      } else {
        Value linear = add(linearId, index(offset));
        elements.push_back(
            {arith::DivUIOp::create(b, loc, linear, index(tileWidth)),
             arith::RemUIOp::create(b, loc, linear, index(tileWidth))});
      }
    }
    return elements;
  };
  // A's places are (run of rows, k), B's (k, run of columns).
  SmallVector<Placement> aRuns =
      placements(tiling.tileM / rowRun, tiling.tileK);
  SmallVector<Placement> bRuns =
      placements(tiling.tileK, tiling.tileN / colRun);
  auto offsetBy = [&](Value value, int64_t offset) {
    return offset ? add(value, index(offset)) : value;
  };
  auto scaled = [&](Value value, int64_t factor) {
    return factor == 1 ? value : mul(value, factor);
  };
  // Whether the group's tiles of C, and so its rows of A and columns of B,
  // lie inside the matrices (all groups but the last row and column).
  auto fitsIn = [&](Value corner, int64_t size, Value extent) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                 add(corner, index(size)), extent);
  };
  Value groupInside =
      arith::AndIOp::create(b, loc, fitsIn(rowBase, tiling.tileM, m),
                            fitsIn(colBase, tiling.tileN, n));
  // The work-item's elements of the tiles of A and B at depth k0, run by
  // run, zero outside the matrices. Where the whole tiles lie inside (a
  // condition the same for every work-item of the group), without the
  // bounds tests.
  auto loadTiles = [&](Value k0) -> SmallVector<Value> {
    auto load = [&](bool guarded) {
      auto element = [&](Value matrix, Value i, Value iExtent, Value j,
                         Value jExtent) -> Value {
        if (guarded)
          return guardedLoad(matrix, i, iExtent, j, jExtent);
        return memref::LoadOp::create(b, loc, matrix, ValueRange{i, j});
      };
      SmallVector<Value> values;
      for (const Placement &run : aRuns) {
        Value firstRow = add(rowBase, scaled(run.row, rowRun));
        for (int64_t i = 0; i < rowRun; ++i)
          values.push_back(
              element(a, offsetBy(firstRow, i), m, add(k0, run.col), k));
      }
      for (const Placement &run : bRuns) {
        Value firstCol = add(colBase, scaled(run.col, colRun));
        for (int64_t i = 0; i < colRun; ++i)
          values.push_back(
              element(bMatrix, add(k0, run.row), k, offsetBy(firstCol, i), n));
      }
      return values;
    };
    Value whole =
        arith::AndIOp::create(b, loc, groupInside, fitsIn(k0, tiling.tileK, k));
    const size_t count = aRuns.size() * rowRun + bRuns.size() * colRun;
    auto ifOp = scf::IfOp::create(b, loc, SmallVector<Type>(count, type), whole,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, load(/*guarded=*/false));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, load(/*guarded=*/true));
    return SmallVector<Value>(ifOp.getResults());
  };
  // Stores `values` (runs of `run` elements) at `places` of `tile`.
  auto storeRuns = [&](Value tile, ArrayRef<Placement> places, int64_t run,
                       bool transposed, ValueRange values) {
    for (auto [i, place] : llvm::enumerate(places)) {
      ValueRange elements = values.slice(i * run, run);
      Value stored = run == 1
                         ? elements.front()
                         : vector::FromElementsOp::create(
                               b, loc, cast<VectorType>(runType(run)), elements)
                               .getResult();
      memref::StoreOp::create(b, loc, stored, tile,
                              transposed ? ValueRange{place.col, place.row}
                                         : ValueRange{place.row, place.col});
    }
  };
  auto storeTiles = [&](ValueRange values) {
    const size_t aCount = aRuns.size() * rowRun;
    storeRuns(aTile, aRuns, rowRun, /*transposed=*/true,
              values.take_front(aCount));
    storeRuns(bTile, bRuns, colRun, /*transposed=*/false,
              values.drop_front(aCount));
  };
  // The elements of the run of `tile` at (kk, place): one load.
  auto loadRun = [&](Value tile, Value kk, Value place, int64_t run,
                     SmallVectorImpl<Value> &elements) {
    Value loaded = memref::LoadOp::create(b, loc, tile, ValueRange{kk, place});
    if (run == 1) {
      elements.push_back(loaded);
      return;
    }
    for (int64_t i = 0; i < run; ++i)
      elements.push_back(vector::ExtractOp::create(b, loc, loaded, i));
  };
  // The rows and columns of the work-item's sums within the group's tile of
  // C: runs of `rowRun` consecutive rows, threadsY runs apart (the same for
  // columns).
  SmallVector<Value> itemRows, itemCols;
  Value firstRow = scaled(ty, rowRun), firstCol = scaled(tx, colRun);
  for (int64_t r = 0; r < rowsPerItem; ++r)
    itemRows.push_back(offsetBy(
        firstRow, (r / rowRun) * tiling.threadsY * rowRun + r % rowRun));
  for (int64_t col = 0; col < colsPerItem; ++col)
    itemCols.push_back(offsetBy(
        firstCol, (col / colRun) * tiling.threadsX * colRun + col % colRun));

  const int64_t sums = rowsPerItem * colsPerItem;
  SmallVector<Value> initial(sums, zero);
  llvm::append_range(initial, loadTiles(index(0)));
  scf::ForOp innerLoop;
  auto kLoop = scf::ForOp::create(
      b, loc, index(0), k, index(tiling.tileK), initial,
      [&](OpBuilder &b, Location loc, Value k0, ValueRange carried) {
        storeTiles(carried.drop_front(sums));
        gpu::BarrierOp::create(b, loc);
        SmallVector<Value> next = loadTiles(add(k0, index(tiling.tileK)));
        auto inner = scf::ForOp::create(
            b, loc, index(0), index(tiling.tileK), one,
            carried.take_front(sums),
            [&](OpBuilder &b, Location loc, Value kk, ValueRange acc) {
              // Run j of the work-item's rows is run y + threadsY * j of
              // the tile's (the same for columns).
              SmallVector<Value> aValues, bValues;
              for (int64_t j = 0; j < rowsPerItem / rowRun; ++j)
                loadRun(aTile, kk, offsetBy(ty, j * tiling.threadsY), rowRun,
                        aValues);
              for (int64_t j = 0; j < colsPerItem / colRun; ++j)
                loadRun(bTile, kk, offsetBy(tx, j * tiling.threadsX), colRun,
                        bValues);
              SmallVector<Value> updated;
              for (int64_t r = 0; r < rowsPerItem; ++r)
                for (int64_t col = 0; col < colsPerItem; ++col)
                  updated.push_back(multiplyAdd(b, loc, aValues[r],
                                                bValues[col],
                                                acc[r * colsPerItem + col]));
              scf::YieldOp::create(b, loc, updated);
            });
        innerLoop = inner;
        SmallVector<Value> results(inner.getResults());
        gpu::BarrierOp::create(b, loc);
        llvm::append_range(results, next);
        scf::YieldOp::create(b, loc, results);
      });

  // Unrolled, the loads of one depth from work-group memory have constant
  // offsets and overlap the products of the previous depth.
  (void)loopUnrollFull(innerLoop);

  // C[row, col] += the work-item's sums.
  for (int64_t r = 0; r < rowsPerItem; ++r) {
    Value row = add(rowBase, itemRows[r]);
    for (int64_t col = 0; col < colsPerItem; ++col) {
      Value column = add(colBase, itemCols[col]);
      Value ok =
          arith::AndIOp::create(b, loc, inBounds(row, m), inBounds(column, n));
      auto ifOp = scf::IfOp::create(b, loc, ok, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value old = memref::LoadOp::create(b, loc, c, ValueRange{row, column});
      Value sum =
          addValues(b, loc, old, kLoop.getResult(r * colsPerItem + col));
      memref::StoreOp::create(b, loc, sum, c, ValueRange{row, column});
    }
  }
  gpu::TerminatorOp::create(b, loc);
  rewriter.eraseOp(matmul);
  return true;
}

/// `y += A @ x` (a `linalg.matvec` on integers or floats whose matrix has
/// unit stride along its rows) with a row per 32 work-items: each group of
/// 32x8 work-items takes 8 rows; the 32 work-items of a row read it in
/// consecutive chunks (coalesced), then sum their partial results in
/// work-group memory by halving. Column-major matrices keep the default
/// form (a work-item per row already reads consecutive elements). Returns
/// false (and changes nothing) for other matvecs.
bool tileMatvec(IRRewriter &rewriter, linalg::MatvecOp matvec) {
  constexpr int64_t kLanes = 32, kRows = 8;
  if (!matvec.hasPureBufferSemantics())
    return false;
  Value a = matvec.getDpsInputOperand(0)->get();
  Value x = matvec.getDpsInputOperand(1)->get();
  Value y = matvec.getDpsInitOperand(0)->get();
  auto aType = dyn_cast<MemRefType>(a.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!aType || aType.getRank() != 2 ||
      failed(aType.getStridesAndOffset(strides, offset)) || strides[1] != 1)
    return false;
  Type type = aType.getElementType();
  if (!type.isIntOrFloat() ||
      cast<MemRefType>(x.getType()).getElementType() != type ||
      cast<MemRefType>(y.getType()).getElementType() != type)
    return false;

  Location loc = matvec.getLoc();
  OpBuilder &b = rewriter;
  rewriter.setInsertionPoint(matvec);
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value m = memref::DimOp::create(b, loc, a, 0);
  Value n = memref::DimOp::create(b, loc, a, 1);
  Value one = index(1), lanes = index(kLanes);
  Value groups = arith::CeilDivSIOp::create(b, loc, m, index(kRows));
  auto sharedType = MemRefType::get(
      {kRows, kLanes}, type, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  auto launch = gpu::LaunchOp::create(
      b, loc, groups, one, one, lanes, index(kRows), one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/ValueRange{},
      /*workgroupAttributions=*/TypeRange{sharedType});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value lane = launch.getThreadIds().x, rowInGroup = launch.getThreadIds().y;
  Value shared = launch.getWorkgroupAttributions()[0];
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x, index(kRows)),
      rowInGroup);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, m);
  // Rows past the end contribute nothing (their loop runs no iteration);
  // every work-item takes part in the barriers.
  Value columns = arith::SelectOp::create(b, loc, inside, n, index(0));
  auto partial = scf::ForOp::create(
      b, loc, lane, columns, lanes, ValueRange{lowering::getZero(b, loc, type)},
      [&](OpBuilder &b, Location loc, Value j, ValueRange acc) {
        Value product = mulValues(
            b, loc, memref::LoadOp::create(b, loc, a, ValueRange{row, j}),
            memref::LoadOp::create(b, loc, x, ValueRange{j}));
        scf::YieldOp::create(b, loc, addValues(b, loc, acc[0], product));
      });
  memref::StoreOp::create(b, loc, partial.getResult(0), shared,
                          ValueRange{rowInGroup, lane});
  gpu::BarrierOp::create(b, loc);
  for (int64_t half = kLanes / 2; half >= 1; half /= 2) {
    Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         lane, index(half));
    auto ifOp = scf::IfOp::create(b, loc, active, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value other = arith::AddIOp::create(b, loc, lane, index(half));
      Value sum = addValues(
          b, loc,
          memref::LoadOp::create(b, loc, shared, ValueRange{rowInGroup, lane}),
          memref::LoadOp::create(b, loc, shared,
                                 ValueRange{rowInGroup, other}));
      memref::StoreOp::create(b, loc, sum, shared,
                              ValueRange{rowInGroup, lane});
    }
    gpu::BarrierOp::create(b, loc);
  }
  Value leader = arith::AndIOp::create(
      b, loc, inside,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0)));
  auto ifOp = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value total = memref::LoadOp::create(b, loc, shared,
                                         ValueRange{rowInGroup, index(0)});
    Value old = memref::LoadOp::create(b, loc, y, ValueRange{row});
    memref::StoreOp::create(b, loc, addValues(b, loc, old, total), y,
                            ValueRange{row});
  }
  gpu::TerminatorOp::create(b, loc);
  rewriter.eraseOp(matvec);
  return true;
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
    MatmulTilings tilings({matmulTileM, matmulTileN, matmulTileK,
                           matmulThreadsX, matmulThreadsY});
    if (std::string problem = tilings.check(); !problem.empty()) {
      getOperation().emitError("vrir-gpu-map-sections: bad matrix-product "
                               "tiling: ")
          << problem;
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    for (Operation *section : lowering::collectGpuSections(getOperation()))
      if (failed(mapSection(rewriter, cast<scf::ExecuteRegionOp>(section),
                            blockSize, tilings)))
        return signalPassFailure();
  }

  /// Views of the parts of complex arrays defined outside `loop` move in
  /// front of it (`Z.imag[i] = ...` in a parallel loop): the kernel then
  /// takes the view as a buffer of its component type, where the kernel ABI
  /// has no view that changes an element type.
  static void hoistPartViews(scf::ParallelOp loop) {
    SmallVector<MemRefPartViewOp> views;
    loop.walk([&](MemRefPartViewOp view) {
      if (loop.isDefinedOutsideOfLoop(view.getSource()))
        views.push_back(view);
    });
    for (MemRefPartViewOp view : views)
      view->moveBefore(loop);
  }

  LogicalResult mapSection(IRRewriter &rewriter, scf::ExecuteRegionOp section,
                           ArrayRef<int64_t> blockSize,
                           const MatmulTilings &tilings) {
    // Array operations: parallel loops, except inside a kernel, where they
    // are serial loops of one work-item.
    // (The host versions of kernels, `vrir-gpu-cpu-fallback`'s, stay as
    // they are.)
    SmallVector<linalg::LinalgOp> linalgOps;
    section.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (gpuabi::isGpuFallback(op))
        return WalkResult::skip();
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
        linalgOps.push_back(linalgOp);
      return WalkResult::advance();
    });
    for (linalg::LinalgOp op : linalgOps) {
      rewriter.setInsertionPoint(op);
      bool inKernel =
          op->getParentOfType<scf::ParallelOp>() &&
          section->isProperAncestor(op->getParentOfType<scf::ParallelOp>());
      if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation()))
        if (!inKernel && tileMatmul(rewriter, matmul, tilings))
          continue;
      if (auto matvec = dyn_cast<linalg::MatvecOp>(op.getOperation()))
        if (!inKernel && tileMatvec(rewriter, matvec))
          continue;
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

    // Outermost parallel loops become kernels; a loop with one scalar
    // reduction becomes two (a reduction tree).
    SmallVector<scf::ParallelOp> kernels, reductions;
    section.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (gpuabi::isGpuFallback(op))
        return WalkResult::skip();
      auto loop = dyn_cast<scf::ParallelOp>(op);
      if (!loop)
        return WalkResult::advance();
      (loop.getNumReductions() == 0 ? kernels : reductions).push_back(loop);
      return WalkResult::skip();
    });
    for (scf::ParallelOp loop : kernels) {
      hoistPartViews(loop);
      mapToGrid(loop, blockSize);
    }
    for (scf::ParallelOp loop : reductions) {
      hoistPartViews(loop);
      if (failed(reduceOnGrid(rewriter, loop, blockSize[0])))
        return failure();
    }
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
