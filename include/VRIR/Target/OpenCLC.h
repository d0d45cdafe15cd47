//===- OpenCLC.h - Translate outlined GPU kernels to OpenCL C ---*- C++ -*-===//
//
// The GPU path outlines accelerated sections into `gpu.module`s of kernel
// `gpu.func`s (1-D memref and scalar arguments, arith/math/scf/memref/gpu
// ops). This translation writes such a module as one OpenCL C 1.2 program:
// one `__kernel` per kernel function, with a hidden trailing
// `__global long *vrir_error` argument through which bounds-check failures
// inside the kernel are reported (word 0: set to 1 by the first failing
// work-item, words 1..4: site number, dimension, index, extent).
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_TARGET_OPENCLC_H
#define VRIR_TARGET_OPENCLC_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace gpu {
class GPUModuleOp;
} // namespace gpu
namespace LLVM {
class AddressOfOp;
} // namespace LLVM

namespace vrir {

/// Writes every kernel `gpu.func` of `module` as one OpenCL C 1.2 program to
/// `os`. Bounds-check failure sites met in the kernels are appended to
/// `sites` (deduplicated; a kernel reports site number i = position in
/// `sites`). Unsupported types and operations are reported as MLIR
/// diagnostics and make the result a failure; nothing is written to `os`
/// then (`sites` may have grown).
LogicalResult
translateGPUModuleToOpenCLC(gpu::GPUModuleOp module, llvm::raw_ostream &os,
                            llvm::SmallVectorImpl<std::string> &sites);

/// The runtime function the CPU lowering calls when a bounds check fails
/// inside a parallel loop (VRIRRuntime.h). In kernels every GPU code
/// generator turns the call into a write of the kernel's error record.
constexpr llvm::StringLiteral kParallelBoundsErrorCallee =
    "vrir_rt_parallel_bounds_error";

/// The number of the bounds-check site named by the string global that
/// `addr` (the site argument of a `vrir_rt_parallel_bounds_error` call in a
/// kernel) refers to: its position in `sites`, where it is appended on
/// first use. Every GPU code generator numbers sites this way, so the
/// runtime can name the site a kernel reports.
FailureOr<unsigned>
getBoundsSiteNumber(LLVM::AddressOfOp addr,
                    llvm::SmallVectorImpl<std::string> &sites);

/// Registers `--gpu-to-opencl-c`: every gpu.module of the input
/// builtin.module, each preceded by a `// gpu.module @name` line, then a
/// `// sites:` comment listing the bounds-check sites.
void registerGPUToOpenCLCTranslation();

} // namespace vrir
} // namespace mlir

#endif // VRIR_TARGET_OPENCLC_H
