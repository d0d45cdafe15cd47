// RUN: vr-opt %s -canonicalize -split-input-file | FileCheck %s

!m = !vrir.array<f64, 2, row_major>

// CHECK-LABEL: func.func @dim_of_alloc
// CHECK-SAME: (%[[M:.*]]: index, %[[N:.*]]: index)
// CHECK-NOT: vrir.dim
// CHECK: return %[[N]], %[[M]]
func.func @dim_of_alloc(%m: index, %n: index) -> (index, index) {
  %A = vrir.zeros(%m, %n) : !m
  %d1 = vrir.dim %A, 1 : !m
  %B = vrir.ones(%m, %n) : !m
  %d0 = vrir.dim %B, 0 : !m
  return %d1, %d0 : index, index
}

// -----

!m = !vrir.array<f64, 2, row_major>

// Growth returns a new array: the allocation keeps its size (folded), the
// grown array's size is only known at run time.
// CHECK-LABEL: func.func @dim_of_growing_alloc
// CHECK-SAME: (%[[M:.*]]: index,
// CHECK: %[[G:.*]] = vrir.store
// CHECK: %[[D:.*]] = vrir.dim %[[G]], 0
// CHECK: return %[[M]], %[[D]]
func.func @dim_of_growing_alloc(%m: index, %x: f64) -> (index, index) {
  %A = vrir.zeros(%m) : !vrir.array<f64, 1, col_major>
  %c5 = arith.constant 5 : index
  %G = vrir.store %x, %A[%c5] flags [#vrir.index<lower|grow>] : !vrir.array<f64, 1, col_major>[index] -> !vrir.array<f64, 1, col_major>
  %d0 = vrir.dim %A, 0 : !vrir.array<f64, 1, col_major>
  %d1 = vrir.dim %G, 0 : !vrir.array<f64, 1, col_major>
  return %d0, %d1 : index, index
}

// -----

!m = !vrir.array<f64, 2, row_major>

// CHECK-LABEL: func.func @dim_through_shape_preserving_ops
// CHECK-SAME: (%[[A:.*]]: !vrir.array<f64, 2, row_major>)
// CHECK: %[[D1:.*]] = vrir.dim %[[A]], 1
// CHECK: %[[D0:.*]] = vrir.dim %[[A]], 0
// CHECK: return %[[D1]], %[[D0]]
func.func @dim_through_shape_preserving_ops(%A: !m) -> (index, index) {
  %B = vrir.copy %A : !m to !vrir.array<f64, 2, col_major>
  %C = vrir.unary exp %B : !vrir.array<f64, 2, col_major> -> !vrir.array<f64, 2, col_major>
  %d1 = vrir.dim %C, 1 : !vrir.array<f64, 2, col_major>
  %T = vrir.transpose %A : !m to !m
  %d0 = vrir.dim %T, 1 : !m
  return %d1, %d0 : index, index
}

// -----

// dim of a view reads the operand's dimension; new dimensions are 1.
// CHECK-LABEL: func.func @dim_through_views
// CHECK-SAME: (%[[A:.*]]: !vrir.array<f64, 3, row_major>)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[D2:.*]] = vrir.dim %[[A]], 2
// CHECK-DAG: %[[D1:.*]] = vrir.dim %[[A]], 1
// CHECK: return %[[D2]], %[[ONE]], %[[D1]]
func.func @dim_through_views(%A: !vrir.array<f64, 3, row_major>) -> (index, index, index) {
  %P = vrir.permute %A [2, 0, 1] : !vrir.array<f64, 3, row_major> -> !vrir.array<f64, 3, strided>
  %E = vrir.expand_dims %P [1, 3] : !vrir.array<f64, 3, strided> -> !vrir.array<f64, 5, strided>
  %a = vrir.dim %E, 0 : !vrir.array<f64, 5, strided>
  %b = vrir.dim %E, 3 : !vrir.array<f64, 5, strided>
  %c = vrir.dim %E, 4 : !vrir.array<f64, 5, strided>
  return %a, %b, %c : index, index, index
}

// -----

!m = !vrir.array<f64, 2, row_major>

// CHECK-LABEL: func.func @numel
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: return %[[C12]], %[[C1]]
func.func @numel(%s: !vrir.array<i32, 0, row_major>) -> (index, index) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %A = vrir.empty(%c3, %c4) : !m
  %n = vrir.numel %A : !m
  %one = vrir.numel %s : !vrir.array<i32, 0, row_major>
  return %n, %one : index, index
}

// -----

!m = !vrir.array<f64, 2, row_major>

