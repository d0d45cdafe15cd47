//===- LinearAlgebraOps.cpp - matmul, matvec, transpose -------------------===//
// PLACEHOLDER: being written.
#include "VRIR/Conversion/VRIRToMemRef.h"
void mlir::vrir::populateVRIRLinearAlgebraPatterns(const VRIRTypeConverter &,
                                                   RewritePatternSet &) {}
