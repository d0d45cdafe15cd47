// Binary and unary functions, comparisons, scalars. Run by arith.py.

// Every binary function, floats and integers.
func.func @float_ops(%A: !vrir.array<f64, 1, row_major>, %B: !vrir.array<f64, 1, row_major>)
    -> (!vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>,
        !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>) {
  %0 = vrir.binary div %A, %B : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %1 = vrir.binary rem %A, %B : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %2 = vrir.binary pow %A, %B : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %3 = vrir.binary min %A, %B : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %4 = vrir.binary max %A, %B : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return %0, %1, %2, %3, %4 : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>,
      !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>
}

func.func @int_ops(%A: !vrir.array<i32, 1, row_major>, %B: !vrir.array<i32, 1, row_major>)
    -> (!vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>,
        !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>,
        !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>) {
  %0 = vrir.binary div %A, %B : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  %1 = vrir.binary rem %A, %B : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  %2 = vrir.binary min %A, %B : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  %3 = vrir.binary max %A, %B : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  %4 = vrir.binary and %A, %B : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  %5 = vrir.binary or %A, %B : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  %6 = vrir.binary xor %A, %B : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  %7 = vrir.binary mul %A, %B : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  return %0, %1, %2, %3, %4, %5, %6, %7 : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>,
      !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>,
      !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>
}

// Integer division by an array of one scalar (0 and -1 included).
func.func @int_div_scalar(%A: !vrir.array<i64, 1, row_major>, %b: i64)
    -> (!vrir.array<i64, 1, row_major>, !vrir.array<i64, 1, row_major>, i64, i64) {
  %0 = vrir.binary div %A, %b : !vrir.array<i64, 1, row_major>, i64 -> !vrir.array<i64, 1, row_major>
  %1 = vrir.binary rem %A, %b : !vrir.array<i64, 1, row_major>, i64 -> !vrir.array<i64, 1, row_major>
  %c0 = arith.constant 0 : index
  %x = vrir.load %A[%c0] : !vrir.array<i64, 1, row_major>[index]
  %2 = vrir.binary div %x, %b : i64, i64 -> i64
  %3 = vrir.binary rem %x, %b : i64, i64 -> i64
  return %0, %1, %2, %3 : !vrir.array<i64, 1, row_major>, !vrir.array<i64, 1, row_major>, i64, i64
}

func.func @int_pow(%A: !vrir.array<i64, 1, row_major>, %e: i64) -> !vrir.array<i64, 1, row_major> {
  %0 = vrir.binary pow %A, %e : !vrir.array<i64, 1, row_major>, i64 -> !vrir.array<i64, 1, row_major>
  return %0 : !vrir.array<i64, 1, row_major>
}

func.func @bool_ops(%A: !vrir.array<i1, 2, row_major>, %B: !vrir.array<i1, 1, row_major>)
    -> (!vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, col_major>) {
  %0 = vrir.binary and %A, %B : !vrir.array<i1, 2, row_major>, !vrir.array<i1, 1, row_major> -> !vrir.array<i1, 2, row_major>
  %1 = vrir.binary xor %A, %B : !vrir.array<i1, 2, row_major>, !vrir.array<i1, 1, row_major> -> !vrir.array<i1, 2, row_major>
  %2 = vrir.unary not %A : !vrir.array<i1, 2, row_major> -> !vrir.array<i1, 2, col_major>
  return %0, %1, %2 : !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, col_major>
}

// Unary functions (transcendental ones: transcendental_run.mlir).
func.func @float_unary(%A: !vrir.array<f64, 1, row_major>)
    -> (!vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>,
        !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>,
        !vrir.array<f64, 1, row_major>) {
  %0 = vrir.unary neg %A : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %1 = vrir.unary abs %A : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %2 = vrir.unary floor %A : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %3 = vrir.unary ceil %A : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %4 = vrir.unary round %A : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %5 = vrir.unary real %A : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  %6 = vrir.unary imag %A : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return %0, %1, %2, %3, %4, %5, %6 : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>,
      !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>,
      !vrir.array<f64, 1, row_major>
}

func.func @int_unary(%A: !vrir.array<i64, 1, row_major>)
    -> (!vrir.array<i64, 1, row_major>, !vrir.array<i64, 1, row_major>) {
  %0 = vrir.unary neg %A : !vrir.array<i64, 1, row_major> -> !vrir.array<i64, 1, row_major>
  %1 = vrir.unary not %A : !vrir.array<i64, 1, row_major> -> !vrir.array<i64, 1, row_major>
  return %0, %1 : !vrir.array<i64, 1, row_major>, !vrir.array<i64, 1, row_major>
}

// Comparisons.
func.func @compare(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 1, row_major>)
    -> (!vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major>,
        !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major>) {
  %0 = vrir.cmp eq %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<i1, 2, row_major>
  %1 = vrir.cmp ne %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<i1, 2, row_major>
  %2 = vrir.cmp lt %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<i1, 2, row_major>
  %3 = vrir.cmp le %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<i1, 2, row_major>
  %4 = vrir.cmp gt %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<i1, 2, row_major>
  %5 = vrir.cmp ge %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<i1, 2, row_major>
  return %0, %1, %2, %3, %4, %5 : !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major>,
      !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major>
}

func.func @compare_int_bool(%A: !vrir.array<i32, 1, row_major>, %b: i32, %P: !vrir.array<i1, 1, row_major>, %Q: !vrir.array<i1, 1, row_major>)
    -> (!vrir.array<i1, 1, row_major>, !vrir.array<i1, 1, row_major>, !vrir.array<i1, 1, row_major>) {
  %0 = vrir.cmp lt %A, %b : !vrir.array<i32, 1, row_major>, i32 -> !vrir.array<i1, 1, row_major>
  %1 = vrir.cmp lt %P, %Q : !vrir.array<i1, 1, row_major>, !vrir.array<i1, 1, row_major> -> !vrir.array<i1, 1, row_major>
  %2 = vrir.cmp ge %P, %Q : !vrir.array<i1, 1, row_major>, !vrir.array<i1, 1, row_major> -> !vrir.array<i1, 1, row_major>
  return %0, %1, %2 : !vrir.array<i1, 1, row_major>, !vrir.array<i1, 1, row_major>, !vrir.array<i1, 1, row_major>
}

// Scalars.
func.func @scalars(%x: f64, %y: f64, %i: i64, %j: i64)
    -> (f64, f64, i64, i64, i64, i1, i1, f64, i64, i1, f64) {
  %0 = vrir.binary pow %x, %y : f64, f64 -> f64
  %1 = vrir.binary rem %x, %y : f64, f64 -> f64
  %2 = vrir.binary div %i, %j : i64, i64 -> i64
  %3 = vrir.binary rem %i, %j : i64, i64 -> i64
  %4 = vrir.binary pow %i, %j : i64, i64 -> i64
  %5 = vrir.cmp ne %x, %y : f64, f64 -> i1
  %6 = vrir.cmp lt %i, %j : i64, i64 -> i1
  %7 = vrir.unary round %x : f64 -> f64
  %8 = vrir.cast %x : f64 to i64
  %9 = vrir.cast %x : f64 to i1
  %c = vrir.cmp gt %x, %y : f64, f64 -> i1
  %10 = vrir.select %c, %x, %y : i1, f64, f64 -> f64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : f64, f64, i64, i64, i64, i1, i1, f64, i64, i1, f64
}
