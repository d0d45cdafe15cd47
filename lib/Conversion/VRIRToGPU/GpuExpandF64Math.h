//===- GpuExpandF64Math.h - f64 math functions as arithmetic ----*- C++ -*-===//
//
// Internal to lib/Conversion/VRIRToGPU. GLSL.std.450 (Vulkan's SPIR-V math)
// defines exp, log, sin, pow, ... for 16- and 32-bit floats only; these
// patterns expand the f64 math operations of GPU kernels into arithmetic,
// the math operations that Vulkan has for f64 (floor, sqrt, fabs, ...) and
// integer operations on the bits (see GpuExpandF64Math.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_LIB_CONVERSION_VRIRTOGPU_GPUEXPANDF64MATH_H
#define VRIR_LIB_CONVERSION_VRIRTOGPU_GPUEXPANDF64MATH_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace vrir {

/// Patterns that replace each f64 (scalar or vector) exp, exp2, expm1, log,
/// log2, log10, log1p, sin, cos, tan, sincos, sinh, cosh, tanh, asin, acos,
/// atan, atan2, asinh, acosh, atanh, powf, fpowi, erf, erfc and cbrt by
/// arithmetic. The operations they create are located at
/// `getExpandedF64MathLoc` of the original's location.
void populateExpandF64MathPatterns(RewritePatternSet &patterns);

/// `loc` marked as the location of an f64 math expansion. Its arithmetic
/// relies on IEEE semantics (exact error terms, no reassociation): the
/// SPIR-V lowering decorates the float instructions at such locations
/// NoContraction (see `isExpandedF64MathLoc`).
Location getExpandedF64MathLoc(Location loc);
bool isExpandedF64MathLoc(Location loc);

} // namespace vrir
} // namespace mlir

#endif // VRIR_LIB_CONVERSION_VRIRTOGPU_GPUEXPANDF64MATH_H
