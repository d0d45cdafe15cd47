//===- Arguments.h - vr-run's command-line arguments ------------*- C++ -*-===//
//
// Turns `--arg` texts (scalars, .npy files, generator specs such as
// rand:512x512) into host values for a function's parameters. Every
// rejection is an llvm::Error naming the argument; nothing here exits, so
// the fuzzer drives the same code as the tool.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_TOOLS_VRRUN_ARGUMENTS_H
#define VRIR_TOOLS_VRRUN_ARGUMENTS_H

#include "Npy.h"

#include "mlir/IR/Types.h"
#include "llvm/Support/Error.h"

#include <random>
#include <string>
#include <vector>

namespace vrir {

/// NumPy dtype of a VRIR element type ("" if vr-run cannot pass it).
std::string getDtype(mlir::Type type);

/// An argument or result: a scalar's bytes, or an array with its
/// descriptor.
struct HostValue {
  mlir::Type type;
  std::string label;
  std::vector<char> scalar; // bytes of a scalar (16 at most)
  NpyArray array;           // data of an array argument
  std::vector<int64_t> descriptor;
};

/// Reorders the elements of a rank-n array between C and Fortran order.
std::vector<char> reorder(const NpyArray &array, bool toFortran);

/// Parses "2x3x4" into sizes.
llvm::Expected<std::vector<int64_t>> parseShape(llvm::StringRef text,
                                                llvm::StringRef context);

/// Builds argument `position` of type `type` from its command-line text
/// (NAME=VALUE or VALUE); `engine` draws the values of rand: arrays. A
/// generated array of more than `maxBytes` (0: the machine's physical
/// memory) is refused with an out-of-memory error instead of allocated.
llvm::Expected<HostValue> makeArgument(mlir::Type type, unsigned position,
                                       llvm::StringRef text,
                                       std::mt19937_64 &engine,
                                       uint64_t maxBytes = 0);

} // namespace vrir

#endif // VRIR_TOOLS_VRRUN_ARGUMENTS_H
