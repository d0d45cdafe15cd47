// Thesis figure 9.2 over the interior of the domain ([0, m-1) x [0, n-1)),
// where the figure's subscripts stay in bounds: the pfor in a GPU section
// (runs on the CPU here) and the serial loop nest.
module {
  func.func @stencil_interior(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, row_major>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = vrir.dim %A, 0 : !vrir.array<f64, 2, row_major>
    %n = vrir.dim %A, 1 : !vrir.array<f64, 2, row_major>
    %m1 = arith.subi %m, %c1 : index
    %n1 = arith.subi %n, %c1 : index
    vrir.gpu_section {
      %rm = vrir.range %c0 to %m1
      %rn = vrir.range %c0 to %n1
      %dom = vrir.domain %rm, %rn : !vrir.domain<2>
      vrir.pfor (%i, %j) in %dom : !vrir.domain<2>
          shared(%A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>) {
        func.call @point(%A, %B, %i, %j) : (!vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>, index, index) -> ()
      }
    }
    return
  }

  func.func @stencil_interior_serial(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, row_major>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = vrir.dim %A, 0 : !vrir.array<f64, 2, row_major>
    %n = vrir.dim %A, 1 : !vrir.array<f64, 2, row_major>
    %m1 = arith.subi %m, %c1 : index
    %n1 = arith.subi %n, %c1 : index
    scf.for %i = %c0 to %m1 step %c1 {
      scf.for %j = %c0 to %n1 step %c1 {
        func.call @point(%A, %B, %i, %j) : (!vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>, index, index) -> ()
      }
    }
    return
  }

  // B[i,j] = (A[i,j] + A[i-1,j] + A[i+1,j] + A[i,j+1] + A[i,j-1]) / 5,
  // NumPy subscripts (negative indices wrap).
  func.func private @point(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, row_major>, %i: index, %j: index) {
    %c1 = arith.constant 1 : index
    %five = arith.constant 5.0 : f64
    %im1 = arith.subi %i, %c1 : index
    %ip1 = arith.addi %i, %c1 : index
    %jm1 = arith.subi %j, %c1 : index
    %jp1 = arith.addi %j, %c1 : index
    %a0 = vrir.load %A[%i, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !vrir.array<f64, 2, row_major>[index, index]
    %a1 = vrir.load %A[%im1, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !vrir.array<f64, 2, row_major>[index, index]
    %a2 = vrir.load %A[%ip1, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !vrir.array<f64, 2, row_major>[index, index]
    %a3 = vrir.load %A[%i, %jp1] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !vrir.array<f64, 2, row_major>[index, index]
    %a4 = vrir.load %A[%i, %jm1] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !vrir.array<f64, 2, row_major>[index, index]
    %s1 = arith.addf %a0, %a1 : f64
    %s2 = arith.addf %s1, %a2 : f64
    %s3 = arith.addf %s2, %a3 : f64
    %s4 = arith.addf %s3, %a4 : f64
    %v = arith.divf %s4, %five : f64
    vrir.store %v, %B[%i, %j] : !vrir.array<f64, 2, row_major>[index, index]
    return
  }
}
