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

// -----

!V = !vrir.array<f64, 1, strided>
// A whole-array reduction of an element-wise tree is one reducing map
// (np.dot of two slices): no element is stored.
// CHECK-LABEL: func.func @dot
// CHECK-SAME: (%[[X:.*]]: !vrir.array<f64, 1, strided>, %[[Y:.*]]: !vrir.array<f64, 1, strided>, %[[S:.*]]: f64)
// CHECK-NEXT: %[[D:.*]] = vrir.map %[[X]], %[[Y]], %[[S]] reduce(sum) : (!vrir.array<f64, 1, strided>, !vrir.array<f64, 1, strided>, f64) -> f64 {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64, %[[C:.*]]: f64):
// CHECK-NEXT:   %[[P:.*]] = vrir.binary mul %[[A]], %[[B]] : f64, f64 -> f64
// CHECK-NEXT:   %[[Q:.*]] = vrir.binary mul %[[P]], %[[C]] : f64, f64 -> f64
// CHECK-NEXT:   vrir.yield %[[Q]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: return %[[D]]
func.func @dot(%x: !V, %y: !V, %s: f64) -> f64 {
  %0 = vrir.binary mul %x, %y : !V, !V -> !vrir.array<f64, 1, row_major>
  %1 = vrir.binary mul %0, %s : !vrir.array<f64, 1, row_major>, f64 -> !vrir.array<f64, 1, row_major>
  %2 = vrir.reduce sum %1 : !vrir.array<f64, 1, row_major> -> f64
  return %2 : f64
}

// -----

!R = !vrir.array<f64, 2, row_major>
// An axis reduction of a 2-D array, a reduction of an array with another
// use, and one of an argument are left alone.
// CHECK-LABEL: func.func @not_reductions
// CHECK: vrir.binary mul
// CHECK: vrir.reduce max %{{.*}} axis 1
// CHECK: vrir.binary add
// CHECK: vrir.reduce sum
// CHECK: vrir.reduce min %arg0
// CHECK-NOT: reduce(
func.func @not_reductions(%A: !R) -> (!vrir.array<f64, 1, row_major>, f64, !R, f64) {
  %0 = vrir.binary mul %A, %A : !R, !R -> !R
  %1 = vrir.reduce max %0 axis 1 : !R -> !vrir.array<f64, 1, row_major>
  %2 = vrir.binary add %A, %A : !R, !R -> !R
  %3 = vrir.reduce sum %2 : !R -> f64
  %4 = vrir.reduce min %A : !R -> f64
  return %1, %3, %2, %4 : !vrir.array<f64, 1, row_major>, f64, !R, f64
}

// -----

!R = !vrir.array<f64, 2, row_major>
!S = !vrir.array<f64, 1, strided>
// A slice assignment of a fused expression is one store_map with the
// assignment's indices and flags.
// CHECK-LABEL: func.func @slice_update
// CHECK-SAME: (%[[C:.*]]: !vrir.array<f64, 2, row_major>, %[[X:.*]]: !vrir.array<f64, 1, strided>, %[[I:.*]]: index, %[[R:.*]]: !vrir.range, %[[S:.*]]: f64)
// CHECK-NEXT: %[[ROW:.*]] = vrir.slice %[[C]][%[[I]], %[[R]]]
// CHECK-NEXT: vrir.store_map %[[ROW]], %[[X]], %[[S]] into %[[C]][%[[I]], %[[R]]] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : (!vrir.array<f64, 1, strided>, !vrir.array<f64, 1, strided>, f64) -> !vrir.array<f64, 2, row_major>[index, !vrir.range] {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64, %[[K:.*]]: f64):
// CHECK-NEXT:   %[[P:.*]] = vrir.binary mul %[[B]], %[[K]]
// CHECK-NEXT:   %[[Q:.*]] = vrir.binary add %[[A]], %[[P]]
// CHECK-NEXT:   vrir.yield %[[Q]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @slice_update(%C: !R, %x: !S, %i: index, %r: !vrir.range, %s: f64) {
  %row = vrir.slice %C[%i, %r] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !R[index, !vrir.range] -> !S
  %0 = vrir.binary mul %x, %s : !S, f64 -> !vrir.array<f64, 1, row_major>
  %1 = vrir.binary add %row, %0 : !S, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  vrir.store_slice %1, %C[%i, %r] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !vrir.array<f64, 1, row_major>, !R[index, !vrir.range]
  return
}

// -----

!R = !vrir.array<f64, 2, row_major>
// Plain copies and scalar fills stay store_slice. In a GPU section an
// assignment fuses too: its store_map is one kernel writing the slice (not
// a kernel filling a temporary and a second copying it).
// CHECK-LABEL: func.func @fused_in_gpu_section
// CHECK-NOT: vrir.store_map
// CHECK: vrir.store_slice
// CHECK: vrir.store_slice
// CHECK: vrir.gpu_section
// CHECK-NEXT: vrir.store_map %{{.*}}, %{{.*}} into %{{.*}}[]
// CHECK: vrir.binary mul
// CHECK-NOT: vrir.store_slice
func.func @fused_in_gpu_section(%C: !R, %D: !R, %s: f64) {
  vrir.store_slice %D, %C[] : !R, !R
  vrir.store_slice %s, %C[] : f64, !R
  vrir.gpu_section {
    %0 = vrir.binary mul %D, %s : !R, f64 -> !R
    vrir.store_slice %0, %C[] : !R, !R
    vrir.yield
  }
  return
}
