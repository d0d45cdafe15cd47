//===- GpuToSPIRV.cpp - GPU modules to SPIR-V modules (Vulkan) ------------===//
//
// Compiles each `gpu.module` (after `vrir-gpu-kernel-abi`) to a
// `spirv.module` for Vulkan with upstream's conversion patterns, after
// rewriting what upstream does not know: the runtime's error buffer (a last
// kernel argument that replaces the calls of the CPU runtime's
// `vrir_rt_parallel_bounds_error`), work-group sizes from the launches,
// boolean scalar arguments, workgroup attributions, float atomics (on the
// bits of their buffer), compare-and-swap loops and the atomic kinds
// upstream leaves out; after it, the results of `scf.for` loops get their
// initial values (see `initializeLoopResults`).
// For Vulkan, f64 math functions (GLSL.std.450 has them for 16/32-bit
// floats only) are first expanded into arithmetic (GpuExpandF64Math.cpp),
// whose float instructions are then decorated NoContraction.
// What Vulkan SPIR-V cannot express (the f64 math operations left, float
// atomics on workgroup memory) is diagnosed before anything is converted.
// The `gpu.module` stays for `vrir-gpu-launch-to-runtime`, which describes
// the launches from it, serializes the `spirv.module` and erases both.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"
#include "VRIR/Target/OpenCLC.h"

#include "GpuABI.h"
#include "GpuExpandF64Math.h"
#include "SPIRVNarrowIndices.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/UBToSPIRV/UBToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_GPUTOSPIRV
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

/// The runtime's error buffer: five int64 words, which kernels access as
/// ten int32 halves (see `replaceBoundsError`).
constexpr int64_t kErrorHalves = 10;

/// Vulkan 1.1 (SPIR-V 1.3) with what VRIR kernels use; `spirv-update-vce`
/// keeps only what a module needs. Work-group limits of desktop GPUs and
/// lavapipe (the Vulkan minimum is 128 invocations; the map pass makes
/// work-groups of 256).
constexpr StringLiteral kVulkanTargetEnv =
    "#spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Float64, Int8, Int16, "
    "Float16, StorageBuffer8BitAccess, StorageBuffer16BitAccess, "
    "Int64Atomics], [SPV_KHR_storage_buffer_storage_class, "
    "SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]>, api=Vulkan, "
    "#spirv.resource_limits<max_compute_workgroup_invocations = 1024, "
    "max_compute_workgroup_size = [1024, 1024, 64]>>";

/// OpenCL 2.1+ (SPIR-V 1.0 and up, Physical64 addressing), what VRIR kernels
/// use; the OpenCL runtime checks the device's limits at the launch.
constexpr StringLiteral kOpenCLTargetEnv =
    "#spirv.target_env<#spirv.vce<v1.2, [Kernel, Addresses, Int64, Int8, "
    "Int16, Float16, Float64, Int64Atomics], []>, api=OpenCL, "
    "#spirv.resource_limits<max_compute_workgroup_invocations = 1024, "
    "max_compute_workgroup_size = [1024, 1024, 1024]>>";

/// Which SPIR-V: `client=vulkan` (Shader) or `client=opencl` (Kernel).
enum class Client { Vulkan, OpenCL };

StringRef getClientName(Client client) {
  return client == Client::Vulkan ? "Vulkan" : "OpenCL";
}

//===----------------------------------------------------------------------===//
// Checks: what Vulkan SPIR-V cannot express
//===----------------------------------------------------------------------===//

Type getElementTypeOrSelfOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

/// Math operations that upstream lowers to GLSL.std.450 instructions defined
/// for floats of any width (or does without the extended instructions);
/// the f64 math expansions use nothing else.
bool isF64CapableMathOp(Operation *op) {
  return isa<math::AbsFOp, math::AbsIOp, math::CeilOp, math::FloorOp,
             math::FmaOp, math::RoundEvenOp, math::RoundOp, math::RsqrtOp,
             math::SqrtOp, math::CopySignOp, math::IsNaNOp, math::IsInfOp,
             math::IsFiniteOp, math::CountLeadingZerosOp>(op);
}

bool usesF64(Operation *op) {
  auto isF64 = [](Type type) { return getElementTypeOrSelfOf(type).isF64(); };
  return llvm::any_of(op->getOperandTypes(), isF64) ||
         llvm::any_of(op->getResultTypes(), isF64);
}

/// The kernel argument `memref` is, if it is a 1-D buffer of f32 or f64
/// (what float atomics on it need: see `viewFloatBuffersAsBits`).
BlockArgument getFloatAtomicBuffer(Value memref) {
  auto argument = dyn_cast<BlockArgument>(memref);
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!argument || !type || type.getRank() != 1 ||
      !type.getLayout().isIdentity() || type.getMemorySpace() ||
      !(type.getElementType().isF32() || type.getElementType().isF64()))
    return {};
  auto kernel = dyn_cast<gpu::GPUFuncOp>(argument.getOwner()->getParentOp());
  if (!kernel || argument.getOwner() != &kernel.getBody().front() ||
      argument.getArgNumber() >= kernel.getFunctionType().getNumInputs())
    return {};
  return argument;
}

/// Reports each operation of `gpuModule` that has no SPIR-V lowering for
/// `client`; failure if there was one. For Vulkan, it runs after the f64
/// math expansion: an f64 math operation left is one it does not cover.
/// (OpenCL.std has the math functions for f64.)
LogicalResult checkSupport(gpu::GPUModuleOp gpuModule, Client client) {
  bool ok = true;
  StringRef name = getClientName(client);
  gpuModule.walk([&](Operation *op) {
    if (client == Client::Vulkan && op->getDialect() &&
        isa<math::MathDialect>(op->getDialect()) && usesF64(op) &&
        !isF64CapableMathOp(op)) {
      op->emitError("f64 ")
          << op->getName()
          << " has no Vulkan SPIR-V lowering yet (neither a GLSL.std.450 "
             "instruction for f64 nor an expansion of "
             "vrir-gpu-expand-f64-math)";
      ok = false;
    } else if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op)) {
      if (isa<FloatType>(atomic.getType()) &&
          !getFloatAtomicBuffer(atomic.getMemref())) {
        atomic.emitError("memref.atomic_rmw ")
            << arith::stringifyAtomicRMWKind(atomic.getKind()) << " on "
            << atomic.getType() << " has no " << name
            << " SPIR-V lowering yet but on a kernel's buffer argument (core "
               "SPIR-V has no floating-point atomics)";
        ok = false;
      }
    } else if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op)) {
      Type type = atomic.getResult().getType();
      if (!type.isInteger(32) && !type.isInteger(64) &&
          !getFloatAtomicBuffer(atomic.getMemref())) {
        atomic.emitError("memref.generic_atomic_rmw on ")
            << type << " has no " << name
            << " SPIR-V lowering yet but on 32/64-bit integers and floats of a "
               "kernel's buffer argument (SPIR-V compares and swaps integers "
               "only)";
        ok = false;
      }
    } else if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      if (call.getCallee() != kParallelBoundsErrorCallee) {
        call.emitError("a call of ")
            << (call.getCallee() ? "@" + call.getCallee()->str()
                                 : std::string("a function pointer"))
            << " cannot be compiled to SPIR-V";
        ok = false;
      }
    }
  });
  return success(ok);
}

