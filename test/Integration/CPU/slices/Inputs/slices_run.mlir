// Slices, slice assignment, gather and scatter (NumPy module: 0-based,
// exclusive ranges), run by slices.py and compared with NumPy. Ranges with
// the `negative` flag follow Python's slice semantics (negative bounds
// count from the end, bounds are clipped); without it they are checked.

!m = !vrir.array<f64, 2, row_major>
!cm = !vrir.array<f64, 2, col_major>
!t = !vrir.array<f64, 3, row_major>
!v = !vrir.array<f64, 1, row_major>
!s1 = !vrir.array<f64, 1, strided>
!s2 = !vrir.array<f64, 2, strided>
!iv = !vrir.array<i64, 1, row_major>
!im = !vrir.array<i32, 2, row_major>

module {
  // A[i, a:b:s] as a new array.
  func.func @row_part(%A: !m, %i: index, %a: index, %b: index, %s: index) -> !v {
    %r = vrir.range %a to %b step %s
    %v = vrir.slice %A[%i, %r]
        flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] {copy}
        : !m[index, !vrir.range] -> !v
    return %v : !v
  }

  // A[a:b:s] returned as a view (the deallocation pipeline hands the caller
  // a clone of a view it does not own, so the values are what is checked).
  func.func @rows_view(%A: !m, %a: index, %b: index, %s: index) -> !s2 {
    %r = vrir.range %a to %b step %s
    %v = vrir.slice %A[%r] flags [#vrir.index<lower|upper|negative>]
        : !m[!vrir.range] -> !s2
    return %v : !s2
  }

  // V = A[a:b:s, c] (a view); V[:] = x writes A.
  func.func @write_through_view(%A: !m, %a: index, %b: index, %s: index,
                                %c: index, %x: f64) {
    %r = vrir.range %a to %b step %s
    %V = vrir.slice %A[%r, %c]
        flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
        : !m[!vrir.range, index] -> !s1
    vrir.store_slice %x, %V[] : f64, !s1
    return
  }

  // A[a:b:s, c:d:t] as a new column-major array.
  func.func @block_copy(%A: !m, %a: index, %b: index, %s: index, %c: index,
                        %d: index, %t: index) -> !cm {
    %r0 = vrir.range %a to %b step %s
    %r1 = vrir.range %c to %d step %t
    %B = vrir.slice %A[%r0, %r1]
        flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] {copy}
        : !m[!vrir.range, !vrir.range] -> !cm
    return %B : !cm
  }

  // A[a:b:s] with the default flags: a checked range (error past the end).
  func.func @checked_rows(%A: !m, %a: index, %b: index, %s: index) -> !m {
    %r = vrir.range %a to %b step %s
    %v = vrir.slice %A[%r] {copy} : !m[!vrir.range] -> !m
    return %v : !m
  }

  // T[i] of a 3-D array (implicit trailing dimensions), then [:, j] of it.
  func.func @plane_column(%T: !t, %i: index, %j: index) -> (!m, !v) {
    %P = vrir.slice %T[%i] flags [#vrir.index<lower|upper|negative>]
        : !t[index] -> !s2
    %c0 = arith.constant 0 : index
    %n = vrir.dim %P, 0 : !s2
    %all = vrir.range %c0 to %n
    %col = vrir.slice %P[%all, %j] {copy} : !s2[!vrir.range, index] -> !v
    %Pc = vrir.slice %T[%i] flags [#vrir.index<lower|upper|negative>] {copy}
        : !t[index] -> !m
    return %Pc, %col : !m, !v
  }

  // A view of a view: A[::-1][1:-1] (negative step, then clipping).
  func.func @reverse_inner(%A: !v) -> !v {
    %n = vrir.dim %A, 0 : !v
    %c1 = arith.constant 1 : index
    %m1 = arith.constant -1 : index
    %c0 = arith.constant 0 : index
    %last = arith.subi %n, %c1 : index
    %r = vrir.range %last to %m1 step %m1
    %R = vrir.slice %A[%r] : !v[!vrir.range] -> !s1
    %inner = vrir.range %c1 to %m1
    %I = vrir.slice %R[%inner] flags [#vrir.index<lower|upper|negative>] {copy}
        : !s1[!vrir.range] -> !v
    return %I : !v
  }

  // A[a:b, c:d] = x
  func.func @fill_block(%A: !m, %a: index, %b: index, %c: index, %d: index,
                        %x: f64) {
    %r0 = vrir.range %a to %b
    %r1 = vrir.range %c to %d
    vrir.store_slice %x, %A[%r0, %r1]
        flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>]
        : f64, !m[!vrir.range, !vrir.range]
    return
  }

  // A[:, c:d] = v (v broadcast along the rows).
  func.func @assign_columns(%A: !m, %c: index, %d: index, %v: !v) {
    %c0 = arith.constant 0 : index
    %m = vrir.dim %A, 0 : !m
    %r0 = vrir.range %c0 to %m
    %r1 = vrir.range %c to %d
    vrir.store_slice %v, %A[%r0, %r1] : !v, !m[!vrir.range, !vrir.range]
    return
  }

  // A[i] = B, B of shape (k,) or (1,).
  func.func @assign_row(%A: !m, %i: index, %B: !v) {
    vrir.store_slice %B, %A[%i] flags [#vrir.index<lower|upper|negative>] : !v, !m[index]
    return
  }

  // A[1:] = A[:-1]: the right-hand side overlaps the target.
  func.func @shift(%A: !v) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m1 = arith.constant -1 : index
    %n = vrir.dim %A, 0 : !v
    %dst = vrir.range %c1 to %n
    %src = vrir.range %c0 to %m1
    %S = vrir.slice %A[%src] flags [#vrir.index<lower|upper|negative>]
        : !v[!vrir.range] -> !s1
    vrir.store_slice %S, %A[%dst] : !s1, !v[!vrir.range]
    return
  }

  // A[::-1] = A (in place reversal, overlapping).
  func.func @reverse_in_place(%A: !v) {
    %n = vrir.dim %A, 0 : !v
    %c1 = arith.constant 1 : index
    %m1 = arith.constant -1 : index
    %last = arith.subi %n, %c1 : index
    %r = vrir.range %last to %m1 step %m1
    vrir.store_slice %A, %A[%r] : !v, !v[!vrir.range]
    return
  }

  // np.take(A, idx, axis=1), negative indices wrap.
  func.func @take_columns(%A: !m, %idx: !iv) -> !m {
    %g = vrir.gather %A[%idx] flags <lower|upper|negative> {axis = 1 : i64}
        : !m[!iv] -> !m
    return %g : !m
  }

  // np.take(v, idx) with a 2-D index array (default checks).
  func.func @take_2d(%v: !v, %idx: !im) -> !m {
    %g = vrir.gather %v[%idx] : !v[!im] -> !m
    return %g : !m
  }

  // A[idx] = B (rows, B broadcast).
  func.func @put_rows(%A: !m, %idx: !iv, %B: !v) {
    vrir.scatter %B, %A[%idx] flags <lower|upper|negative> : !v, !m[!iv]
    return
  }

  // A[idx] = A[0:len(idx)]: the value overlaps the target (A[[1, 0]] = A[:2]
  // swaps the first two rows only if the value is read first).
  func.func @put_rows_overlapping(%A: !m, %idx: !iv) {
    %c0 = arith.constant 0 : index
    %k = vrir.dim %idx, 0 : !iv
    %r = vrir.range %c0 to %k
    %V = vrir.slice %A[%r] : !m[!vrir.range] -> !s2
    vrir.scatter %V, %A[%idx] : !s2, !m[!iv]
    return
  }

  // A[:, idx] = x
  func.func @put_columns_scalar(%A: !m, %idx: !iv, %x: f64) {
    vrir.scatter %x, %A[%idx] {axis = 1 : i64} : f64, !m[!iv]
    return
  }

  // In a parallel loop over n rows: A[i, 1:3] = x. Past the last row the
  // bounds error is recorded and raised after the loop.
  func.func @rows_in_pfor(%A: !m, %n: index, %x: f64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %rows = vrir.range %c0 to %n
    vrir.pfor (%i) in %rows : !vrir.range shared(%A : !m) {
      %cols = vrir.range %c1 to %c3
      vrir.store_slice %x, %A[%i, %cols] : f64, !m[index, !vrir.range]
    }
    return
  }
}
