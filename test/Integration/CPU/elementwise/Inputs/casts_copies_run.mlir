// Casts and copies. Run by casts_copies.py.

func.func @casts_from_f64(%A: !vrir.array<f64, 1, row_major>)
    -> (!vrir.array<i32, 1, row_major>, !vrir.array<f32, 1, row_major>, !vrir.array<i1, 1, row_major>,
        !vrir.array<complex<f64>, 1, row_major>) {
  %0 = vrir.cast %A : !vrir.array<f64, 1, row_major> to !vrir.array<i32, 1, row_major>
  %1 = vrir.cast %A : !vrir.array<f64, 1, row_major> to !vrir.array<f32, 1, row_major>
  %2 = vrir.cast %A : !vrir.array<f64, 1, row_major> to !vrir.array<i1, 1, row_major>
  %3 = vrir.cast %A : !vrir.array<f64, 1, row_major> to !vrir.array<complex<f64>, 1, row_major>
  return %0, %1, %2, %3 : !vrir.array<i32, 1, row_major>, !vrir.array<f32, 1, row_major>, !vrir.array<i1, 1, row_major>,
      !vrir.array<complex<f64>, 1, row_major>
}

func.func @to_bool(%A: !vrir.array<f64, 1, row_major>) -> !vrir.array<i1, 1, row_major> {
  %0 = vrir.cast %A : !vrir.array<f64, 1, row_major> to !vrir.array<i1, 1, row_major>
  return %0 : !vrir.array<i1, 1, row_major>
}

func.func @casts_from_int(%A: !vrir.array<i64, 2, col_major>)
    -> (!vrir.array<i32, 2, row_major>, !vrir.array<f64, 2, col_major>, !vrir.array<i1, 2, row_major>,
        !vrir.array<complex<f32>, 2, row_major>) {
  %0 = vrir.cast %A : !vrir.array<i64, 2, col_major> to !vrir.array<i32, 2, row_major>
  %1 = vrir.cast %A : !vrir.array<i64, 2, col_major> to !vrir.array<f64, 2, col_major>
  %2 = vrir.cast %A : !vrir.array<i64, 2, col_major> to !vrir.array<i1, 2, row_major>
  %3 = vrir.cast %A : !vrir.array<i64, 2, col_major> to !vrir.array<complex<f32>, 2, row_major>
  return %0, %1, %2, %3 : !vrir.array<i32, 2, row_major>, !vrir.array<f64, 2, col_major>, !vrir.array<i1, 2, row_major>,
      !vrir.array<complex<f32>, 2, row_major>
}

func.func @casts_from_bool(%A: !vrir.array<i1, 1, row_major>)
    -> (!vrir.array<i64, 1, row_major>, !vrir.array<f32, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>) {
  %0 = vrir.cast %A : !vrir.array<i1, 1, row_major> to !vrir.array<i64, 1, row_major>
  %1 = vrir.cast %A : !vrir.array<i1, 1, row_major> to !vrir.array<f32, 1, row_major>
  %2 = vrir.cast %A : !vrir.array<i1, 1, row_major> to !vrir.array<complex<f64>, 1, row_major>
  return %0, %1, %2 : !vrir.array<i64, 1, row_major>, !vrir.array<f32, 1, row_major>, !vrir.array<complex<f64>, 1, row_major>
}

func.func @casts_from_complex(%A: !vrir.array<complex<f32>, 1, row_major>)
    -> (!vrir.array<f32, 1, row_major>, !vrir.array<i32, 1, row_major>, !vrir.array<i1, 1, row_major>,
        !vrir.array<complex<f64>, 1, row_major>) {
  %0 = vrir.cast %A : !vrir.array<complex<f32>, 1, row_major> to !vrir.array<f32, 1, row_major>
  %1 = vrir.cast %A : !vrir.array<complex<f32>, 1, row_major> to !vrir.array<i32, 1, row_major>
  %2 = vrir.cast %A : !vrir.array<complex<f32>, 1, row_major> to !vrir.array<i1, 1, row_major>
  %3 = vrir.cast %A : !vrir.array<complex<f32>, 1, row_major> to !vrir.array<complex<f64>, 1, row_major>
  return %0, %1, %2, %3 : !vrir.array<f32, 1, row_major>, !vrir.array<i32, 1, row_major>, !vrir.array<i1, 1, row_major>,
      !vrir.array<complex<f64>, 1, row_major>
}

// Copies.
func.func @copies(%A: !vrir.array<f64, 2, strided>)
    -> (!vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, col_major>) {
  %0 = vrir.copy %A : !vrir.array<f64, 2, strided> to !vrir.array<f64, 2, row_major>
  %1 = vrir.copy %A : !vrir.array<f64, 2, strided> to !vrir.array<f64, 2, col_major>
  return %0, %1 : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, col_major>
}

// The copy is a new array: writing it leaves the original alone.
func.func @copy_is_new(%A: !vrir.array<i32, 2, row_major>) -> !vrir.array<i32, 2, row_major> {
  %B = vrir.copy %A : !vrir.array<i32, 2, row_major> to !vrir.array<i32, 2, row_major>
  %c0 = arith.constant 0 : index
  %x = arith.constant 99 : i32
  vrir.store %x, %B[%c0, %c0] : !vrir.array<i32, 2, row_major>[index, index]
  return %B : !vrir.array<i32, 2, row_major>
}
