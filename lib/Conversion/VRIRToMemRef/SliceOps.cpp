//===- SliceOps.cpp - Slices, slice assignment, gather, scatter -----------===//
// PLACEHOLDER: being written.
#include "VRIR/Conversion/VRIRToMemRef.h"
void mlir::vrir::populateVRIRSliceToMemRefPatterns(const VRIRTypeConverter &,
                                                   RewritePatternSet &) {}