// Scalar element-wise ops become arith; array ones stay.
// CHECK-LABEL: func.func @scalar_to_arith
// CHECK: %[[S:.*]] = arith.addf %arg0, %arg1 : f64
// CHECK: %[[P:.*]] = arith.muli %arg2, %arg3 : i64
// CHECK: arith.maximumf
// CHECK: %[[C:.*]] = arith.cmpf olt, %arg0, %arg1 : f64
// CHECK: arith.cmpi sge, %arg2, %arg3 : i64
// CHECK: vrir.binary div %arg2, %arg3
// CHECK: vrir.binary add %arg4, %arg0
func.func @scalar_to_arith(%x: f64, %y: f64, %i: i64, %j: i64, %A: !m)
    -> (f64, i64, f64, i1, i1, i64, !m) {
  %s = vrir.binary add %x, %y : f64, f64 -> f64
  %p = vrir.binary mul %i, %j : i64, i64 -> i64
  %m = vrir.binary max %x, %y : f64, f64 -> f64
  %c = vrir.cmp lt %x, %y : f64, f64 -> i1
  %d = vrir.cmp ge %i, %j : i64, i64 -> i1
  // Integer division rounds differently in C and Python: kept.
  %q = vrir.binary div %i, %j : i64, i64 -> i64
  %B = vrir.binary add %A, %x : !m, f64 -> !m
  return %s, %p, %m, %c, %d, %q, %B : f64, i64, f64, i1, i1, i64, !m
}

// -----

!m = !vrir.array<f64, 2, row_major>

// A scalar cast to its own type folds; an array cast to its own type is a
// new array and does not.
// CHECK-LABEL: func.func @cast_fold
// CHECK-NOT: vrir.cast %arg0
// CHECK: %[[B:.*]] = vrir.cast %arg1
// CHECK: return %arg0, %[[B]]
func.func @cast_fold(%x: f64, %A: !m) -> (f64, !m) {
  %y = vrir.cast %x : f64 to f64
  %B = vrir.cast %A : !m to !m
  return %y, %B : f64, !m
}

// -----

!m = !vrir.array<f64, 2, row_major>

// Unused array temporaries are dead: element-wise ops only read and allocate.
// CHECK-LABEL: func.func @dead_temporaries
// CHECK-NEXT: return
func.func @dead_temporaries(%A: !m, %x: f64) {
  %B = vrir.binary add %A, %x : !m, f64 -> !m
  %C = vrir.unary sqrt %B : !m -> !m
  %s = vrir.reduce sum %C : !m -> f64
  %Z = vrir.zeros() : !vrir.array<f64, 0, row_major>
  return
}

// -----

!m = !vrir.array<f64, 2, row_major>

// Stores are kept.
// CHECK-LABEL: func.func @stores_kept
// CHECK: vrir.store
func.func @stores_kept(%A: !m, %x: f64, %i: index) {
  vrir.store %x, %A[%i, %i] : !m[index, index]
  return
}

// -----

// A Cholesky factor that nothing writes is lower triangular, its transpose
// upper: vrir.solve with either is solved by substitution.
!m = !vrir.array<f64, 2, row_major>

// CHECK-LABEL: func.func @solve_with_cholesky_factor
// CHECK: %[[L:.*]] = vrir.cholesky
// CHECK: %[[Z:.*]] = vrir.solve %[[L]], %{{.*}} triangular lower :
// CHECK: %[[T:.*]] = vrir.permute %[[L]] [1, 0]
// CHECK: vrir.solve %[[T]], %[[Z]] triangular upper :
func.func @solve_with_cholesky_factor(%S: !m, %b: !vrir.array<f64, 1, row_major>) -> (!m, !vrir.array<f64, 1, row_major>) {
  %L = vrir.cholesky %S : !m -> !m
  %z = vrir.solve %L, %b : !m, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %T = vrir.permute %L [1, 0] : !m -> !vrir.array<f64, 2, col_major>
  %x = vrir.solve %T, %z : !vrir.array<f64, 2, col_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return %L, %x : !m, !vrir.array<f64, 1, row_major>
}

// -----

// A factor written anywhere (here through a view of it) may no longer be
// triangular: the general solve stays.
!m = !vrir.array<f64, 2, row_major>

// CHECK-LABEL: func.func @solve_with_written_factor
// CHECK-NOT: triangular
// CHECK: return
func.func @solve_with_written_factor(%S: !m, %b: !vrir.array<f64, 1, row_major>, %i: index, %x: f64) -> !vrir.array<f64, 1, row_major> {
  %L = vrir.cholesky %S : !m -> !m
  %T = vrir.permute %L [1, 0] : !m -> !vrir.array<f64, 2, col_major>
  vrir.store %x, %T[%i, %i] : !vrir.array<f64, 2, col_major>[index, index]
  %z = vrir.solve %L, %b : !m, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return %z : !vrir.array<f64, 1, row_major>
}

// -----

// Neither other permutations nor other matrices are known triangular.
!m = !vrir.array<f64, 2, row_major>

// CHECK-LABEL: func.func @solve_with_other_matrices
// CHECK-NOT: triangular
// CHECK: return
func.func @solve_with_other_matrices(%S: !m, %b: !vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  %I = vrir.inv %S : !m -> !m
  %z = vrir.solve %I, %b : !m, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return %z : !vrir.array<f64, 1, row_major>
}