//===----------------------------------------------------------------------===//
// Bounds-check sites
//===----------------------------------------------------------------------===//

/// The bounds-error calls of `gpuModule`'s kernels with the number of each
/// one's site; the site names in `sites`.
FailureOr<SmallVector<std::pair<LLVM::CallOp, unsigned>>>
collectBoundsErrors(gpu::GPUModuleOp gpuModule,
                    SmallVectorImpl<std::string> &sites) {
  SmallVector<std::pair<LLVM::CallOp, unsigned>> calls;
  WalkResult result = gpuModule.walk([&](LLVM::CallOp call) {
    if (call.getCallee() != kParallelBoundsErrorCallee)
      return WalkResult::advance();
    auto addr = call.getNumOperands() == 4
                    ? call.getOperand(0).getDefiningOp<LLVM::AddressOfOp>()
                    : LLVM::AddressOfOp();
    if (!addr || call.getNumResults() != 0) {
      call.emitOpError("must take the site (an llvm.mlir.addressof of a "
                       "string constant), dimension, index and extent");
      return WalkResult::interrupt();
    }
    for (Value operand : call.getOperands().drop_front())
      if (!operand.getType().isSignlessIntOrIndex()) {
        call.emitOpError("operand of type ")
            << operand.getType() << " is not an integer";
        return WalkResult::interrupt();
      }
    FailureOr<unsigned> site = getBoundsSiteNumber(addr, sites);
    if (failed(site))
      return WalkResult::interrupt();
    calls.push_back({call, *site});
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return calls;
}

//===----------------------------------------------------------------------===//
// Kernel preparation (on the copy that becomes SPIR-V)
//===----------------------------------------------------------------------===//

Value toI64(OpBuilder &b, Location loc, Value value) {
  Type i64 = b.getI64Type();
  if (value.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, i64, value);
  if (value.getType().getIntOrFloatBitWidth() < 64)
    return arith::ExtSIOp::create(b, loc, i64, value);
  return value;
}

/// Replaces a bounds-error call by: atomically or 1 into word 0 of the error
/// buffer; if it was 0 (first failure), store the site, dimension, index
/// and extent in words 1 to 4. The kernel sees the five int64 words as ten
/// int32 halves (little-endian, as the host that reads them): a 32-bit
/// atomic on the low half of the flag needs no 64-bit atomics, which are
/// optional in Vulkan and OpenCL.
void replaceBoundsError(LLVM::CallOp call, unsigned site, Value errorBuffer) {
  OpBuilder b(call);
  Location loc = call.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
  Value old = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::ori,
                                          one, errorBuffer, index(0));
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, old, zero);
  auto ifOp = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifOp.thenBlock());
  SmallVector<Value> words = {arith::ConstantIntOp::create(b, loc, i64, site),
                              toI64(b, loc, call.getOperand(1)),
                              toI64(b, loc, call.getOperand(2)),
                              toI64(b, loc, call.getOperand(3))};
  Value shift = arith::ConstantIntOp::create(b, loc, i64, 32);
  for (auto [word, value] : llvm::enumerate(words)) {
    Value low = arith::TruncIOp::create(b, loc, i32, value);
    Value high = arith::TruncIOp::create(
        b, loc, i32, arith::ShRUIOp::create(b, loc, value, shift));
    memref::StoreOp::create(b, loc, low, errorBuffer, index(2 * word + 2));
    memref::StoreOp::create(b, loc, high, errorBuffer, index(2 * word + 3));
  }
  call.erase();
}

/// The scalar operation of a float `memref.atomic_rmw` kind.
Value buildAtomicUpdate(OpBuilder &b, Location loc, arith::AtomicRMWKind kind,
                        Value current, Value operand) {
  switch (kind) {
  case arith::AtomicRMWKind::addf:
    return arith::AddFOp::create(b, loc, current, operand);
  case arith::AtomicRMWKind::mulf:
    return arith::MulFOp::create(b, loc, current, operand);
  case arith::AtomicRMWKind::maximumf:
    return arith::MaximumFOp::create(b, loc, current, operand);
  case arith::AtomicRMWKind::minimumf:
    return arith::MinimumFOp::create(b, loc, current, operand);
  case arith::AtomicRMWKind::maxnumf:
    return arith::MaxNumFOp::create(b, loc, current, operand);
  case arith::AtomicRMWKind::minnumf:
    return arith::MinNumFOp::create(b, loc, current, operand);
  default:
    return {};
  }
}

