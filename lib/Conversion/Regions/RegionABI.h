//===- RegionABI.h - Parameters of a lowered region function ----*- C++ -*-===//
//
// How `convert-func-to-llvm` expands a region function's arguments into LLVM
// parameters (MLIR's default memref calling convention): an array of rank r
// becomes 3 + 2r parameters (allocated pointer, aligned pointer, offset, r
// sizes, r strides), anything else one.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_LIB_CONVERSION_REGIONS_REGIONABI_H
#define VRIR_LIB_CONVERSION_REGIONS_REGIONABI_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace vrir {

/// Where argument `i` lives among the parameters.
struct LoweredArgument {
  unsigned firstParameter = 0;
  /// The array's rank, or nullopt for a scalar.
  std::optional<unsigned> rank;

  unsigned alignedPointer() const { return firstParameter + 1; }
  unsigned offset() const { return firstParameter + 2; }
  unsigned size(unsigned dim) const { return firstParameter + 3 + dim; }
  unsigned stride(unsigned dim) const {
    return firstParameter + 3 + *rank + dim;
  }
};

/// The parameters an argument of that rank (nullopt: a scalar) takes.
inline unsigned getParameterCount(std::optional<unsigned> rank) {
  return rank ? 3 + 2 * *rank : 1;
}

/// The layout of arguments with the given ranks (nullopt: a scalar).
inline SmallVector<LoweredArgument>
getLoweredArguments(ArrayRef<std::optional<unsigned>> ranks) {
  SmallVector<LoweredArgument> arguments;
  unsigned next = 0;
  for (std::optional<unsigned> rank : ranks) {
    arguments.push_back({next, rank});
    next += getParameterCount(rank);
  }
  return arguments;
}

} // namespace vrir
} // namespace mlir

#endif // VRIR_LIB_CONVERSION_REGIONS_REGIONABI_H
