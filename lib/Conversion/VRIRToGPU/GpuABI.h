//===- GpuABI.h - How VRIR passes arrays to GPU kernels ---------*- C++ -*-===//
//
// Internal to lib/Conversion/VRIRToGPU. `vrir-gpu-kernel-abi` passes each
// array of rank r to a kernel as 2 + 2r arguments: a flat 1-D buffer of its
// elements, the array's element offset into it, r sizes and r strides. The
// buffer argument carries the attributes below; `vrir-gpu-launch-to-runtime`
// reads them to describe the launch to the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_LIB_CONVERSION_VRIRTOGPU_GPUABI_H
#define VRIR_LIB_CONVERSION_VRIRTOGPU_GPUABI_H

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace vrir {
namespace gpuabi {

/// On a kernel's buffer argument: the rank of the array it carries (i64).
constexpr StringLiteral kRankAttrName = "vrir.rank";
/// Unit attribute: the kernel does not write the buffer.
constexpr StringLiteral kReadOnlyAttrName = "vrir.readonly";
/// Unit attribute: no other buffer argument of the launch can alias it.
constexpr StringLiteral kNoAliasAttrName = "vrir.noalias";

/// Unit attribute on the `scf.if` that `vrir-gpu-cpu-fallback` puts after a
/// kernel of a GPU section: its then-region is the kernel's work as host
/// code, run when the device had no memory for the kernel's arrays. Kernel
/// mapping leaves it alone, and host-access notices stay inside it.
constexpr StringLiteral kGpuFallbackAttrName =
    VRIRDialect::kGpuFallbackAttrName;

/// Whether `op` is such an `scf.if`.
bool isGpuFallback(Operation *op);

/// On a `gpu.module` compiled to SPIR-V: an array of the names of its
/// bounds-check sites (strings); a kernel reports site number N for the
/// Nth name. The VRIR dialect verifies it.
constexpr StringLiteral kSitesAttrName = "vrir.sites";
/// `vrir-convert-gpu-to-spirv` puts the SPIR-V form of `gpu.module @NAME`
/// in `spirv.module @__spv__NAME` (upstream's GPU-to-SPIR-V naming).
constexpr StringLiteral kSPIRVModulePrefix = "__spv__";

/// Lowest and highest element offsets (from the buffer's start) that an
/// array with `offset`, `sizes` and `strides` (any sign) reaches. For an
/// empty array both are `offset` and `empty` is true.
struct ElementSpan {
  Value lowest, highest, empty;
};
ElementSpan computeElementSpan(OpBuilder &b, Location loc, Value offset,
                               ValueRange sizes, ValueRange strides);

/// The host bytes an array spans: the address of the lowest one (index),
/// their number (index; 0 for an empty array), and the element offset of
/// the lowest one. `alignedBase` is the address of the array's aligned
/// pointer (index).
struct ByteRange {
  Value lowestByte, bytes, lowestElement;
};
ByteRange computeByteRange(OpBuilder &b, Location loc, Value alignedBase,
                           Value offset, ValueRange sizes, ValueRange strides,
                           int64_t elementBytes);

/// The `memref.alloc`/`alloca` of the function that `memref` views
/// (through any chain of view-like ops), or null if it views none.
Value getLocalAllocation(Value memref);

/// The memory `memref` views that nothing else the launching function can
/// reach overlaps: its local allocation, or an argument that a specialised
/// region's facts mark `noalias` (the dispatcher found that no other array
/// argument overlaps it). Null if neither.
Value getDistinctRoot(Value memref);

} // namespace gpuabi
} // namespace vrir
} // namespace mlir

#endif // VRIR_LIB_CONVERSION_VRIRTOGPU_GPUABI_H
