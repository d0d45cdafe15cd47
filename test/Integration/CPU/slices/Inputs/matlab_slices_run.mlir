// MATLAB-style slices (1-based, inclusive ranges, copies), run by
// slices.py: ranges are checked, never clipped.

!cm = !vrir.array<f64, 2, col_major>
!cv = !vrir.array<f64, 1, col_major>
!iv = !vrir.array<i64, 1, col_major>

module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  // B = A(a:b, :)
  func.func @rows(%A: !cm, %a: index, %b: index) -> !cm {
    %r = vrir.range %a to %b
    %B = vrir.slice %A[%r] {copy} : !cm[!vrir.range] -> !cm
    return %B : !cm
  }

  // y = A(end:-1:1, j)
  func.func @column_reversed(%A: !cm, %j: index) -> !cv {
    %c1 = arith.constant 1 : index
    %m1 = arith.constant -1 : index
    %n = vrir.dim %A, 0 : !cm
    %r = vrir.range %n to %c1 step %m1
    %y = vrir.slice %A[%r, %j] {copy} : !cm[!vrir.range, index] -> !cv
    return %y : !cv
  }

  // A(:, j) = v
  func.func @set_column(%A: !cm, %j: index, %v: !cv) {
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !cm
    %r = vrir.range %c1 to %n
    vrir.store_slice %v, %A[%r, %j] : !cv, !cm[!vrir.range, index]
    return
  }

  // y = v(idx)
  func.func @pick(%v: !cv, %idx: !iv) -> !cv {
    %y = vrir.gather %v[%idx] : !cv[!iv] -> !cv
    return %y : !cv
  }
}
