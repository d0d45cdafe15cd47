//===- GpuLaunchToRuntime.cpp - Kernel launches as GPU runtime calls ------===//
//
// Translates each `gpu.module` for its target (OpenCL C text, or the SPIR-V
// binary of the `spirv.module` that `vrir-convert-gpu-to-spirv` made of
// it, for Vulkan or OpenCL), keeps the result as a constant of the host module,
// and replaces each `gpu.launch_func` by a call of the GPU runtime's
// `vrir_gpu_launch` (include/VRIR/Runtime/VRIRGPURuntime.h) with a table that
// describes the kernel's arguments: arrays as views (buffer, offset and rank;
// the runtime works out their bytes from the sizes and strides that follow),
// scalars by their bits. The table is the same for every format: the
// `gpu.module`'s kernels (not their SPIR-V form, which has the error buffer as
// one more argument) describe the arguments.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"
#include "VRIR/Runtime/VRIRGPURuntime.h"
#include "VRIR/Target/OpenCLC.h"

#include "../VRIRToMemRef/LoweringUtils.h"
#include "GpuABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_GPULAUNCHTORUNTIME
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

// The launch ABI of VRIRGPURuntime.h.
constexpr int64_t kFormatOpenCLC = VRIR_GPU_FORMAT_OPENCL_C,
                  kFormatVulkanSPIRV = VRIR_GPU_FORMAT_VULKAN_SPIRV,
                  kFormatOpenCLSPIRV = VRIR_GPU_FORMAT_OPENCL_SPIRV;
constexpr int64_t kArgScalar = VRIR_GPU_ARG_SCALAR,
                  kArgView = VRIR_GPU_ARG_VIEW;
constexpr int64_t kAccessRead = VRIR_GPU_ACCESS_READ,
                  kAccessWrite = VRIR_GPU_ACCESS_WRITE;
constexpr int64_t kWordsPerArg = sizeof(vrir_gpu_arg) / sizeof(int64_t);

/// A kernel's compiled form (text or binary) and the names of its
/// bounds-check sites.
struct KernelBinary {
  std::string text;
  SmallVector<std::string> sites;
};

/// The SPIR-V binary of `gpuModule`'s `spirv.module` and the sites that
/// `vrir-convert-gpu-to-spirv` recorded.
LogicalResult serializeSPIRV(ModuleOp module, gpu::GPUModuleOp gpuModule,
                             KernelBinary &binary) {
  std::string name = (gpuabi::kSPIRVModulePrefix + gpuModule.getName()).str();
  auto spirvModule = module.lookupSymbol<spirv::ModuleOp>(name);
  auto sites = gpuModule->getAttrOfType<ArrayAttr>(gpuabi::kSitesAttrName);
  if (!spirvModule || !sites)
    return gpuModule.emitOpError("has no SPIR-V form (spirv.module @")
           << name << " and " << gpuabi::kSitesAttrName
           << "): run vrir-convert-gpu-to-spirv first";
  for (Attribute site : sites) {
    auto text = dyn_cast<StringAttr>(site);
    if (!text)
      return gpuModule.emitOpError(gpuabi::kSitesAttrName)
             << " must hold strings";
    binary.sites.push_back(text.str());
  }
  SmallVector<uint32_t> words;
  if (failed(spirv::serialize(spirvModule, words)))
    return failure();
  binary.text.assign(reinterpret_cast<const char *>(words.data()),
                     words.size() * sizeof(uint32_t));
  return success();
}

/// The address of a constant global holding `words` (one per table word),
/// shared by the launches with the same template.
Value getTableTemplate(OpBuilder &b, Location loc, Operation *anchor,
                       ArrayRef<int64_t> words) {
  ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>(words.data()),
                          words.size() * sizeof(int64_t));
  auto type = LLVM::LLVMArrayType::get(b.getI64Type(), words.size());
  return lowering::getConstantGlobal(b, loc, anchor, "__vrir_gpu_args_", type,
                                     b.getI64TensorAttr(words), bytes,
                                     /*alignment=*/8);
}

