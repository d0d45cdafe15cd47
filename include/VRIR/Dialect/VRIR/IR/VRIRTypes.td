//===- VRIRTypes.td - VRIR types ---------------------------*- tablegen -*-===//

#ifndef VRIR_DIALECT_VRIR_IR_VRIRTYPES_TD
#define VRIR_DIALECT_VRIR_IR_VRIRTYPES_TD

include "VRIR/Dialect/VRIR/IR/VRIRAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/MemorySlotInterfaces.td"

class VRIR_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<VRIR_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def VRIR_ArrayType : VRIR_Type<"Array", "array"> {
  let summary = "multi-dimensional array with a layout (thesis 4.2.2)";
  let description = [{
    An array of `rank` dimensions (0 allowed) of `i1`, `i8`, `i16`, `i32`,
    `i64`, `f32`, `f64` or `complex<>` of `i32`, `i64`, `f32` and `f64`.
    Integers are signless; the library ops that compare, divide, convert or
    take the minimum of integers treat them as signed (a frontend with
    unsigned types uses arith's unsigned ops in `vrir.map` bodies). The layout is `row_major`,
    `col_major` or `strided` (any strides and offset, NumPy views). Sizes
    and strides are run-time properties, not part of the type, so one value
    of this type may denote arrays of different sizes.

    An SSA value of array type is a reference to an array object: indexed
    writes through it are visible through every other reference to the same
    object (or to a view of it).

    ```mlir
    !vrir.array<f64, 2, row_major>
    !vrir.array<complex<i32>, 1, strided>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType, "unsigned":$rank,
                        EnumParameter<VRIR_Layout>:$layout);
  let assemblyFormat = "`<` $elementType `,` $rank `,` $layout `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True for the layouts whose element addresses follow from the sizes.
    bool isContiguous() const {
      return getLayout() != ::mlir::vrir::Layout::Strided;
    }
    /// The same array type with another layout.
    ArrayType withLayout(::mlir::vrir::Layout layout) const {
      return ArrayType::get(getContext(), getElementType(), getRank(), layout);
    }
    /// The same array type with another element type.
    ArrayType withElementType(::mlir::Type elementType) const {
      return ArrayType::get(getContext(), elementType, getRank(), getLayout());
    }
  }];
}

def VRIR_DomainType : VRIR_Type<"Domain", "domain"> {
  let summary = "n-dimensional rectangular iteration domain (thesis 4.2.3)";
  let description = [{
    A domain of `rank` (start, stop, step) triples, the iteration space of a
    `vrir.pfor`. Built from ranges by `vrir.domain`.

    ```mlir
    !vrir.domain<2>
    ```
  }];
  let parameters = (ins "unsigned":$rank);
  let assemblyFormat = "`<` $rank `>`";
  let genVerifyDecl = 1;
}

def VRIR_RangeType : VRIR_Type<"Range", "range"> {
  let summary = "one-dimensional range (start, stop, step)";
  let description = [{
    The one-dimensional domain: an index range used for slicing and as the
    iteration space of one-dimensional loops. Whether `stop` is part of the
    range follows the module's `vrir.range_exclusive` attribute.
  }];
}

def VRIR_VarType : VRIR_Type<"Var", "var"> {
  let summary = "a mutable variable slot";
  let description = [{
    A variable of a frontend without SSA form (the symbol table of a VRIR
    function, thesis 4.1.2). Slots are read and written with `vrir.read` and
    `vrir.write`; upstream `mem2reg` promotes them to SSA values.

    ```mlir
    !vrir.var<!vrir.array<f64, 1, row_major>>
    ```
  }];
  let parameters = (ins "::mlir::Type":$valueType);
  let assemblyFormat = "`<` $valueType `>`";
}

#endif // VRIR_DIALECT_VRIR_IR_VRIRTYPES_TD
