// matmul, matvec and transpose, run by linalg.py and compared with NumPy.
// f32/f64 products go through OpenBLAS; operands that BLAS cannot read in
// place (steps, negative strides) are views built here with vrir.slice.

!m = !vrir.array<f64, 2, row_major>
!cm = !vrir.array<f64, 2, col_major>
!s2 = !vrir.array<f64, 2, strided>
!v = !vrir.array<f64, 1, row_major>
!s1 = !vrir.array<f64, 1, strided>

module {
  func.func @matmul(%A: !m, %B: !m) -> !m {
    %C = vrir.matmul %A, %B : !m, !m -> !m
    return %C : !m
  }

  // Column-major operands and result (the transposed BLAS cases).
  func.func @matmul_col(%A: !cm, %B: !m) -> !cm {
    %C = vrir.matmul %A, %B : !cm, !m -> !cm
    return %C : !cm
  }

  // A[::2, ::-1] @ B[:, 1:]: a stepped, reversed view is packed first.
  func.func @matmul_views(%A: !m, %B: !m) -> !m {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %m1 = arith.constant -1 : index
    %big = arith.constant 1000000 : index
    %nbig = arith.constant -1000000 : index
    %rows = vrir.range %c0 to %big step %c2
    %rev = vrir.range %m1 to %nbig step %m1
    %cols = vrir.range %c1 to %big
    %Av = vrir.slice %A[%rows, %rev]
        flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
        : !m[!vrir.range, !vrir.range] -> !s2
    %all = vrir.range %c0 to %big
    %Bv = vrir.slice %B[%all, %cols]
        flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
        : !m[!vrir.range, !vrir.range] -> !s2
    %C = vrir.matmul %Av, %Bv : !s2, !s2 -> !m
    return %C : !m
  }

  // A.T of a column-major A, then a product with it (column-major operand,
  // row-major result: CblasTrans).
  func.func @matmul_at(%A: !cm, %B: !m) -> !m {
    %At = vrir.transpose %A : !cm to !cm
    %C = vrir.matmul %At, %B : !cm, !m -> !m
    return %C : !m
  }

  // A[::2] @ B[1:, :]: views that BLAS reads in place (a row-major one with
  // a leading dimension of twice its row length, a column-major one with an
  // offset).
  func.func @matmul_stepped(%A: !m, %B: !cm) -> !m {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %big = arith.constant 1000000 : index
    %rows = vrir.range %c0 to %big step %c2
    %Av = vrir.slice %A[%rows] flags [#vrir.index<lower|upper|negative>]
        : !m[!vrir.range] -> !s2
    %tail = vrir.range %c1 to %big
    %Bv = vrir.slice %B[%tail] flags [#vrir.index<lower|upper|negative>]
        : !cm[!vrir.range] -> !s2
    %C = vrir.matmul %Av, %Bv : !s2, !s2 -> !m
    return %C : !m
  }

  func.func @matmul_f32(%A: !vrir.array<f32, 2, row_major>, %B: !vrir.array<f32, 2, col_major>)
      -> !vrir.array<f32, 2, row_major> {
    %C = vrir.matmul %A, %B : !vrir.array<f32, 2, row_major>, !vrir.array<f32, 2, col_major>
        -> !vrir.array<f32, 2, row_major>
    return %C : !vrir.array<f32, 2, row_major>
  }

  func.func @matmul_i64(%A: !vrir.array<i64, 2, row_major>, %B: !vrir.array<i64, 2, col_major>)
      -> !vrir.array<i64, 2, row_major> {
    %C = vrir.matmul %A, %B : !vrir.array<i64, 2, row_major>, !vrir.array<i64, 2, col_major>
        -> !vrir.array<i64, 2, row_major>
    return %C : !vrir.array<i64, 2, row_major>
  }

  func.func @matmul_c128(%A: !vrir.array<complex<f64>, 2, row_major>,
                         %B: !vrir.array<complex<f64>, 2, row_major>)
      -> !vrir.array<complex<f64>, 2, row_major> {
    %C = vrir.matmul %A, %B : !vrir.array<complex<f64>, 2, row_major>,
        !vrir.array<complex<f64>, 2, row_major> -> !vrir.array<complex<f64>, 2, row_major>
    return %C : !vrir.array<complex<f64>, 2, row_major>
  }

  func.func @matvec(%A: !m, %x: !v) -> !v {
    %y = vrir.matvec %A, %x : !m, !v -> !v
    return %y : !v
  }

  func.func @matvec_col(%A: !cm, %x: !v) -> !v {
    %y = vrir.matvec %A, %x : !cm, !v -> !v
    return %y : !v
  }

  // A @ x[::-1]: a negative increment is packed first.
  func.func @matvec_reversed(%A: !m, %x: !v) -> !v {
    %m1 = arith.constant -1 : index
    %nbig = arith.constant -1000000 : index
    %rev = vrir.range %m1 to %nbig step %m1
    %xr = vrir.slice %x[%rev] flags [#vrir.index<lower|upper|negative>]
        : !v[!vrir.range] -> !s1
    %y = vrir.matvec %A, %xr : !m, !s1 -> !v
    return %y : !v
  }

  func.func @matvec_i32(%A: !vrir.array<i32, 2, col_major>, %x: !vrir.array<i32, 1, row_major>)
      -> !vrir.array<i32, 1, row_major> {
    %y = vrir.matvec %A, %x : !vrir.array<i32, 2, col_major>, !vrir.array<i32, 1, row_major>
        -> !vrir.array<i32, 1, row_major>
    return %y : !vrir.array<i32, 1, row_major>
  }

  func.func @transpose(%A: !m) -> !m {
    %T = vrir.transpose %A : !m to !m
    return %T : !m
  }

  func.func @transpose3(%A: !vrir.array<i64, 3, row_major>) -> !vrir.array<i64, 3, col_major> {
    %T = vrir.transpose %A : !vrir.array<i64, 3, row_major> to !vrir.array<i64, 3, col_major>
    return %T : !vrir.array<i64, 3, col_major>
  }
}
