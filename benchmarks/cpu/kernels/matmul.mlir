// Matrix multiply as loops, i-k-j order (PolyBench gemm without the scalars):
//   C[i,j] += A[i,k] * B[k,j]
// for C (m x n), A (m x p), B (p x n). Serial (@matmul) and a pfor over the
// rows of C (@matmul_pfor); bounds checks off.
!m = !vrir.array<f64, 2, row_major>
module {
  func.func @matmul(%C: !m, %A: !m, %B: !m) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = vrir.dim %C, 0 : !m
    %n = vrir.dim %C, 1 : !m
    %p = vrir.dim %A, 1 : !m
    scf.for %i = %c0 to %m step %c1 {
      scf.for %k = %c0 to %p step %c1 {
        %a = vrir.load %A[%i, %k] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        scf.for %j = %c0 to %n step %c1 {
          %b = vrir.load %B[%k, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %c = vrir.load %C[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %ab = arith.mulf %a, %b : f64
          %s = arith.addf %c, %ab : f64
          vrir.store %s, %C[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        }
      }
    }
    return
  }

  func.func @matmul_pfor(%C: !m, %A: !m, %B: !m) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = vrir.dim %C, 0 : !m
    %n = vrir.dim %C, 1 : !m
    %p = vrir.dim %A, 1 : !m
    %rows = vrir.range %c0 to %m
    vrir.pfor (%i) in %rows : !vrir.range shared(%C, %A, %B : !m, !m, !m) {
      scf.for %k = %c0 to %p step %c1 {
        %a = vrir.load %A[%i, %k] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        scf.for %j = %c0 to %n step %c1 {
          %b = vrir.load %B[%k, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %c = vrir.load %C[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %ab = arith.mulf %a, %b : f64
          %s = arith.addf %c, %ab : f64
          vrir.store %s, %C[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        }
      }
    }
    return
  }
}
