// RUN: vr-opt %s | vr-opt | FileCheck %s

// Thesis figure 4.5: legal use of shared variables in a parallel-for loop
// (pseudo-Python):
//
//   a = zeros(10)
//   b = ones(10)
//   c = zeros(10)
//   #a,b,c are shared variables
//   for i in PAR(range(10), shared=[a,b,c]):
//       #legal use of a,b,c. no reassignment, indexed-write only
//       a[i] = b[i] + c[i]
//
// NumPy module: 0-based, range(10) excludes its stop (0..9). zeros/ones give
// 1-D float64 arrays. The loop body only writes a by index; a, b and c are
// listed as shared and are never rebound.

module attributes {vrir.index_base = 0 : i64, vrir.range_exclusive = true} {
  func.func @fig4_5() -> !vrir.array<f64, 1, row_major> {
    %c0 = arith.constant 0 : index
    %c10 = arith.constant 10 : index
    %a = vrir.zeros(%c10) : !vrir.array<f64, 1, row_major>
    %b = vrir.ones(%c10) : !vrir.array<f64, 1, row_major>
    %c = vrir.zeros(%c10) : !vrir.array<f64, 1, row_major>
    %r = vrir.range %c0 to %c10
    vrir.pfor (%i) in %r : !vrir.range
        shared(%a, %b, %c : !vrir.array<f64, 1, row_major>,
                            !vrir.array<f64, 1, row_major>,
                            !vrir.array<f64, 1, row_major>) {
      // NumPy subscripts: negative indices wrap, both bounds are checked.
      %bi = vrir.load %b[%i] flags [#vrir.index<lower|upper|negative>]
          : !vrir.array<f64, 1, row_major>[index]
      %ci = vrir.load %c[%i] flags [#vrir.index<lower|upper|negative>]
          : !vrir.array<f64, 1, row_major>[index]
      %sum = arith.addf %bi, %ci : f64
      vrir.store %sum, %a[%i] flags [#vrir.index<lower|upper|negative>]
          : !vrir.array<f64, 1, row_major>[index]
    }
    return %a : !vrir.array<f64, 1, row_major>
  }
}

// CHECK-LABEL: func.func @fig4_5
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : index
// CHECK:         %[[A:.*]] = vrir.zeros(%[[C10]]) : !vrir.array<f64, 1, row_major>
// CHECK:         %[[B:.*]] = vrir.ones(%[[C10]]) : !vrir.array<f64, 1, row_major>
// CHECK:         %[[C:.*]] = vrir.zeros(%[[C10]]) : !vrir.array<f64, 1, row_major>
// CHECK:         %[[R:.*]] = vrir.range %[[C0]] to %[[C10]]
// CHECK:         vrir.pfor (%[[I:.*]]) in %[[R]] : !vrir.range shared(%[[A]], %[[B]], %[[C]] :
// CHECK:           %[[BI:.*]] = vrir.load %[[B]][%[[I]]]
// CHECK:           %[[CI:.*]] = vrir.load %[[C]][%[[I]]]
// CHECK:           %[[S:.*]] = arith.addf %[[BI]], %[[CI]] : f64
// CHECK:           vrir.store %[[S]], %[[A]][%[[I]]]
// CHECK:         return %[[A]]