/// Core SPIR-V has no float atomics, and logical addressing cannot view a
/// float as an integer through a pointer; but the kernel declares its
/// buffers itself. A float buffer argument that atomics update is declared
/// as the integers of the same width (the runtime passes bytes): loads and
/// stores bitcast, and each float atomic becomes a compare-and-swap loop on
/// the bits (`memref.generic_atomic_rmw`, as OpenCL C does it), the update
/// computed on floats.
LogicalResult viewFloatBuffersAsBits(gpu::GPUFuncOp kernel) {
  OpBuilder b(kernel.getContext());
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  for (unsigned index = 0; index < inputs.size(); ++index) {
    BlockArgument buffer = kernel.getArgument(index);
    if (!getFloatAtomicBuffer(buffer) ||
        llvm::none_of(buffer.getUsers(), [](Operation *user) {
          return isa<memref::GenericAtomicRMWOp>(user) ||
                 (isa<memref::AtomicRMWOp>(user) &&
                  cast<memref::AtomicRMWOp>(user).getKind() !=
                      arith::AtomicRMWKind::assign);
        }))
      continue;
    auto floatType = cast<MemRefType>(buffer.getType());
    Type element = floatType.getElementType();
    Type bits = b.getIntegerType(element.getIntOrFloatBitWidth());
    auto bitsType = MemRefType::get(floatType.getShape(), bits);
    buffer.setType(bitsType);
    inputs[index] = bitsType;
    auto toFloat = [&](Location loc, Value value) -> Value {
      return arith::BitcastOp::create(b, loc, element, value);
    };
    auto toBits = [&](Location loc, Value value) -> Value {
      return arith::BitcastOp::create(b, loc, bits, value);
    };
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
      Location loc = user->getLoc();
      b.setInsertionPoint(user);
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        Value word = memref::LoadOp::create(b, loc, buffer, load.getIndices());
        load.replaceAllUsesWith(toFloat(loc, word));
      } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
        memref::StoreOp::create(b, loc, toBits(loc, store.getValueToStore()),
                                buffer, store.getIndices());
      } else if (auto atomic = dyn_cast<memref::AtomicRMWOp>(user)) {
        Value operand = atomic.getValue();
        Value old;
        if (atomic.getKind() == arith::AtomicRMWKind::assign) {
          old = memref::AtomicRMWOp::create(
              b, loc, arith::AtomicRMWKind::assign, toBits(loc, operand),
              buffer, atomic.getIndices());
        } else {
          auto loop = memref::GenericAtomicRMWOp::create(b, loc, buffer,
                                                         atomic.getIndices());
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(loop.getBody());
          Value next =
              buildAtomicUpdate(b, loc, atomic.getKind(),
                                toFloat(loc, loop.getCurrentValue()), operand);
          if (!next)
            return atomic.emitOpError("of this kind on floats cannot be "
                                      "compiled to SPIR-V");
          memref::AtomicYieldOp::create(b, loc, toBits(loc, next));
          old = loop.getResult();
        }
        atomic.replaceAllUsesWith(toFloat(loc, old));
      } else if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(user)) {
        auto loop = memref::GenericAtomicRMWOp::create(b, loc, buffer,
                                                       atomic.getIndices());
        Block *body = loop.getBody();
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(body);
        Value current = toFloat(loc, loop.getCurrentValue());
        Block &oldBody = atomic.getAtomicBody().front();
        auto yield = cast<memref::AtomicYieldOp>(oldBody.getTerminator());
        Value next = yield.getResult();
        body->getOperations().splice(body->end(), oldBody.getOperations(),
                                     oldBody.begin(), yield->getIterator());
        atomic.getCurrentValue().replaceAllUsesWith(current);
        b.setInsertionPointToEnd(body);
        memref::AtomicYieldOp::create(b, loc, toBits(loc, next));
        b.setInsertionPoint(atomic);
        atomic.replaceAllUsesWith(toFloat(loc, loop.getResult()));
      } else {
        return user->emitOpError(
            "uses a buffer that float atomics update, which the SPIR-V "
            "lowering cannot rewrite");
      }
      user->erase();
    }
  }
  kernel.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(kernel.getContext(), inputs, {})));
  return success();
}

/// `bits` (an i64 slot of the parameter block) as a value of `type`: the
/// runtime stores each scalar's bits zero-extended.
static FailureOr<Value> fromSlotBits(OpBuilder &b, Location loc, Value bits,
                                     Type type) {
  if (type.isIndex())
    return Value(arith::IndexCastOp::create(b, loc, type, bits));
  if (type.isInteger(1)) {
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
    return Value(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bits, zero));
  }
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() > 64)
    return failure();
  unsigned width = type.getIntOrFloatBitWidth();
  Value narrow = bits;
  if (width < 64)
    narrow = arith::TruncIOp::create(b, loc, b.getIntegerType(width), bits);
  if (isa<FloatType>(type))
    narrow = arith::BitcastOp::create(b, loc, type, narrow);
  return narrow;
}

/// Vulkan: the kernel's scalar arguments (array offsets, sizes and strides,
/// scalars) become the slots of one parameter block, an i64 buffer after the
/// arrays' buffers: the runtime's binding convention (VulkanBackend.cpp).
/// One binding per scalar would exceed the device's limit on storage
/// buffers for a few 2-D arrays (each is a buffer and five scalars).
static LogicalResult packScalarArguments(gpu::GPUFuncOp kernel) {
  MLIRContext *context = kernel.getContext();
  SmallVector<unsigned> scalars;
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (!isa<MemRefType>(type))
      scalars.push_back(index);
  if (scalars.empty())
    return success();
  Location loc = kernel.getLoc();
  OpBuilder b(context);
  auto blockType = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  unsigned blockIndex = kernel.getNumArguments();
  if (failed(kernel.insertArgument(blockIndex, blockType,
                                   DictionaryAttr::get(context), loc)))
    return kernel.emitOpError("could not take the parameter block argument");
  Value block = kernel.getArgument(blockIndex);
  b.setInsertionPointToStart(&kernel.getBody().front());
  llvm::BitVector packed(kernel.getNumArguments());
  for (auto [slot, index] : llvm::enumerate(scalars)) {
    BlockArgument argument = kernel.getArgument(index);
    Value position = arith::ConstantIndexOp::create(b, loc, slot);
    Value bits = memref::LoadOp::create(b, loc, block, position);
    FailureOr<Value> value = fromSlotBits(b, loc, bits, argument.getType());
    if (failed(value))
      return kernel.emitOpError("has argument #")
             << index << " of type " << argument.getType()
             << ", which no parameter slot of 64 bits holds";
    argument.replaceAllUsesWith(*value);
    packed.set(index);
  }
  if (failed(kernel.eraseArguments(packed)))
    return kernel.emitOpError("could not drop its packed scalar arguments");
  return success();
}

