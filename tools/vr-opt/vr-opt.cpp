//===- vr-opt.cpp - VRIR optimizer driver ---------------------------------===//
//
// mlir-opt with the VRIR dialect: parses, verifies and transforms VRIR
// modules with VRIR and upstream passes. The input is verified by
// `vrir-verify-input` (run ahead of the user's pipeline) instead of the
// parser's verifier, so that malformed upstream ops that crash their own
// verifiers get a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"
#include "VRIR/Dialect/VRIR/IR/VRIR.h"
#include "VRIR/Support/LargeStack.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>

using namespace mlir;

/// Upstream's MlirOptMain with the parser's verification replaced by
/// `vrir-verify-input` at the head of the pipeline (where the user did not
/// turn verification on parsing off).
static LogicalResult runOptimizer(StringRef inputFilename,
                                  StringRef outputFilename,
                                  DialectRegistry &registry) {
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return MlirOptMain(llvm::outs(), nullptr, registry, config);
  if (config.shouldVerifyOnParsing()) {
    MlirOptMainConfig userPipeline = config;
    config.verifyOnParsing(false);
    config.setPassPipelineSetupFn([userPipeline](PassManager &pm) {
      pm.addPass(vrir::createVerifyInput());
      return userPipeline.setupPassPipeline(pm);
    });
  }
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return failure();
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::vrir::registerVRIRConversionPasses();
  mlir::vrir::registerVRIRTransformsPasses();
  mlir::vrir::registerVRIRPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::vrir::VRIRDialect>();
  // The upstream dialects a VRIR pipeline meets on the way down (scalars,
  // control flow, memref/affine/scf, gpu/spirv, openmp, llvm).
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);

  std::pair<std::string, std::string> files = mlir::registerAndParseCLIOptions(
      argc, argv, "VRIR optimizer driver\n", registry);
  mlir::vrir::exitWithLargeStack([&] {
    return mlir::asMainReturnCode(
        runOptimizer(files.first, files.second, registry));
  });
}
