// RUN: vr-opt %s -vrir-specialize-region -canonicalize | FileCheck %s
// RUN: vr-opt %s -vrir-specialize-region -vrir-bounds-check-elim \
// RUN:   -canonicalize | FileCheck %s --check-prefix=BCE

// A region being specialised for A of 8x4, B of 8 and n = 6: extents and
// the value become constants, and bounds-check elimination proves the
// accesses against them (A[i, 3] and B[i + 1] for i < 6). Functions
// without facts are left alone.

!m = !vrir.array<f64, 2, row_major>
!v = !vrir.array<f64, 1, row_major>

// CHECK-LABEL: func.func @region
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-NOT:     vrir.dim
// CHECK-NOT:     vrir.numel
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C6]]
// CHECK:         return %[[C32]]
// BCE-LABEL:   func.func @region
// BCE:           vrir.load %{{.*}} flags [#vrir.index<none>, #vrir.index<none>]
// BCE:           vrir.store %{{.*}} flags [#vrir.index<none>]
func.func @region(%A: !m, %B: !v, %n: index) -> index attributes {
    vrir.region_facts = [
      {rank = 2 : i64, shape = array<i64: 8, 4>, strides = array<i64: 4, 1>, noalias},
      {rank = 1 : i64, shape = array<i64: 8>, strides = array<i64: 1>},
      {value = 6 : i64}]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %rows = vrir.dim %A, 0 : !m
  %stop = arith.minsi %rows, %n : index
  scf.for %i = %c0 to %stop step %c1 {
    %x = vrir.load %A[%i, %c3] : !m[index, index]
    %ip1 = arith.addi %i, %c1 : index
    vrir.store %x, %B[%ip1] : !v[index]
  }
  %count = vrir.numel %A : !m
  return %count : index
}

// CHECK-LABEL: func.func @generic
// CHECK:         vrir.dim
func.func @generic(%A: !m) -> index {
  %rows = vrir.dim %A, 0 : !m
  return %rows : index
}
