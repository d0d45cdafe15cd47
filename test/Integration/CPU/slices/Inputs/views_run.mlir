// Views with permuted dimensions, new dimensions of size 1 and new sizes
// (NumPy's .T / np.transpose, np.newaxis, reshape), run by views.py and
// compared with NumPy: values, writes through views, run-time errors.

!m = !vrir.array<f64, 2, row_major>
!cm = !vrir.array<f64, 2, col_major>
!t = !vrir.array<f64, 3, row_major>
!v = !vrir.array<f64, 1, row_major>
!s1 = !vrir.array<f64, 1, strided>
!s2 = !vrir.array<f64, 2, strided>
!s3 = !vrir.array<f64, 3, strided>

module {
  // A.T returned: a view of an argument, cloned for the caller.
  func.func @transposed(%A: !m) -> !cm {
    %T = vrir.permute %A [1, 0] : !m -> !cm
    return %T : !cm
  }

  // A.T[i, j] = x writes A[j, i].
  func.func @write_transposed(%A: !m, %i: index, %j: index, %x: f64) {
    %T = vrir.permute %A [1, 0] : !m -> !cm
    vrir.store %x, %T[%i, %j] : !cm[index, index]
    return
  }

  // np.transpose(T, (2, 0, 1)) as a view; its [i] plane filled with x
  // writes T[:, :, i].
  func.func @permuted3(%T: !t, %i: index, %x: f64) -> !s3 {
    %P = vrir.permute %T [2, 0, 1] : !t -> !s3
    %plane = vrir.slice %P[%i] : !s3[index] -> !s2
    vrir.store_slice %x, %plane[] : f64, !s2
    return %P : !s3
  }

  // The transpose of a temporary: (A + A).T, read through the view.
  func.func @transposed_temporary(%A: !m) -> !cm {
    %B = vrir.binary add %A, %A : !m, !m -> !m
    %T = vrir.permute %B [1, 0] : !m -> !cm
    %C = vrir.copy %T : !cm to !cm
    return %C : !cm
  }

  // X[:, None, :] - X[None, :, :]: pairwise differences.
  func.func @pairwise(%X: !m) -> !t {
    %L = vrir.expand_dims %X [1] : !m -> !t
    %R = vrir.expand_dims %X [0] : !m -> !t
    %D = vrir.binary sub %L, %R : !t, !t -> !t
    return %D : !t
  }

  // v[::2][:, None] (a strided view) times v[None, :] (row-major): an
  // outer product through broadcasting.
  func.func @outer_strided(%v: !v) -> !m {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %n = vrir.dim %v, 0 : !v
    %r = vrir.range %c0 to %n step %c2
    %e = vrir.slice %v[%r] : !v[!vrir.range] -> !s1
    %col = vrir.expand_dims %e [1] : !s1 -> !s2
    %row = vrir.expand_dims %v [0] : !v -> !m
    %P = vrir.binary mul %col, %row : !s2, !m -> !m
    return %P : !m
  }

  // F[:, None] of a column-major matrix, filled with x through the view.
  func.func @expand_col_major(%F: !cm, %x: f64) -> !vrir.array<f64, 3, col_major> {
    %E = vrir.expand_dims %F [1] : !cm -> !vrir.array<f64, 3, col_major>
    %c0 = arith.constant 0 : index
    vrir.store %x, %E[%c0, %c0, %c0] : !vrir.array<f64, 3, col_major>[index, index, index]
    return %E : !vrir.array<f64, 3, col_major>
  }

  // A.reshape(m, n) of a row-major array (a view, -1 allowed).
  func.func @reshape2(%A: !m, %m: index, %n: index) -> !m {
    %R = vrir.reshape %A(%m, %n) : !m -> !m
    return %R : !m
  }

  // A.reshape(-1)[k] = x writes A.
  func.func @write_flat(%A: !m, %k: index, %x: f64) {
    %c-1 = arith.constant -1 : index
    %R = vrir.reshape %A(%c-1) : !m -> !v
    vrir.store %x, %R[%k] : !v[index]
    return
  }

  // A[a:b].reshape(-1) (contiguous rows: a view) filled with x writes A.
  func.func @write_rows_flat(%A: !m, %a: index, %b: index, %x: f64) {
    %r = vrir.range %a to %b
    %rows = vrir.slice %A[%r] : !m[!vrir.range] -> !s2
    %c-1 = arith.constant -1 : index
    %R = vrir.reshape %rows(%c-1) : !s2 -> !s1
    vrir.store_slice %x, %R[] : f64, !s1
    return
  }

  // A[::2, ::2].reshape(-1) is not in row-major order: a copy. Filling it
  // leaves A alone; the copy is returned.
  func.func @strided_flat_copy(%A: !m, %x: f64) -> !v {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %m = vrir.dim %A, 0 : !m
    %n = vrir.dim %A, 1 : !m
    %r0 = vrir.range %c0 to %m step %c2
    %r1 = vrir.range %c0 to %n step %c2
    %cols = vrir.slice %A[%r0, %r1] : !m[!vrir.range, !vrir.range] -> !s2
    %c-1 = arith.constant -1 : index
    %R = vrir.reshape %cols(%c-1) : !s2 -> !s1
    %C = vrir.copy %R : !s1 to !v
    vrir.store_slice %x, %R[] : f64, !s1
    return %C : !v
  }

  // v[::-2].reshape(m, n) (one step apart: a view) filled with x writes v.
  func.func @write_reversed_reshape(%v: !v, %m: index, %n: index, %x: f64) {
    %c0 = arith.constant 0 : index
    %c-1 = arith.constant -1 : index
    %c-2 = arith.constant -2 : index
    %r = vrir.range %c-1 to %c0 step %c-2
    %e = vrir.slice %v[%r] flags [#vrir.index<lower|upper|negative>] : !v[!vrir.range] -> !s1
    %R = vrir.reshape %e(%m, %n) : !s1 -> !s2
    vrir.store_slice %x, %R[] : f64, !s2
    return
  }

  // F.reshape(m, n) of a column-major array: row-major element order.
  func.func @reshape_col_major(%F: !cm, %m: index, %n: index) -> !s2 {
    %R = vrir.reshape %F(%m, %n) : !cm -> !s2
    return %R : !s2
  }
}