/// Prepares the kernels of `gpuModule` (a copy) for the upstream patterns.
LogicalResult
prepareKernels(gpu::GPUModuleOp gpuModule,
               const llvm::StringMap<SmallVector<int32_t, 3>> &workGroupSizes,
               Client client) {
  MLIRContext *context = gpuModule.getContext();
  OpBuilder b(context);
  SmallVector<std::string> sites;
  FailureOr<SmallVector<std::pair<LLVM::CallOp, unsigned>>> calls =
      collectBoundsErrors(gpuModule, sites);
  if (failed(calls))
    return failure();
  auto errorType = MemRefType::get({kErrorHalves}, b.getI32Type());

  for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
    if (!kernel.isKernel())
      continue;
    auto size = workGroupSizes.find(kernel.getName());
    if (size == workGroupSizes.end())
      return kernel.emitOpError("is not launched: its work-group size, which "
                                "the SPIR-V kernel fixes, is unknown");
    // Attributes for the OpenCL C emitter and launch lowering only.
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
      for (StringRef name : {gpuabi::kRankAttrName, gpuabi::kReadOnlyAttrName,
                             gpuabi::kNoAliasAttrName})
        kernel.removeArgAttr(i, b.getStringAttr(name));
    kernel->removeAttr(kernel.getKnownBlockSizeAttrName());
    kernel->removeAttr(kernel.getKnownGridSizeAttrName());

    // Workgroup and private attributions become the allocations upstream
    // lowers (to Workgroup and Function variables).
    Block &entry = kernel.getBody().front();
    b.setInsertionPointToStart(&entry);
    for (BlockArgument attribution : kernel.getWorkgroupAttributions())
      attribution.replaceAllUsesWith(
          memref::AllocOp::create(b, attribution.getLoc(),
                                  cast<MemRefType>(attribution.getType()))
              .getResult());
    for (BlockArgument attribution : kernel.getPrivateAttributions())
      attribution.replaceAllUsesWith(
          memref::AllocaOp::create(b, attribution.getLoc(),
                                   cast<MemRefType>(attribution.getType()))
              .getResult());
    unsigned numInputs = kernel.getFunctionType().getNumInputs();
    entry.eraseArguments(numInputs, entry.getNumArguments() - numInputs);
    kernel->removeAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName());
    kernel->removeAttr(kernel.getWorkgroupAttribAttrsAttrName());
    kernel->removeAttr(kernel.getPrivateAttribAttrsAttrName());

    if (client == Client::Vulkan && failed(packScalarArguments(kernel)))
      return failure();
    if (failed(viewFloatBuffersAsBits(kernel)))
      return failure();

    // Booleans arrive as a byte (OpenCL kernel arguments).
    SmallVector<Type> inputs(kernel.getArgumentTypes());
    for (unsigned i = 0; i < inputs.size(); ++i) {
      if (!inputs[i].isInteger(1))
        continue;
      BlockArgument argument = kernel.getArgument(i);
      argument.setType(b.getI8Type());
      inputs[i] = b.getI8Type();
      b.setInsertionPointToStart(&kernel.getBody().front());
      Value zero =
          arith::ConstantIntOp::create(b, argument.getLoc(), b.getI8Type(), 0);
      Value flag = arith::CmpIOp::create(
          b, argument.getLoc(), arith::CmpIPredicate::ne, argument, zero);
      argument.replaceAllUsesExcept(flag, flag.getDefiningOp());
    }
    kernel.setFunctionTypeAttr(
        TypeAttr::get(FunctionType::get(context, inputs, {})));

    // The error buffer, last.
    if (failed(kernel.insertArgument(kernel.getNumArguments(), errorType,
                                     DictionaryAttr::get(context),
                                     kernel.getLoc())))
      return kernel.emitOpError("could not take the error buffer argument");

    kernel->setAttr(spirv::getEntryPointABIAttrName(),
                    spirv::getEntryPointABIAttr(context, size->second));
  }

  for (auto [call, site] : *calls) {
    auto kernel = call->getParentOfType<gpu::GPUFuncOp>();
    if (!kernel || !kernel.isKernel())
      return call.emitOpError("outside a kernel cannot be compiled to SPIR-V");
    replaceBoundsError(call, site,
                       kernel.getArgument(kernel.getNumArguments() - 1));
  }

  // The site strings and runtime declarations are host matters now.
  gpuModule.walk([&](LLVM::AddressOfOp addr) {
    if (addr->use_empty())
      addr.erase();
  });
  for (Operation &op :
       llvm::make_early_inc_range(gpuModule.getBody()->getOperations()))
    if (isa<LLVM::GlobalOp, LLVM::LLVMFuncOp>(op))
      op.erase();
  return success();
}

/// Upstream's Vulkan mapping of numeric memory spaces, and GPU address
/// spaces (workgroup and private attributions) as their storage classes.
std::optional<spirv::StorageClass>
mapMemorySpaceToVulkanStorageClass(Attribute memorySpace) {
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(memorySpace)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return spirv::StorageClass::StorageBuffer;
    case gpu::AddressSpace::Workgroup:
      return spirv::StorageClass::Workgroup;
    case gpu::AddressSpace::Private:
      return spirv::StorageClass::Function;
    }
  }
  return spirv::mapMemorySpaceToVulkanStorageClass(memorySpace);
}

/// The same for OpenCL (global memory is CrossWorkgroup).
std::optional<spirv::StorageClass>
mapMemorySpaceToOpenCLStorageClass(Attribute memorySpace) {
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(memorySpace)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return spirv::StorageClass::CrossWorkgroup;
    case gpu::AddressSpace::Workgroup:
      return spirv::StorageClass::Workgroup;
    case gpu::AddressSpace::Private:
      return spirv::StorageClass::Function;
    }
  }
  return spirv::mapMemorySpaceToOpenCLStorageClass(memorySpace);
}

//===----------------------------------------------------------------------===//
// Patterns upstream does not have
//===----------------------------------------------------------------------===//

spirv::Scope getAtomicScope(MemRefType type) {
  auto storage =
      dyn_cast_or_null<spirv::StorageClassAttr>(type.getMemorySpace());
  if (storage && storage.getValue() == spirv::StorageClass::Workgroup)
    return spirv::Scope::Workgroup;
  return spirv::Scope::Device;
}

/// Memory semantics of the atomics of kernels: relaxed, as OpenCL 1.2's
/// atomic functions (work-items synchronize through nothing but the
/// atomicity of the operation; the host reads the results after the
/// kernel). Upstream's AcquireRelease (with no storage class) orders no
/// memory either, and lavapipe (Mesa 22.3) miscompiles it inside loops: a
/// loop with a bounds check (whose failure path sets the error flag
/// atomically) lost its loads.
constexpr spirv::MemorySemantics kAtomicSemantics =
    spirv::MemorySemantics::None;

