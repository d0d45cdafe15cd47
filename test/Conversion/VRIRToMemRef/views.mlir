// RUN: vr-opt %s -convert-vrir-to-memref -split-input-file | FileCheck %s
// Deallocation of views of temporaries and of returned views:
// RUN: vr-opt %s -convert-vrir-to-memref -canonicalize -buffer-deallocation-pipeline -split-input-file | FileCheck %s --check-prefix=DEALLOC
// The whole CPU pipeline reaches the LLVM dialect:
// RUN: vr-opt %s --vrir-to-cpu -split-input-file | FileCheck %s --check-prefix=CPU

// Views are reinterpret_casts of the operand's buffer with the sizes and
// strides of the operand rearranged. Static strides and offsets of the
// result type (row-major, column-major) come from the type.

// CPU-LABEL: llvm.func @permute_matrix(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @permute_matrix
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64>) -> memref<?x?xf64, strided<[1, ?]>>
// CHECK: %[[BASE:.*]], %{{.*}}, %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[T:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[SIZES]]#1, %[[SIZES]]#0], strides: [1, %[[STRIDES]]#0] : memref<f64> to memref<?x?xf64, strided<[1, ?]>>
// CHECK: return %[[T]]
func.func @permute_matrix(%A: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 2, col_major> {
  %T = vrir.permute %A [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
  return %T : !vrir.array<f64, 2, col_major>
}

// -----

// CHECK-LABEL: func.func @permute_3d
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SIZES:.*]]:3, %[[STRIDES:.*]]:3 = memref.extract_strided_metadata
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[SIZES]]#2, %[[SIZES]]#0, %[[SIZES]]#1], strides: [%[[STRIDES]]#2, %[[STRIDES]]#0, %[[STRIDES]]#1] : memref<i64> to memref<?x?x?xi64, strided<[?, ?, ?], offset: ?>>
func.func @permute_3d(%A: !vrir.array<i64, 3, strided>) -> !vrir.array<i64, 3, strided> {
  %P = vrir.permute %A [2, 0, 1] : !vrir.array<i64, 3, strided> -> !vrir.array<i64, 3, strided>
  return %P : !vrir.array<i64, 3, strided>
}

// -----

// Row-major: a new dimension gets the row-major stride of what follows it
// (1 at the end, which the type has statically).
// CHECK-LABEL: func.func @expand_row_major
// CHECK: %[[BASE:.*]], %{{.*}}, %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata
// CHECK: %[[S0:.*]] = arith.muli %[[STRIDES]]#0, %[[SIZES]]#0
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [1, %[[SIZES]]#0, %[[SIZES]]#1, 1], strides: [%[[S0]], %[[STRIDES]]#0, %[[STRIDES]]#1, 1] : memref<f64> to memref<?x?x?x?xf64>
func.func @expand_row_major(%A: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 4, row_major> {
  %E = vrir.expand_dims %A [0, 3] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 4, row_major>
  return %E : !vrir.array<f64, 4, row_major>
}

// -----

// Strided: a new dimension gets the row-major stride of what follows it.
// CHECK-LABEL: func.func @expand_strided
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SIZE:.*]], %[[STRIDE:.*]] = memref.extract_strided_metadata
// CHECK: %[[S0:.*]] = arith.muli %[[STRIDE]], %[[SIZE]]
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [1, %[[SIZE]], 1], strides: [%[[S0]], %[[STRIDE]], 1]
func.func @expand_strided(%v: !vrir.array<f64, 1, strided>) -> !vrir.array<f64, 3, strided> {
  %E = vrir.expand_dims %v [0, 2] : !vrir.array<f64, 1, strided> -> !vrir.array<f64, 3, strided>
  return %E : !vrir.array<f64, 3, strided>
}

// -----

