// Element-wise code with temporaries, run under valgrind by leaks.py.

// The mask is a temporary.
func.func @where(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, col_major>) -> !vrir.array<f64, 2, col_major> {
  %M = vrir.cmp gt %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, col_major> -> !vrir.array<i1, 2, row_major>
  %zero = arith.constant 0.0 : f64
  %E = vrir.select %M, %A, %zero : !vrir.array<i1, 2, row_major>, !vrir.array<f64, 2, row_major>, f64 -> !vrir.array<f64, 2, col_major>
  return %E : !vrir.array<f64, 2, col_major>
}

// An array made in every iteration of a parallel loop.
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
