//===- SPIRVNarrowIndices.h - 32-bit access-chain indices -------*- C++ -*-===//
//
// Internal to lib/Conversion/VRIRToGPU: see SPIRVNarrowIndices.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_LIB_CONVERSION_VRIRTOGPU_SPIRVNARROWINDICES_H
#define VRIR_LIB_CONVERSION_VRIRTOGPU_SPIRVNARROWINDICES_H

namespace mlir {
namespace spirv {
class ModuleOp;
} // namespace spirv

namespace vrir {

/// Computes in 32 bits the 64-bit indices of the `spirv.AccessChain`s of a
/// Vulkan (Shader) module whose every in-bounds index fits in 31 bits:
/// indices into Workgroup arrays, and into StorageBuffer runtime arrays of
/// elements of 2 bytes or more (a storage buffer binding spans at most
/// 2^32 - 1 bytes: Vulkan's maxStorageBufferRange is a uint32_t). Returns
/// the number of indices narrowed.
unsigned narrowAccessChainIndices(spirv::ModuleOp module);

} // namespace vrir
} // namespace mlir

#endif // VRIR_LIB_CONVERSION_VRIRTOGPU_SPIRVNARROWINDICES_H
