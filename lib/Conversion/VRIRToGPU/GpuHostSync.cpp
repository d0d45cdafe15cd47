//===- GpuHostSync.cpp - Host accesses announced to the GPU runtime -------===//
//
// Arrays stay on the device between the kernel launches of a function; the
// GPU runtime keeps the table of where each one's fresh copy is (see
// VRIRGPURuntime.h). This pass makes the host code of every function that
// launches kernels tell it what it needs: a scope around the function, the
// extent of each array argument, a notice before each host operation that
// touches an array (hoisted out of host-only loops), and which allocations
// start with no contents. Copies of whole contiguous arrays go to the
// runtime (`vrir_gpu_copy`), which makes a copy of an array that lives on
// the device only when a kernel is about to write one of the two (copy on
// potential write, thesis 7.3.2).
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "../VRIRToMemRef/LoweringUtils.h"
#include "GpuABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_GPUHOSTSYNC
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

/// Whether the address `value` is only compared: through arithmetic, it
/// ends in comparisons and branch conditions, never in a pointer, a call or
/// a memory operation (the overlap tests of slice assignments compare the
/// byte ranges of two arrays; a BLAS call gets its pointer the same way).
bool isOnlyCompared(Value value) {
  SmallVector<Value> worklist = {value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!worklist.empty()) {
    Value address = worklist.pop_back_val();
    if (!seen.insert(address).second)
      continue;
    for (OpOperand &use : address.getUses()) {
      Operation *user = use.getOwner();
      if (isa<arith::ArithDialect>(user->getDialect())) {
        llvm::append_range(worklist, user->getResults());
        continue;
      }
      if (auto ifOp = dyn_cast<scf::IfOp>(user);
          ifOp && use.get() == ifOp.getCondition())
        continue;
      if (auto branch = dyn_cast<cf::CondBranchOp>(user);
          branch && use.get() == branch.getCondition())
        continue;
      return false;
    }
  }
  return true;
}

/// Operations whose memref operands are not accesses: views and metadata
/// (their results are visited in their own right), deallocation (the CPU
/// runtime reports freed arrays), launches, operations that only forward
/// an array to a region, block or caller, and addresses taken only to be
/// compared.
bool touchesNoMemory(Operation *op) {
  if (auto address = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(op))
    return isOnlyCompared(address.getResult());
  // (memref.cast, reinterpret_cast, extract_strided_metadata and
  // assume_alignment are view-like.)
  return isa<ViewLikeOpInterface, memref::DimOp, memref::RankOp,
             memref::DeallocOp, gpu::LaunchFuncOp, RegionBranchOpInterface,
             RegionBranchTerminatorOpInterface, BranchOpInterface,
             func::ReturnOp>(op);
}

/// Whether `op` may write the memory of its operand `memref`: operations
/// without declared effects are assumed to.
bool mayWrite(Operation *op, Value memref) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write>(e.getEffect()) &&
           (!e.getValue() || e.getValue() == memref);
  });
}

/// Whether `copy` is a copy of whole contiguous arrays (a memcpy once
/// lowered), which the runtime can make on potential write.
bool isWholeArrayCopy(memref::CopyOp copy) {
  auto source = cast<MemRefType>(copy.getSource().getType());
  auto target = cast<MemRefType>(copy.getTarget().getType());
  return source.getLayout().isIdentity() && target.getLayout().isIdentity() &&
         source.getElementType() == target.getElementType() &&
         source.getMemorySpace() == target.getMemorySpace();
}

/// Whether `value` is defined inside `op` (or is its result).
bool isDefinedIn(Value value, Operation *op) {
  Operation *definer = value.getDefiningOp();
  if (!definer)
    definer = cast<BlockArgument>(value).getOwner()->getParentOp();
  return op->isAncestor(definer);
}