/// `arith.remsi`. Upstream emulates it on both clients as |a| umod |b| with
/// the sign of `a` taken from `a == abs(a)`, which also holds for the
/// minimum value (abs(INT_MIN) is INT_MIN), so INT_MIN % 3 came out +2 (and
/// INT_MIN // 3, built on it, one too high). OpenCL's OpSRem has C's
/// semantics: it is used as it is. Vulkan leaves OpSRem's sign undefined
/// for negative operands: there the emulation takes the sign from `a < 0`
/// (SAbs of the minimum read as unsigned is its magnitude, so UMod is
/// exact).
struct RemSIPattern final : public OpConversionPattern<arith::RemSIOp> {
  RemSIPattern(const TypeConverter &typeConverter, MLIRContext *context,
               Client client)
      : OpConversionPattern(typeConverter, context, /*benefit=*/2),
        client(client) {}
  LogicalResult
  matchAndRewrite(arith::RemSIOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "unsupported type");
    if (client == Client::OpenCL) {
      rewriter.replaceOpWithNewOp<spirv::SRemOp>(op, type, adaptor.getLhs(),
                                                 adaptor.getRhs());
      return success();
    }
    Type boolType = rewriter.getI1Type();
    if (auto vector = dyn_cast<VectorType>(type))
      boolType = VectorType::get(vector.getShape(), boolType);
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs();
    Value lhsAbs = spirv::GLSAbsOp::create(rewriter, loc, type, lhs);
    Value rhsAbs =
        spirv::GLSAbsOp::create(rewriter, loc, type, adaptor.getRhs());
    Value magnitude =
        spirv::UModOp::create(rewriter, loc, type, lhsAbs, rhsAbs);
    Value zero = spirv::ConstantOp::getZero(type, loc, rewriter);
    Value negative =
        spirv::SLessThanOp::create(rewriter, loc, boolType, lhs, zero);
    Value negated = spirv::SNegateOp::create(rewriter, loc, type, magnitude);
    rewriter.replaceOpWithNewOp<spirv::SelectOp>(op, type, negative, negated,
                                                 magnitude);
    return success();
  }

private:
  Client client;
};

/// `memref.atomic_rmw` on integers (upstream's kinds and xori) and
/// `assign` (an exchange, also of floats), relaxed.
struct AtomicRMWPattern final
    : public OpConversionPattern<memref::AtomicRMWOp> {
  AtomicRMWPattern(const TypeConverter &typeConverter, MLIRContext *context)
      : OpConversionPattern(typeConverter, context, /*benefit=*/10) {}

  LogicalResult
  matchAndRewrite(memref::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    arith::AtomicRMWKind kind = op.getKind();
    if (isa<FloatType>(op.getType()) && kind != arith::AtomicRMWKind::assign)
      return rewriter.notifyMatchFailure(op, "no float atomics in SPIR-V");
    const auto &typeConverter = *getTypeConverter<SPIRVTypeConverter>();
    Type resultType = typeConverter.convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "unsupported element type");
    MemRefType memrefType = op.getMemRefType();
    Value pointer =
        spirv::getElementPtr(typeConverter, memrefType, adaptor.getMemref(),
                             adaptor.getIndices(), op.getLoc(), rewriter);
    if (!pointer)
      return failure();
    spirv::Scope scope = getAtomicScope(memrefType);
    Value value = adaptor.getValue();
    auto replace = [&](auto opTag) {
      using SPIRVOp = decltype(opTag);
      rewriter.replaceOpWithNewOp<SPIRVOp>(op, resultType, pointer, scope,
                                           kAtomicSemantics, value);
      return success();
    };
    switch (kind) {
    case arith::AtomicRMWKind::addi:
      return replace(spirv::AtomicIAddOp());
    case arith::AtomicRMWKind::maxs:
      return replace(spirv::AtomicSMaxOp());
    case arith::AtomicRMWKind::maxu:
      return replace(spirv::AtomicUMaxOp());
    case arith::AtomicRMWKind::mins:
      return replace(spirv::AtomicSMinOp());
    case arith::AtomicRMWKind::minu:
      return replace(spirv::AtomicUMinOp());
    case arith::AtomicRMWKind::ori:
      return replace(spirv::AtomicOrOp());
    case arith::AtomicRMWKind::andi:
      return replace(spirv::AtomicAndOp());
    case arith::AtomicRMWKind::xori:
      return replace(spirv::AtomicXorOp());
    case arith::AtomicRMWKind::assign:
      return replace(spirv::AtomicExchangeOp());
    default:
      return rewriter.notifyMatchFailure(op, "no SPIR-V atomic of this kind");
    }
  }
};

/// `memref.generic_atomic_rmw` on 32/64-bit integers as a compare-and-swap
/// loop; the result is the value the update replaced, as on the CPU:
///
///   %cur0 = load
///   scf.while (%cur = %cur0) {
///     %new = body(%cur)
///     %old = spirv.AtomicCompareExchange %ptr, %new, %cur
///     scf.condition(%old != %cur) %old
///   }
struct GenericAtomicRMWPattern final
    : public OpConversionPattern<memref::GenericAtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(memref::GenericAtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getResult().getType();
    if (!type.isInteger(32) && !type.isInteger(64))
      return rewriter.notifyMatchFailure(op, "not a 32/64-bit integer");
    const auto &typeConverter = *getTypeConverter<SPIRVTypeConverter>();
    Location loc = op.getLoc();
    MemRefType memrefType = op.getMemref().getType();
    Value pointer =
        spirv::getElementPtr(typeConverter, memrefType, adaptor.getMemref(),
                             adaptor.getIndices(), loc, rewriter);
    if (!pointer)
      return failure();
    spirv::Scope scope = getAtomicScope(memrefType);
    Value initial = spirv::LoadOp::create(rewriter, loc, pointer);

    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange{type},
                                     ValueRange{initial});
    Block *before = rewriter.createBlock(&loop.getBefore(), {}, {type}, {loc});
    Block *after = rewriter.createBlock(&loop.getAfter(), {}, {type}, {loc});
    Value current = before->getArgument(0);

    Block &body = op.getAtomicBody().front();
    auto yield = cast<memref::AtomicYieldOp>(body.getTerminator());
    Value next = yield.getResult();
    rewriter.inlineBlockBefore(&body, before, before->end(), {current});
    rewriter.setInsertionPointToEnd(before);
    Value old = spirv::AtomicCompareExchangeOp::create(
        rewriter, loc, type, pointer, scope, kAtomicSemantics, kAtomicSemantics,
        next, current);
    Value retry = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                        old, current);
    scf::ConditionOp::create(rewriter, loc, retry, ValueRange{old});
    rewriter.eraseOp(yield);
    rewriter.setInsertionPointToEnd(after);
    scf::YieldOp::create(rewriter, loc, after->getArgument(0));
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Loops after upstream's SCF lowering
//===----------------------------------------------------------------------===//

