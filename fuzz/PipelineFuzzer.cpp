//===- PipelineFuzzer.cpp - Fuzz the lowering pipelines -------------------===//
//
// Input: one byte choosing the pipeline's options, then MLIR text. A module
// that parses and verifies runs through `vrir-to-cpu` (with the byte's GPU
// target, bounds-check elimination, affine raising, OpenMP and region
// specialization settings) down to the LLVM dialect. Every failure must be
// a diagnostic; the result, when the pipeline succeeds, must verify.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "VRIR/Transforms/VerifyInput.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;
using namespace mlir::vrir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  uint8_t choice = data[0];
  vrir_fuzz::FuzzContext context;
  // Null-terminated, as the tools' file buffers (MLIR's lexer relies on it).
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  OwningOpRef<ModuleOp> module = parseInputString(text, context.get());
  if (!module)
    return 0;

  CompileOptions options;
  static const GPUTarget targets[] = {GPUTarget::None, GPUTarget::OpenCLC,
                                      GPUTarget::VulkanSPIRV,
                                      GPUTarget::OpenCLSPIRV};
  options.pipeline.gpuTarget = targets[choice & 3];
  options.pipeline.eliminateBoundsChecks = !(choice & 4);
  options.pipeline.raiseToAffine = !(choice & 8);
  options.pipeline.enableOpenMP = !(choice & 16);
  options.pipeline.specializeRegions = choice & 32;
  if (failed(lowerToLLVM(*module, options)))
    return 0;
  if (failed(verify(*module))) {
    llvm::errs() << "the pipeline succeeded with a module that does not "
                    "verify\n";
    std::abort();
  }
  return 0;
}
