// RUN: vr-opt %s -split-input-file -canonicalize | FileCheck %s

// Ops that may raise a run-time error declare a write of the error state,
// so that they stay when their result is unused (NumPy raises either way);
// ops that cannot fail are erased.

!v = !vrir.array<f64, 1, row_major>
!m = !vrir.array<f64, 2, row_major>

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[A:.*]]: !vrir.array<f64, 1, row_major>, %[[B:.*]]: !vrir.array<f64, 1, row_major>, %[[C:.*]]: !vrir.array<i1, 1, row_major>
// CHECK-NEXT: vrir.binary add %[[A]], %[[B]]
// CHECK-NEXT: vrir.cmp lt %[[A]], %[[B]]
// CHECK-NEXT: vrir.select %[[C]], %[[A]], %[[B]]
// CHECK-NEXT: vrir.map %[[A]], %[[B]]
// CHECK: return
func.func @elementwise(%A: !v, %B: !v, %C: !vrir.array<i1, 1, row_major>, %s: f64) {
  // Two different arrays: their sizes may not broadcast.
  %0 = vrir.binary add %A, %B : !v, !v -> !v
  %1 = vrir.cmp lt %A, %B : !v, !v -> !vrir.array<i1, 1, row_major>
  %2 = vrir.select %C, %A, %B : !vrir.array<i1, 1, row_major>, !v, !v -> !v
  %3 = vrir.map %A, %B : (!v, !v) -> !v {
  ^bb0(%a: f64, %b: f64):
    %t = arith.mulf %a, %b : f64
    vrir.yield %t : f64
  }
  // An array with itself or with a scalar always broadcasts.
  %4 = vrir.binary add %A, %A : !v, !v -> !v
  %5 = vrir.binary mul %A, %s : !v, f64 -> !v
  %6 = vrir.unary neg %A : !v -> !v
  %7 = vrir.cast %A : !v to !vrir.array<f32, 1, row_major>
  %8 = vrir.map %A, %s : (!v, f64) -> !v {
  ^bb0(%a: f64, %b: f64):
    %t = arith.addf %a, %b : f64
    vrir.yield %t : f64
  }
  return
}

// -----

!v = !vrir.array<f64, 1, row_major>
!m = !vrir.array<f64, 2, row_major>

// CHECK-LABEL: func.func @library
// CHECK-NEXT: vrir.matmul
// CHECK-NEXT: vrir.matvec
// CHECK-NEXT: vrir.reduce min
// CHECK-NEXT: vrir.reduce max
// CHECK-NEXT: return
func.func @library(%M: !m, %v: !v) {
  %0 = vrir.matmul %M, %M : !m, !m -> !m
  %1 = vrir.matvec %M, %v : !m, !v -> !v
  %2 = vrir.reduce min %v : !v -> f64
  %3 = vrir.reduce max %M axis 0 : !m -> !v
  // Sums and products of nothing are 0 and 1.
  %4 = vrir.reduce sum %v : !v -> f64
  %5 = vrir.reduce prod %M axis 1 : !m -> !v
  return
}

// -----

!v = !vrir.array<f64, 1, row_major>
!m = !vrir.array<f64, 2, row_major>
!s = !vrir.array<f64, 1, strided>

// CHECK-LABEL: func.func @views
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[ROW:.*]] = vrir.slice %{{.*}}[%{{.*}}] :
// CHECK-NEXT: %[[ZERO:.*]] = vrir.range %{{.*}} to %{{.*}} step %{{.*}}
// CHECK-NEXT: vrir.slice %{{.*}}[%[[ZERO]]] flags
// CHECK-NEXT: vrir.reshape %{{.*}}(%{{.*}}, %{{.*}})
// CHECK-NEXT: return
func.func @views(%M: !m, %v: !v, %i: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm1 = arith.constant -1 : index
  // A checked integer index may be out of bounds.
  %0 = vrir.slice %M[%i] : !m[index] -> !s
  // An unchecked one, and NumPy's clipped ranges with a non-zero step,
  // cannot fail.
  %1 = vrir.slice %M[%i] flags [#vrir.index<none>] : !m[index] -> !s
  %r = vrir.range %c0 to %n step %c1
  %2 = vrir.slice %v[%r] flags [#vrir.index<lower|upper|negative>] : !v[!vrir.range] -> !s
  // A step that may be zero is an error.
  %z = vrir.range %c0 to %n step %k
  %3 = vrir.slice %v[%z] flags [#vrir.index<lower|upper|negative>] : !v[!vrir.range] -> !s
  // Reshapes check their sizes, except ravel's -1.
  %4 = vrir.reshape %v(%n, %n) : !v -> !m
  %5 = vrir.reshape %M(%cm1) : !m -> !v
  return
}

// -----

!v = !vrir.array<f64, 1, row_major>
!m = !vrir.array<f64, 2, row_major>

// An allocation checks its sizes: it may raise unless every size is a
// constant that passes (not negative, the byte count fits in 64 bits).
// CHECK-LABEL: func.func @allocations
// CHECK-DAG: %[[NEG:.*]] = arith.constant -1 : index
// CHECK-DAG: %[[BIG:.*]] = arith.constant 1152921504606846976 : index
// CHECK-NEXT: vrir.zeros(%{{.*}}) :
// CHECK-NEXT: vrir.ones(%[[NEG]]) :
// CHECK-NEXT: vrir.empty(%[[BIG]]) :
// CHECK-NEXT: return
func.func @allocations(%n: index) {
  %c4 = arith.constant 4 : index
  %cm1 = arith.constant -1 : index
  // 2^60 doubles: 2^63 bytes do not fit in int64; 2^59 doubles do.
  %big = arith.constant 1152921504606846976 : index
  %fits = arith.constant 576460752303423488 : index
  %0 = vrir.zeros(%n) : !v
  %1 = vrir.ones(%cm1) : !v
  %2 = vrir.empty(%big) : !v
  // Constant sizes that pass: nothing can fail.
  %3 = vrir.zeros(%c4, %c4) : !m
  %4 = vrir.empty(%fits) : !v
  return
}
