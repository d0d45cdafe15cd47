// RUN: vr-opt %s | vr-opt | FileCheck %s

// Every element type, layouts, rank 0, domains, ranges, variables, and the
// builtin tuple and function types VRIR reuses (thesis 4.2).

// CHECK-LABEL: func.func private @elements
// CHECK-SAME: !vrir.array<i1, 1, row_major>
// CHECK-SAME: !vrir.array<i8, 1, strided>
// CHECK-SAME: !vrir.array<i16, 2, row_major>
// CHECK-SAME: !vrir.array<i32, 2, col_major>
// CHECK-SAME: !vrir.array<i64, 3, strided>
// CHECK-SAME: !vrir.array<f32, 0, row_major>
// CHECK-SAME: !vrir.array<f64, 4, row_major>
// CHECK-SAME: !vrir.array<complex<i32>, 1, row_major>
// CHECK-SAME: !vrir.array<complex<i64>, 1, col_major>
// CHECK-SAME: !vrir.array<complex<f32>, 2, strided>
// CHECK-SAME: !vrir.array<complex<f64>, 2, row_major>
func.func private @elements(!vrir.array<i1, 1, row_major>,
                            !vrir.array<i8, 1, strided>,
                            !vrir.array<i16, 2, row_major>,
                            !vrir.array<i32, 2, col_major>,
                            !vrir.array<i64, 3, strided>,
                            !vrir.array<f32, 0, row_major>,
                            !vrir.array<f64, 4, row_major>,
                            !vrir.array<complex<i32>, 1, row_major>,
                            !vrir.array<complex<i64>, 1, col_major>,
                            !vrir.array<complex<f32>, 2, strided>,
                            !vrir.array<complex<f64>, 2, row_major>)

// CHECK-LABEL: func.func private @spaces
// CHECK-SAME: (!vrir.domain<1>, !vrir.domain<3>, !vrir.range)
func.func private @spaces(!vrir.domain<1>, !vrir.domain<3>, !vrir.range)

// CHECK-LABEL: func.func private @variables
// CHECK-SAME: !vrir.var<f64>, !vrir.var<!vrir.array<f64, 2, row_major>>
func.func private @variables(!vrir.var<f64>, !vrir.var<!vrir.array<f64, 2, row_major>>)

// Tuples and function values are builtin types.
// CHECK-LABEL: func.func private @composite
// CHECK-SAME: tuple<f64, !vrir.array<i32, 1, row_major>>
// CHECK-SAME: (f64) -> f64
func.func private @composite(tuple<f64, !vrir.array<i32, 1, row_major>>, (f64) -> f64)

// Function values: func.constant and func.call_indirect.
// CHECK-LABEL: func.func @handles
func.func @handles(%x: f64) -> f64 {
  // CHECK: %[[F:.*]] = constant @square : (f64) -> f64
  %f = func.constant @square : (f64) -> f64
  // CHECK: call_indirect %[[F]]
  %y = func.call_indirect %f(%x) : (f64) -> f64
  return %y : f64
}
func.func @square(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}

// Module semantics attributes round-trip on a nested module.
// CHECK: module @matlab attributes {vrir.index_base = 1 : i64, vrir.memory = #vrir.memory<gc>, vrir.range_exclusive = false}
module @matlab attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false,
                           vrir.memory = #vrir.memory<gc>} {
}
