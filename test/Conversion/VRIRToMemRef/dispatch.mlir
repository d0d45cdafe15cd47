// RUN: vr-opt %s -convert-vrir-to-memref | FileCheck %s

// The generic path of a region dispatch is a call of the region function,
// with VRIR arrays converted to memrefs on both sides.

!m = !vrir.array<f64, 2, row_major>

// CHECK-LABEL: func.func private @f_region0
// CHECK-SAME:    (%{{.*}}: memref<?x?xf64>, %{{.*}}: index) -> f64
func.func private @f_region0(%A: !m, %n: index) -> f64 {
  %x = vrir.load %A[%n, %n] : !m[index, index]
  return %x : f64
}

// CHECK-LABEL: func.func @f
// CHECK-SAME:    (%[[A:.*]]: memref<?x?xf64>, %[[N:.*]]: index) -> f64
// CHECK:         %[[R:.*]] = call @f_region0(%[[A]], %[[N]]) : (memref<?x?xf64>, index) -> f64
// CHECK:         return %[[R]]
func.func @f(%A: !m, %n: index) -> f64 {
  %r = vrir.dispatch @f_region0(%A, %n) shapes [0] values [1] : (!m, index) -> f64
  return %r : f64
}
