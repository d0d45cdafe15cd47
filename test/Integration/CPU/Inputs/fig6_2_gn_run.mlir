// Thesis figure 6.2 (test/Dialect/VRIR/examples/fig6_2_gn.mlir) with bodies
// for its opaque functions, to run it.

module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  // The figure's opaque functions, given bodies so that gn can run.
  func.func private @opaque_fn1() -> i64 {
    %m = arith.constant 4 : i64
    return %m : i64
  }
  func.func private @opaque_fn2() -> i1 {
    %c = arith.constant true
    return %c : i1
  }
  func.func private @expr1() -> i64 {
    %n = arith.constant 4 : i64
    return %n : i64
  }
  func.func private @expr2() -> i64 {
    %n = arith.constant 3 : i64
    return %n : i64
  }

  func.func @gn(%A: !vrir.array<f64, 2, col_major>) -> !vrir.array<f64, 2, col_major> {
    %c1 = arith.constant 1 : index
    %two = arith.constant 2.0 : f64
    // m = opaque_fn1(); c = opaque_fn2();
    %m64 = func.call @opaque_fn1() : () -> i64
    %c = func.call @opaque_fn2() : () -> i1
    // if (c) n = expr1; else n = expr2; end
    %n64 = scf.if %c -> (i64) {
      %e1 = func.call @expr1() : () -> i64
      scf.yield %e1 : i64
    } else {
      %e2 = func.call @expr2() : () -> i64
      scf.yield %e2 : i64
    }
    // Program point P: the shapes of B and of loop nest L are known here.
    %m = arith.index_cast %m64 : i64 to index
    %n = arith.index_cast %n64 : i64 to index
    // B = zeros(m,n);
    %B = vrir.zeros(%m, %n) : !vrir.array<f64, 2, col_major>
    // Loop nest L: for i=1:m, for j=i:n (inclusive stops).
    %m1 = arith.addi %m, %c1 : index
    %n1 = arith.addi %n, %c1 : index
    // B grows on write (MATLAB), so it is carried through the loops.
    %Bout = scf.for %i = %c1 to %m1 step %c1 iter_args(%Bi = %B) -> (!vrir.array<f64, 2, col_major>) {
      %Bj = scf.for %j = %i to %n1 step %c1 iter_args(%Bc = %Bi) -> (!vrir.array<f64, 2, col_major>) {
        // t = A(j,j)*2;
        %ajj = vrir.load %A[%j, %j] : !vrir.array<f64, 2, col_major>[index, index]
        %t = arith.mulf %ajj, %two : f64
        // B(i,j) = A(i,j)*2 + t;
        %aij = vrir.load %A[%i, %j] : !vrir.array<f64, 2, col_major>[index, index]
        %aij2 = arith.mulf %aij, %two : f64
        %v = arith.addf %aij2, %t : f64
        %Bn = vrir.store %v, %Bc[%i, %j] flags [#vrir.index<lower|grow>, #vrir.index<lower|grow>]
            : !vrir.array<f64, 2, col_major>[index, index] -> !vrir.array<f64, 2, col_major>
        scf.yield %Bn : !vrir.array<f64, 2, col_major>
      }
      scf.yield %Bj : !vrir.array<f64, 2, col_major>
    }
    return %Bout : !vrir.array<f64, 2, col_major>
  }
}
