//===- VRIR.h - VRIR dialect, types, attributes and ops ---------*- C++ -*-===//
//
// The one header a user of the VRIR dialect includes.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_DIALECT_VRIR_IR_VRIR_H
#define VRIR_DIALECT_VRIR_IR_VRIR_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/MemorySlotInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "VRIR/Dialect/VRIR/IR/VRIREnums.h.inc"

#include "VRIR/Dialect/VRIR/IR/VRIRDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "VRIR/Dialect/VRIR/IR/VRIRAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "VRIR/Dialect/VRIR/IR/VRIRTypes.h.inc"

namespace mlir {
namespace vrir {

/// Language semantics of a module (thesis 4.1.1, 4.7), read from the
/// attributes of the nearest enclosing `builtin.module` that has any.
/// The defaults are NumPy's.
struct ModuleSemantics {
  int64_t indexBase = 0;
  bool rangeExclusive = true;
  MemoryManagement memory = MemoryManagement::RefCount;
};
ModuleSemantics getModuleSemantics(Operation *op);

/// Rank of an array type, 0 for a scalar.
unsigned getRankOf(Type type);
/// Element type of an array type, the type itself for a scalar.
Type getElementTypeOf(Type type);

/// The flags an index gets when an op carries no `flags`: both bounds
/// checked, no negative wrap, no growth.
inline IndexFlags getDefaultIndexFlags() {
  return IndexFlags::CheckLower | IndexFlags::CheckUpper;
}

/// "array 'A', accessed at file.py:12:5": the array's name from its location
/// (a NameLoc, as frontends attach, or the function argument number) and the
/// accessing op's source location, for run-time errors and remarks.
std::string describeArraySite(Value array, Location accessLoc);
/// The first part of describeArraySite: "array 'A'", "array argument #0",
/// "array created at file.py:3:7".
std::string describeArray(Value array);
/// Argument attribute of a function outlined from another (a region) that
/// keeps describeArray's text for the value the argument was in the caller.
inline constexpr llvm::StringLiteral kArrayDescriptionAttrName =
    "vrir.array_description";

/// What a `vrir.load` and a `vrir.store` have in common, for passes that
/// treat element accesses alike: the array, the indices and their flags (the
/// documented default filled in).
struct ElementAccess {
  Operation *op;
  Value array;
  OperandRange indices;
  bool flattened;
  SmallVector<IndexFlags> flags;

  /// The access `op` is, if it is a load or a store.
  static std::optional<ElementAccess> get(Operation *op);
  /// Replaces the op's `flags` (one per index) and `flags`.
  void setFlags(ArrayRef<IndexFlags> newFlags);
};

/// The run-time error state, as a side-effect resource. An op that may raise
/// an error (operand shapes that do not broadcast, an index out of bounds, a
/// reshape to the wrong size) declares a write of it, so that it is kept when
/// its result is unused: NumPy raises whether or not the result is used.
struct ErrorStateResource
    : public SideEffects::Resource::Base<ErrorStateResource> {
  StringRef getName() final { return "vrir.error_state"; }
};

/// Bytes of one array element of type `element` as the memref lowering
/// stores it (index: 8; complex: both parts).
int64_t getElementBytes(Type element);

/// Whether `effect` is the write of the error state an op that may raise
/// declares (not an access to memory).
bool isErrorStateEffect(const MemoryEffects::EffectInstance &effect);

/// Where the size of dimension `dim` of `array` comes from: an allocation's
/// size operand (`size`), a constant (`constant`, an inserted unit
/// dimension), or a dimension of another array whose shape `array` keeps or
/// rearranges (`array`/`dim`: copies, casts, element-wise unary ops,
/// transposes, permutations, expand_dims). Array values never change shape
/// (growth returns a new array), so the answer holds wherever `array` is
/// live. `std::nullopt` when the size is not known from the definition.
struct DimSource {
  Value size;
  std::optional<int64_t> constant;
  Value array;
  int64_t dim = 0;
};
std::optional<DimSource> traceDimension(Value array, int64_t dim);

} // namespace vrir
} // namespace mlir

#define GET_OP_CLASSES
#include "VRIR/Dialect/VRIR/IR/VRIROps.h.inc"

#endif // VRIR_DIALECT_VRIR_IR_VRIR_H
