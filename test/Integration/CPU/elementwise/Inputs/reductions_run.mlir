// Reductions. Run by reductions.py.

func.func @reduce_all_f64(%A: !vrir.array<f64, 2, col_major>) -> (f64, f64, f64, f64) {
  %0 = vrir.reduce sum %A : !vrir.array<f64, 2, col_major> -> f64
  %1 = vrir.reduce prod %A : !vrir.array<f64, 2, col_major> -> f64
  %2 = vrir.reduce min %A : !vrir.array<f64, 2, col_major> -> f64
  %3 = vrir.reduce max %A : !vrir.array<f64, 2, col_major> -> f64
  return %0, %1, %2, %3 : f64, f64, f64, f64
}

func.func @reduce_all_i32(%A: !vrir.array<i32, 3, strided>) -> (i32, i32, i32, i32) {
  %0 = vrir.reduce sum %A : !vrir.array<i32, 3, strided> -> i32
  %1 = vrir.reduce prod %A : !vrir.array<i32, 3, strided> -> i32
  %2 = vrir.reduce min %A : !vrir.array<i32, 3, strided> -> i32
  %3 = vrir.reduce max %A : !vrir.array<i32, 3, strided> -> i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

func.func @sum_prod_1d(%A: !vrir.array<f32, 1, row_major>) -> (f32, f32) {
  %0 = vrir.reduce sum %A axis 0 : !vrir.array<f32, 1, row_major> -> f32
  %1 = vrir.reduce prod %A : !vrir.array<f32, 1, row_major> -> f32
  return %0, %1 : f32, f32
}

func.func @min_1d(%A: !vrir.array<f64, 1, row_major>) -> f64 {
  %0 = vrir.reduce min %A : !vrir.array<f64, 1, row_major> -> f64
  return %0 : f64
}

func.func @reduce_complex(%A: !vrir.array<complex<f64>, 2, row_major>) -> (complex<f64>, complex<f64>) {
  %0 = vrir.reduce sum %A : !vrir.array<complex<f64>, 2, row_major> -> complex<f64>
  %1 = vrir.reduce prod %A : !vrir.array<complex<f64>, 2, row_major> -> complex<f64>
  return %0, %1 : complex<f64>, complex<f64>
}

func.func @reduce_axes(%A: !vrir.array<f64, 3, row_major>)
    -> (!vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, col_major>, !vrir.array<f64, 2, row_major>) {
  %0 = vrir.reduce sum %A axis 0 : !vrir.array<f64, 3, row_major> -> !vrir.array<f64, 2, row_major>
  %1 = vrir.reduce max %A axis 1 : !vrir.array<f64, 3, row_major> -> !vrir.array<f64, 2, col_major>
  %2 = vrir.reduce min %A axis 2 : !vrir.array<f64, 3, row_major> -> !vrir.array<f64, 2, row_major>
  return %0, %1, %2 : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, col_major>, !vrir.array<f64, 2, row_major>
}

func.func @reduce_axis_col(%A: !vrir.array<i64, 2, col_major>) -> (!vrir.array<i64, 1, row_major>, !vrir.array<i64, 1, row_major>) {
  %0 = vrir.reduce prod %A axis 0 : !vrir.array<i64, 2, col_major> -> !vrir.array<i64, 1, row_major>
  %1 = vrir.reduce max %A axis 1 : !vrir.array<i64, 2, col_major> -> !vrir.array<i64, 1, row_major>
  return %0, %1 : !vrir.array<i64, 1, row_major>, !vrir.array<i64, 1, row_major>
}

func.func @min_axis0(%A: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 1, row_major> {
  %0 = vrir.reduce min %A axis 0 : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
  return %0 : !vrir.array<f64, 1, row_major>
}

// Reductions in loops: no stack growth, one accumulator per thread.
func.func @sum_in_loop(%A: !vrir.array<f64, 1, row_major>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %s = vrir.reduce sum %A : !vrir.array<f64, 1, row_major> -> f64
    %t = arith.addf %acc, %s : f64
    scf.yield %t : f64
  }
  return %r : f64
}

func.func @row_norms(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 1, row_major>, %n: index) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major>) {
    %row = vrir.slice %A[%i] : !vrir.array<f64, 2, row_major>[index] -> !vrir.array<f64, 1, strided>
    %sq = vrir.binary mul %row, %row : !vrir.array<f64, 1, strided>, !vrir.array<f64, 1, strided> -> !vrir.array<f64, 1, row_major>
    %s = vrir.reduce sum %sq : !vrir.array<f64, 1, row_major> -> f64
    %norm = vrir.unary sqrt %s : f64 -> f64
    vrir.store %norm, %B[%i] : !vrir.array<f64, 1, row_major>[index]
  }
  return
}
