//===- vr-translate.cpp - VRIR translation driver -------------------------===//
//
// mlir-translate with the VRIR translations: `--import-vrir-sexpr` reads the
// S-expression form of VRIR (thesis appendix A) and prints the VRIR dialect;
// `--gpu-to-opencl-c` writes the kernels of outlined gpu.modules as OpenCL C.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Support/LargeStack.h"
#include "VRIR/Target/OpenCLC.h"
#include "VRIR/Target/SExpr.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::vrir::registerImportVRIRSExprTranslation();
  mlir::vrir::registerGPUToOpenCLCTranslation();
  mlir::vrir::exitWithLargeStack([&] {
    return mlir::failed(
        mlir::mlirTranslateMain(argc, argv, "VRIR translation driver\n"));
  });
}
