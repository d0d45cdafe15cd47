// RUN: vr-opt %s | vr-opt | FileCheck %s

// Thesis figure 9.2: a 2-D stencil with periodic boundary, in plain Python
// (a) and with the PyRaptor extensions (b):
//
//   (a) def stencil(A,B)
//         m,n = A.shape
//         for i in range(m):
//           for j in range(n):
//             B[i,j] = (A[i,j] + A[i-1,j] + A[i+1,j] + A[i,j+1] + A[i,j-1])/5
//
//   (b) @stenmodule.compile
//       def stencil(A: PyArray(PyFloat64(),2,'RowMajor'),
//                   B: PyArray(PyFloat64(),2,'RowMajor'))
//         m,n = A.shape
//         gpu_begin()
//         for i,j in PAR(Domain(m,n),shared=[A,B]):
//           B[i,j] = (A[i,j] + A[i-1,j] + A[i+1,j] + A[i,j+1] + A[i,j-1])/5
//         gpu_end()
//
// NumPy module: 0-based, exclusive ranges; Domain(m,n) is [0,m) x [0,n).
// The subscripts carry NumPy's flags: a negative index wraps around (A[i-1,j]
// at i = 0 reads row m-1, the periodic boundary), and both bounds are
// checked, so A[i+1,j] at i = m-1 (and A[i,j+1] at j = n-1) is an
// out-of-bounds error, as in NumPy; in the pfor one such error is reported
// (thesis 4.6).

module attributes {vrir.index_base = 0 : i64, vrir.range_exclusive = true} {
  // (b): the parallel loop over the 2-D domain, A and B shared, inside an
  // accelerated section.
  func.func @stencil(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, row_major>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %five = arith.constant 5.0 : f64
    // m,n = A.shape
    %m = vrir.dim %A, 0 : !vrir.array<f64, 2, row_major>
    %n = vrir.dim %A, 1 : !vrir.array<f64, 2, row_major>
    // gpu_begin() ... gpu_end()
    vrir.gpu_section {
      %rm = vrir.range %c0 to %m
      %rn = vrir.range %c0 to %n
      %dom = vrir.domain %rm, %rn : !vrir.domain<2>
      vrir.pfor (%i, %j) in %dom : !vrir.domain<2>
          shared(%A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>) {
        %im1 = arith.subi %i, %c1 : index
        %ip1 = arith.addi %i, %c1 : index
        %jm1 = arith.subi %j, %c1 : index
        %jp1 = arith.addi %j, %c1 : index
        %a0 = vrir.load %A[%i, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
        %a1 = vrir.load %A[%im1, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
        %a2 = vrir.load %A[%ip1, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
        %a3 = vrir.load %A[%i, %jp1] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
        %a4 = vrir.load %A[%i, %jm1] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
        %s1 = arith.addf %a0, %a1 : f64
        %s2 = arith.addf %s1, %a2 : f64
        %s3 = arith.addf %s2, %a3 : f64
        %s4 = arith.addf %s3, %a4 : f64
        %v = arith.divf %s4, %five : f64
        vrir.store %v, %B[%i, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
      }
    }
    return
  }

  // (a): the same computation as a serial loop nest, for comparison.
  func.func @stencil_serial(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, row_major>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %five = arith.constant 5.0 : f64
    %m = vrir.dim %A, 0 : !vrir.array<f64, 2, row_major>
    %n = vrir.dim %A, 1 : !vrir.array<f64, 2, row_major>
    scf.for %i = %c0 to %m step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %im1 = arith.subi %i, %c1 : index
        %ip1 = arith.addi %i, %c1 : index
        %jm1 = arith.subi %j, %c1 : index
        %jp1 = arith.addi %j, %c1 : index
        %a0 = vrir.load %A[%i, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
        %a1 = vrir.load %A[%im1, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
        %a2 = vrir.load %A[%ip1, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
        %a3 = vrir.load %A[%i, %jp1] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
        %a4 = vrir.load %A[%i, %jm1] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
        %s1 = arith.addf %a0, %a1 : f64
        %s2 = arith.addf %s1, %a2 : f64
        %s3 = arith.addf %s2, %a3 : f64
        %s4 = arith.addf %s3, %a4 : f64
        %v = arith.divf %s4, %five : f64
        vrir.store %v, %B[%i, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
            : !vrir.array<f64, 2, row_major>[index, index]
      }
    }
    return
  }
}

// CHECK-LABEL: func.func @stencil(
// CHECK-SAME:    %[[A:.*]]: !vrir.array<f64, 2, row_major>, %[[B:.*]]: !vrir.array<f64, 2, row_major>)
// CHECK:         %[[M:.*]] = vrir.dim %[[A]], 0
// CHECK:         %[[N:.*]] = vrir.dim %[[A]], 1
// CHECK:         vrir.gpu_section {
// CHECK:           %[[RM:.*]] = vrir.range %{{.*}} to %[[M]]
// CHECK:           %[[RN:.*]] = vrir.range %{{.*}} to %[[N]]
// CHECK:           %[[D:.*]] = vrir.domain %[[RM]], %[[RN]] : !vrir.domain<2>
// CHECK:           vrir.pfor (%[[I:.*]], %[[J:.*]]) in %[[D]] : !vrir.domain<2> shared(%[[A]], %[[B]] : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>) {
// CHECK-COUNT-5:     vrir.load %[[A]]
// CHECK:             arith.divf
// CHECK:             vrir.store %{{.*}}, %[[B]][%[[I]], %[[J]]]
// CHECK:           }
// CHECK:         }
// CHECK:         return
// CHECK-LABEL: func.func @stencil_serial
// CHECK-NOT:     vrir.gpu_section
// CHECK-NOT:     vrir.pfor
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK-COUNT-5:     vrir.load
// CHECK:             vrir.store
