// Element-wise ops whose lowering reaches math ops without a libm
// function (math.absi; math.copysign from complex-to-standard), run by
// math_libm.py.

func.func @int_abs(%A: !vrir.array<i32, 1, row_major>) -> !vrir.array<i32, 1, row_major> {
  %0 = vrir.unary abs %A : !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  return %0 : !vrir.array<i32, 1, row_major>
}

func.func @complex_math(%A: !vrir.array<complex<f32>, 1, row_major>, %B: !vrir.array<complex<f32>, 1, row_major>)
    -> (!vrir.array<complex<f32>, 1, row_major>, !vrir.array<complex<f32>, 1, row_major>,
        !vrir.array<complex<f32>, 1, row_major>, !vrir.array<complex<f32>, 1, row_major>) {
  %0 = vrir.binary div %A, %B : !vrir.array<complex<f32>, 1, row_major>, !vrir.array<complex<f32>, 1, row_major> -> !vrir.array<complex<f32>, 1, row_major>
  %1 = vrir.unary sqrt %A : !vrir.array<complex<f32>, 1, row_major> -> !vrir.array<complex<f32>, 1, row_major>
  %2 = vrir.unary tan %A : !vrir.array<complex<f32>, 1, row_major> -> !vrir.array<complex<f32>, 1, row_major>
  %3 = vrir.unary tanh %A : !vrir.array<complex<f32>, 1, row_major> -> !vrir.array<complex<f32>, 1, row_major>
  return %0, %1, %2, %3 : !vrir.array<complex<f32>, 1, row_major>, !vrir.array<complex<f32>, 1, row_major>,
      !vrir.array<complex<f32>, 1, row_major>, !vrir.array<complex<f32>, 1, row_major>
}