// Column-major: the column-major stride of what precedes it (1 in front).
// CHECK-LABEL: func.func @expand_col_major
// CHECK: %[[BASE:.*]], %{{.*}}, %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata
// CHECK: %[[S2:.*]] = arith.muli %[[STRIDES]]#1, %[[SIZES]]#1
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [1, %[[SIZES]]#0, %[[SIZES]]#1, 1], strides: [1, %[[STRIDES]]#0, %[[STRIDES]]#1, %[[S2]]] : memref<f64> to memref<?x?x?x?xf64, strided<[1, ?, ?, ?]>>
func.func @expand_col_major(%A: !vrir.array<f64, 2, col_major>) -> !vrir.array<f64, 4, col_major> {
  %E = vrir.expand_dims %A [0, 3] : !vrir.array<f64, 2, col_major> -> !vrir.array<f64, 4, col_major>
  return %E : !vrir.array<f64, 4, col_major>
}

// -----

// A row-major reshape: three run-time checks, then a row-major view. The
// view's sizes are never negative (max with 0: a constant -2, refused by
// the checks, must not fold into the view's static sizes).
// CHECK-LABEL: func.func @reshape_row_major
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64>, %[[M:.*]]: index, %[[N:.*]]: index)
// CHECK: %[[BASE:.*]], %{{.*}}, %[[SIZES:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[A]]
// CHECK: llvm.call @vrir_rt_error
// CHECK: llvm.call @vrir_rt_error
// CHECK: %[[SEL1:.*]] = arith.select %{{.*}}, %{{.*}}, %[[N]]
// CHECK: %[[D1:.*]] = arith.maxsi %[[SEL1]], %{{.*}}
// CHECK: llvm.call @vrir_rt_error
// CHECK: %[[S0:.*]] = arith.muli %{{.*}}, %[[D1]]
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%{{.*}}, %[[D1]]], strides: [%[[S0]], 1] : memref<f64> to memref<?x?xf64>
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("cannot reshape array argument #0, accessed at {{.*}}: only one size can be -1\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("cannot reshape array argument #0, accessed at {{.*}}: negative sizes other than -1 are not allowed\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("cannot reshape array argument #0, accessed at {{.*}}: the new sizes do not hold as many elements\00")
func.func @reshape_row_major(%A: !vrir.array<f64, 2, row_major>, %m: index, %n: index) -> !vrir.array<f64, 2, row_major> {
  %R = vrir.reshape %A(%m, %n) : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
  return %R : !vrir.array<f64, 2, row_major>
}

// -----

// Any other layout: a view when the elements are in row-major order one
// step (the last stride) apart, else a view of a row-major copy.
// CHECK-LABEL: func.func @reshape_strided
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64, strided<[?, ?], offset: ?>>, %[[N:.*]]: index)
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: llvm.call @vrir_rt_error
// CHECK: %[[EXPECTED:.*]] = arith.muli %{{.*}}, %[[STRIDES]]#1
// CHECK: arith.cmpi eq, %[[STRIDES]]#0, %[[EXPECTED]]
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (memref<?xf64, strided<[?], offset: ?>>) {
// CHECK:   %[[V:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%{{.*}}], strides: [%{{.*}}]
// CHECK:   scf.yield %[[V]]
// CHECK: } else {
// CHECK:   %[[COPY:.*]] = memref.alloc(%[[SIZES]]#0, %[[SIZES]]#1) {{.*}} : memref<?x?xf64>
// CHECK:   linalg.copy ins(%[[A]] : {{.*}}) outs(%[[COPY]] : memref<?x?xf64>)
// CHECK:   %[[W:.*]] = memref.reinterpret_cast %[[COPY]] to offset: [0], sizes: [%{{.*}}], strides: [1]
// CHECK:   scf.yield %[[W]]
// CHECK: return %[[R]]
func.func @reshape_strided(%A: !vrir.array<f64, 2, strided>, %n: index) -> !vrir.array<f64, 1, strided> {
  %R = vrir.reshape %A(%n) : !vrir.array<f64, 2, strided> -> !vrir.array<f64, 1, strided>
  return %R : !vrir.array<f64, 1, strided>
}

// -----

// A view of a temporary keeps it alive until the view's last use; the
// temporary is freed once (through the view's base buffer).
// DEALLOC-LABEL: func.func @view_of_temporary
// DEALLOC: %[[TMP:.*]] = memref.alloc
// DEALLOC: %[[T:.*]] = memref.reinterpret_cast %[[TMP]]
// DEALLOC: memref.load %[[T]]
// DEALLOC: memref.dealloc %[[TMP]]
// DEALLOC-NOT: memref.dealloc
// DEALLOC: return
func.func @view_of_temporary(%A: !vrir.array<f64, 2, row_major>, %i: index, %j: index) -> f64 {
  %B = vrir.unary neg %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
  %T = vrir.permute %B [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
  %x = vrir.load %T[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !vrir.array<f64, 2, col_major>[index, index]
  return %x : f64
}

// -----

// A returned view of an argument is cloned (the caller owns what it gets),
// as for slices; a returned view of a temporary is the temporary itself.
// DEALLOC-LABEL: func.func @returned_views
// DEALLOC-SAME: (%[[A:.*]]: memref<?x?xf64>)
// DEALLOC: %[[V:.*]] = memref.reinterpret_cast %[[A]]
// DEALLOC: %[[TMP:.*]] = memref.alloc
// DEALLOC: %[[W:.*]] = memref.reinterpret_cast %[[TMP]]
// DEALLOC: %[[CLONE:.*]] = bufferization.clone %[[V]]
// DEALLOC-NOT: memref.dealloc
// DEALLOC: return %[[CLONE]], %[[W]]
func.func @returned_views(%A: !vrir.array<f64, 2, row_major>) -> (!vrir.array<f64, 2, col_major>, !vrir.array<f64, 2, col_major>) {
  %T = vrir.permute %A [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
  %B = vrir.unary neg %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
  %U = vrir.permute %B [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
  return %T, %U : !vrir.array<f64, 2, col_major>, !vrir.array<f64, 2, col_major>
}

// -----

// The parts of a complex array: vrir.memref_part_view of its memref (no
// memref view op changes the element type); the CPU pipeline builds them on
// the LLVM descriptor. Returned views of an argument are cloned.
// CPU-LABEL: llvm.func @complex_parts(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @complex_parts
// CHECK-SAME: (%[[Z:.*]]: memref<?x?xcomplex<f64>>)
// CHECK: %[[RE:.*]] = vrir.memref_part_view real %[[Z]] : memref<?x?xcomplex<f64>> -> memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[IM:.*]] = vrir.memref_part_view imag %[[Z]] : memref<?x?xcomplex<f64>> -> memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: return %[[RE]], %[[IM]]
// DEALLOC-LABEL: func.func @complex_parts
// DEALLOC: %[[RE:.*]] = vrir.memref_part_view real
// DEALLOC: %[[IM:.*]] = vrir.memref_part_view imag
// DEALLOC-DAG: %[[C1:.*]] = bufferization.clone %[[RE]]
// DEALLOC-DAG: %[[C2:.*]] = bufferization.clone %[[IM]]
// DEALLOC: return %[[C1]], %[[C2]]
func.func @complex_parts(%Z: !vrir.array<complex<f64>, 2, row_major>) -> (!vrir.array<f64, 2, strided>, !vrir.array<f64, 2, strided>) {
  %re = vrir.part_view real %Z : !vrir.array<complex<f64>, 2, row_major> -> !vrir.array<f64, 2, strided>
  %im = vrir.part_view imag %Z : !vrir.array<complex<f64>, 2, row_major> -> !vrir.array<f64, 2, strided>
  return %re, %im : !vrir.array<f64, 2, strided>, !vrir.array<f64, 2, strided>
}

// -----

// A part of a temporary keeps the temporary alive; the temporary is freed
// once, after the last read through the part.
// DEALLOC-LABEL: func.func @part_of_temporary
// DEALLOC: %[[TMP:.*]] = memref.alloc
// DEALLOC: %[[IM:.*]] = vrir.memref_part_view imag %[[TMP]]
// DEALLOC: memref.load %[[IM]]
// DEALLOC: memref.dealloc %[[TMP]]
// DEALLOC-NOT: memref.dealloc
// DEALLOC: return
func.func @part_of_temporary(%Z: !vrir.array<complex<f64>, 1, row_major>, %i: index) -> f64 {
  %W = vrir.unary neg %Z : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<complex<f64>, 1, row_major>
  %im = vrir.part_view imag %W : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<f64, 1, strided>
  %x = vrir.load %im[%i] flags [#vrir.index<none>] : !vrir.array<f64, 1, strided>[index]
  return %x : f64
}
