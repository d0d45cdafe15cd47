//===- Pipelines.cpp - Named VRIR pass pipelines --------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// VRIR -> memref/scf/linalg -> (deallocation) -> affine loops -> scf
/// -> OpenMP -> LLVM. Upstream passes by name, so the same list can be run
/// stage by stage with vr-opt.
static const char *const kVRIRToCPUFront =
    "mem2reg,canonicalize,cse,"
    "convert-vrir-to-memref,canonicalize,cse,"
    "buffer-deallocation-pipeline,"
    "convert-linalg-to-affine-loops,lower-affine,canonicalize";
static const char *const kVRIRToCPUBack =
    "expand-strided-metadata,lower-affine,"
    // Before scf-to-cf: it lowers the memref.alloca_scope that
    // convert-scf-to-openmp wraps loop bodies in, which must stay one block.
    "finalize-memref-to-llvm,convert-scf-to-cf,"
    "convert-complex-to-standard,"
    "convert-math-to-funcs{convert-ctlz=false},convert-math-to-libm,"
    "convert-math-to-llvm,convert-complex-to-llvm,"
    "convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,"
    "convert-cf-to-llvm,convert-func-to-llvm,convert-openmp-to-llvm,"
    "reconcile-unrealized-casts,canonicalize";

void mlir::vrir::buildVRIRToCPUPipeline(OpPassManager &pm,
                                        const CPUPipelineOptions &options) {
  std::string pipeline = kVRIRToCPUFront;
  if (options.enableOpenMP)
    pipeline += ",convert-scf-to-openmp,canonicalize";
  pipeline += ",";
  pipeline += kVRIRToCPUBack;
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("vrir-to-cpu: bad pipeline description");
}

namespace {
struct CPUPipelineCLOptions
    : public PassPipelineOptions<CPUPipelineCLOptions> {
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
