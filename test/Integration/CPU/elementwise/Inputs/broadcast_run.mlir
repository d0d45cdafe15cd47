// Broadcasting, including through select. Run by broadcast.py.

func.func @add(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 2, row_major> {
  %C = vrir.binary add %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 2, row_major>
  return %C : !vrir.array<f64, 2, row_major>
}

func.func @outer(%A: !vrir.array<f64, 2, col_major>, %B: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 2, col_major> {
  %C = vrir.binary mul %A, %B : !vrir.array<f64, 2, col_major>, !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
  return %C : !vrir.array<f64, 2, col_major>
}

func.func @sub3(%A: !vrir.array<f32, 3, strided>, %B: !vrir.array<f32, 2, row_major>) -> !vrir.array<f32, 3, row_major> {
  %C = vrir.binary sub %A, %B : !vrir.array<f32, 3, strided>, !vrir.array<f32, 2, row_major> -> !vrir.array<f32, 3, row_major>
  return %C : !vrir.array<f32, 3, row_major>
}

func.func @scalar_div(%A: !vrir.array<f64, 2, col_major>, %s: f64) -> !vrir.array<f64, 2, col_major> {
  %C = vrir.binary div %s, %A : f64, !vrir.array<f64, 2, col_major> -> !vrir.array<f64, 2, col_major>
  return %C : !vrir.array<f64, 2, col_major>
}

func.func @rank0_pow(%a: !vrir.array<f64, 0, row_major>, %B: !vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  %C = vrir.binary pow %B, %a : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 0, row_major> -> !vrir.array<f64, 1, row_major>
  return %C : !vrir.array<f64, 1, row_major>
}

func.func @where(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, col_major>) -> !vrir.array<f64, 2, col_major> {
  %M = vrir.cmp gt %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, col_major> -> !vrir.array<i1, 2, row_major>
  %zero = arith.constant 0.0 : f64
  %E = vrir.select %M, %A, %zero : !vrir.array<i1, 2, row_major>, !vrir.array<f64, 2, row_major>, f64 -> !vrir.array<f64, 2, col_major>
  return %E : !vrir.array<f64, 2, col_major>
}

func.func @where_broadcast(%C: !vrir.array<i1, 2, row_major>, %A: !vrir.array<i64, 1, row_major>, %B: !vrir.array<i64, 3, row_major>) -> !vrir.array<i64, 3, row_major> {
  %E = vrir.select %C, %A, %B : !vrir.array<i1, 2, row_major>, !vrir.array<i64, 1, row_major>, !vrir.array<i64, 3, row_major> -> !vrir.array<i64, 3, row_major>
  return %E : !vrir.array<i64, 3, row_major>
}
