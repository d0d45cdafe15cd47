//===- ElementwiseOps.cpp - Element-wise ops, casts, copies, reductions ---===//
// PLACEHOLDER: being written.
#include "VRIR/Conversion/VRIRToMemRef.h"
void mlir::vrir::populateVRIRElementwiseToLinalgPatterns(
    const VRIRTypeConverter &, RewritePatternSet &) {}
