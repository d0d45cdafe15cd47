// The 2-D stencil of the thesis (figure 9.2): one sweep
//   B[i,j] = (A[i,j] + A[i-1,j] + A[i+1,j] + A[i,j+1] + A[i,j-1]) / 5
// over the interior, bounds checks off (the C peer has none). @stencil2d is
// the serial loop nest, @stencil2d_pfor the figure's parallel loop over the
// 2-D domain (rows x columns) with A and B shared; @stencil2d_pfor_rows a
// pfor over the rows only.
!m = !vrir.array<f64, 2, row_major>
module {
  func.func @stencil2d(%A: !m, %B: !m) {
    %c1 = arith.constant 1 : index
    %five = arith.constant 5.0 : f64
    %m = vrir.dim %A, 0 : !m
    %n = vrir.dim %A, 1 : !m
    %m1 = arith.subi %m, %c1 : index
    %n1 = arith.subi %n, %c1 : index
    scf.for %i = %c1 to %m1 step %c1 {
      scf.for %j = %c1 to %n1 step %c1 {
        %im1 = arith.subi %i, %c1 : index
        %ip1 = arith.addi %i, %c1 : index
        %jm1 = arith.subi %j, %c1 : index
        %jp1 = arith.addi %j, %c1 : index
        %a0 = vrir.load %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %a1 = vrir.load %A[%im1, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %a2 = vrir.load %A[%ip1, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %a3 = vrir.load %A[%i, %jp1] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %a4 = vrir.load %A[%i, %jm1] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %s1 = arith.addf %a0, %a1 : f64
        %s2 = arith.addf %s1, %a2 : f64
        %s3 = arith.addf %s2, %a3 : f64
        %s4 = arith.addf %s3, %a4 : f64
        %v = arith.divf %s4, %five : f64
        vrir.store %v, %B[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      }
    }
    return
  }

  func.func @stencil2d_pfor(%A: !m, %B: !m) {
    %c1 = arith.constant 1 : index
    %five = arith.constant 5.0 : f64
    %m = vrir.dim %A, 0 : !m
    %n = vrir.dim %A, 1 : !m
    %m1 = arith.subi %m, %c1 : index
    %n1 = arith.subi %n, %c1 : index
    %rows = vrir.range %c1 to %m1
    %cols = vrir.range %c1 to %n1
    %dom = vrir.domain %rows, %cols : !vrir.domain<2>
    vrir.pfor (%i, %j) in %dom : !vrir.domain<2> shared(%A, %B : !m, !m) {
      %im1 = arith.subi %i, %c1 : index
      %ip1 = arith.addi %i, %c1 : index
      %jm1 = arith.subi %j, %c1 : index
      %jp1 = arith.addi %j, %c1 : index
      %a0 = vrir.load %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      %a1 = vrir.load %A[%im1, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      %a2 = vrir.load %A[%ip1, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      %a3 = vrir.load %A[%i, %jp1] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      %a4 = vrir.load %A[%i, %jm1] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      %s1 = arith.addf %a0, %a1 : f64
      %s2 = arith.addf %s1, %a2 : f64
      %s3 = arith.addf %s2, %a3 : f64
      %s4 = arith.addf %s3, %a4 : f64
      %v = arith.divf %s4, %five : f64
      vrir.store %v, %B[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
    }
    return
  }
  // The same parallel loop written over the rows only (1-D pfor, inner
  // scf.for over the columns): the form C's `omp parallel for` takes.
  func.func @stencil2d_pfor_rows(%A: !m, %B: !m) {
    %c1 = arith.constant 1 : index
    %five = arith.constant 5.0 : f64
    %m = vrir.dim %A, 0 : !m
    %n = vrir.dim %A, 1 : !m
    %m1 = arith.subi %m, %c1 : index
    %n1 = arith.subi %n, %c1 : index
    %rows = vrir.range %c1 to %m1
    vrir.pfor (%i) in %rows : !vrir.range shared(%A, %B : !m, !m) {
      scf.for %j = %c1 to %n1 step %c1 {
        %im1 = arith.subi %i, %c1 : index
        %ip1 = arith.addi %i, %c1 : index
        %jm1 = arith.subi %j, %c1 : index
        %jp1 = arith.addi %j, %c1 : index
        %a0 = vrir.load %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %a1 = vrir.load %A[%im1, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %a2 = vrir.load %A[%ip1, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %a3 = vrir.load %A[%i, %jp1] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %a4 = vrir.load %A[%i, %jm1] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %s1 = arith.addf %a0, %a1 : f64
        %s2 = arith.addf %s1, %a2 : f64
        %s3 = arith.addf %s2, %a3 : f64
        %s4 = arith.addf %s3, %a4 : f64
        %v = arith.divf %s4, %five : f64
        vrir.store %v, %B[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      }
    }
    return
  }
}
