//===- GpuKernelABI.cpp - Arrays as flat buffers in outlined kernels ------===//
//
// Kernels outlined from GPU sections take memrefs of any rank and layout;
// GPU targets take flat buffers. This pass rewrites each memref argument
// into a 1-D buffer, an element offset, sizes and strides (see GpuABI.h),
// linearizes the kernel's accesses, and passes the matching values at the
// launch. It also proves what it can about the buffers (read-only, no
// alias) for the code generators.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "GpuABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_GPUKERNELABI
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

gpuabi::ElementSpan gpuabi::computeElementSpan(OpBuilder &b, Location loc,
                                               Value offset, ValueRange sizes,
                                               ValueRange strides) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value lowest = offset, highest = offset;
  Value empty = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  for (auto [size, stride] : llvm::zip(sizes, strides)) {
    Value last = arith::SubIOp::create(b, loc, size, one);
    Value reach = arith::MulIOp::create(b, loc, last, stride);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, stride, zero);
    lowest = arith::AddIOp::create(
        b, loc, lowest, arith::SelectOp::create(b, loc, negative, reach, zero));
    highest = arith::AddIOp::create(
        b, loc, highest,
        arith::SelectOp::create(b, loc, negative, zero, reach));
    Value isEmpty =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, size, zero);
    empty = arith::OrIOp::create(b, loc, empty, isEmpty);
  }
  lowest = arith::SelectOp::create(b, loc, empty, offset, lowest);
  highest = arith::SelectOp::create(b, loc, empty, offset, highest);
  return {lowest, highest, empty};
}

gpuabi::ByteRange gpuabi::computeByteRange(OpBuilder &b, Location loc,
                                           Value alignedBase, Value offset,
                                           ValueRange sizes, ValueRange strides,
                                           int64_t elementBytes) {
  ElementSpan span = computeElementSpan(b, loc, offset, sizes, strides);
  Value elementSize = arith::ConstantIndexOp::create(b, loc, elementBytes);
  Value lowestByte = arith::AddIOp::create(
      b, loc, alignedBase,
      arith::MulIOp::create(b, loc, span.lowest, elementSize));
  Value count = arith::AddIOp::create(
      b, loc, arith::SubIOp::create(b, loc, span.highest, span.lowest),
      arith::ConstantIndexOp::create(b, loc, 1));
  count = arith::SelectOp::create(
      b, loc, span.empty, arith::ConstantIndexOp::create(b, loc, 0), count);
  return {lowestByte, arith::MulIOp::create(b, loc, count, elementSize),
          span.lowest};
}

namespace {

/// An array inside the kernel: its flat buffer, offset, sizes and strides.
struct FlatView {
  Value buffer, offset;
  SmallVector<Value> sizes, strides;
};

/// Rewrites the uses of `memref` (a kernel argument or a view of one) in
/// terms of `view`. Records whether anything writes the buffer.
LogicalResult rewriteUses(OpBuilder &b, Value memref, const FlatView &view,
                          bool &written) {
  auto linearize = [&](Location loc, ValueRange indices) {
    Value linear = view.offset;
    for (auto [index, stride] : llvm::zip(indices, view.strides))
      linear = arith::AddIOp::create(
          b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
    return linear;
  };
  for (Operation *user : llvm::make_early_inc_range(memref.getUsers())) {
    b.setInsertionPoint(user);
    Location loc = user->getLoc();
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      Value linear = linearize(loc, load.getIndices());
      load.replaceAllUsesWith(
          memref::LoadOp::create(b, loc, view.buffer, linear).getResult());
    } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
      Value linear = linearize(loc, store.getIndices());
      memref::StoreOp::create(b, loc, store.getValueToStore(), view.buffer,
                              linear);
      written = true;
    } else if (auto atomic = dyn_cast<memref::AtomicRMWOp>(user)) {
      Value linear = linearize(loc, atomic.getIndices());
      atomic.replaceAllUsesWith(
          memref::AtomicRMWOp::create(b, loc, atomic.getKind(),
                                      atomic.getValue(), view.buffer, linear)
              .getResult());
      written = true;
    } else if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(user)) {
      Value linear = linearize(loc, atomic.getIndices());
      auto replacement =
          memref::GenericAtomicRMWOp::create(b, loc, view.buffer, linear);
      Region &body = replacement.getAtomicBody();
      body.front().erase();
      body.takeBody(atomic.getAtomicBody());
      atomic.replaceAllUsesWith(replacement.getResult());
      written = true;
    } else if (auto dim = dyn_cast<memref::DimOp>(user)) {
      std::optional<int64_t> index = dim.getConstantIndex();
      if (!index || *index < 0 ||
          *index >= static_cast<int64_t>(view.sizes.size()))
        return dim.emitOpError("with a dynamic or invalid dimension cannot be "
                               "lowered in a GPU kernel");
      dim.replaceAllUsesWith(view.sizes[*index]);
    } else if (auto cast = dyn_cast<memref::CastOp>(user)) {
      if (failed(rewriteUses(b, cast.getResult(), view, written)))
        return failure();
    } else if (auto reinterpret = dyn_cast<memref::ReinterpretCastOp>(user)) {
      // Offset, sizes and strides relative to the same base buffer.
      FlatView result{view.buffer, {}, {}, {}};
      auto values = [&](ArrayRef<OpFoldResult> mixed) {
        SmallVector<Value> out;
        for (OpFoldResult value : mixed)
          out.push_back(getValueOrCreateConstantIndexOp(b, loc, value));
        return out;
      };
      result.offset = values(reinterpret.getMixedOffsets()).front();
      result.sizes = values(reinterpret.getMixedSizes());
      result.strides = values(reinterpret.getMixedStrides());
      if (failed(rewriteUses(b, reinterpret.getResult(), result, written)))
        return failure();
    } else if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
      FlatView result{view.buffer, view.offset, {}, {}};
      llvm::SmallBitVector dropped = subview.getDroppedDims();
      for (unsigned dim = 0; dim < view.sizes.size(); ++dim) {
        Value start = getValueOrCreateConstantIndexOp(
            b, loc, subview.getMixedOffsets()[dim]);
        Value step = getValueOrCreateConstantIndexOp(
            b, loc, subview.getMixedStrides()[dim]);
        result.offset = arith::AddIOp::create(
            b, loc, result.offset,
            arith::MulIOp::create(b, loc, start, view.strides[dim]));
        if (dropped.test(dim))
          continue;
        result.sizes.push_back(getValueOrCreateConstantIndexOp(
            b, loc, subview.getMixedSizes()[dim]));
        result.strides.push_back(
            arith::MulIOp::create(b, loc, step, view.strides[dim]));
      }
      if (failed(rewriteUses(b, subview.getResult(), result, written)))
        return failure();
    } else {
      return user->emitOpError("uses an array in a way the GPU kernel ABI "
                               "does not support yet");
    }
    user->erase();
  }
  return success();
}

} // namespace

