// RUN: vr-opt %s -split-input-file -vrir-outline-regions | FileCheck %s
// RUN: vr-opt %s -split-input-file \
// RUN:   -vrir-outline-regions="pipeline-options=vulkan:0:1:1" \
// RUN:   | FileCheck %s --check-prefix=OPTIONS
//
// vrir-outline-regions: each interesting region becomes a private function
// called through vrir.dispatch.

!m = !vrir.array<f64, 2, row_major>
func.func private @opaque() -> index

// Two regions separated by an opaque call. Inputs become arguments in order
// of first use, constants are cloned in, values used after the region are
// results, and the dispatch lists the critical shapes and values by
// position.
// CHECK-LABEL: func.func @two_regions
// CHECK-SAME:    (%[[A:.*]]: !vrir.array<f64, 2, row_major>, %[[N:.*]]: index)
// CHECK:         %[[S:.*]] = vrir.dispatch @two_regions_region0(%[[N]], %[[A]]) shapes [1] values [0] : (index, !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 2, row_major>
// CHECK:         %[[K:.*]] = call @opaque()
// CHECK:         vrir.dispatch @two_regions_region1(%[[S]], %[[K]]) shapes [0] values [1] : (!vrir.array<f64, 2, row_major>, index) -> ()
// CHECK:         return %[[S]]
// CHECK:       func.func private @two_regions_region0(%[[N2:.*]]: index, %[[A2:.*]]: !vrir.array<f64, 2, row_major> {vrir.array_description = "array argument #0"}) -> !vrir.array<f64, 2, row_major>
// The dispatcher's description: the region as a module (public, with
// locations), one signature entry per argument, the pipeline options.
// CHECK-SAME:    attributes {vrir.region = {options = "cpu:1:1:1", signature = "i64V,m2:8S", source = "{{.*}}func.func @two_regions_region0(%arg0: index loc({{.*}}
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[B:.*]] = vrir.zeros(%[[N2]], %[[N2]])
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[N2]] step %[[C1]]
// CHECK:           vrir.load %[[A2]]
// CHECK:           vrir.store %{{.*}}, %[[B]]
// CHECK:         return %[[B]]
// CHECK:       func.func private @two_regions_region1(%{{.*}}: !vrir.array<f64, 2, row_major> {vrir.array_description = "array created at {{.*}}outline-regions.mlir:{{[0-9]+}}:{{[0-9]+}}"}, %{{.*}}: index)
// OPTIONS: vrir.region = {options = "vulkan:0:1:1"
func.func @two_regions(%A: !m, %n: index) -> !m {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %B = vrir.zeros(%n, %n) : !m
  scf.for %i = %c0 to %n step %c1 {
    %x = vrir.load %A[%i, %i] : !m[index, index]
    vrir.store %x, %B[%i, %i] : !m[index, index]
  }
  %k = func.call @opaque() : () -> index
  scf.for %i = %c0 to %k step %c1 {
    %x = vrir.load %B[%i, %c0] : !m[index, index]
    vrir.store %x, %B[%c0, %i] : !m[index, index]
  }
  return %B : !m
}

// -----

!v = !vrir.array<f64, 1, row_major>
!s = !vrir.array<f64, 1, strided>
func.func private @opaque() -> index

// A region whose view of an argument is used after it (past an opaque
// call) stays in place: returned from a function the view would become a
// copy, and the write through it after the region would miss the argument.
// CHECK-LABEL: func.func @view_escapes
// CHECK-NOT:     vrir.dispatch
// CHECK:         vrir.slice
// CHECK:         call @opaque
// CHECK:         vrir.store
func.func @view_escapes(%A: !v, %n: index, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = vrir.range %c0 to %n
  %V = vrir.slice %A[%r] : !v[!vrir.range] -> !s
  scf.for %i = %c0 to %n step %c1 {
    %t = vrir.load %V[%i] : !s[index]
    vrir.store %t, %V[%i] : !s[index]
  }
  %k = func.call @opaque() : () -> index
  vrir.store %x, %V[%k] : !s[index]
  return
}

// -----

!v = !vrir.array<f64, 1, row_major>
func.func private @opaque() -> index

// A region using a range defined before it (a range cannot cross a call)
// stays in place.
// CHECK-LABEL: func.func @range_input
// CHECK-NOT:     vrir.dispatch
func.func @range_input(%A: !v, %n: index) -> !v {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  %k = func.call @opaque() : () -> index
  %S = vrir.slice %A[%r] {copy} : !v[!vrir.range] -> !v
  %T = vrir.binary add %S, %S : !v, !v -> !v
  %U = vrir.binary mul %T, %T : !v, !v -> !v
  return %U : !v
}

// -----

!v = !vrir.array<f64, 1, row_major>
!s = !vrir.array<f64, 1, strided>
func.func private @opaque() -> index

// Nor does a region whose results include an array and a view of it: they
// would come back as two separate arrays, and the write through the view
// would miss the array.
// CHECK-LABEL: func.func @view_of_result
// CHECK-NOT:     vrir.dispatch
// CHECK:         vrir.zeros
// CHECK:         call @opaque
func.func @view_of_result(%n: index, %x: f64) -> !v {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %A = vrir.zeros(%n) : !v
  %r = vrir.range %c0 to %n
  %V = vrir.slice %A[%r] : !v[!vrir.range] -> !s
  scf.for %i = %c0 to %n step %c1 {
    vrir.store %x, %A[%i] : !v[index]
  }
  %k = func.call @opaque() : () -> index
  vrir.store %x, %V[%k] : !s[index]
  return %A : !v
}