struct GpuHostSyncPass : public vrir::impl::GpuHostSyncBase<GpuHostSyncPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // (The notices add helper functions to the module.)
    for (auto function : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (function.isExternal())
        continue;
      // The operations that contain a launch or a copy the runtime makes
      // (which may leave the target's fresh copy on the device): notices do
      // not cross them.
      llvm::SmallPtrSet<Operation *, 16> launching;
      SmallVector<gpu::LaunchFuncOp> launches;
      SmallVector<memref::CopyOp> copies;
      function.walk([&](Operation *op) {
        if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
          launches.push_back(launch);
        else if (auto copy = dyn_cast<memref::CopyOp>(op);
                 copy && isWholeArrayCopy(copy))
          copies.push_back(copy);
        else
          return;
        for (Operation *parent = op; parent != function;
             parent = parent->getParentOp())
          launching.insert(parent);
      });
      if (!launches.empty())
        instrument(function, launching, launches, copies);
    }
  }

  void instrument(func::FuncOp function,
                  const llvm::SmallPtrSetImpl<Operation *> &launching,
                  ArrayRef<gpu::LaunchFuncOp> launches,
                  ArrayRef<memref::CopyOp> copies) {
    llvm::SmallPtrSet<Operation *, 8> runtimeCopies;
    for (memref::CopyOp copy : copies)
      runtimeCopies.insert(copy);
    // Host accesses: (place, array) -> may write.
    llvm::MapVector<std::pair<Operation *, Value>, bool> notices;
    function.walk([&](Operation *op) {
      if (touchesNoMemory(op) || runtimeCopies.contains(op))
        return;
      for (Value operand : op->getOperands()) {
        if (!isa<MemRefType>(operand.getType()))
          continue;
        // Out of every enclosing region that launches nothing and does not
        // define the array, but not out of a kernel's host version: it
        // only runs when the kernel could not.
        Operation *place = op;
        for (Operation *parent = place->getParentOp(); parent != function;
             parent = parent->getParentOp()) {
          if (launching.contains(parent) || isDefinedIn(operand, parent) ||
              gpuabi::isGpuFallback(parent))
            break;
          place = parent;
        }
        notices[{place, operand}] |= mayWrite(op, operand);
      }
    });

    OpBuilder b(function.getContext());
    for (auto &[key, write] : notices) {
      auto [place, memref] = key;
      b.setInsertionPoint(place);
      emitCall(b, place->getLoc(), place, "vrir_gpu_host_access", memref,
               write);
    }

    // The runtime makes the copies (announcing their accesses itself).
    for (memref::CopyOp copy : copies) {
      b.setInsertionPoint(copy);
      emitCopy(b, copy);
      copy.erase();
    }

    // Allocations that kernels use: nothing to upload before the first
    // write.
    llvm::SetVector<Operation *> allocations;
    for (gpu::LaunchFuncOp launch : launches)
      for (Value operand : launch.getKernelOperands()) {
        if (!isa<MemRefType>(operand.getType()))
          continue;
        if (Value root = gpuabi::getLocalAllocation(operand))
          allocations.insert(root.getDefiningOp());
      }
    for (Operation *allocation : allocations) {
      b.setInsertionPointAfter(allocation);
      emitCall(b, allocation->getLoc(), allocation,
               "vrir_gpu_host_uninitialized", allocation->getResult(0),
               /*write=*/std::nullopt);
    }

    // The scope, and the function's array arguments declared in it: the
    // views of one array that kernels use then share its device buffer.
    b.setInsertionPointToStart(&function.getBody().front());
    emitCall(b, function.getLoc(), function, "vrir_gpu_scope_begin", {},
             std::nullopt);
    for (BlockArgument argument : function.getArguments())
      if (isa<MemRefType>(argument.getType()))
        emitCall(b, function.getLoc(), function, "vrir_gpu_host_array",
                 argument, std::nullopt);
    function.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      emitCall(b, ret.getLoc(), ret, "vrir_gpu_scope_end", {}, std::nullopt);
    });
  }

  /// Calls runtime function `name` with the bytes `memref` spans (and
  /// `write`, where given); with no arguments when `memref` is null. The
  /// call has no memory-effect attribute: the runtime writes host arrays.
  void emitCall(OpBuilder &b, Location loc, Operation *anchor, StringRef name,
                Value memref, std::optional<bool> write) {
    if (!memref) {
      LLVM::LLVMFuncOp callee =
          lowering::declareVoidFunction(b, anchor, name, TypeRange());
      LLVM::CallOp::create(b, loc, callee, ValueRange());
      return;
    }
    // Through a helper per runtime function and array type: the byte range
    // is host code worth compiling once, not at every notice.
    MemRefType helperType = getHelperType(cast<MemRefType>(memref.getType()));
    SmallVector<Type> inputs = {helperType};
    if (write)
      inputs.push_back(b.getI64Type());
    func::FuncOp helper =
        getHelper(b, loc, anchor, name, helperType, inputs, [&](Block *body) {
          gpuabi::ByteRange range = getByteRange(b, loc, body->getArgument(0));
          SmallVector<Value> args = {toI64(b, loc, range.lowestByte),
                                     toI64(b, loc, range.bytes)};
          if (write)
            args.push_back(body->getArgument(1));
          return args;
        });
    SmallVector<Value> args = {castTo(b, loc, memref, helperType)};
    if (write)
      args.push_back(
          arith::ConstantIntOp::create(b, loc, b.getI64Type(), *write));
    func::CallOp::create(b, loc, helper, args);
  }

  /// `vrir_gpu_copy(target, source, bytes)` in place of `copy`, through a
  /// helper per array type.
  void emitCopy(OpBuilder &b, memref::CopyOp copy) {
    Location loc = copy.getLoc();
    MemRefType helperType =
        getHelperType(cast<MemRefType>(copy.getSource().getType()));
    func::FuncOp helper = getHelper(
        b, loc, copy, "vrir_gpu_copy", helperType, {helperType, helperType},
        [&](Block *body) {
          gpuabi::ByteRange source = getByteRange(b, loc, body->getArgument(0));
          gpuabi::ByteRange target = getByteRange(b, loc, body->getArgument(1));
          return SmallVector<Value>{toI64(b, loc, target.lowestByte),
                                    toI64(b, loc, source.lowestByte),
                                    toI64(b, loc, source.bytes)};
        });
    func::CallOp::create(
        b, loc, helper,
        ValueRange{castTo(b, loc, copy.getSource(), helperType),
                   castTo(b, loc, copy.getTarget(), helperType)});
  }

  /// The memref type of `type`'s rank and element type with dynamic sizes,
  /// strides and offset: the one helper argument type for all of them.
  static MemRefType getHelperType(MemRefType type) {
    SmallVector<int64_t> dynamic(type.getRank(), ShapedType::kDynamic);
    auto layout = StridedLayoutAttr::get(type.getContext(),
                                         ShapedType::kDynamic, dynamic);
    return MemRefType::get(dynamic, type.getElementType(), layout,
                           type.getMemorySpace());
  }

  static Value castTo(OpBuilder &b, Location loc, Value memref,
                      MemRefType type) {
    if (memref.getType() == type)
      return memref;
    return memref::CastOp::create(b, loc, type, memref);
  }

  static Value toI64(OpBuilder &b, Location loc, Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  }

  /// The bytes `memref` spans.
  static gpuabi::ByteRange getByteRange(OpBuilder &b, Location loc,
                                        Value memref) {
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    return gpuabi::computeByteRange(
        b, loc, base, metadata.getOffset(), metadata.getSizes(),
        metadata.getStrides(),
        getElementBytes(cast<MemRefType>(memref.getType()).getElementType()));
  }

  /// `__NAME_<hash of type>(inputs...)`: calls runtime function `name` with
  /// the i64 values `argsOf` computes from the helper's entry block.
  func::FuncOp
  getHelper(OpBuilder &b, Location loc, Operation *anchor, StringRef name,
            MemRefType type, ArrayRef<Type> inputs,
            llvm::function_ref<SmallVector<Value>(Block *)> argsOf) {
    auto module = anchor->getParentOfType<ModuleOp>();
    std::string typeText;
    llvm::raw_string_ostream(typeText) << type;
    std::string helperName =
        ("__" + name + "_" + llvm::utohexstr(llvm::xxh3_64bits(typeText), true))
            .str();
    if (auto helper = module.lookupSymbol<func::FuncOp>(helperName))
      return helper;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    auto helper =
        func::FuncOp::create(b, loc, helperName, b.getFunctionType(inputs, {}));
    helper.setPrivate();
    Block *body = helper.addEntryBlock();
    b.setInsertionPointToStart(body);
    SmallVector<Value> args = argsOf(body);
    LLVM::LLVMFuncOp callee = lowering::declareVoidFunction(
        b, helper, name, ValueRange(args).getTypes());
    LLVM::CallOp::create(b, loc, callee, args);
    func::ReturnOp::create(b, loc);
    return helper;
  }
};

} // namespace
