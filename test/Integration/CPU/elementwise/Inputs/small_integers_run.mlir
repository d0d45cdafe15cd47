// 8- and 16-bit integer arrays, run by small_integers.py and compared with
// NumPy's int8 and int16: wrapping arithmetic, casts both ways, reductions,
// comparisons, element loads and stores in loops, strided views, and the
// unsigned operations a frontend writes in vrir.map bodies.

!b = !vrir.array<i8, 1, row_major>
!bs = !vrir.array<i8, 1, strided>
!h = !vrir.array<i16, 2, row_major>
!hc = !vrir.array<i16, 2, col_major>
!l = !vrir.array<i64, 1, row_major>
!f = !vrir.array<f64, 2, row_major>
!p = !vrir.array<i1, 1, row_major>

module {
  // x + y and x * y wrap around in 8 bits, as NumPy's int8 does.
  func.func @wrap(%x: !b, %y: !b) -> (!b, !b) {
    %s = vrir.binary add %x, %y : !b, !b -> !b
    %p = vrir.binary mul %x, %y : !b, !b -> !b
    return %s, %p : !b, !b
  }

  // Widening (sign-extending) and narrowing (truncating) integer casts,
  // and to and from f64.
  func.func @casts(%x: !b, %h: !h, %f: !f) -> (!l, !f, !vrir.array<i8, 2, row_major>, !h) {
    %wide = vrir.cast %x : !b to !l
    %real = vrir.cast %h : !h to !f
    %narrow = vrir.cast %h : !h to !vrir.array<i8, 2, row_major>
    %trunc = vrir.cast %f : !f to !h
    return %wide, %real, %narrow, %trunc : !l, !f, !vrir.array<i8, 2, row_major>, !h
  }

  // Sums wrap in the element type; the maximum and the minimum along an
  // axis; a column-major copy.
  func.func @reductions(%h: !h) -> (i16, !vrir.array<i16, 1, row_major>, !vrir.array<i16, 1, row_major>, !hc) {
    %s = vrir.reduce sum %h : !h -> i16
    %mx = vrir.reduce max %h axis 0 : !h -> !vrir.array<i16, 1, row_major>
    %mn = vrir.reduce min %h axis 1 : !h -> !vrir.array<i16, 1, row_major>
    %c = vrir.copy %h : !h to !hc
    return %s, %mx, %mn, %c : i16, !vrir.array<i16, 1, row_major>, !vrir.array<i16, 1, row_major>, !hc
  }

  func.func @less(%x: !b, %y: !b) -> !p {
    %c = vrir.cmp lt %x, %y : !b, !b -> !p
    return %c : !p
  }

  // A running sum in 64 bits over every other element (a strided view),
  // written back into the array as a prefix in 8 bits.
  func.func @prefix(%x: !b) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n = vrir.dim %x, 0 : !b
    %r = vrir.range %c0 to %n step %c2
    %v = vrir.slice %x[%r] : !b[!vrir.range] -> !bs
    %m = vrir.dim %v, 0 : !bs
    %zero = arith.constant 0 : i64
    %total = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> i64 {
      %e = vrir.load %v[%i] : !bs[index]
      %w = arith.extsi %e : i8 to i64
      %next = arith.addi %acc, %w : i64
      %t = arith.trunci %next : i64 to i8
      vrir.store %t, %v[%i] : !bs[index]
      scf.yield %next : i64
    }
    return %total : i64
  }

  // uint8 semantics through arith's unsigned ops: x // y, x > y and the
  // conversion to f64 of the bytes read as unsigned.
  func.func @unsigned(%x: !b, %y: !b) -> (!b, !p, !vrir.array<f64, 1, row_major>) {
    %q = vrir.map %x, %y : (!b, !b) -> !b {
    ^bb0(%a: i8, %b: i8):
      %d = arith.divui %a, %b : i8
      vrir.yield %d : i8
    }
    %g = vrir.map %x, %y : (!b, !b) -> !p {
    ^bb0(%a: i8, %b: i8):
      %c = arith.cmpi ugt, %a, %b : i8
      vrir.yield %c : i1
    }
    %f = vrir.map %x : (!b) -> !vrir.array<f64, 1, row_major> {
    ^bb0(%a: i8):
      %r = arith.uitofp %a : i8 to f64
      vrir.yield %r : f64
    }
    return %q, %g, %f : !b, !p, !vrir.array<f64, 1, row_major>
  }
}
