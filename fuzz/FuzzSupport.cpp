//===- FuzzSupport.cpp - Shared pieces of the VRIR fuzz targets -----------===//

#include "FuzzSupport.h"

/// libFuzzer calls this once before the first input: the passes and the
/// native target the pipelines use.
extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  mlir::vrir::initializeDriver();
  return 0;
}
