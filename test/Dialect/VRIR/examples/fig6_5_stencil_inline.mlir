// RUN: vr-opt %s | vr-opt | FileCheck %s
// RUN: vr-opt %s -inline | FileCheck %s --check-prefix=INLINE

// Thesis figure 6.5a (Python-like): a function call inside a loop.
//
//   def stencil(A,B):
//       n = A.shape[0]
//       for i in range(1,n):
//           A[i] = (B[i]+B[i-1]+B[i+1])/3
//
//   def foo(A,B)
//       :
//       for i in range(m):
//           stencil(A,B)
//       :
//
// NumPy module: 0-based, exclusive ranges. A and B are 1-D float64 arrays.
// The elided parts of foo are left out; m, defined there, is a parameter
// here (figure 6.5b passes it to the outlined region as a "critical value
// variable"). NumPy subscripts wrap negative indices and check both bounds
// (so B[i+1] at i = n-1 is an out-of-bounds error unless B is longer than A).
// After inlining (figure 6.5b) the loop nest is explicit in foo.

module {
  func.func @stencil(%A: !vrir.array<f64, 1, row_major>, %B: !vrir.array<f64, 1, row_major>) {
    %c1 = arith.constant 1 : index
    %three = arith.constant 3.0 : f64
    // n = A.shape[0]
    %n = vrir.dim %A, 0 : !vrir.array<f64, 1, row_major>
    // for i in range(1,n):
    scf.for %i = %c1 to %n step %c1 {
      %im1 = arith.subi %i, %c1 : index
      %ip1 = arith.addi %i, %c1 : index
      // A[i] = (B[i]+B[i-1]+B[i+1])/3
      %b0 = vrir.load %B[%i] flags [#vrir.index<lower|upper|negative>]
          : !vrir.array<f64, 1, row_major>[index]
      %bm = vrir.load %B[%im1] flags [#vrir.index<lower|upper|negative>]
          : !vrir.array<f64, 1, row_major>[index]
      %bp = vrir.load %B[%ip1] flags [#vrir.index<lower|upper|negative>]
          : !vrir.array<f64, 1, row_major>[index]
      %s0 = arith.addf %b0, %bm : f64
      %s1 = arith.addf %s0, %bp : f64
      %v = arith.divf %s1, %three : f64
      vrir.store %v, %A[%i] flags [#vrir.index<lower|upper|negative>]
          : !vrir.array<f64, 1, row_major>[index]
    }
    return
  }

  func.func @foo(%A: !vrir.array<f64, 1, row_major>, %B: !vrir.array<f64, 1, row_major>, %m64: i64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = arith.index_cast %m64 : i64 to index
    // for i in range(m): stencil(A,B)
    scf.for %i = %c0 to %m step %c1 {
      func.call @stencil(%A, %B) : (!vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>) -> ()
    }
    return
  }
}

// CHECK-LABEL: func.func @stencil
// CHECK-SAME:    (%[[A:.*]]: !vrir.array<f64, 1, row_major>, %[[B:.*]]: !vrir.array<f64, 1, row_major>)
// CHECK:         %[[N:.*]] = vrir.dim %[[A]], 0 : !vrir.array<f64, 1, row_major>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK:           %[[IM1:.*]] = arith.subi %[[I]]
// CHECK:           %[[IP1:.*]] = arith.addi %[[I]]
// CHECK:           vrir.load %[[B]][%[[I]]] flags [#vrir.index<lower|upper|negative>]
// CHECK:           vrir.load %[[B]][%[[IM1]]]
// CHECK:           vrir.load %[[B]][%[[IP1]]]
// CHECK:           arith.divf
// CHECK:           vrir.store %{{.*}}, %[[A]][%[[I]]]
// CHECK-LABEL: func.func @foo
// CHECK:         scf.for
// CHECK:           call @stencil(%{{.*}}, %{{.*}}) : (!vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>) -> ()

// The call is gone: foo holds the loop nest of figure 6.5b.
// INLINE-LABEL: func.func @stencil
// INLINE-LABEL: func.func @foo
// INLINE-SAME:    (%[[A:.*]]: !vrir.array<f64, 1, row_major>, %[[B:.*]]: !vrir.array<f64, 1, row_major>, %{{.*}}: i64)
// INLINE-NOT:     call @stencil
// INLINE:         scf.for
// INLINE:           %[[N:.*]] = vrir.dim %[[A]], 0 : !vrir.array<f64, 1, row_major>
// INLINE:           scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// INLINE:             vrir.load %[[B]][%[[I]]]
// INLINE:             vrir.store %{{.*}}, %[[A]][%[[I]]]
// INLINE-NOT:     call @stencil
// INLINE:         return
