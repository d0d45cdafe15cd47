//===- VRIRToMemRef.h - VRIR to memref/scf/linalg patterns ------*- C++ -*-===//

#ifndef VRIR_CONVERSION_VRIRTOMEMREF_H
#define VRIR_CONVERSION_VRIRTOMEMREF_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace vrir {

/// Arrays to strided memrefs, ranges to 3 indices, domains to 3n indices,
/// scalar variables to rank-0 memrefs.
class VRIRTypeConverter : public TypeConverter {
public:
  explicit VRIRTypeConverter(MLIRContext *context);
};

/// Allocation, shape queries, element access (with bounds checks and
/// growth), ranges, domains and scalar variables.
void populateVRIRArrayToMemRefPatterns(const VRIRTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// `pfor` to `scf.parallel`/`scf.for`, `gpu_section` inline, atomics.
void populateVRIRParallelToSCFPatterns(const VRIRTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// Element-wise ops with broadcasting, casts, copies and reductions.
void populateVRIRElementwiseToLinalgPatterns(const VRIRTypeConverter &converter,
                                             RewritePatternSet &patterns);

/// Slices (views and copies), slice assignment, gather and scatter.
void populateVRIRSliceToMemRefPatterns(const VRIRTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// Views with permuted dimensions, new dimensions of size 1 or new sizes
/// (`permute`, `expand_dims`, `reshape`).
void populateVRIRViewToMemRefPatterns(const VRIRTypeConverter &converter,
                                      RewritePatternSet &patterns);

/// `matmul`, `matvec` (CBLAS for f32/f64) and `transpose`.
void populateVRIRLinearAlgebraPatterns(const VRIRTypeConverter &converter,
                                       RewritePatternSet &patterns);

} // namespace vrir
} // namespace mlir

#endif // VRIR_CONVERSION_VRIRTOMEMREF_H
