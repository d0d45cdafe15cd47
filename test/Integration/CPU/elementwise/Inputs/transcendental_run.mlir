// Transcendental functions and complex numbers. Run by transcendental.py.

func.func @transcendental(%A: !vrir.array<f32, 2, col_major>)
    -> (!vrir.array<f32, 2, col_major>, !vrir.array<f32, 2, col_major>, !vrir.array<f32, 2, col_major>,
        !vrir.array<f32, 2, row_major>, !vrir.array<f32, 2, row_major>, !vrir.array<f32, 2, row_major>,
        !vrir.array<f32, 2, row_major>) {
  %0 = vrir.unary sqrt %A : !vrir.array<f32, 2, col_major> -> !vrir.array<f32, 2, col_major>
  %1 = vrir.unary exp %A : !vrir.array<f32, 2, col_major> -> !vrir.array<f32, 2, col_major>
  %2 = vrir.unary log %A : !vrir.array<f32, 2, col_major> -> !vrir.array<f32, 2, col_major>
  %3 = vrir.unary sin %A : !vrir.array<f32, 2, col_major> -> !vrir.array<f32, 2, row_major>
  %4 = vrir.unary cos %A : !vrir.array<f32, 2, col_major> -> !vrir.array<f32, 2, row_major>
  %5 = vrir.unary tan %A : !vrir.array<f32, 2, col_major> -> !vrir.array<f32, 2, row_major>
  %6 = vrir.unary tanh %A : !vrir.array<f32, 2, col_major> -> !vrir.array<f32, 2, row_major>
  return %0, %1, %2, %3, %4, %5, %6 : !vrir.array<f32, 2, col_major>, !vrir.array<f32, 2, col_major>, !vrir.array<f32, 2, col_major>,
      !vrir.array<f32, 2, row_major>, !vrir.array<f32, 2, row_major>, !vrir.array<f32, 2, row_major>,
      !vrir.array<f32, 2, row_major>
}

// Complex numbers. (Division, sqrt, tan and tanh: math_libm_run.mlir.)
func.func @complex_ops(%A: !vrir.array<complex<f64>, 1, row_major>, %B: !vrir.array<complex<f64>, 1, row_major>)
    -> (!vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>,
        !vrir.array<complex<f64>, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>,
        !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>,
        !vrir.array<complex<f64>, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>,
        !vrir.array<i1, 1, row_major>, !vrir.array<i1, 1, row_major>) {
  %0 = vrir.binary add %A, %B : !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<complex<f64>, 1, row_major>
  %1 = vrir.binary sub %A, %B : !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<complex<f64>, 1, row_major>
  %2 = vrir.binary mul %A, %B : !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<complex<f64>, 1, row_major>
  %3 = vrir.binary pow %A, %B : !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<complex<f64>, 1, row_major>
  %4 = vrir.unary abs %A : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %5 = vrir.unary exp %A : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<complex<f64>, 1, row_major>
  %6 = vrir.unary log %A : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<complex<f64>, 1, row_major>
  %7 = vrir.unary sin %A : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<complex<f64>, 1, row_major>
  %8 = vrir.unary cos %A : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<complex<f64>, 1, row_major>
  %9 = vrir.unary conj %A : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<complex<f64>, 1, row_major>
  %10 = vrir.unary real %A : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %11 = vrir.unary imag %A : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %12 = vrir.cmp eq %A, %B : !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<i1, 1, row_major>
  %13 = vrir.cmp ne %A, %B : !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<i1, 1, row_major>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13
      : !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>,
        !vrir.array<complex<f64>, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>,
        !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>,
        !vrir.array<complex<f64>, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>,
        !vrir.array<i1, 1, row_major>, !vrir.array<i1, 1, row_major>
}

func.func @complex_scalars(%z: complex<f64>, %w: complex<f64>) -> (complex<f64>, complex<f64>, f64, complex<f64>) {
  %0 = vrir.binary mul %z, %w : complex<f64>, complex<f64> -> complex<f64>
  %1 = vrir.unary exp %z : complex<f64> -> complex<f64>
  %2 = vrir.unary abs %z : complex<f64> -> f64
  %3 = vrir.cast %2 : f64 to complex<f64>
  return %0, %1, %2, %3 : complex<f64>, complex<f64>, f64, complex<f64>
}
