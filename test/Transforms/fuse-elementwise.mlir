// RUN: vr-opt %s -vrir-fuse-elementwise -split-input-file | FileCheck %s

!A = !vrir.array<f64, 2, strided>
!R = !vrir.array<f64, 2, row_major>

// A tree of array ops becomes one map; an input used twice is passed once.
// CHECK-LABEL: func.func @tree
// CHECK-SAME: (%[[A:.*]]: !vrir.array<f64, 2, strided>, %[[B:.*]]: !vrir.array<f64, 2, strided>, %[[S:.*]]: f64)
// CHECK-NEXT: %[[M:.*]] = vrir.map %[[S]], %[[A]], %[[B]] : (f64, !vrir.array<f64, 2, strided>, !vrir.array<f64, 2, strided>) -> !vrir.array<f64, 2, row_major> {
// CHECK-NEXT: ^bb0(%[[s:.*]]: f64, %[[a:.*]]: f64, %[[b:.*]]: f64):
// CHECK-NEXT:   %[[T0:.*]] = vrir.binary add %[[a]], %[[b]] : f64, f64 -> f64
// CHECK-NEXT:   %[[T1:.*]] = vrir.binary add %[[T0]], %[[a]] : f64, f64 -> f64
// CHECK-NEXT:   %[[T2:.*]] = vrir.binary mul %[[s]], %[[T1]] : f64, f64 -> f64
// CHECK-NEXT:   vrir.yield %[[T2]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: return %[[M]]
func.func @tree(%A: !A, %B: !A, %s: f64) -> !R {
  %0 = vrir.binary add %A, %B : !A, !A -> !R
  %1 = vrir.binary add %0, %A : !R, !A -> !R
  %2 = vrir.binary mul %s, %1 : f64, !R -> !R
  return %2 : !R
}

// -----

// Unary, cmp, select and cast fuse too; the body keeps their scalar forms.
// CHECK-LABEL: func.func @mixed
// CHECK: vrir.map
// CHECK: vrir.unary sqrt {{.*}} : f64 -> f64
// CHECK: vrir.cmp gt {{.*}} : f64, f64 -> i1
// CHECK: vrir.cast {{.*}} : i64 to f64
// CHECK: vrir.select {{.*}} : i1, f64, f64 -> f64
// CHECK: vrir.yield
// CHECK-NOT: vrir.map
func.func @mixed(%A: !vrir.array<f64, 1, row_major>, %I: !vrir.array<i64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  %z = arith.constant 0.0 : f64
  %0 = vrir.unary sqrt %A : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %1 = vrir.cmp gt %0, %z : !vrir.array<f64, 1, row_major>, f64 -> !vrir.array<i1, 1, row_major>
  %2 = vrir.cast %I : !vrir.array<i64, 1, row_major> to !vrir.array<f64, 1, row_major>
  %3 = vrir.select %1, %0, %2 : !vrir.array<i1, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return %3 : !vrir.array<f64, 1, row_major>
}

// -----

!R = !vrir.array<f64, 2, row_major>
// A value used twice is computed once into an array: it is not fused.
// CHECK-LABEL: func.func @shared_producer
// CHECK: %[[P:.*]] = vrir.binary add
// CHECK: vrir.binary mul %[[P]], %[[P]]
func.func @shared_producer(%A: !R) -> !R {
  %0 = vrir.binary add %A, %A : !R, !R -> !R
  %1 = vrir.binary mul %0, %0 : !R, !R -> !R
  return %1 : !R
}

// -----

!R = !vrir.array<f64, 2, row_major>
// A lower-rank producer would be recomputed for every row: not fused.
// CHECK-LABEL: func.func @broadcast_producer
// CHECK: %[[E:.*]] = vrir.unary exp
// CHECK: vrir.binary add %{{.*}}, %[[E]]
func.func @broadcast_producer(%A: !R, %v: !vrir.array<f64, 1, row_major>) -> !R {
  %0 = vrir.unary exp %v : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %1 = vrir.binary add %A, %0 : !R, !vrir.array<f64, 1, row_major> -> !R
  return %1 : !R
}

// -----

!R = !vrir.array<f64, 2, row_major>
// A store between producer and consumer may change the producer's input.
// CHECK-LABEL: func.func @store_between
// CHECK: vrir.binary add
// CHECK: vrir.store
// CHECK: vrir.binary mul
// CHECK-NOT: vrir.map
func.func @store_between(%A: !R, %i: index, %x: f64) -> !R {
  %0 = vrir.binary add %A, %A : !R, !R -> !R
  vrir.store %x, %A[%i, %i] : !R[index, index]
  %1 = vrir.binary mul %0, %x : !R, f64 -> !R
  return %1 : !R
}

// -----

!R = !vrir.array<f64, 2, row_major>
// Producers in another block (here outside a loop) are not moved into it.
// CHECK-LABEL: func.func @other_block
// CHECK: vrir.binary add
// CHECK: scf.for
// CHECK:   vrir.binary mul
// CHECK-NOT: vrir.map
func.func @other_block(%A: !R, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = vrir.binary add %A, %A : !R, !R -> !R
  scf.for %k = %c0 to %n step %c1 {
    %1 = vrir.binary mul %0, %0 : !R, !R -> !R
    vrir.store_slice %1, %A[] : !R, !R
  }
  return
}

// -----

// Scalar ops are left alone.
// CHECK-LABEL: func.func @scalars
// CHECK-NOT: vrir.map
func.func @scalars(%x: f64, %y: f64) -> f64 {
  %0 = vrir.binary add %x, %y : f64, f64 -> f64
  %1 = vrir.binary mul %0, %x : f64, f64 -> f64
  return %1 : f64
}