/// Upstream lowers an `scf.for` with results to a `spirv.mlir.loop` whose
/// results live in Function variables stored at the end of each iteration
/// (in the continue block) and loaded after the loop: after a loop that
/// runs no iteration they are undefined. Each such variable gets the
/// loop's initial value before the loop. (Loops from `scf.while` store in
/// the header and need nothing.)
void initializeLoopResults(spirv::ModuleOp spirvModule) {
  SmallVector<spirv::LoopOp> loops;
  spirvModule.walk([&](spirv::LoopOp loop) { loops.push_back(loop); });
  for (spirv::LoopOp loop : loops) {
    Block *entry = loop.getEntryBlock();
    Block *header = loop.getHeaderBlock();
    Block *latch = loop.getContinueBlock();
    auto entryBranch = dyn_cast<spirv::BranchOp>(entry->getTerminator());
    auto backEdge = dyn_cast<spirv::BranchOp>(latch->getTerminator());
    if (!entryBranch || !backEdge || backEdge.getTarget() != header ||
        latch == header)
      continue;
    OpBuilder b(loop);
    for (Operation &op : *latch) {
      auto store = dyn_cast<spirv::StoreOp>(op);
      if (!store)
        continue;
      auto variable = store.getPtr().getDefiningOp<spirv::VariableOp>();
      if (!variable || loop->isAncestor(variable))
        continue;
      for (auto [index, next] : llvm::enumerate(backEdge.getTargetOperands()))
        if (next == store.getValue()) {
          spirv::StoreOp::create(b, store.getLoc(), store.getPtr(),
                                 entryBranch.getTargetOperands()[index]);
          break;
        }
    }
  }
}

//===----------------------------------------------------------------------===//
// Exact arithmetic for the f64 math expansions
//===----------------------------------------------------------------------===//

