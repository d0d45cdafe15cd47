//===- Pipelines.cpp - Named VRIR pass pipelines --------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

/// VRIR -> memref/scf/linalg -> [GPU kernels] -> (deallocation) -> affine
/// loops -> scf -> OpenMP -> LLVM. Upstream passes by name, so the same
/// list can be run stage by stage with vr-opt.
static const char *const kVRIRFront =
    // Calls between frontend functions are inlined once their bodies are
    // structured (single blocks fit in pfor bodies).
    "mem2reg,lift-cf-to-scf,canonicalize,vrir-inline,cse,"
    "vrir-uplift-while-to-for,"
    "canonicalize,vrir-fuse-elementwise,";
/// GPU sections: their parallel loops become outlined kernels with flat
/// buffer arguments, translated for the target and launched through the
/// runtime; the rest of each section stays on the host.
static const char *const kVRIRToGPUMapping =
    "convert-vrir-to-memref{gpu-sections=true},"
    // Each kernel keeps a host version for when device memory runs out.
    "vrir-gpu-cpu-fallback,vrir-gpu-map-sections";
static const char *const kVRIRToGPUKernels =
    ",convert-parallel-loops-to-gpu,gpu-launch-sink-index-computations,"
    "gpu-kernel-outlining,vrir-gpu-kernel-abi,"
    // Work-item ids are not negative: lower-bound checks on them fold.
    "gpu.module(lower-affine,canonicalize,cse,int-range-optimizations,"
    "canonicalize),"
    // Arrays stay on the device between launches; the host says when it
    // needs them.
    "vrir-gpu-host-sync,";
static const char *const kVRIRMiddle =
    "canonicalize,"
    // Counted loops give index ranges: wrap-around and checks they prove
    // redundant fold away.
    "cse,int-range-optimizations,canonicalize,"
    "buffer-deallocation-pipeline,"
    // Entry points return views of their arguments, not copies.
    "vrir-return-argument-views,convert-bufferization-to-memref,"
    "convert-linalg-to-loops,canonicalize";
/// Affine loop nests and subscripts go through the affine dialect (extents
/// hoisted first, so that bounds are function-level symbols).
static const char *const kVRIRAffine =
    ",loop-invariant-code-motion,"
    "func.func(vrir-raise-to-affine,affine-scalrep),canonicalize,"
    "lower-affine,canonicalize";
static const char *const kVRIRBack =
    "convert-scf-to-cf,expand-strided-metadata,lower-affine,"
    // NumPy's complex functions (libm, the runtime's cpow) first.
    "vrir-numpy-complex,convert-complex-to-standard,"
    // LLVM intrinsics first; libm for what has none (math-to-libm marks
    // the whole math dialect illegal).
    "convert-math-to-funcs{convert-ctlz=false},convert-math-to-llvm,"
    "convert-math-to-libm,"
    // Array memory comes from the VRIR runtime (a cache of large blocks).
    "vrir-convert-part-views-to-llvm,"
    // Row, then element: addresses LLVM can carry across iterations.
    "vrir-convert-memref-access-to-llvm,"
    "finalize-memref-to-llvm{use-generic-functions=true},"
    // Its address arithmetic assumes non-negative strides.
    "vrir-allow-negative-strides,"
    "convert-complex-to-llvm,"
    "convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,"
    "convert-cf-to-llvm,convert-func-to-llvm,"
    "vrir-specialize-region-llvm,vrir-lower-region-dispatch,"
    "convert-openmp-to-llvm,"
    "reconcile-unrealized-casts,canonicalize";

