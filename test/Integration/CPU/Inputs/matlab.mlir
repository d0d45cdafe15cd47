// MATLAB semantics: 1-based indices, inclusive ranges, column-major arrays,
// growth on write and flattened (linear) indexing.

!v = !vrir.array<f64, 1, col_major>
!m = !vrir.array<f64, 2, col_major>

module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  // x = zeros(1, 0); for i = 1:n, x(i) = i*i; end
  func.func @squares(%n: index) -> !v {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x0 = vrir.zeros(%c0) : !v
    %n1 = arith.addi %n, %c1 : index
    %x = scf.for %i = %c1 to %n1 step %c1 iter_args(%cur = %x0) -> (!v) {
      %i64 = arith.index_cast %i : index to i64
      %f = arith.sitofp %i64 : i64 to f64
      %sq = arith.mulf %f, %f : f64
      %next = vrir.store %sq, %cur[%i] flags [#vrir.index<lower|grow>] : !v[index] -> !v
      scf.yield %next : !v
    }
    return %x : !v
  }

  // A = zeros(2); A(3,2) = 1 (thesis figure 4.4).
  func.func @fig4_4() -> !m {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %one = arith.constant 1.0 : f64
    %A = vrir.zeros(%c2, %c2) : !m
    %B = vrir.store %one, %A[%c3, %c2] flags [#vrir.index<lower|grow>, #vrir.index<lower|grow>] : !m[index, index] -> !m
    return %B : !m
  }

  // A(k) on a matrix: column-major linear index.
  func.func @linear(%A: !m, %k: index) -> f64 {
    %x = vrir.load %A[%k] {flattened} : !m[index]
    return %x : f64
  }

  // A(i, j), 1-based.
  func.func @get2(%A: !m, %i: index, %j: index) -> f64 {
    %x = vrir.load %A[%i, %j] : !m[index, index]
    return %x : f64
  }

  // s = 0; for k = a:s:b, s = s + k; end (inclusive range, any step).
  func.func @range_sum(%a: index, %step: index, %b: index) -> i64 {
    %zero = arith.constant 0 : i64
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %r = vrir.range %a to %b step %step
    %acc = vrir.zeros(%c1) : !vrir.array<i64, 1, col_major>
    vrir.pfor (%k) in %r : !vrir.range shared(%acc : !vrir.array<i64, 1, col_major>) {
      %k64 = arith.index_cast %k : index to i64
      %old = vrir.atomic_rmw add %acc[%c1], %k64 : !vrir.array<i64, 1, col_major>[index]
    }
    %s = vrir.load %acc[%c1] : !vrir.array<i64, 1, col_major>[index]
    return %s : i64
  }
}
