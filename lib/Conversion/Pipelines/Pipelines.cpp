//===- Pipelines.cpp - Named VRIR pass pipelines --------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// VRIR -> memref/scf/linalg -> (deallocation) -> affine loops -> scf
/// -> OpenMP -> LLVM. Upstream passes by name, so the same list can be run
/// stage by stage with vr-opt.
static const char *const kVRIRToCPUFront =
    // Calls between frontend functions are inlined once their bodies are
    // structured (single blocks fit in pfor bodies).
    "mem2reg,lift-cf-to-scf,canonicalize,inline,cse,vrir-uplift-while-to-for,"
    "canonicalize,vrir-fuse-elementwise,convert-vrir-to-memref,canonicalize,"
    // Counted loops give index ranges: wrap-around and checks they prove
    // redundant fold away.
    "cse,int-range-optimizations,canonicalize,"
    "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
    "convert-linalg-to-loops,canonicalize";
static const char *const kVRIRToCPUBack =
    "convert-scf-to-cf,expand-strided-metadata,lower-affine,"
    "convert-complex-to-standard,"
    // LLVM intrinsics first; libm for what has none (math-to-libm marks
    // the whole math dialect illegal).
    "convert-math-to-funcs{convert-ctlz=false},convert-math-to-llvm,"
    "convert-math-to-libm,"
    // Array memory comes from the VRIR runtime (a cache of large blocks).
    "finalize-memref-to-llvm{use-generic-functions=true},"
    "convert-complex-to-llvm,"
    "convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,"
    "convert-cf-to-llvm,convert-func-to-llvm,convert-openmp-to-llvm,"
    "reconcile-unrealized-casts,canonicalize";

void mlir::vrir::buildVRIRToCPUPipeline(OpPassManager &pm,
                                        const CPUPipelineOptions &options) {
  std::string pipeline = kVRIRToCPUFront;
  if (options.enableOpenMP)
    // The alloca scopes around loop bodies must go before scf-to-cf splits
    // the bodies into blocks.
    pipeline += ",convert-scf-to-openmp,vrir-inline-alloca-scopes";
  pipeline += ",";
  pipeline += kVRIRToCPUBack;
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("vrir-to-cpu: bad pipeline description");
}

namespace {
struct CPUPipelineCLOptions : public PassPipelineOptions<CPUPipelineCLOptions> {
  Option<bool> enableOpenMP{*this, "openmp",
                            llvm::cl::desc("Lower pfor to OpenMP"),
                            llvm::cl::init(true)};
};
} // namespace

void mlir::vrir::registerVRIRPipelines() {
  PassPipelineRegistration<CPUPipelineCLOptions>(
      "vrir-to-cpu", "Lower a VRIR module to the LLVM dialect for the CPU",
      [](OpPassManager &pm, const CPUPipelineCLOptions &cl) {
        CPUPipelineOptions options;
        options.enableOpenMP = cl.enableOpenMP;
        buildVRIRToCPUPipeline(pm, options);
      });
}