void mlir::vrir::buildVRIRPipeline(OpPassManager &pm,
                                   const PipelineOptions &options) {
  std::string pipeline = kVRIRFront;
  if (options.specializeRegions) {
    const char *target = "cpu";
    switch (options.gpuTarget) {
    case GPUTarget::None:
      break;
    case GPUTarget::OpenCLC:
      target = "opencl";
      break;
    case GPUTarget::VulkanSPIRV:
      target = "vulkan";
      break;
    case GPUTarget::OpenCLSPIRV:
      target = "opencl-spirv";
      break;
    }
    pipeline += (llvm::Twine("vrir-outline-regions{pipeline-options=") +
                 target + ":" + (options.enableOpenMP ? "1" : "0") + ":" +
                 (options.eliminateBoundsChecks ? "1" : "0") + ":" +
                 (options.raiseToAffine ? "1" : "0") + "},")
                    .str();
  }
  // The facts of a region being specialised (none elsewhere).
  pipeline += "vrir-specialize-region,";
  if (options.eliminateBoundsChecks)
    pipeline += "vrir-bounds-check-elim,vrir-version-bounds-checks,";
  std::string toGPUKernels = kVRIRToGPUMapping;
  ArrayRef<int64_t> tiling(options.gpuMatmulTiling);
  if (tiling.size() == 5) {
    toGPUKernels +=
        llvm::formatv("{{matmul-tile-m={0} matmul-tile-n={1} "
                      "matmul-tile-k={2} matmul-threads-x={3} "
                      "matmul-threads-y={4}}",
                      tiling[0], tiling[1], tiling[2], tiling[3], tiling[4])
            .str();
  }
  toGPUKernels += kVRIRToGPUKernels;
  std::string spirvOptions =
      options.gpuIndexBits == 64
          ? std::string()
          : llvm::formatv(" index-bits={0}", options.gpuIndexBits).str();
  switch (options.gpuTarget) {
  case GPUTarget::None:
    pipeline += "convert-vrir-to-memref,";
    break;
  case GPUTarget::OpenCLC:
    pipeline += toGPUKernels;
    pipeline += "vrir-gpu-launch-to-runtime{format=opencl-c},";
    break;
  case GPUTarget::VulkanSPIRV:
    pipeline += toGPUKernels;
    pipeline += "vrir-convert-gpu-to-spirv{client=vulkan" + spirvOptions +
                "},vrir-gpu-launch-to-runtime{format=vulkan-spirv},";
    break;
  case GPUTarget::OpenCLSPIRV:
    pipeline += toGPUKernels;
    pipeline += "vrir-convert-gpu-to-spirv{client=opencl" + spirvOptions +
                "},vrir-gpu-launch-to-runtime{format=opencl-spirv},";
    break;
  }
  pipeline += kVRIRMiddle;
  if (options.raiseToAffine)
    pipeline += kVRIRAffine;
  // Ctrl-C polls; with OpenMP, errors in parallel loops unwind per chunk.
  pipeline += ",vrir-interrupt-points";
  if (options.enableOpenMP)
    // The alloca scopes around loop bodies must go before scf-to-cf splits
    // the bodies into blocks.
    pipeline += ",vrir-parallel-error-scopes,convert-scf-to-openmp,"
                "vrir-inline-alloca-scopes";
  pipeline += ",";
  pipeline += kVRIRBack;
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("vrir: bad pipeline description");
}

namespace {
struct PipelineCLOptions : public PassPipelineOptions<PipelineCLOptions> {
  Option<bool> enableOpenMP{*this, "openmp",
                            llvm::cl::desc("Lower pfor to OpenMP"),
                            llvm::cl::init(true)};
  Option<bool> eliminateBoundsChecks{
      *this, "bce", llvm::cl::desc("Remove bounds checks proven never to fail"),
      llvm::cl::init(true)};
  Option<bool> raiseToAffine{
      *this, "affine",
      llvm::cl::desc("Take affine loop nests through the affine dialect"),
      llvm::cl::init(true)};
  Option<bool> specializeRegions{
      *this, "specialize",
      llvm::cl::desc("Outline potentially interesting regions behind "
                     "vrir.dispatch, to be specialised at run time"),
      llvm::cl::init(false)};
};
} // namespace

StringRef mlir::vrir::getPipelineName(GPUTarget target) {
  switch (target) {
  case GPUTarget::None:
    return "vrir-to-cpu";
  case GPUTarget::OpenCLC:
    return "vrir-to-opencl";
  case GPUTarget::VulkanSPIRV:
    return "vrir-to-vulkan";
  case GPUTarget::OpenCLSPIRV:
    return "vrir-to-opencl-spirv";
  }
  llvm_unreachable("unknown GPU target");
}

void mlir::vrir::registerVRIRPipelines() {
  auto registerPipeline = [](StringRef description, GPUTarget gpuTarget) {
    PassPipelineRegistration<PipelineCLOptions>(
        getPipelineName(gpuTarget), description,
        [gpuTarget](OpPassManager &pm, const PipelineCLOptions &cl) {
          PipelineOptions options;
          options.enableOpenMP = cl.enableOpenMP;
          options.eliminateBoundsChecks = cl.eliminateBoundsChecks;
          options.raiseToAffine = cl.raiseToAffine;
          options.specializeRegions = cl.specializeRegions;
          options.gpuTarget = gpuTarget;
          buildVRIRPipeline(pm, options);
        });
  };
  registerPipeline("Lower a VRIR module to the LLVM dialect for the CPU",
                   GPUTarget::None);
  registerPipeline("Lower a VRIR module to the LLVM dialect, GPU sections "
                   "as OpenCL C kernels launched through the GPU runtime",
                   GPUTarget::OpenCLC);
  registerPipeline("Lower a VRIR module to the LLVM dialect, GPU sections "
                   "as SPIR-V kernels for Vulkan launched through the GPU "
                   "runtime",
                   GPUTarget::VulkanSPIRV);
  registerPipeline("Lower a VRIR module to the LLVM dialect, GPU sections "
                   "as SPIR-V kernels for OpenCL (clCreateProgramWithIL) "
                   "launched through the GPU runtime",
                   GPUTarget::OpenCLSPIRV);
}