/// Decorates NoContraction (the `no_contraction` unit attribute, which the
/// serializer writes as the decoration) the float instructions that come
/// from f64 math expansions: their error terms need each operation rounded
/// on its own, and the decoration also marks them exact for drivers that
/// would otherwise reassociate (Mesa's NIR turns (a + b) - a into b).
void decorateExpandedMathExact(spirv::ModuleOp spirvModule) {
  UnitAttr unit = UnitAttr::get(spirvModule.getContext());
  spirvModule.walk([&](Operation *op) {
    if (!isExpandedF64MathLoc(op->getLoc()))
      return;
    if (isa<spirv::FAddOp, spirv::FSubOp, spirv::FMulOp, spirv::FDivOp,
            spirv::FNegateOp, spirv::GLFmaOp, spirv::FOrdEqualOp,
            spirv::FOrdNotEqualOp, spirv::FOrdLessThanOp,
            spirv::FOrdLessThanEqualOp, spirv::FOrdGreaterThanOp,
            spirv::FOrdGreaterThanEqualOp, spirv::FUnordEqualOp,
            spirv::FUnordNotEqualOp, spirv::FUnordLessThanOp,
            spirv::FUnordLessThanEqualOp, spirv::FUnordGreaterThanOp,
            spirv::FUnordGreaterThanEqualOp>(op))
      op->setAttr("no_contraction", unit);
  });
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// The value of `value` if constant folding its defining ops (from
/// constants, a few levels deep) gives an integer: block sizes are affine
/// maps of constants on the host until it is canonicalized.
std::optional<int64_t> foldToInteger(Value value, unsigned depth = 4) {
  std::function<Attribute(Value, unsigned)> fold =
      [&](Value v, unsigned d) -> Attribute {
    Attribute attr;
    if (matchPattern(v, m_Constant(&attr)))
      return attr;
    Operation *def = v.getDefiningOp();
    if (!def || d == 0 || def->getNumResults() != 1 ||
        def->getNumRegions() != 0)
      return {};
    SmallVector<Attribute> operands;
    for (Value operand : def->getOperands()) {
      Attribute operandAttr = fold(operand, d - 1);
      if (!operandAttr)
        return {};
      operands.push_back(operandAttr);
    }
    SmallVector<OpFoldResult> results;
    if (failed(def->fold(operands, results)) || results.size() != 1)
      return {};
    return dyn_cast<Attribute>(results.front());
  };
  if (auto integer = dyn_cast_or_null<IntegerAttr>(fold(value, depth)))
    return integer.getInt();
  return std::nullopt;
}

struct GpuToSPIRVPass : public vrir::impl::GpuToSPIRVBase<GpuToSPIRVPass> {
  using GpuToSPIRVBase::GpuToSPIRVBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (client == "vulkan") {
      clientKind = Client::Vulkan;
    } else if (client == "opencl") {
      clientKind = Client::OpenCL;
    } else {
      module.emitError("vrir-convert-gpu-to-spirv: unknown client '")
          << client << "' (expected vulkan or opencl)";
      return signalPassFailure();
    }
    if (indexBits != 32 && indexBits != 64) {
      module.emitError("vrir-convert-gpu-to-spirv: index-bits must be 32 or "
                       "64, not ")
          << static_cast<unsigned>(indexBits);
      return signalPassFailure();
    }

    // Work-group sizes of the kernels, by "module::kernel".
    llvm::StringMap<llvm::StringMap<SmallVector<int32_t, 3>>> workGroupSizes;
    WalkResult walk = module.walk([&](gpu::LaunchFuncOp launch) {
      gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      SmallVector<int32_t, 3> size;
      for (Value dim : {block.x, block.y, block.z}) {
        std::optional<int64_t> value = foldToInteger(dim);
        if (!value || *value < 1 || *value > INT32_MAX) {
          launch.emitOpError("has a work-group size that is not a positive "
                             "constant; the SPIR-V kernel fixes it");
          return WalkResult::interrupt();
        }
        size.push_back(static_cast<int32_t>(*value));
      }
      auto &kernels = workGroupSizes[launch.getKernelModuleName().getValue()];
      auto [it, inserted] =
          kernels.try_emplace(launch.getKernelName().getValue(), size);
      if (!inserted && it->second != size) {
        launch.emitOpError("launches a kernel with another work-group size "
                           "than an earlier launch; the SPIR-V kernel fixes "
                           "it");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    OpPassManager abiPipeline(spirv::ModuleOp::getOperationName());
    abiPipeline.addPass(spirv::createSPIRVLowerABIAttributesPass());
    // The conversion leaves one constant per use.
    abiPipeline.addPass(createCanonicalizerPass());
    abiPipeline.addPass(createCSEPass());
    abiPipeline.addPass(spirv::createSPIRVUpdateVCEPass());

    RewritePatternSet mathPatterns(&getContext());
    if (clientKind == Client::Vulkan)
      populateExpandF64MathPatterns(mathPatterns);
    expandF64Math = FrozenRewritePatternSet(std::move(mathPatterns));

    auto gpuModules = llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
    bool ok = true;
    for (gpu::GPUModuleOp gpuModule : gpuModules)
      if (failed(convertModule(gpuModule, workGroupSizes[gpuModule.getName()],
                               abiPipeline)))
        ok = false;
    if (!ok)
      signalPassFailure();
  }

  Client clientKind = Client::Vulkan;
  /// For Vulkan, the f64 math expansions; for OpenCL, nothing.
  FrozenRewritePatternSet expandF64Math;

  LogicalResult
  convertModule(gpu::GPUModuleOp gpuModule,
                const llvm::StringMap<SmallVector<int32_t, 3>> &workGroupSizes,
                OpPassManager &abiPipeline) {
    MLIRContext *context = &getContext();
    OpBuilder b(context);

    // The site names, for the launch lowering.
    SmallVector<std::string> sites;
    if (failed(collectBoundsErrors(gpuModule, sites)))
      return failure();
    SmallVector<Attribute> siteAttrs;
    for (const std::string &site : sites)
      siteAttrs.push_back(b.getStringAttr(site));
    gpuModule->setAttr(gpuabi::kSitesAttrName, b.getArrayAttr(siteAttrs));

    auto targetEnv = gpuModule->getAttrOfType<spirv::TargetEnvAttr>(
        spirv::getTargetEnvAttrName());
    if (!targetEnv) {
      targetEnv = cast<spirv::TargetEnvAttr>(parseAttribute(
          clientKind == Client::Vulkan ? kVulkanTargetEnv : kOpenCLTargetEnv,
          context));
    }
    spirv::ResourceLimitsAttr limits = targetEnv.getResourceLimits();
    for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
      auto size = workGroupSizes.find(kernel.getName());
      if (size == workGroupSizes.end())
        continue;
      int64_t invocations = 1;
      for (auto [dim, extent] : llvm::enumerate(size->second)) {
        invocations *= extent;
        auto limit =
            cast<IntegerAttr>(limits.getMaxComputeWorkgroupSize()[dim]);
        if (extent > limit.getInt())
          return kernel.emitOpError("work-group size ")
                 << extent << " in dimension " << dim
                 << " exceeds the target's limit " << limit.getInt();
      }
      if (invocations > limits.getMaxComputeWorkgroupInvocations())
        return kernel.emitOpError("work-group of ")
               << invocations << " work-items exceeds the target's limit "
               << limits.getMaxComputeWorkgroupInvocations();
    }

    // The copy to convert, after the original (as upstream does for Vulkan),
    // with its f64 math expanded for Vulkan.
    b.setInsertionPointAfter(gpuModule);
    auto copy = cast<gpu::GPUModuleOp>(b.clone(*gpuModule));
    copy->removeAttr(gpuabi::kSitesAttrName);
    copy->setAttr(spirv::getTargetEnvAttrName(), targetEnv);
    walkAndApplyPatterns(copy, expandF64Math);
    // What the kernel ABI proved of each buffer, for the variable of its
    // Vulkan binding: `spirv-lower-abi-attrs` names it KERNEL_arg_N, and
    // the buffers are the first bindings, in order (packScalarArguments).
    SmallVector<std::tuple<std::string, bool, bool>> bufferFacts;
    for (auto kernel : copy.getOps<gpu::GPUFuncOp>()) {
      unsigned binding = 0;
      for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
        if (kernel.getArgAttr(i, gpuabi::kRankAttrName))
          bufferFacts.emplace_back(
              (kernel.getName() + "_arg_" + Twine(binding++)).str(),
              static_cast<bool>(
                  kernel.getArgAttr(i, gpuabi::kReadOnlyAttrName)),
              static_cast<bool>(
                  kernel.getArgAttr(i, gpuabi::kNoAliasAttrName)));
    }
    if (failed(checkSupport(copy, clientKind)) ||
        failed(prepareKernels(copy, workGroupSizes, clientKind))) {
      copy.erase();
      return failure();
    }

    spirv::MemorySpaceToStorageClassConverter memorySpaces(
        clientKind == Client::Vulkan ? mapMemorySpaceToVulkanStorageClass
                                     : mapMemorySpaceToOpenCLStorageClass);
    spirv::convertMemRefTypesAndAttrs(copy, memorySpaces);

    SPIRVConversionOptions options;
    options.use64bitIndex = indexBits == 64;
    options.boolNumBits = 8;
    // An unsupported narrow type is an error, not a silent change of the
    // buffer layout the runtime fills.
    options.emulateLT32BitScalarTypes = false;
    SPIRVTypeConverter typeConverter(targetEnv, options);
    std::unique_ptr<ConversionTarget> target =
        SPIRVConversionTarget::get(targetEnv);

    RewritePatternSet patterns(context);
    populateGPUToSPIRVPatterns(typeConverter, patterns);
    ScfToSPIRVContext scfContext;
    populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
    arith::populateArithToSPIRVPatterns(typeConverter, patterns);
    populateMathToSPIRVPatterns(typeConverter, patterns);
    populateMemRefToSPIRVPatterns(typeConverter, patterns);
    populateFuncToSPIRVPatterns(typeConverter, patterns);
    index::populateIndexToSPIRVPatterns(typeConverter, patterns);
    ub::populateUBToSPIRVConversionPatterns(typeConverter, patterns);
    // The runs of matrix-product tiles (vector.from_elements, extract).
    populateVectorToSPIRVPatterns(typeConverter, patterns);
    patterns.add<RemSIPattern>(typeConverter, context, clientKind);
    patterns.add<AtomicRMWPattern, GenericAtomicRMWPattern>(typeConverter,
                                                            context);

    std::string name = (gpuabi::kSPIRVModulePrefix + gpuModule.getName()).str();
    if (failed(applyFullConversion(copy.getOperation(), *target,
                                   std::move(patterns))))
      return failure();
    auto spirvModule = getOperation().lookupSymbol<spirv::ModuleOp>(name);
    if (!spirvModule)
      return gpuModule.emitOpError("was not converted to spirv.module @")
             << name;
    decorateExpandedMathExact(spirvModule);
    if (clientKind == Client::Vulkan)
      narrowAccessChainIndices(spirvModule);
    if (failed(runPipeline(abiPipeline, spirvModule)))
      return failure();
    initializeLoopResults(spirvModule);
    if (clientKind == Client::Vulkan)
      decorateBuffers(spirvModule, bufferFacts);
    requireInt64Atomics(spirvModule);
    return success();
  }

  /// Gives each buffer binding a block type of its own, as glslang does, its
  /// member decorated NonWritable where the kernel only reads it, and
  /// decorates the variable Restrict where no other binding of the launch
  /// reaches its memory (or none writes it): OpenCL C's `const` and
  /// `restrict`. Bindings that share one block type must not be
  /// NonWritable: NVIDIA's driver (580.159, H100 and H200) then computed a
  /// wrong column-major matvec (test/Integration/GPU/kernels.py's
  /// matvec_mixed: a kernel that reads two NonWritable buffers and updates
  /// a third of the same block type in a loop). With a block type per
  /// binding the spec passes there, and the decoration makes the H200's
  /// DGEMM 1.24x and matmul_loops 1.59x faster (benchmarks/gpu/results/
  /// h200-2026-11-28a-*.json).
  static void
  decorateBuffers(spirv::ModuleOp spirvModule,
                  ArrayRef<std::tuple<std::string, bool, bool>> bufferFacts) {
    UnitAttr unit = UnitAttr::get(spirvModule.getContext());
    for (const auto &[name, readOnly, noAlias] : bufferFacts) {
      auto variable = spirvModule.lookupSymbol<spirv::GlobalVariableOp>(name);
      if (!variable)
        continue;
      if (noAlias)
        variable->setAttr("restrict", unit);
      giveOwnBlock(spirvModule, variable, readOnly);
    }
  }

  /// Gives the binding `variable` a block type of its own (an identified
  /// struct, as glslang makes one per buffer), its member NonWritable if
  /// `readOnly`.
  static void giveOwnBlock(spirv::ModuleOp spirvModule,
                           spirv::GlobalVariableOp variable, bool readOnly) {
    MLIRContext *context = spirvModule.getContext();
    auto pointer = cast<spirv::PointerType>(variable.getType());
    auto block = dyn_cast<spirv::StructType>(pointer.getPointeeType());
    if (!block || block.isIdentified())
      return;
    SmallVector<Type> members(block.getElementTypes());
    SmallVector<spirv::StructType::OffsetInfo> offsets;
    if (block.hasOffset())
      for (unsigned i = 0; i < block.getNumElements(); ++i)
        offsets.push_back(block.getMemberOffset(i));
    SmallVector<spirv::StructType::MemberDecorationInfo> decorations;
    block.getMemberDecorations(decorations);
    if (readOnly)
      for (unsigned i = 0; i < block.getNumElements(); ++i)
        decorations.emplace_back(i, spirv::Decoration::NonWritable,
                                 UnitAttr::get(context));
    SmallVector<spirv::StructType::StructDecorationInfo> structDecorations;
    block.getStructDecorations(structDecorations);
    // Identified structs are named in the whole context: a name taken with
    // another body gets a number.
    std::string base = (spirvModule.getName().value_or("m") + "_" +
                        variable.getSymName() + "_block")
                           .str();
    spirv::StructType own;
    for (unsigned attempt = 0;; ++attempt) {
      std::string id = attempt ? base + "_" + std::to_string(attempt) : base;
      own = spirv::StructType::getIdentified(context, id);
      if (succeeded(
              own.trySetBody(members, offsets, decorations, structDecorations)))
        break;
      SmallVector<spirv::StructType::MemberDecorationInfo> existing;
      own.getMemberDecorations(existing);
      if (llvm::equal(own.getElementTypes(), members) &&
          existing == decorations)
        break;
    }
    auto ownPointer = spirv::PointerType::get(own, pointer.getStorageClass());
    variable.setTypeAttr(TypeAttr::get(ownPointer));
    spirvModule.walk([&](spirv::AddressOfOp addressOf) {
      if (addressOf.getVariable() == variable.getSymName())
        addressOf.getPointer().setType(ownPointer);
    });
  }

  /// `spirv-update-vce` does not know that atomics on 64-bit integers need
  /// Int64Atomics (the capability depends on the operand type, not on the
  /// op); the target environment allows it.
  static void requireInt64Atomics(spirv::ModuleOp spirvModule) {
    WalkResult found = spirvModule.walk([](Operation *op) {
      StringRef name = op->getName().getStringRef();
      bool atomic = name.starts_with("spirv.Atomic") ||
                    name.starts_with("spirv.EXT.Atomic");
      auto is64 = [](Type type) { return type.isInteger(64); };
      if (atomic && (llvm::any_of(op->getResultTypes(), is64) ||
                     llvm::any_of(op->getOperandTypes(), is64)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    std::optional<spirv::VerCapExtAttr> vce = spirvModule.getVceTriple();
    if (!found.wasInterrupted() || !vce)
      return;
    SmallVector<spirv::Capability> capabilities(vce->getCapabilities());
    if (llvm::is_contained(capabilities, spirv::Capability::Int64Atomics))
      return;
    capabilities.push_back(spirv::Capability::Int64Atomics);
    SmallVector<spirv::Extension> extensions(vce->getExtensions());
    spirvModule.setVceTripleAttr(spirv::VerCapExtAttr::get(
        vce->getVersion(), capabilities, extensions, spirvModule.getContext()));
  }
};

} // namespace
