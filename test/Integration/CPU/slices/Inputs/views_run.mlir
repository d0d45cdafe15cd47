// Views with permuted dimensions, new dimensions of size 1, new sizes and
// the parts of complex arrays (NumPy's .T / np.transpose, np.newaxis,
// reshape, .real / .imag), run by views.py and
// compared with NumPy: values, writes through views, run-time errors.

!m = !vrir.array<f64, 2, row_major>
!cm = !vrir.array<f64, 2, col_major>
!t = !vrir.array<f64, 3, row_major>
!v = !vrir.array<f64, 1, row_major>
!s1 = !vrir.array<f64, 1, strided>
!s2 = !vrir.array<f64, 2, strided>
!s3 = !vrir.array<f64, 3, strided>
!z = !vrir.array<complex<f64>, 2, row_major>
!zs = !vrir.array<complex<f32>, 1, strided>
!f1 = !vrir.array<f32, 1, strided>

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

  // Z.real and Z.imag returned: views of an argument, cloned for the caller.
  func.func @complex_parts(%Z: !z) -> (!s2, !s2) {
    %re = vrir.part_view real %Z : !z -> !s2
    %im = vrir.part_view imag %Z : !z -> !s2
    return %re, %im : !s2, !s2
  }

  // Z.imag[i, j] = x writes the imaginary part of Z[i, j] only.
  func.func @write_imag(%Z: !z, %i: index, %j: index, %x: f64) {
    %im = vrir.part_view imag %Z : !z -> !s2
    vrir.store %x, %im[%i, %j] : !s2[index, index]
    return
  }

  // re = Z.real; Z[i, j] = w; then re is returned: it sees the write.
  func.func @part_sees_writes(%Z: !z, %i: index, %j: index,
                              %w: complex<f64>) -> !s2 {
    %re = vrir.part_view real %Z : !z -> !s2
    vrir.store %w, %Z[%i, %j] : !z[index, index]
    return %re : !s2
  }

  // W = Z * Z; W.real[...] = x; both returned (a view of a temporary).
  func.func @parts_of_temporary(%Z: !z, %x: f64) -> (!z, !s2) {
    %W = vrir.binary mul %Z, %Z : !z, !z -> !z
    %re = vrir.part_view real %W : !z -> !s2
    vrir.store_slice %x, %re[] : f64, !s2
    %im = vrir.part_view imag %W : !z -> !s2
    return %W, %im : !z, !s2
  }

  // The imaginary parts of a strided complex<f32> vector, plus 1, as a new
  // array.
  func.func @imag_f32_strided(%z: !zs) -> !vrir.array<f32, 1, row_major> {
    %im = vrir.part_view imag %z : !zs -> !f1
    %one = arith.constant 1.0 : f32
    %r = vrir.binary add %im, %one : !f1, f32 -> !vrir.array<f32, 1, row_major>
    return %r : !vrir.array<f32, 1, row_major>
  }

  // W = A * A returned with W.T and W again: the results share one buffer,
  // which vr-run frees once.
  func.func @temporary_and_its_views(%A: !m) -> (!m, !cm, !m) {
    %W = vrir.binary mul %A, %A : !m, !m -> !m
    %T = vrir.permute %W [1, 0] : !m -> !cm
    return %W, %T, %W : !m, !cm, !m
  }

  // reshape(3, -2) with the -2 a constant: the run-time check's error
  // (the view's sizes are clamped, so the constant does not fold into an
  // invalid static size).
  func.func @reshape_constant_negative(%v: !v) -> !m {
    %c3 = arith.constant 3 : index
    %c-2 = arith.constant -2 : index
    %R = vrir.reshape %v(%c3, %c-2) : !v -> !m
    return %R : !m
  }
}
