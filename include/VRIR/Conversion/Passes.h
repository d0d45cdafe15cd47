//===- Passes.h - VRIR conversion passes ------------------------*- C++ -*-===//

#ifndef VRIR_CONVERSION_PASSES_H
#define VRIR_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class ModuleOp;
namespace vrir {

#define GEN_PASS_DECL
#include "VRIR/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "VRIR/Conversion/Passes.h.inc"

/// Options of the `vrir-to-cpu` pipeline.
struct CPUPipelineOptions {
  /// Lower `pfor` to OpenMP; without it parallel loops run serially.
  bool enableOpenMP = true;
};

/// VRIR (with func/scf/arith/cf) all the way to the LLVM dialect.
void buildVRIRToCPUPipeline(OpPassManager &pm,
                            const CPUPipelineOptions &options = {});

/// Registers `vrir-to-cpu` with the pass pipeline registry.
void registerVRIRPipelines();

} // namespace vrir
} // namespace mlir

#endif // VRIR_CONVERSION_PASSES_H
