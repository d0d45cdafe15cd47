// LU decomposition without pivoting (PolyBench lu), in place: afterwards the
// strict lower triangle of A holds L (unit diagonal) and the upper triangle
// U. The statements are PolyBench's, A[i,j] -= A[i,k]*A[k,j] read and
// written through A each time. Serial only; bounds checks off.
!m = !vrir.array<f64, 2, row_major>
module {
  func.func @lu(%A: !m) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !m
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %i step %c1 {
        scf.for %k = %c0 to %j step %c1 {
          %aij = vrir.load %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %aik = vrir.load %A[%i, %k] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %akj = vrir.load %A[%k, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %p = arith.mulf %aik, %akj : f64
          %d = arith.subf %aij, %p : f64
          vrir.store %d, %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        }
        %aij = vrir.load %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %ajj = vrir.load %A[%j, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        %q = arith.divf %aij, %ajj : f64
        vrir.store %q, %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
      }
      scf.for %j = %i to %n step %c1 {
        scf.for %k = %c0 to %i step %c1 {
          %aij = vrir.load %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %aik = vrir.load %A[%i, %k] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %akj = vrir.load %A[%k, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %p = arith.mulf %aik, %akj : f64
          %d = arith.subf %aij, %p : f64
          vrir.store %d, %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        }
      }
    }
    return
  }
}
