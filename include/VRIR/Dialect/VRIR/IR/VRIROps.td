//===- VRIROps.td - VRIR operations ------------------------*- tablegen -*-===//
//
// Operations of the VRIR dialect. Section numbers refer to the thesis
// (Garg, "Velociraptor", McGill 2015).
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_DIALECT_VRIR_IR_VRIROPS_TD
#define VRIR_DIALECT_VRIR_IR_VRIROPS_TD

include "VRIR/Dialect/VRIR/IR/VRIRDialect.td"
include "VRIR/Dialect/VRIR/IR/VRIRAttrs.td"
include "VRIR/Dialect/VRIR/IR/VRIRTypes.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferIntRangeInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/MemorySlotInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def VRIR_Scalar : AnyTypeOf<[I1, I8, I16, I32, I64, F32, F64,
    Complex<AnyTypeOf<[I32, I64, F32, F64]>>], "VRIR scalar">;
def VRIR_ArrayOrScalar : AnyTypeOf<[VRIR_ArrayType, VRIR_Scalar],
    "VRIR array or scalar">;
def VRIR_Index : AnyTypeOf<[Index, I32, I64], "index, i32 or i64">;
def VRIR_SliceIndex : AnyTypeOf<[Index, I32, I64, VRIR_RangeType],
    "integer or range index">;
def VRIR_IterationSpace : AnyTypeOf<[VRIR_DomainType, VRIR_RangeType],
    "domain or range">;

/// Result type inference for ops whose result is the element type of an array.
class VRIR_ElementOf<string array, string result>
    : TypesMatchWith<"result type is the element type of the array",
                     array, result,
                     "::llvm::cast<::mlir::vrir::ArrayType>($_self)"
                     ".getElementType()">;

//===----------------------------------------------------------------------===//
// Variables (promotable slots)
//===----------------------------------------------------------------------===//

