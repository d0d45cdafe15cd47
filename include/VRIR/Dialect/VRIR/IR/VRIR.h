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
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/MemorySlotInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

} // namespace vrir
} // namespace mlir

#define GET_OP_CLASSES
#include "VRIR/Dialect/VRIR/IR/VRIROps.h.inc"

#endif // VRIR_DIALECT_VRIR_IR_VRIR_H
