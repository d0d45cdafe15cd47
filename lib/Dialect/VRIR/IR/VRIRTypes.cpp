//===- VRIRTypes.cpp - VRIR types and attributes --------------------------===//

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::vrir;

#include "VRIR/Dialect/VRIR/IR/VRIREnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "VRIR/Dialect/VRIR/IR/VRIRAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "VRIR/Dialect/VRIR/IR/VRIRTypes.cpp.inc"

void VRIRDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "VRIR/Dialect/VRIR/IR/VRIRTypes.cpp.inc"
      >();
}

void VRIRDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "VRIR/Dialect/VRIR/IR/VRIRAttrs.cpp.inc"
      >();
}

/// Ranks past this are surely mistakes (a negative rank wraps around).
static constexpr unsigned kMaxRank = 32;

/// Element types of the thesis (4.2.1): bool, 32/64-bit integers and floats,
/// and complex forms of the numeric ones (MATLAB has integer complex); also
/// 8- and 16-bit integers (NumPy's and MATLAB's small integer types).
/// Integers are signless: library ops that compare, divide or convert them
/// treat them as signed, and a frontend with unsigned types expresses those
/// operations with arith's unsigned ops in `vrir.map` bodies.
static bool isValidElementType(Type type) {
  if (type.isInteger(1) || type.isInteger(8) || type.isInteger(16) ||
      type.isInteger(32) || type.isInteger(64) || type.isF32() || type.isF64())
    return type.isSignlessInteger() || isa<FloatType>(type);
  if (auto complex = dyn_cast<ComplexType>(type)) {
    Type part = complex.getElementType();
    return part.isSignlessInteger(32) || part.isSignlessInteger(64) ||
           part.isF32() || part.isF64();
  }
  return false;
}

LogicalResult ArrayType::verify(function_ref<InFlightDiagnostic()> emitError,
                                Type elementType, unsigned rank,
                                Layout layout) {
  if (!isValidElementType(elementType))
    return emitError()
           << "array element type must be i1, i8, i16, i32, i64, f32, "
              "f64 "
              "or complex<i32|i64|f32|f64>, got "
           << elementType;
  if (rank > kMaxRank)
    return emitError() << "array rank " << rank
                       << " is larger than the supported maximum " << kMaxRank;
  return success();
}

LogicalResult DomainType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned rank) {
  if (rank == 0)
    return emitError() << "a domain has at least one dimension";
  if (rank > kMaxRank)
    return emitError() << "domain rank " << rank
                       << " is larger than the supported maximum " << kMaxRank;
  return success();
}

unsigned mlir::vrir::getRankOf(Type type) {
  if (auto array = dyn_cast<ArrayType>(type))
    return array.getRank();
  return 0;
}

Type mlir::vrir::getElementTypeOf(Type type) {
  if (auto array = dyn_cast<ArrayType>(type))
    return array.getElementType();
  return type;
}

int64_t mlir::vrir::getElementBytes(Type element) {
  if (auto complex = dyn_cast<ComplexType>(element))
    return 2 * getElementBytes(complex.getElementType());
  if (element.isIndex())
    return 8;
  return llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
}
