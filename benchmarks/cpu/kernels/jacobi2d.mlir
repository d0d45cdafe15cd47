// 2-D Jacobi (PolyBench jacobi-2d): `steps` sweeps of a 5-point average,
// B from A and back, on the interior. Serial loops and pfor versions, with
// bounds checks off (the C peer has none).
!m = !vrir.array<f64, 2, row_major>
module {
  func.func private @sweep_row(%A: !m, %B: !m, %i: index, %n1: index) {
    %c1 = arith.constant 1 : index
    %fifth = arith.constant 0.2 : f64
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    scf.for %j = %c1 to %n1 step %c1 {
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %a0 = vrir.load %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      %a1 = vrir.load %A[%i, %jm] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      %a2 = vrir.load %A[%i, %jp] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      %a3 = vrir.load %A[%ip, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      %a4 = vrir.load %A[%im, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      %s1 = arith.addf %a0, %a1 : f64
      %s2 = arith.addf %s1, %a2 : f64
      %s3 = arith.addf %s2, %a3 : f64
      %s4 = arith.addf %s3, %a4 : f64
      %v = arith.mulf %s4, %fifth : f64
      vrir.store %v, %B[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
    }
    return
  }

  func.func @jacobi2d(%A: !m, %B: !m, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !m
    %n1 = arith.subi %n, %c1 : index
    scf.for %t = %c0 to %steps step %c1 {
      scf.for %i = %c1 to %n1 step %c1 {
        func.call @sweep_row(%A, %B, %i, %n1) : (!m, !m, index, index) -> ()
      }
      scf.for %i = %c1 to %n1 step %c1 {
        func.call @sweep_row(%B, %A, %i, %n1) : (!m, !m, index, index) -> ()
      }
    }
    return
  }

  func.func @jacobi2d_pfor(%A: !m, %B: !m, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !m
    %n1 = arith.subi %n, %c1 : index
    %rows = vrir.range %c1 to %n1
    scf.for %t = %c0 to %steps step %c1 {
      vrir.pfor (%i) in %rows : !vrir.range shared(%A, %B : !m, !m) {
        func.call @sweep_row(%A, %B, %i, %n1) : (!m, !m, index, index) -> ()
      }
      vrir.pfor (%i) in %rows : !vrir.range shared(%A, %B : !m, !m) {
        func.call @sweep_row(%B, %A, %i, %n1) : (!m, !m, index, index) -> ()
      }
    }
    return
  }
}
