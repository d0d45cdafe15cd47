//===- Passes.h - VRIR conversion passes ------------------------*- C++ -*-===//

#ifndef VRIR_CONVERSION_PASSES_H
#define VRIR_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class ModuleOp;
class RewritePatternSet;
namespace vrir {

#define GEN_PASS_DECL
#include "VRIR/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "VRIR/Conversion/Passes.h.inc"

/// complex.div as NumPy's loop; complex.pow, sqrt, exp, log, sin, cos, tan
/// and tanh as calls of what NumPy computes them with (vrir-numpy-complex).
void populateNumPyComplexPatterns(RewritePatternSet &patterns);

/// Where the code of `gpu_section`s runs.
enum class GPUTarget {
  /// Inline on the CPU, like the code around them.
  None,
  /// OpenCL C kernels, launched through the VRIR GPU runtime.
  OpenCLC,
  /// SPIR-V kernels for Vulkan, launched through the VRIR GPU runtime.
  VulkanSPIRV,
  /// SPIR-V kernels for OpenCL (Kernel capability), for devices whose
  /// CL_DEVICE_IL_VERSION lists SPIR-V.
  OpenCLSPIRV,
};

/// The name of the pipeline for `target`: `vrir-to-cpu`, `vrir-to-opencl`,
/// `vrir-to-vulkan` or `vrir-to-opencl-spirv`.
StringRef getPipelineName(GPUTarget target);

/// Options of the `vrir-to-cpu`, `vrir-to-opencl`, `vrir-to-vulkan` and
/// `vrir-to-opencl-spirv` pipelines.
struct PipelineOptions {
  /// Lower `pfor` outside GPU sections to OpenMP; without it parallel
  /// loops run serially.
  bool enableOpenMP = true;
  /// Remove bounds checks proven never to fail (vrir-bounds-check-elim).
  bool eliminateBoundsChecks = true;
  /// Take affine loop nests and subscripts through the affine dialect
  /// (vrir-raise-to-affine, affine-scalrep) on the way to LLVM.
  bool raiseToAffine = true;
  /// Region specialization (thesis chapter 6): outline the potentially
  /// interesting regions of each function behind `vrir.dispatch`, whose
  /// dispatcher runs versions compiled at run time for the shapes, values
  /// and aliasing of their arguments (when the process has a specializer:
  /// installRegionSpecializer), else the generic region.
  bool specializeRegions = false;
  GPUTarget gpuTarget = GPUTarget::None;
  /// The tiling of GPU matrix products, {tile-m, tile-n, tile-k, threads-x,
  /// threads-y} (`vrir-gpu-map-sections`' matmul options); empty for the
  /// pass's defaults.
  SmallVector<int64_t, 5> gpuMatmulTiling;
  /// Width of `index` in SPIR-V kernels (`vrir-convert-gpu-to-spirv`'s
  /// index-bits): 64 or 32.
  unsigned gpuIndexBits = 64;
};

/// VRIR (with func/scf/arith/cf) all the way to the LLVM dialect, GPU
/// sections as `options.gpuTarget` says.
void buildVRIRPipeline(OpPassManager &pm, const PipelineOptions &options = {});

/// Registers `vrir-to-cpu`, `vrir-to-opencl` and `vrir-to-vulkan` with the
/// pass pipeline registry.
void registerVRIRPipelines();

} // namespace vrir
} // namespace mlir

#endif // VRIR_CONVERSION_PASSES_H