def VRIR_AllocaOp : VRIR_Op<"alloca", [
    DeclareOpInterfaceMethods<PromotableAllocationOpInterface>]> {
  let summary = "declare a variable slot";
  let description = [{
    Declares a mutable variable of the enclosing function (an entry of the
    thesis's symbol table). Frontends without SSA form write variables with
    `vrir.write` and read them with `vrir.read`; the upstream `mem2reg` pass
    turns the slot into SSA values. A `vrir.var` holding an array holds a
    reference: rebinding the variable does not touch the array object.

    ```mlir
    %x = vrir.alloca "x" : !vrir.var<f64>
    ```
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$sym_name);
  let results = (outs Res<VRIR_VarType, "the slot", [MemAlloc]>:$var);
  let assemblyFormat = "($sym_name^)? attr-dict `:` qualified(type($var))";
}

def VRIR_ReadOp : VRIR_Op<"read", [
    DeclareOpInterfaceMethods<PromotableMemOpInterface>,
    TypesMatchWith<"result type is the variable's value type", "var",
                   "result",
                   "::llvm::cast<::mlir::vrir::VarType>($_self).getValueType()">]> {
  let summary = "read a variable slot";
  let arguments = (ins Arg<VRIR_VarType, "the slot", [MemRead]>:$var);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$var attr-dict `:` qualified(type($var))";
}

def VRIR_WriteOp : VRIR_Op<"write", [
    DeclareOpInterfaceMethods<PromotableMemOpInterface>,
    TypesMatchWith<"value type is the variable's value type", "var", "value",
                   "::llvm::cast<::mlir::vrir::VarType>($_self).getValueType()">]> {
  let summary = "bind a variable slot to a value";
  let description = [{
    Rebinds the variable. Inside a `vrir.pfor`, writing a variable that the
    loop lists as shared is an error (thesis 4.5.1).
  }];
  let arguments = (ins AnyType:$value,
                       Arg<VRIR_VarType, "the slot", [MemWrite]>:$var);
  let assemblyFormat = "$value `,` $var attr-dict `:` qualified(type($var))";
}

//===----------------------------------------------------------------------===//
// Ranges and domains (thesis 4.2.3)
//===----------------------------------------------------------------------===//

def VRIR_RangeOp : VRIR_Op<"range", [Pure]> {
  let summary = "build a one-dimensional range";
  let description = [{
    `start`, `stop` and the optional `step` (default 1) are given in the
    module's index base. Whether `stop` is included follows the module's
    `vrir.range_exclusive` attribute (NumPy excludes it, MATLAB includes it).
    A slice index that spans a whole dimension (NumPy `:`) is written as an
    omitted trailing index or as a range over the dimension.

    ```mlir
    %r = vrir.range %c1 to %n step %c2
    ```
  }];
  let arguments = (ins Index:$start, Index:$stop, Optional<Index>:$step);
  let results = (outs VRIR_RangeType:$result);
  let assemblyFormat = "$start `to` $stop (`step` $step^)? attr-dict";
}

def VRIR_DomainOp : VRIR_Op<"domain", [Pure]> {
  let summary = "build an n-dimensional domain from ranges";
  let description = [{
    ```mlir
    %d = vrir.domain %rows, %cols : !vrir.domain<2>
    ```
  }];
  let arguments = (ins Variadic<VRIR_RangeType>:$ranges);
  let results = (outs VRIR_DomainType:$result);
  let assemblyFormat = "$ranges attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Allocation and shape queries
//===----------------------------------------------------------------------===//

class VRIR_AllocLikeOp<string mnemonic, string fill> : VRIR_Op<mnemonic, [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "allocate a new array" # fill;
  let description = [{
    Allocates a new contiguous array with one size per dimension. A size
    below zero, or sizes whose product in bytes does not fit in 64 bits,
    is a run-time error. Unless every size is a constant that passes these
    checks, the op declares that it may raise, so it is kept when its
    result is unused; it then lowers to the checks alone, without
    allocating.

    ```mlir
    %A = vrir.}] # mnemonic # [{(%m, %n) : !vrir.array<f64, 2, row_major>
    ```
  }];
  let arguments = (ins Variadic<Index>:$sizes);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = "`(` $sizes `)` attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def VRIR_ZerosOp : VRIR_AllocLikeOp<"zeros", " filled with zeros">;
def VRIR_OnesOp : VRIR_AllocLikeOp<"ones", " filled with ones">;
def VRIR_EmptyOp : VRIR_AllocLikeOp<"empty", " (contents undefined)">;

def VRIR_DimOp : VRIR_Op<"dim", [
    DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = "size of one dimension of an array";
  let description = [{
    `dim` is a 0-based dimension number, whatever the module's index base.

    ```mlir
    %n = vrir.dim %A, 1 : !vrir.array<f64, 2, row_major>
    ```
  }];
  let arguments = (ins Arg<VRIR_ArrayType, "array", [MemRead]>:$array,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$array `,` $dim attr-dict `:` qualified(type($array))";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def VRIR_NumelOp : VRIR_Op<"numel", [
    DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = "number of elements of an array";
  let arguments = (ins Arg<VRIR_ArrayType, "array", [MemRead]>:$array);
  let results = (outs Index:$result);
  let assemblyFormat = "$array attr-dict `:` qualified(type($array))";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Element access (thesis 4.3)
//===----------------------------------------------------------------------===//

def VRIR_LoadOp : VRIR_Op<"load", [VRIR_ElementOf<"array", "result">]> {
  let summary = "read one array element";
  let description = [{
    Reads the element at integer `indices` (in the module's index base).
    There is one index per dimension, or fewer with `flattened` (MATLAB:
    the last index runs over the remaining dimensions flattened in the
    array's layout order). NumPy-style implicit full slices go through
    `vrir.slice`.

    `flags` holds one `#vrir.index<...>` per index: `lower` and `upper`
    ask for the lower- and upper-bound checks, `negative` wraps a negative
    index around the end of the dimension (NumPy `-1`), `none` asks for
    nothing. Without `flags` every index is checked at both bounds.

    ```mlir
    %x = vrir.load %A[%i, %j] flags [#vrir.index<lower|upper|negative>,
                                     #vrir.index<none>]
        : !vrir.array<f64, 2, row_major>[index, index]
    ```
  }];
  let arguments = (ins Arg<VRIR_ArrayType, "array", [MemRead]>:$array,
                       Variadic<VRIR_Index>:$indices,
                       OptionalAttr<VRIR_IndexFlagsArrayAttr>:$index_flags,
                       UnitAttr:$flattened);
  let results = (outs VRIR_Scalar:$result);
  let assemblyFormat = [{
    $array `[` $indices `]` (`flags` $index_flags^)? attr-dict `:`
    qualified(type($array)) (`[` qualified(type($indices))^ `]`)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Flags of index `position`, with the documented default.
    ::mlir::vrir::IndexFlags getFlags(unsigned position);
  }];
}

def VRIR_StoreOp : VRIR_Op<"store", [VRIR_ElementOf<"array", "value">]> {
  let summary = "write one array element";
  let description = [{
    Writes the element at integer `indices`; indices and flags as in
    `vrir.load`.

    A `grow` flag turns a write past the upper bound of that dimension into
    growth of the array (MATLAB, thesis figure 4.4): when the index is past
    the end, a new array with the larger extent is allocated, the old
    elements are copied into it and the new ones are zero. A store with any
    `grow` flag therefore returns the array written to (`grown`): the old
    one when it was large enough, the new one otherwise. MATLAB arrays are
    values, so the frontend rebinds its variable to `grown`; the operand
    must not be used after the store.

    ```mlir
    vrir.store %x, %A[%i, %j] : !vrir.array<f64, 2, row_major>[index, index]
    %B = vrir.store %x, %A[%i, %j] flags [#vrir.index<lower|grow>,
                                          #vrir.index<lower|grow>]
        : !vrir.array<f64, 2, col_major>[index, index]
        -> !vrir.array<f64, 2, col_major>
    ```
  }];
  let arguments = (ins VRIR_Scalar:$value,
                       Arg<VRIR_ArrayType, "array", [MemRead, MemWrite]>:$array,
                       Variadic<VRIR_Index>:$indices,
                       OptionalAttr<VRIR_IndexFlagsArrayAttr>:$index_flags,
                       UnitAttr:$flattened);
  let results = (outs Optional<VRIR_ArrayType>:$grown);
  let assemblyFormat = [{
    $value `,` $array `[` $indices `]` (`flags` $index_flags^)? attr-dict `:`
    qualified(type($array)) (`[` qualified(type($indices))^ `]`)?
    (`->` qualified(type($grown))^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::vrir::IndexFlags getFlags(unsigned position);
    /// True if any dimension may grow on this write.
    bool mayGrow();
  }];
}

def VRIR_SliceOp : VRIR_Op<"slice", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "slice an array by integers and ranges";
  let description = [{
    Each index is an integer (that dimension is dropped) or a `!vrir.range`
    (kept). Dimensions past the last index are taken whole (NumPy implicit
    full slices). Without `copy` the result is a view sharing the data of
    `array` (NumPy) and has `strided` layout; with `copy` it is a new array
    (MATLAB).

    ```mlir
    %row = vrir.slice %A[%i, %r] : !vrir.array<f64, 2, row_major>[index, !vrir.range]
        -> !vrir.array<f64, 1, strided>
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$array,
                       Variadic<VRIR_SliceIndex>:$indices,
                       OptionalAttr<VRIR_IndexFlagsArrayAttr>:$index_flags,
                       UnitAttr:$copy);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = [{
    $array `[` $indices `]` (`flags` $index_flags^)? attr-dict `:`
    qualified(type($array)) (`[` qualified(type($indices))^ `]`)? `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Views: permuted, expanded and reshaped arrays
//===----------------------------------------------------------------------===//

def VRIR_PermuteOp : VRIR_Op<"permute", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "view of an array with its dimensions permuted";
  let description = [{
    A view of `array` (NumPy `A.T`, `np.transpose(A, axes)`): dimension `i`
    of the result is dimension `permutation[i]` of `array` (0-based), with
    its size and stride. No element is copied, so writes through the result
    modify `array`. `vrir.transpose` is the copying transpose (MATLAB's `'`).

    The result layout follows from the operand's: a `row_major` 2-D array
    permuted by `[1, 0]` is `col_major` (the same buffer read by columns);
    every other permutation is `strided`.

    ```mlir
    %T = vrir.permute %A [1, 0] : !vrir.array<f64, 2, row_major>
        -> !vrir.array<f64, 2, col_major>
    %P = vrir.permute %B [2, 0, 1] : !vrir.array<f64, 3, row_major>
        -> !vrir.array<f64, 3, strided>
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$array,
                       DenseI64ArrayAttr:$permutation);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = [{
    $array $permutation attr-dict `:` qualified(type($array)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The layout of the view of an array of `layout` permuted by
    /// `permutation`.
    static ::mlir::vrir::Layout
    getResultLayout(::mlir::vrir::Layout layout,
                    ::llvm::ArrayRef<int64_t> permutation);
  }];
}

def VRIR_ExpandDimsOp : VRIR_Op<"expand_dims", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "view of an array with new dimensions of size 1";
  let description = [{
    A view of `array` with a dimension of size 1 inserted at each of
    `positions` (NumPy `A[:, np.newaxis]`, `np.expand_dims`). Positions are
    0-based dimensions of the result, strictly increasing; the other result
    dimensions are those of `array`, in order. No element is copied, so
    writes through the result modify `array`. A dimension of size 1 does not
    change where elements are, so the result keeps the operand's layout.

    ```mlir
    %C = vrir.expand_dims %v [1] : !vrir.array<f64, 1, row_major>
        -> !vrir.array<f64, 2, row_major>
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$array,
                       DenseI64ArrayAttr:$positions);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = [{
    $array $positions attr-dict `:` qualified(type($array)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def VRIR_ReshapeOp : VRIR_Op<"reshape", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "the elements of an array in row-major order, with new sizes";
  let description = [{
    NumPy's `A.reshape(sizes)` (`order='C'`): the result has one dimension
    per size and holds the elements of `array` in row-major order. One size
    may be -1: it is computed from the number of elements and the other
    sizes. Checked at run time: at most one size is -1, no other size is
    negative, and the new sizes hold exactly as many elements as `array`;
    each failure is a run-time error.

    A `row_major` array is reshaped without copying: the result is a
    `row_major` view of it, and writes through the result modify `array`.
    For any other layout the result is `strided` and the choice is made at
    run time, as NumPy does: when the elements of `array` lie in row-major
    order a constant step apart (any 1-D view, a `strided` view of
    contiguous rows, a `col_major` array with one dimension of size above
    1) the result is a view of them; otherwise it is a new row-major array
    holding a copy. NumPy returns a view in a few more cases, where the
    new sizes only split or merge some dimensions of a view (`(3, 4)` to
    `(3, 2, 2)` of a strided array); VRIR copies then. Because the result may be
    a new array, the op declares an allocation for non-`row_major` inputs.

    ```mlir
    %M = vrir.reshape %v(%m, %n) : !vrir.array<f64, 1, row_major>
        -> !vrir.array<f64, 2, row_major>
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$array, Variadic<Index>:$sizes);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = [{
    $array `(` $sizes `)` attr-dict `:` qualified(type($array)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def VRIR_PartViewOp : VRIR_Op<"part_view", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "view of the real or imaginary parts of a complex array";
  let description = [{
    NumPy's `A.real` and `A.imag` of a complex array: an array of the
    component type (`f64` for `complex<f64>`) with the sizes of `array`,
    viewing one part of each element in place. No element is copied: writes
    through the result modify `array`, and the result sees later writes to
    `array`. Each stride is twice the operand's (in components), so the
    result is `strided`. The `real`/`imag` functions of `vrir.unary` are the
    copying forms.

    ```mlir
    %re = vrir.part_view real %Z : !vrir.array<complex<f64>, 2, row_major>
        -> !vrir.array<f64, 2, strided>
    ```
  }];
  let arguments = (ins VRIR_ComplexPart:$part, VRIR_ArrayType:$array);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = [{
    $part $array attr-dict `:` qualified(type($array)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def VRIR_MemRefPartViewOp : VRIR_Op<"memref_part_view", [Pure,
    DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "memref view of the real or imaginary parts of a complex memref";
  let description = [{
    The lowering of `vrir.part_view`: a memref of the component type over
    the same buffer, with offset `2 * offset` (plus 1 for `imag`) and
    strides twice the source's. memref's own view ops keep the element
    type, so this one lowers straight to the LLVM descriptor
    (`vrir-convert-part-views-to-llvm`). Buffer deallocation and alias
    analyses see it as a view of its source (ViewLikeOpInterface).

    ```mlir
    %im = vrir.memref_part_view imag %m
        : memref<?xcomplex<f64>, strided<[?], offset: ?>>
        -> memref<?xf64, strided<[?], offset: ?>>
    ```
  }];
  let arguments = (ins VRIR_ComplexPart:$part,
                       MemRefOf<[AnyComplex]>:$source);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = [{
    $part $source attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def VRIR_StoreSliceOp : VRIR_Op<"store_slice"> {
  let summary = "assign to a slice of an array";
  let description = [{
    `A[ranges] = value`: the slice is selected as in `vrir.slice` and
    `value`, a scalar or an array broadcast to the slice's shape, is written
    into it.

    ```mlir
    vrir.store_slice %B, %A[%r, %r]
        : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>[!vrir.range, !vrir.range]
    ```
  }];
  let arguments = (ins VRIR_ArrayOrScalar:$value,
                       Arg<VRIR_ArrayType, "array", [MemRead, MemWrite]>:$array,
                       Variadic<VRIR_SliceIndex>:$indices,
                       OptionalAttr<VRIR_IndexFlagsArrayAttr>:$index_flags);
  let assemblyFormat = [{
    $value `,` $array `[` $indices `]` (`flags` $index_flags^)? attr-dict `:`
    qualified(type($value)) `,` qualified(type($array)) (`[` qualified(type($indices))^ `]`)?
  }];
  let hasVerifier = 1;
}

def VRIR_StoreMapOp : VRIR_Op<"store_map", [
    AttrSizedOperandSegments, SingleBlock,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "assign an element-wise expression to a slice of an array";
  let description = [{
    `A[ranges] = expression`, fused: the same as a `vrir.map` of `inputs`
    with this body whose result is assigned by `vrir.store_slice` to the
    slice of `array` selected by `indices`, without the map's array. The
    inputs broadcast to the slice's shape by NumPy's rules (checked at run
    time). As in NumPy, every element of the expression is computed before
    any is written: when an input overlaps the slice other than as the very
    same view (`C[i, :k] += x * C[j, :k]`, not `C[i, :k] *= s`), the
    elements go through a temporary first.

    `vrir-fuse-elementwise` builds it from a `vrir.store_slice` of an
    element-wise op or map, so that slice updates in loops
    (`C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]`) run as one loop with
    no temporary array.

    ```mlir
    vrir.store_map %row, %s into %A[%i, %r] : (!vrir.array<f64, 1, strided>, f64)
        -> !vrir.array<f64, 2, row_major>[index, !vrir.range] {
    ^bb0(%a: f64, %b: f64):
      %t = arith.mulf %a, %b : f64
      vrir.yield %t : f64
    }
    ```
  }];
  let arguments = (ins Variadic<VRIR_ArrayOrScalar>:$inputs,
                       VRIR_ArrayType:$array,
                       Variadic<VRIR_SliceIndex>:$indices,
                       OptionalAttr<VRIR_IndexFlagsArrayAttr>:$index_flags);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs `into` $array `[` $indices `]` (`flags` $index_flags^)? attr-dict `:`
    `(` qualified(type($inputs)) `)` `->` qualified(type($array))
    (`[` qualified(type($indices))^ `]`)? $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Clones the body at `builder` with its arguments bound to `elements`
    /// and returns the clone of the yielded value.
    ::mlir::Value cloneBody(::mlir::OpBuilder &builder,
                            ::mlir::ValueRange elements);
  }];
}

def VRIR_GatherOp : VRIR_Op<"gather"> {
  let summary = "index an array with an integer array (copying)";
  let description = [{
    `np.take(array, indices, axis)`: the result has the dimensions of
    `array` with dimension `axis` replaced by those of `indices`. The
    elements of `indices` follow the module's index base and `flags`.

    ```mlir
    %y = vrir.gather %x[%idx] : !vrir.array<f64, 1, row_major>[!vrir.array<i64, 1, row_major>]
        -> !vrir.array<f64, 1, row_major>
    ```
  }];
  let arguments = (ins Arg<VRIR_ArrayType, "array", [MemRead]>:$array,
                       Arg<VRIR_ArrayType, "indices", [MemRead]>:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       OptionalAttr<VRIR_IndexFlagsAttr>:$index_flags);
  let results = (outs Res<VRIR_ArrayType, "new array", [MemAlloc]>:$result);
  let assemblyFormat = [{
    $array `[` $indices `]` (`flags` $index_flags^)? attr-dict `:`
    qualified(type($array)) `[` qualified(type($indices)) `]` `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def VRIR_ScatterOp : VRIR_Op<"scatter"> {
  let summary = "assign through an integer index array";
  let description = [{
    `array[indices] = value` along `axis`; `value` is a scalar or an array
    broadcast to the selected shape.
  }];
  let arguments = (ins VRIR_ArrayOrScalar:$value,
                       Arg<VRIR_ArrayType, "array", [MemRead, MemWrite]>:$array,
                       Arg<VRIR_ArrayType, "indices", [MemRead]>:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       OptionalAttr<VRIR_IndexFlagsAttr>:$index_flags);
  let assemblyFormat = [{
    $value `,` $array `[` $indices `]` (`flags` $index_flags^)? attr-dict `:`
    qualified(type($value)) `,` qualified(type($array)) `[` qualified(type($indices)) `]`
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Element-wise operations (thesis 4.4)
//===----------------------------------------------------------------------===//

class VRIR_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : VRIR_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>])> {
  let hasVerifier = 1;
}

def VRIR_UnaryOp : VRIR_ElementwiseOp<"unary"> {
  let summary = "element-wise unary function";
  let description = [{
    Applies `fn` to a scalar or to every element of an array (a new array).
    `real`, `imag` and `abs` of a complex operand give its real element
    type; `not` is logical on `i1` and bitwise on integers.

    ```mlir
    %s = vrir.unary sqrt %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
    ```
  }];
  let arguments = (ins VRIR_UnaryFn:$fn, VRIR_ArrayOrScalar:$operand);
  let results = (outs VRIR_ArrayOrScalar:$result);
  let assemblyFormat =
      "$fn $operand attr-dict `:` qualified(type($operand)) `->` qualified(type($result))";
}

def VRIR_BinaryOp : VRIR_ElementwiseOp<"binary"> {
  let summary = "element-wise binary arithmetic and logic";
  let description = [{
    Scalars expand to arrays and arrays broadcast by NumPy's rules (sizes
    are checked at run time). Both operands have the same element type; the
    frontend inserts `vrir.cast` for type promotion. The result is a scalar
    when both operands are, else a new array of the larger rank.

    On integers `div` truncates toward zero and `rem` takes the sign of the
    dividend (C, MATLAB's `fix`/`rem`); a frontend with floor semantics
    (Python's `//` and `%`) adjusts the result. Integer division never
    traps; its results where C leaves them undefined are NumPy's: `x div 0`
    and `x rem 0` are 0, `INT_MIN div -1` wraps to `INT_MIN` and
    `INT_MIN rem -1` is 0 (a frontend that raises on division by zero checks
    before). `min`/`max` on floats propagate NaN (`np.minimum`).

    ```mlir
    %C = vrir.binary add %A, %s : !vrir.array<f64, 2, row_major>, f64 -> !vrir.array<f64, 2, row_major>
    ```
  }];
  let arguments = (ins VRIR_BinaryFn:$fn, VRIR_ArrayOrScalar:$lhs,
                       VRIR_ArrayOrScalar:$rhs);
  let results = (outs VRIR_ArrayOrScalar:$result);
  let assemblyFormat = [{
    $fn $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
  let hasCanonicalizer = 1;
}

def VRIR_CmpOp : VRIR_ElementwiseOp<"cmp"> {
  let summary = "element-wise comparison";
  let description = [{
    Like `vrir.binary`, with an `i1` result element type.

    ```mlir
    %m = vrir.cmp lt %A, %B : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<i1, 1, row_major>
    ```
  }];
  let arguments = (ins VRIR_CmpPredicate:$predicate,
                       VRIR_ArrayOrScalar:$lhs, VRIR_ArrayOrScalar:$rhs);
  let results = (outs VRIR_ArrayOrScalar:$result);
  let assemblyFormat = [{
    $predicate $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
  let hasCanonicalizer = 1;
}

def VRIR_SelectOp : VRIR_ElementwiseOp<"select"> {
  let summary = "element-wise choice (np.where)";
  let arguments = (ins VRIR_ArrayOrScalar:$condition,
                       VRIR_ArrayOrScalar:$true_value,
                       VRIR_ArrayOrScalar:$false_value);
  let results = (outs VRIR_ArrayOrScalar:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:` qualified(type($condition))
    `,` qualified(type($true_value)) `,` qualified(type($false_value)) `->` qualified(type($result))
  }];
}

def VRIR_CastOp : VRIR_ElementwiseOp<"cast"> {
  let summary = "element type conversion";
  let description = [{
    Converts a scalar, or every element of an array into a new array, to
    another element type (C conversion rules; complex to real takes the
    real part).
  }];
  let arguments = (ins VRIR_ArrayOrScalar:$operand);
  let results = (outs VRIR_ArrayOrScalar:$result);
  let assemblyFormat = "$operand attr-dict `:` qualified(type($operand)) `to` qualified(type($result))";
  let hasFolder = 1;
}

def VRIR_CopyOp : VRIR_ElementwiseOp<"copy"> {
  let summary = "copy an array, possibly into another layout";
  let arguments = (ins VRIR_ArrayType:$operand);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = "$operand attr-dict `:` qualified(type($operand)) `to` qualified(type($result))";
}

//===----------------------------------------------------------------------===//
// Linear algebra and reductions (thesis 4.4, 4.5.3)
//===----------------------------------------------------------------------===//

def VRIR_MapOp : VRIR_Op<"map", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    SingleBlock]> {
  let summary = "element-wise expression with a scalar body";
  let description = [{
    A fused element-wise expression: the body computes one result element
    from one element of each input. Inputs broadcast by NumPy's rules, as in
    `vrir.binary` (scalars are passed to every element), and the result is
    a new array of the largest input rank. The body receives the element of
    every input (the scalar itself for a scalar input), must be side-effect
    free scalar code, and ends with a `vrir.yield` of the result element.

    With `reduce(kind)` the elements are not stored: they are combined into
    one scalar, as `vrir.reduce` of the whole (sum, prod, min, max) would
    combine the map's result, and the result is that scalar. Elements are
    visited in row-major order of the broadcast shape (column-major when
    the first array input is `col_major`); float sums and products may be
    reassociated, as in `vrir.reduce`; min and max of no element are a
    run-time error.

    `vrir-fuse-elementwise` builds maps from trees of `unary`, `binary`,
    `cmp`, `select` and `cast` ops, so that an expression such as
    `0.2 * (A + B + C)` runs as one loop nest with no temporary arrays, and
    a whole-array `vrir.reduce` of such a tree becomes a reducing map
    (`np.dot(x[:k], y[:k])` is one loop, no temporary). Frontends may emit
    maps directly.

    ```mlir
    %r = vrir.map %A, %s : (!vrir.array<f64, 2, strided>, f64) -> !vrir.array<f64, 2, row_major> {
    ^bb0(%a: f64, %b: f64):
      %t = arith.mulf %a, %b : f64
      vrir.yield %t : f64
    }
    %d = vrir.map %x, %y reduce(sum) : (!vrir.array<f64, 1, strided>, !vrir.array<f64, 1, strided>) -> f64 {
    ^bb0(%a: f64, %b: f64):
      %t = arith.mulf %a, %b : f64
      vrir.yield %t : f64
    }
    ```
  }];
  let arguments = (ins Variadic<VRIR_ArrayOrScalar>:$inputs,
                       OptionalAttr<VRIR_ReduceKind>:$reduce);
  let results = (outs VRIR_ArrayOrScalar:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs (`reduce` `(` $reduce^ `)`)? attr-dict `:` functional-type($inputs, $result) $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The value the body yields.
    ::mlir::Value getYieldedValue();
    /// Clones the body at `builder` with its arguments bound to `elements`
    /// and returns the clone of the yielded value.
    ::mlir::Value cloneBody(::mlir::OpBuilder &builder,
                            ::mlir::ValueRange elements);
  }];
}

def VRIR_MatmulOp : VRIR_ElementwiseOp<"matmul"> {
  let summary = "matrix product of two 2-D arrays";
  let arguments = (ins VRIR_ArrayType:$lhs, VRIR_ArrayType:$rhs);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
}

def VRIR_MatvecOp : VRIR_ElementwiseOp<"matvec"> {
  let summary = "product of a 2-D array and a 1-D array";
  let arguments = (ins VRIR_ArrayType:$matrix, VRIR_ArrayType:$vector);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = [{
    $matrix `,` $vector attr-dict `:` qualified(type($matrix)) `,` qualified(type($vector)) `->` qualified(type($result))
  }];
}

def VRIR_TransposeOp : VRIR_ElementwiseOp<"transpose"> {
  let summary = "reverse the dimensions of an array (new array)";
  let description = [{
    A new array holding `operand` with its dimensions reversed: MATLAB's
    transpose, which copies. The NumPy transpose, a view, is
    `vrir.permute`.
  }];
  let arguments = (ins VRIR_ArrayType:$operand);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = "$operand attr-dict `:` qualified(type($operand)) `to` qualified(type($result))";
}

// Factorizations and solvers (NumPy's `np.linalg`): LAPACK on the host.
class VRIR_LapackOp<string mnemonic> : VRIR_ElementwiseOp<mnemonic> {
  code lapackDescription = [{
    `f32` and `f64` matrices only (a frontend converts integer matrices
    first); the result is a new array. The CPU lowering copies the operand
    into the result (or a temporary) and calls LAPACK through OpenBLAS;
    the op is not allowed inside a `vrir.gpu_section`. A matrix that is not
    square is a run-time error.
  }];
}

def VRIR_CholeskyOp : VRIR_LapackOp<"cholesky"> {
  let summary = "Cholesky factor of a symmetric positive-definite matrix";
  let description = [{
    The lower-triangular `L` with `A = L * transpose(L)`, computed from the
    lower triangle of `operand` alone (the upper one is not read), with
    zeros above the diagonal, as `np.linalg.cholesky`. A matrix that is not
    positive definite is a run-time error (`potrf`).
  }] # lapackDescription # [{
    ```mlir
    %L = vrir.cholesky %A : !vrir.array<f64, 2, strided> -> !vrir.array<f64, 2, row_major>
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$operand);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = "$operand attr-dict `:` qualified(type($operand)) `->` qualified(type($result))";
}

def VRIR_InvOp : VRIR_LapackOp<"inv"> {
  let summary = "inverse of a square matrix";
  let description = [{
    The inverse of `operand` by LU factorization with partial pivoting
    (`getrf`, `getri`), as `np.linalg.inv`. An exactly singular matrix is a
    run-time error.
  }] # lapackDescription # [{
    ```mlir
    %X = vrir.inv %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$operand);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = "$operand attr-dict `:` qualified(type($operand)) `->` qualified(type($result))";
}

def VRIR_SolveOp : VRIR_LapackOp<"solve"> {
  let summary = "solution of a linear system A x = b";
  let description = [{
    `x` with `matrix * x = rhs` for a square `matrix` and a right-hand side
    of rank 1 (one vector) or 2 (one system per column), by LU
    factorization with partial pivoting (`gesv`), as `np.linalg.solve`. The
    result has the rank of `rhs`. An exactly singular matrix and a
    right-hand side whose length differs from the matrix's order are
    run-time errors.

    With `triangular lower` (or `upper`) the matrix is known to be zero
    above (below) its diagonal, and the system is solved by substitution
    (`trtrs`): n^2 operations instead of the factorization's n^3 / 3, the
    same solution up to rounding. The canonicalizer sets it where the
    matrix is a `vrir.cholesky` result, or a transpose of one, that nothing
    writes (`np.linalg.solve(L, b)` after `L = np.linalg.cholesky(A)`). A
    zero on the diagonal is a singular matrix, as for `gesv`.
  }] # lapackDescription # [{
    ```mlir
    %x = vrir.solve %A, %b : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, strided> -> !vrir.array<f64, 1, row_major>
    %y = vrir.solve %L, %b triangular lower : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$matrix, VRIR_ArrayType:$rhs,
                       OptionalAttr<VRIR_Triangle>:$triangular);
  let results = (outs VRIR_ArrayType:$result);
  let assemblyFormat = [{
    $matrix `,` $rhs (`triangular` $triangular^)? attr-dict `:` qualified(type($matrix)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
  let hasCanonicalizer = 1;
}

def VRIR_DetOp : VRIR_LapackOp<"det"> {
  let summary = "determinant of a square matrix";
  let description = [{
    The determinant of `operand` from its LU factorization (`getrf`): the
    product of the pivots, negated for each row exchange, as
    `np.linalg.det`. A singular matrix gives 0; an empty one 1.
  }] # lapackDescription # [{
    ```mlir
    %d = vrir.det %A : !vrir.array<f64, 2, col_major> -> f64
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$operand);
  let results = (outs AnyTypeOf<[F32, F64]>:$result);
  let assemblyFormat = "$operand attr-dict `:` qualified(type($operand)) `->` type($result)";
}

def VRIR_SlogdetOp : VRIR_LapackOp<"slogdet"> {
  let summary = "sign and logarithm of the determinant of a square matrix";
  let description = [{
    The sign (1, -1, or 0 for a singular matrix) and the natural logarithm
    of the absolute value of the determinant of `operand`, from its LU
    factorization (`getrf`), as `np.linalg.slogdet`: the logarithm is the
    sum of the logarithms of the pivots' magnitudes, so it neither
    overflows nor underflows where the determinant would. A singular
    matrix gives (0, -inf); an empty one (1, 0).
  }] # lapackDescription # [{
    ```mlir
    %sign, %logabsdet = vrir.slogdet %A : !vrir.array<f64, 2, row_major> -> f64, f64
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$operand);
  let results = (outs AnyTypeOf<[F32, F64]>:$sign,
                      AnyTypeOf<[F32, F64]>:$logabsdet);
  let assemblyFormat = [{
    $operand attr-dict `:` qualified(type($operand)) `->` type($sign) `,` type($logabsdet)
  }];
}

def VRIR_EighOp : VRIR_LapackOp<"eigh"> {
  let summary = "eigenvalues and eigenvectors of a symmetric matrix";
  let description = [{
    The eigenvalues of the symmetric `operand`, in ascending order, and,
    when a second result is asked for, the matrix whose columns are the
    normalized eigenvectors (column `k` for eigenvalue `k`), computed from
    the lower triangle of `operand` alone (the upper one is not read) by
    the divide-and-conquer `syevd`, as `np.linalg.eigh` (and, with the
    values alone, `np.linalg.eigvalsh`). An eigenvector's sign is
    LAPACK's choice. A failure to converge is a run-time error.
  }] # lapackDescription # [{
    ```mlir
    %w, %V = vrir.eigh %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>, !vrir.array<f64, 2, col_major>
    %w2 = vrir.eigh %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$operand);
  let results = (outs VRIR_ArrayType:$values,
                      Optional<VRIR_ArrayType>:$vectors);
  let assemblyFormat = [{
    $operand attr-dict `:` qualified(type($operand)) `->` qualified(type($values)) (`,` qualified(type($vectors))^)?
  }];
}

def VRIR_SvdOp : VRIR_LapackOp<"svd"> {
  let summary = "singular value decomposition";
  let description = [{
    The singular values of the `m` x `n` `operand`, in descending order
    (`min(m, n)` of them), and, when three results are asked for, `U` and
    `Vh` with `operand = U * diag(s) * Vh`: `m` x `m` and `n` x `n` with
    `full_matrices`, else `m` x `k` and `k` x `n` (`k = min(m, n)`), by the
    divide-and-conquer `gesdd`, as `np.linalg.svd` (and, with the values
    alone, `np.linalg.svd(a, compute_uv=False)`). The signs of a pair of
    singular vectors are LAPACK's choice. A failure to converge is a
    run-time error; the matrix need not be square.
  }] # lapackDescription # [{
    ```mlir
    %U, %s, %Vh = vrir.svd %A full_matrices : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 2, col_major>
    %s2 = vrir.svd %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$operand, UnitAttr:$full_matrices);
  let results = (outs Variadic<VRIR_ArrayType>:$results);
  let assemblyFormat = [{
    $operand (`full_matrices` $full_matrices^)? attr-dict `:` qualified(type($operand)) `->` qualified(type($results))
  }];
  let extraClassDeclaration = [{
    /// The singular values (the only result, or the second of three).
    Value getSingularValues() {
      return getResults().size() == 1 ? getResult(0) : getResult(1);
    }
  }];
}

def VRIR_QrOp : VRIR_LapackOp<"qr"> {
  let summary = "QR factorization";
  let description = [{
    `Q` and `R` with `operand = Q * R` for the `m` x `n` `operand`, `Q` with
    orthonormal columns and `R` upper triangular (`k = min(m, n)`): `Q`
    `m` x `k` and `R` `k` x `n`, or with `complete` `m` x `m` and `m` x `n`;
    with one result, `R` alone (`k` x `n`). Householder reflections
    (`geqrf`, then `orgqr` for `Q`), as `np.linalg.qr` in its modes
    'reduced', 'complete' and 'r'. The matrix need not be square; the
    signs of `R`'s diagonal are LAPACK's (NumPy's too).
  }] # lapackDescription # [{
    ```mlir
    %Q, %R = vrir.qr %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>, !vrir.array<f64, 2, row_major>
    %R2 = vrir.qr %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
    ```
  }];
  let arguments = (ins VRIR_ArrayType:$operand, UnitAttr:$complete);
  let results = (outs Variadic<VRIR_ArrayType>:$results);
  let assemblyFormat = [{
    $operand (`complete` $complete^)? attr-dict `:` qualified(type($operand)) `->` qualified(type($results))
  }];
}

def VRIR_ReduceOp : VRIR_ElementwiseOp<"reduce"> {
  let summary = "sum, product, minimum or maximum over one axis or all";
  let description = [{
    Without `axis` the whole array reduces to a scalar. With `axis` (0-based)
    that dimension is removed: a 1-D array reduces to a scalar, a higher-rank
    one to an array of one rank less.

    Float sums and products may be reassociated (the CPU lowering marks
    them `fastmath<reassoc>`, so that LLVM keeps several partial results
    in vector registers), as NumPy's pairwise summation and BLAS's dot
    products do: the result may differ from a strictly ordered one in the
    last bits. Integer, complex, min and max reductions are exact.

    ```mlir
    %s = vrir.reduce sum %A axis 0 : !vrir.array<f64, 2, col_major> -> !vrir.array<f64, 1, row_major>
    ```
  }];
  let arguments = (ins VRIR_ReduceKind:$kind, VRIR_ArrayType:$operand,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$axis);
  let results = (outs VRIR_ArrayOrScalar:$result);
  let assemblyFormat = [{
    $kind $operand (`axis` $axis^)? attr-dict `:` qualified(type($operand)) `->` qualified(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Parallel loops, atomics and accelerated sections (thesis 4.5)
//===----------------------------------------------------------------------===//

def VRIR_PforOp : VRIR_Op<"pfor", [
    AutomaticAllocationScope, RecursiveMemoryEffects, AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"::mlir::vrir::YieldOp">,
    DeclareOpInterfaceMethods<LoopLikeOpInterface,
        ["getLoopInductionVars", "getLoopLowerBounds", "getLoopUpperBounds",
         "getLoopSteps"]>,
    DeclareOpInterfaceMethods<RegionBranchOpInterface>]> {
  let summary = "parallel loop over a domain";
  let description = [{
    Runs its body once per point of `domain`; iterations may run in any
    order and in parallel. The block arguments are the induction variables,
    one per dimension of the domain, in the module's index base.

    `shared` lists the values that all iterations share (thesis 4.5.1).
    Iterations may write the elements of a shared array, but may not rebind
    a shared variable (`vrir.write` to a shared `!vrir.var`) nor grow a
    shared array. An array defined outside the loop may only be written
    inside it if it is shared. Everything else is private to an iteration.
    The body cannot leave the loop early (no `break`, `continue` or
    `return`). A `pfor` nested in another runs serially.

    ```mlir
    vrir.pfor (%i, %j) in %dom : !vrir.domain<2> shared(%A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>) {
      %x = vrir.load %B[%i, %j] : !vrir.array<f64, 2, row_major>[index, index]
      vrir.store %x, %A[%i, %j] : !vrir.array<f64, 2, row_major>[index, index]
    }
    ```

    **Reductions.** `reduce(kind %init : type, ...)` gives the loop one
    result per reduction: each iteration yields a contribution (the
    terminator's operands, in order) and the result is `init` combined with
    every contribution by `kind` (`sum`, `prod`, `min`, `max`) over integer
    or float scalars. The combination order is unspecified (floats may be
    reassociated); float `min`/`max` propagate NaN. The CPU lowering splits
    the iterations into a fixed number of chunks, each combined in order,
    then combines the chunks in order: the result does not depend on the
    number of threads.

    ```mlir
    %s = vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<f64, 1, row_major>) reduce(sum %zero : f64) {
      %x = vrir.load %A[%i] : !vrir.array<f64, 1, row_major>[index]
      vrir.yield %x : f64
    }
    ```
  }];
  let arguments = (ins VRIR_IterationSpace:$domain,
                       Variadic<AnyType>:$shared,
                       Variadic<AnyType>:$initValues,
                       DefaultValuedAttr<TypedArrayAttrBase<VRIR_ReduceKind,
                           "reduction kinds">, "{}">:$reductions);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$domain, "::mlir::ValueRange":$shared,
                   CArg<"::mlir::ValueRange", "{}">:$inits,
                   CArg<"::llvm::ArrayRef<::mlir::vrir::ReduceKind>", "{}">:$kinds)>
  ];
  let extraClassDeclaration = [{
    /// Number of dimensions of the iteration space.
    unsigned getNumDims();
    /// The kind of reduction `i` (of `getInitValues()` and the results).
    ::mlir::vrir::ReduceKind getReductionKind(unsigned i);
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
    ::mlir::Block::BlockArgListType getInductionVars() {
      return getBodyBlock()->getArguments();
    }
    /// True if `value` is listed in `shared`.
    bool isShared(::mlir::Value value);
  }];
}

def VRIR_AtomicCasOp : VRIR_Op<"atomic_cas", [
    VRIR_ElementOf<"array", "result">, VRIR_ElementOf<"array", "expected">,
    VRIR_ElementOf<"array", "desired">]> {
  let summary = "atomic compare-and-swap on an array element (thesis 4.5.2)";
  let description = [{
    If the element equals `expected`, replaces it by `desired`; returns the
    old element either way. 32- and 64-bit element types only. Must be
    nested in a `vrir.pfor`.

    ```mlir
    %old = vrir.atomic_cas %A[%i], %e, %d : !vrir.array<i32, 1, row_major>[index]
    ```
  }];
  let arguments = (ins Arg<VRIR_ArrayType, "array", [MemRead, MemWrite]>:$array,
                       Variadic<VRIR_Index>:$indices,
                       AnyTypeOf<[I32, I64, F32, F64]>:$expected,
                       AnyTypeOf<[I32, I64, F32, F64]>:$desired);
  let results = (outs AnyTypeOf<[I32, I64, F32, F64]>:$result);
  let assemblyFormat = [{
    $array `[` $indices `]` `,` $expected `,` $desired attr-dict `:`
    qualified(type($array)) (`[` qualified(type($indices))^ `]`)?
  }];
  let hasVerifier = 1;
}

def VRIR_AtomicRMWOp : VRIR_Op<"atomic_rmw", [
    VRIR_ElementOf<"array", "result">, VRIR_ElementOf<"array", "value">]> {
  let summary = "atomic read-modify-write on an array element";
  let description = [{
    Combines the element with `value` by `kind` atomically and returns the
    old element. Must be nested in a `vrir.pfor`.

    ```mlir
    %old = vrir.atomic_rmw add %hist[%b], %one : !vrir.array<i64, 1, row_major>[index]
    ```
  }];
  let arguments = (ins VRIR_AtomicKind:$kind,
                       Arg<VRIR_ArrayType, "array", [MemRead, MemWrite]>:$array,
                       Variadic<VRIR_Index>:$indices,
                       AnyTypeOf<[I32, I64, F32, F64]>:$value);
  let results = (outs AnyTypeOf<[I32, I64, F32, F64]>:$result);
  let assemblyFormat = [{
    $kind $array `[` $indices `]` `,` $value attr-dict `:`
    qualified(type($array)) (`[` qualified(type($indices))^ `]`)?
  }];
  let hasVerifier = 1;
}

def VRIR_GpuSectionOp : VRIR_Op<"gpu_section", [
    RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"::mlir::vrir::YieldOp">,
    DeclareOpInterfaceMethods<RegionBranchOpInterface>]> {
  let summary = "accelerated section (thesis 4.5.4)";
  let description = [{
    A hint that its body should run on a GPU when one is present; on a
    machine without one it runs on the CPU. Data movement is inferred; at
    the end of the section every value is coherent on the host. Values
    produced inside and used after are yielded. Function values may not be
    created or rebound inside, `pfor` loops inside may not allocate, and
    sections do not nest.

    ```mlir
    %s = vrir.gpu_section -> (f64) {
      ...
      vrir.yield %t : f64
    }
    ```
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`->` `(` qualified(type($results))^ `)`)? $body attr-dict";
  let hasRegionVerifier = 1;
}

def VRIR_YieldOp : VRIR_Op<"yield", [Pure, Terminator,
    DeclareOpInterfaceMethods<RegionBranchTerminatorOpInterface>,
    NativeOpTrait<"ReturnLike">,
    ParentOneOf<["PforOp", "GpuSectionOp", "MapOp", "StoreMapOp"]>]> {
  let summary = "terminator of pfor, gpu_section, map and store_map bodies";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to build */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` qualified(type($values)))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Region specialization (thesis chapter 6)
//===----------------------------------------------------------------------===//

def VRIR_DispatchOp : VRIR_Op<"dispatch", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call an outlined region through its specialization dispatcher";
  let description = [{
    Stands where region detection (thesis 6.3) found a potentially
    interesting region, which `vrir-outline-regions` moved into the function
    `callee`. Its operands are the region's inputs. `critical_shapes` lists
    the operands (by position) that are arrays whose sizes and strides the
    region's shape facts depend on, `critical_values` the operands whose
    values they depend on (integer scalars, or small index arrays). At run
    time the dispatcher looks the shapes, strides, values and aliasing of
    these operands up in the region's code cache and runs a version of
    `callee` specialised for them; the semantics are those of calling
    `callee` with the operands.

    ```mlir
    %r = vrir.dispatch @f_region0(%A, %B, %n) shapes [0, 1] values [2]
        : (!vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>,
           index) -> f64
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$operands,
                       DenseI64ArrayAttr:$critical_shapes,
                       DenseI64ArrayAttr:$critical_values,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` `shapes` $critical_shapes
    `values` $critical_values attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
  }];
  let hasVerifier = 1;
}

#endif // VRIR_DIALECT_VRIR_IR_VRIROPS_TD
