//===- VRIRAttrs.td - VRIR attributes and enums ------------*- tablegen -*-===//

#ifndef VRIR_DIALECT_VRIR_IR_VRIRATTRS_TD
#define VRIR_DIALECT_VRIR_IR_VRIRATTRS_TD

include "VRIR/Dialect/VRIR/IR/VRIRDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class VRIR_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<VRIR_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Array layout (thesis 4.3.1)
//===----------------------------------------------------------------------===//

def VRIR_Layout : I32EnumAttr<"Layout", "memory layout of an array", [
    I32EnumAttrCase<"RowMajor", 0, "row_major">,
    I32EnumAttrCase<"ColMajor", 1, "col_major">,
    I32EnumAttrCase<"Strided", 2, "strided">]> {
  let cppNamespace = "::mlir::vrir";
  let genSpecializedAttr = 0;
}
def VRIR_LayoutAttr : EnumAttr<VRIR_Dialect, VRIR_Layout, "layout"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Memory management of a module (thesis 4.7)
//===----------------------------------------------------------------------===//

def VRIR_MemoryManagement : I32EnumAttr<"MemoryManagement",
    "memory management scheme of the host", [
    I32EnumAttrCase<"RefCount", 0, "refcount">,
    I32EnumAttrCase<"GC", 1, "gc">]> {
  let cppNamespace = "::mlir::vrir";
  let genSpecializedAttr = 0;
}
def VRIR_MemoryManagementAttr
    : EnumAttr<VRIR_Dialect, VRIR_MemoryManagement, "memory"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Per-dimension indexing flags (thesis 4.3.3)
//===----------------------------------------------------------------------===//

def VRIR_IndexFlags : I32BitEnumAttr<"IndexFlags",
    "per-dimension indexing behaviour", [
    I32BitEnumAttrCaseNone<"None", "none">,
    I32BitEnumAttrCaseBit<"CheckLower", 0, "lower">,
    I32BitEnumAttrCaseBit<"CheckUpper", 1, "upper">,
    I32BitEnumAttrCaseBit<"WrapNegative", 2, "negative">,
    I32BitEnumAttrCaseBit<"Grow", 3, "grow">]> {
  let cppNamespace = "::mlir::vrir";
  let genSpecializedAttr = 0;
  let separator = "|";
  let printBitEnumPrimaryGroups = 0;
}
def VRIR_IndexFlagsAttr : EnumAttr<VRIR_Dialect, VRIR_IndexFlags, "index"> {
  let assemblyFormat = "`<` $value `>`";
}
def VRIR_IndexFlagsArrayAttr
    : TypedArrayAttrBase<VRIR_IndexFlagsAttr, "per-index flags">;

//===----------------------------------------------------------------------===//
// Element-wise functions, comparisons, reductions, atomics
//===----------------------------------------------------------------------===//

def VRIR_UnaryFn : I32EnumAttr<"UnaryFn", "element-wise unary function", [
    I32EnumAttrCase<"Neg", 0, "neg">,
    I32EnumAttrCase<"Not", 1, "not">,
    I32EnumAttrCase<"Abs", 2, "abs">,
    I32EnumAttrCase<"Sqrt", 3, "sqrt">,
    I32EnumAttrCase<"Exp", 4, "exp">,
    I32EnumAttrCase<"Log", 5, "log">,
    I32EnumAttrCase<"Sin", 6, "sin">,
    I32EnumAttrCase<"Cos", 7, "cos">,
    I32EnumAttrCase<"Tan", 8, "tan">,
    I32EnumAttrCase<"Tanh", 9, "tanh">,
    I32EnumAttrCase<"Floor", 10, "floor">,
    I32EnumAttrCase<"Ceil", 11, "ceil">,
    I32EnumAttrCase<"Round", 12, "round">,
    I32EnumAttrCase<"Real", 13, "real">,
    I32EnumAttrCase<"Imag", 14, "imag">,
    I32EnumAttrCase<"Conj", 15, "conj">]> {
  let cppNamespace = "::mlir::vrir";
}

def VRIR_BinaryFn : I32EnumAttr<"BinaryFn", "element-wise binary function", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Sub", 1, "sub">,
    I32EnumAttrCase<"Mul", 2, "mul">,
    I32EnumAttrCase<"Div", 3, "div">,
    I32EnumAttrCase<"Rem", 4, "rem">,
    I32EnumAttrCase<"Pow", 5, "pow">,
    I32EnumAttrCase<"Min", 6, "min">,
    I32EnumAttrCase<"Max", 7, "max">,
    I32EnumAttrCase<"And", 8, "and">,
    I32EnumAttrCase<"Or", 9, "or">,
    I32EnumAttrCase<"Xor", 10, "xor">]> {
  let cppNamespace = "::mlir::vrir";
}

def VRIR_ComplexPart : I32EnumAttr<"ComplexPart",
    "part of a complex number", [
    I32EnumAttrCase<"Real", 0, "real">,
    I32EnumAttrCase<"Imag", 1, "imag">]> {
  let cppNamespace = "::mlir::vrir";
}

def VRIR_CmpPredicate : I32EnumAttr<"CmpPredicate", "comparison predicate", [
    I32EnumAttrCase<"EQ", 0, "eq">,
    I32EnumAttrCase<"NE", 1, "ne">,
    I32EnumAttrCase<"LT", 2, "lt">,
    I32EnumAttrCase<"LE", 3, "le">,
    I32EnumAttrCase<"GT", 4, "gt">,
    I32EnumAttrCase<"GE", 5, "ge">]> {
  let cppNamespace = "::mlir::vrir";
}

def VRIR_ReduceKind : I32EnumAttr<"ReduceKind", "reduction operator", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Prod", 1, "prod">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"Max", 3, "max">]> {
  let cppNamespace = "::mlir::vrir";
}

def VRIR_Triangle : I32EnumAttr<"Triangle", "triangle of a matrix", [
    I32EnumAttrCase<"Lower", 0, "lower">,
    I32EnumAttrCase<"Upper", 1, "upper">]> {
  let cppNamespace = "::mlir::vrir";
}

def VRIR_AtomicKind : I32EnumAttr<"AtomicKind",
    "atomic read-modify-write operator", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Min", 1, "min">,
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"And", 3, "and">,
    I32EnumAttrCase<"Or", 4, "or">,
    I32EnumAttrCase<"Xor", 5, "xor">,
    I32EnumAttrCase<"Xchg", 6, "xchg">]> {
  let cppNamespace = "::mlir::vrir";
}

#endif // VRIR_DIALECT_VRIR_IR_VRIRATTRS_TD