struct GpuLaunchToRuntimePass
    : public vrir::impl::GpuLaunchToRuntimeBase<GpuLaunchToRuntimePass> {
  using GpuLaunchToRuntimeBase::GpuLaunchToRuntimeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (format == "opencl-c") {
      formatNumber = kFormatOpenCLC;
    } else if (format == "vulkan-spirv") {
      formatNumber = kFormatVulkanSPIRV;
    } else if (format == "opencl-spirv") {
      formatNumber = kFormatOpenCLSPIRV;
    } else {
      module.emitError("vrir-gpu-launch-to-runtime: unknown format '")
          << format << "' (expected opencl-c, vulkan-spirv or opencl-spirv)";
      return signalPassFailure();
    }
    llvm::StringMap<KernelBinary> binaries;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      KernelBinary &binary = binaries[gpuModule.getName()];
      if (formatNumber != kFormatOpenCLC) {
        if (failed(serializeSPIRV(module, gpuModule, binary)))
          return signalPassFailure();
        continue;
      }
      llvm::raw_string_ostream os(binary.text);
      if (failed(translateGPUModuleToOpenCLC(gpuModule, os, binary.sites)))
        return signalPassFailure();
    }
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp op) { launches.push_back(op); });
    for (gpu::LaunchFuncOp launch : launches) {
      auto it = binaries.find(launch.getKernelModuleName());
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (it == binaries.end() || !kernel) {
        launch.emitOpError("refers to no kernel of this module");
        return signalPassFailure();
      }
      if (failed(lowerLaunch(launch, kernel, it->second)))
        return signalPassFailure();
    }
    for (auto gpuModule :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>()))
      gpuModule.erase();
    for (auto spirvModule :
         llvm::make_early_inc_range(module.getOps<spirv::ModuleOp>()))
      spirvModule.erase();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }

  /// VRIR_GPU_FORMAT_* of `format`.
  int64_t formatNumber = kFormatOpenCLC;

  LogicalResult lowerLaunch(gpu::LaunchFuncOp launch, gpu::GPUFuncOp kernel,
                            const KernelBinary &binary) {
    OpBuilder b(launch);
    Location loc = launch.getLoc();
    MLIRContext *context = b.getContext();
    Type i64 = b.getI64Type();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(b, loc, i64, value);
    };
    auto toI64 = [&](Value value) -> Value {
      Type type = value.getType();
      if (type.isIndex())
        return arith::IndexCastOp::create(b, loc, i64, value);
      if (auto floatType = dyn_cast<FloatType>(type)) {
        value = arith::BitcastOp::create(
            b, loc, b.getIntegerType(floatType.getWidth()), value);
        type = value.getType();
      }
      if (type.getIntOrFloatBitWidth() < 64)
        return arith::ExtUIOp::create(b, loc, i64, value);
      return value;
    };

    // The argument table: six words per runtime argument, constants (as
    // attributes) or values.
    auto word = [&](int64_t value) -> OpFoldResult {
      return b.getI64IntegerAttr(value);
    };
    SmallVector<SmallVector<OpFoldResult, kWordsPerArg>> table;
    OperandRange operands = launch.getKernelOperands();
    for (unsigned index = 0; index < operands.size(); ++index) {
      Value operand = operands[index];
      auto bufferType = dyn_cast<MemRefType>(operand.getType());
      if (!bufferType) {
        if (!operand.getType().isIntOrIndexOrFloat())
          return launch.emitOpError("passes a value of type ")
                 << operand.getType() << " that no GPU kernel can take";
        table.push_back({word(kArgScalar), toI64(operand),
                         word(getElementBytes(operand.getType())), word(0),
                         word(0), word(0)});
        continue;
      }
      auto rank =
          kernel.getArgAttrOfType<IntegerAttr>(index, gpuabi::kRankAttrName);
      if (!rank)
        return launch.emitOpError("passes a memref the kernel ABI pass did "
                                  "not flatten (run vrir-gpu-kernel-abi)");
      int64_t r = rank.getInt();
      if (r < 0 || static_cast<int64_t>(index + 2 + 2 * r) >
                       static_cast<int64_t>(operands.size()))
        return launch.emitOpError("passes a buffer of rank ")
               << r << " without its offset, sizes and strides";
      // A view: the runtime works out the bytes it spans from the sizes and
      // strides that follow it in the table (no host code per launch).
      Value offset = operands[index + 1];
      int64_t elementBytes = getElementBytes(bufferType.getElementType());
      Value base =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, operand);
      int64_t access = kAccessRead;
      if (!kernel.getArgAttr(index, gpuabi::kReadOnlyAttrName))
        access |= kAccessWrite;
      table.push_back({word(kArgView), toI64(base), word(r), word(elementBytes),
                       toI64(offset), word(access)});
      ++index; // The offset travels in the buffer's entry.
    }

    // The table lives in the entry block's stack frame, where its constant
    // words are copied once from a global (launches in loops reuse it); the
    // launch stores the others.
    SmallVector<int64_t> templateWords;
    SmallVector<std::pair<int64_t, Value>> storedWords;
    for (ArrayRef<OpFoldResult> entry : table)
      for (OpFoldResult value : entry) {
        if (auto bits = getConstantIntValue(value)) {
          templateWords.push_back(*bits);
          continue;
        }
        storedWords.emplace_back(templateWords.size(), cast<Value>(value));
        templateWords.push_back(0);
      }
    if (templateWords.empty())
      templateWords.push_back(0);
    Value tablePointer;
    {
      OpBuilder::InsertionGuard guard(b);
      auto function = launch->getParentOfType<FunctionOpInterface>();
      b.setInsertionPointToStart(&function.getFunctionBody().front());
      tablePointer = LLVM::AllocaOp::create(b, loc, ptrType, i64,
                                            constant(templateWords.size()));
      LLVM::MemcpyOp::create(b, loc, tablePointer,
                             getTableTemplate(b, loc, launch, templateWords),
                             constant(templateWords.size() * sizeof(int64_t)),
                             /*isVolatile=*/false);
    }
    for (auto [word, value] : storedWords) {
      Value slot = LLVM::GEPOp::create(
          b, loc, ptrType, i64, tablePointer,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(word)});
      LLVM::StoreOp::create(b, loc, value, slot);
    }

    std::string sites;
    for (const std::string &site : binary.sites) {
      sites += site;
      sites.push_back('\0');
    }
    Value binaryAddress =
        lowering::getConstantString(b, loc, launch, binary.text);
    if (formatNumber != kFormatOpenCLC) {
      // SPIR-V is read as 32-bit words.
      auto global = SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(
          launch,
          binaryAddress.getDefiningOp<LLVM::AddressOfOp>().getGlobalNameAttr());
      global.setAlignment(8);
    }
    SmallVector<Value> args = {
        constant(formatNumber),
        binaryAddress,
        constant(binary.text.size()),
        lowering::getConstantString(b, loc, launch,
                                    launch.getKernelName().getValue()),
        lowering::getConstantString(b, loc, launch, sites),
        constant(binary.sites.size())};
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    for (Value size : {grid.x, grid.y, grid.z, block.x, block.y, block.z})
      args.push_back(toI64(size));
    args.push_back(constant(table.size()));
    args.push_back(tablePointer);
    LLVM::LLVMFuncOp function = lowering::declareVoidFunction(
        b, launch, "vrir_gpu_launch", ValueRange(args).getTypes());
    // No memory-effect attribute: the runtime writes the arrays whose
    // addresses the table holds.
    LLVM::CallOp::create(b, loc, function, args);
    launch.erase();
    return success();
  }
};

} // namespace
