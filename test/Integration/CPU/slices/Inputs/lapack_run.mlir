// vrir.cholesky, vrir.inv, vrir.solve, vrir.det, vrir.eigh and vrir.svd
// (LAPACK through OpenBLAS), run by lapack.py and compared with NumPy's
// np.linalg: both result layouts, transposed views, f32, and calls in a
// loop. Eigenvectors and singular vectors have LAPACK's signs: their
// checks are sign-free (squares, products that rebuild the operand,
// orthogonality).

!m = !vrir.array<f64, 2, row_major>
!cm = !vrir.array<f64, 2, col_major>
!v = !vrir.array<f64, 1, row_major>
!f = !vrir.array<f32, 2, row_major>
!fv = !vrir.array<f32, 1, row_major>

module {
  func.func @cholesky(%A: !m) -> !m {
    %L = vrir.cholesky %A : !m -> !m
    return %L : !m
  }

  func.func @cholesky_col(%A: !m) -> !cm {
    %L = vrir.cholesky %A : !m -> !cm
    return %L : !cm
  }

  // The lower triangle of the transposed view is the upper one of A.
  func.func @cholesky_transposed(%A: !m) -> !m {
    %T = vrir.permute %A [1, 0] : !m -> !cm
    %L = vrir.cholesky %T : !cm -> !m
    return %L : !m
  }

  func.func @cholesky_f32(%A: !f) -> !f {
    %L = vrir.cholesky %A : !f -> !f
    return %L : !f
  }

  func.func @inv(%A: !m) -> !m {
    %X = vrir.inv %A : !m -> !m
    return %X : !m
  }

  func.func @inv_col(%A: !cm) -> !cm {
    %X = vrir.inv %A : !cm -> !cm
    return %X : !cm
  }

  func.func @inv_transposed(%A: !m) -> !cm {
    %T = vrir.permute %A [1, 0] : !m -> !cm
    %X = vrir.inv %T : !cm -> !cm
    return %X : !cm
  }

  func.func @solve(%A: !m, %b: !v) -> !v {
    %x = vrir.solve %A, %b : !m, !v -> !v
    return %x : !v
  }

  func.func @solve_matrix(%A: !cm, %B: !m) -> !m {
    %X = vrir.solve %A, %B : !cm, !m -> !m
    return %X : !m
  }

  func.func @solve_matrix_col(%A: !m, %B: !m) -> !cm {
    %X = vrir.solve %A, %B : !m, !m -> !cm
    return %X : !cm
  }

  // The canonicalizer solves with the factor by substitution (trtrs).
  func.func @solve_cholesky(%S: !m, %b: !v) -> (!v, !v) {
    %L = vrir.cholesky %S : !m -> !m
    %z = vrir.solve %L, %b : !m, !v -> !v
    %T = vrir.permute %L [1, 0] : !m -> !cm
    %x = vrir.solve %T, %z : !cm, !v -> !v
    return %z, %x : !v, !v
  }

  func.func @solve_lower(%L: !m, %b: !v) -> !v {
    %x = vrir.solve %L, %b triangular lower : !m, !v -> !v
    return %x : !v
  }

  func.func @solve_upper_matrix(%U: !cm, %B: !m) -> !m {
    %X = vrir.solve %U, %B triangular upper : !cm, !m -> !m
    return %X : !m
  }

  func.func @solve_upper_f32(%U: !f, %b: !fv) -> !fv {
    %x = vrir.solve %U, %b triangular upper : !f, !fv -> !fv
    return %x : !fv
  }

  func.func @det(%A: !m) -> f64 {
    %d = vrir.det %A : !m -> f64
    return %d : f64
  }

  func.func @det_f32(%A: !f) -> f32 {
    %d = vrir.det %A : !f -> f32
    return %d : f32
  }

  func.func @slogdet(%A: !m) -> (f64, f64) {
    %s, %l = vrir.slogdet %A : !m -> f64, f64
    return %s, %l : f64, f64
  }

  func.func @slogdet_f32(%A: !f) -> (f32, f32) {
    %s, %l = vrir.slogdet %A : !f -> f32, f32
    return %s, %l : f32, f32
  }

  // n factorizations in a loop: the integer slots of each LAPACK call live
  // in an alloca scope, the temporaries are freed per iteration.
  func.func @det_sum(%A: !m, %n: index) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
      %X = vrir.inv %A : !m -> !m
      %d = vrir.det %X : !m -> f64
      %next = arith.addf %acc, %d : f64
      scf.yield %next : f64
    }
    return %sum : f64
  }

  func.func @eigh(%A: !m) -> (!v, !m) {
    %w, %V = vrir.eigh %A : !m -> !v, !cm
    %squares = vrir.binary mul %V, %V : !cm, !cm -> !m
    return %w, %squares : !v, !m
  }

  // V diag(w) V^T: the symmetric matrix of A's lower triangle.
  func.func @eigh_rebuild(%A: !m) -> !m {
    %w, %V = vrir.eigh %A : !m -> !v, !m
    %scaled = vrir.binary mul %V, %w : !m, !v -> !m
    %T = vrir.permute %V [1, 0] : !m -> !cm
    %R = vrir.matmul %scaled, %T : !m, !cm -> !m
    return %R : !m
  }

  func.func @eigh_values(%A: !cm) -> !v {
    %w = vrir.eigh %A : !cm -> !v
    return %w : !v
  }

  func.func @eigh_f32(%A: !f) -> !fv {
    %w, %V = vrir.eigh %A : !f -> !fv, !f
    return %w : !fv
  }

  func.func @svd_values(%A: !m) -> !v {
    %s = vrir.svd %A : !m -> !v
    return %s : !v
  }

  // U diag(s) Vh with the reduced factors: A again.
  func.func @svd_rebuild(%A: !m) -> (!m, !v) {
    %U, %s, %Vh = vrir.svd %A : !m -> !cm, !v, !m
    %scaled = vrir.binary mul %U, %s : !cm, !v -> !m
    %R = vrir.matmul %scaled, %Vh : !m, !m -> !m
    return %R, %s : !m, !v
  }

  // The full factors are orthogonal: U U^T and Vh^T Vh are identities.
  func.func @svd_full(%A: !cm) -> (!m, !v, !m) {
    %U, %s, %Vh = vrir.svd %A full_matrices : !cm -> !m, !v, !cm
    %Ut = vrir.permute %U [1, 0] : !m -> !cm
    %UUt = vrir.matmul %U, %Ut : !m, !cm -> !m
    %V = vrir.permute %Vh [1, 0] : !cm -> !vrir.array<f64, 2, strided>
    %VtV = vrir.matmul %V, %Vh : !vrir.array<f64, 2, strided>, !cm -> !m
    return %UUt, %s, %VtV : !m, !v, !m
  }

  // Q R = A and Q^T Q = I, reduced (Q m x k, R k x n).
  func.func @qr(%A: !m) -> (!m, !m, !m) {
    %Q, %R = vrir.qr %A : !m -> !cm, !m
    %P = vrir.matmul %Q, %R : !cm, !m -> !m
    %Qt = vrir.permute %Q [1, 0] : !cm -> !vrir.array<f64, 2, strided>
    %I = vrir.matmul %Qt, %Q : !vrir.array<f64, 2, strided>, !cm -> !m
    return %P, %I, %R : !m, !m, !m
  }

  // Complete: Q m x m, R m x n.
  func.func @qr_complete(%A: !cm) -> (!m, !m, !cm) {
    %Q, %R = vrir.qr %A complete : !cm -> !m, !cm
    %P = vrir.matmul %Q, %R : !m, !cm -> !m
    %Qt = vrir.permute %Q [1, 0] : !m -> !cm
    %I = vrir.matmul %Q, %Qt : !m, !cm -> !m
    return %P, %I, %R : !m, !m, !cm
  }

  func.func @qr_r(%A: !f) -> !f {
    %R = vrir.qr %A : !f -> !f
    return %R : !f
  }
}