Value gpuabi::getLocalAllocation(Value memref) {
  while (true) {
    Operation *def = memref.getDefiningOp();
    if (!def)
      return {};
    if (isa<memref::AllocOp, memref::AllocaOp>(def))
      return memref;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return {};
    memref = view.getViewSource();
  }
}

Value gpuabi::getDistinctRoot(Value memref) {
  if (Value allocation = getLocalAllocation(memref))
    return allocation;
  while (Operation *def = memref.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return {};
    memref = view.getViewSource();
  }
  auto argument = cast<BlockArgument>(memref);
  auto function =
      dyn_cast_or_null<FunctionOpInterface>(argument.getOwner()->getParentOp());
  if (!function || !argument.getOwner()->isEntryBlock())
    return {};
  auto facts = function->getAttrOfType<ArrayAttr>("vrir.region_facts");
  if (!facts || argument.getArgNumber() >= facts.size())
    return {};
  auto fact = dyn_cast<DictionaryAttr>(facts[argument.getArgNumber()]);
  return fact && fact.get("noalias") ? memref : Value();
}

namespace {

struct GpuKernelABIPass
    : public vrir::impl::GpuKernelABIBase<GpuKernelABIPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchFuncOp> launches;
    getOperation()->walk([&](gpu::LaunchFuncOp op) { launches.push_back(op); });
    DenseSet<Operation *> done;
    for (gpu::LaunchFuncOp launch : launches) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!kernel) {
        launch.emitOpError("refers to no gpu.func");
        return signalPassFailure();
      }
      if (!done.insert(kernel).second) {
        kernel.emitOpError("is launched more than once; the kernel ABI pass "
                           "expects one launch per outlined kernel");
        return signalPassFailure();
      }
      if (failed(rewriteLaunch(launch, kernel)))
        return signalPassFailure();
    }
  }

  /// Constants and addresses of globals (bounds-check site names) that
  /// outlining passed as arguments are rematerialized in the kernel.
  void sinkConstants(gpu::LaunchFuncOp launch, gpu::GPUFuncOp kernel) {
    OpBuilder b(kernel.getFunctionBody());
    SmallVector<Value> operands(launch.getKernelOperands());
    llvm::BitVector erased(operands.size());
    for (auto [index, operand] : llvm::enumerate(operands)) {
      Operation *def = operand.getDefiningOp();
      if (!def ||
          !(matchPattern(def, m_Constant()) || isa<LLVM::AddressOfOp>(def)))
        continue;
      Operation *clone = b.clone(*def);
      // The kernel's module needs its own copy of the global.
      if (auto address = dyn_cast<LLVM::AddressOfOp>(def)) {
        auto kernelModule = kernel->getParentOfType<gpu::GPUModuleOp>();
        if (!SymbolTable::lookupSymbolIn(kernelModule,
                                         address.getGlobalNameAttr())) {
          Operation *global = SymbolTable::lookupNearestSymbolFrom(
              launch, address.getGlobalNameAttr());
          if (global) {
            OpBuilder moduleBuilder(kernelModule.getBodyRegion());
            moduleBuilder.clone(*global);
          }
        }
      }
      kernel.getArgument(index).replaceAllUsesWith(clone->getResult(0));
      erased.set(index);
    }
    if (erased.none())
      return;
    (void)kernel.eraseArguments(erased);
    SmallVector<Value> kept;
    for (auto [index, operand] : llvm::enumerate(operands))
      if (!erased.test(index))
        kept.push_back(operand);
    launch.getKernelOperandsMutable().assign(kept);
  }

  LogicalResult rewriteLaunch(gpu::LaunchFuncOp launch, gpu::GPUFuncOp kernel) {
    MLIRContext *context = &getContext();
    OpBuilder b(context);
    sinkConstants(launch, kernel);
    Type indexType = b.getIndexType();
    SmallVector<Value> hostOperands(launch.getKernelOperands());

    // Host side: each memref operand becomes its metadata, once for all.
    b.setInsertionPoint(launch);
    SmallVector<Value> newOperands;
    SmallVector<Value> roots;
    for (Value operand : hostOperands) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (!type) {
        newOperands.push_back(operand);
        continue;
      }
      Location loc = launch.getLoc();
      auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, operand);
      gpuabi::ElementSpan span = gpuabi::computeElementSpan(
          b, loc, metadata.getOffset(), metadata.getSizes(),
          metadata.getStrides());
      Value extent = arith::AddIOp::create(
          b, loc, span.highest, arith::ConstantIndexOp::create(b, loc, 1));
      auto flatType =
          MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                          AffineMap(), type.getMemorySpace());
      Value flat = memref::ReinterpretCastOp::create(
          b, loc, flatType, metadata.getBaseBuffer(), b.getIndexAttr(0),
          ArrayRef<OpFoldResult>{extent},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
      newOperands.push_back(flat);
      newOperands.push_back(metadata.getOffset());
      llvm::append_range(newOperands, metadata.getSizes());
      llvm::append_range(newOperands, metadata.getStrides());
      roots.push_back(gpuabi::getDistinctRoot(operand));
    }

    // Kernel side: new arguments after each memref argument, uses
    // rewritten, then the memref argument erased. Back to front keeps the
    // argument numbers of what is still to do.
    unsigned memrefNumber = roots.size();
    SmallVector<bool> writes(roots.size(), false);
    for (int argIndex = kernel.getNumArguments() - 1; argIndex >= 0;
         --argIndex) {
      BlockArgument argument = kernel.getArgument(argIndex);
      auto type = dyn_cast<MemRefType>(argument.getType());
      if (!type)
        continue;
      --memrefNumber;
      Location loc = argument.getLoc();
      int64_t rank = type.getRank();
      SmallVector<Type> types = {
          MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                          AffineMap(), type.getMemorySpace())};
      types.append(1 + 2 * rank, indexType);
      SmallVector<unsigned> positions(types.size(), argIndex + 1);
      SmallVector<DictionaryAttr> attrs(types.size(),
                                        DictionaryAttr::get(context));
      SmallVector<Location> locs(types.size(), loc);
      if (failed(kernel.insertArguments(positions, types, attrs, locs)))
        return kernel.emitOpError("could not take the kernel ABI arguments");
      FlatView view;
      view.buffer = kernel.getArgument(argIndex + 1);
      view.offset = kernel.getArgument(argIndex + 2);
      for (int64_t dim = 0; dim < rank; ++dim) {
        view.sizes.push_back(kernel.getArgument(argIndex + 3 + dim));
        view.strides.push_back(kernel.getArgument(argIndex + 3 + rank + dim));
      }
      bool written = false;
      if (failed(rewriteUses(b, argument, view, written)))
        return failure();
      if (failed(kernel.eraseArgument(argIndex)))
        return kernel.emitOpError("could not drop a memref argument");
      // `argIndex` is now the buffer argument.
      kernel.setArgAttr(argIndex, gpuabi::kRankAttrName,
                        b.getI64IntegerAttr(rank));
      if (!written)
        kernel.setArgAttr(argIndex, gpuabi::kReadOnlyAttrName, b.getUnitAttr());
      writes[memrefNumber] = written;
    }

    // Distinct allocations of the launching function, and the noalias
    // arguments of a specialised region, cannot overlap. Views of one of
    // them that the kernel only reads may (restrict allows it: nothing
    // writes the memory they share).
    auto isNoAlias = [&](unsigned number) {
      Value root = roots[number];
      if (!root)
        return false;
      for (auto [other, otherRoot] : llvm::enumerate(roots))
        if (other != number && otherRoot == root &&
            (writes[number] || writes[other]))
          return false;
      return true;
    };
    unsigned bufferNumber = 0;
    for (unsigned argIndex = 0; argIndex < kernel.getNumArguments();
         ++argIndex) {
      if (!kernel.getArgAttr(argIndex, gpuabi::kRankAttrName))
        continue;
      if (isNoAlias(bufferNumber++))
        kernel.setArgAttr(argIndex, gpuabi::kNoAliasAttrName, b.getUnitAttr());
    }

    launch.getKernelOperandsMutable().assign(newOperands);
    return success();
  }
};

} // namespace
