//===- vr-opt.cpp - VRIR optimizer driver ---------------------------------===//
//
// mlir-opt with the VRIR dialect: parses, verifies and transforms VRIR
// modules with VRIR and upstream passes.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"
#include "VRIR/Dialect/VRIR/IR/VRIR.h"
#include "VRIR/Support/LargeStack.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

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

  mlir::vrir::exitWithLargeStack([&] {
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, "VRIR optimizer driver\n", registry));
  });
}
