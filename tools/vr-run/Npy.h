//===- Npy.h - Reading and writing NumPy .npy files -------------*- C++ -*-===//

#ifndef VRIR_TOOLS_VRRUN_NPY_H
#define VRIR_TOOLS_VRRUN_NPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vrir {

/// An n-dimensional array as stored in a .npy file.
struct NpyArray {
  /// NumPy type string without byte order: "f8", "f4", "i8", "i4", "i2",
  /// "i1", "b1", "c16", "c8".
  std::string dtype;
  std::vector<int64_t> shape;
  bool fortranOrder = false;
  std::vector<char> data;

  int64_t numElements() const;
  static size_t elementSize(llvm::StringRef dtype);
  /// Bytes of an array of `shape`, or nothing when they overflow 63 bits.
  static std::optional<uint64_t> byteSize(llvm::ArrayRef<int64_t> shape,
                                          size_t elementSize);
};

/// Reads a version 1, 2 or 3 .npy file of little-endian or byte-order-free
/// data of the supported dtypes.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// Reads the .npy file held in `contents`; errors start with `name`.
llvm::Expected<NpyArray> readNpyBuffer(llvm::StringRef contents,
                                       llvm::StringRef name);

/// Writes `array` (C or Fortran order as its flag says).
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

} // namespace vrir

#endif // VRIR_TOOLS_VRRUN_NPY_H
