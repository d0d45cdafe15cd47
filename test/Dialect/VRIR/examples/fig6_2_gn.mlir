// RUN: vr-opt %s | vr-opt | FileCheck %s

// Thesis figure 6.2 (pseudo-MATLAB):
//
//    1 function B = gn(A)
//    2 m = opaque_fn1();
//    3 c = opaque_fn2();
//    4 if(c):
//    5     n = expr1;
//    6 else:
//    7     n = expr2;
//    8 end
//    9 #We define a program-point P here.
//   10 B = zeros(m,n);
//   11 #Loop-nest L
//   12 for i=1:m
//   13     for j=i:n
//   14         t = A(j,j)*2;
//   15         B(i,j) = A(i,j)*2 + t;
//   16     end
//   17 end
//   18 end
//
// MATLAB module: 1-based indices, inclusive ranges, column-major arrays.
// opaque_fn1/opaque_fn2 are functions whose results are unknown ahead of
// time: external declarations. The thesis leaves expr1 and expr2 unspecified;
// they are opaque calls here too. Type inference is assumed to have found m
// and n integer-valued and c logical. `for i=1:m` includes m, so the scf.for
// upper bound (exclusive) is m + 1; likewise n + 1 for `for j=i:n`.
// Reads of A use MATLAB's checks (lower and upper bound: the default when
// `flags` is absent); the write to B may grow B, as any MATLAB indexed write.

module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  func.func private @opaque_fn1() -> i64
  func.func private @opaque_fn2() -> i1
  func.func private @expr1() -> i64
  func.func private @expr2() -> i64

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

// CHECK:       module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false}
// CHECK-DAG:   func.func private @opaque_fn1() -> i64
// CHECK-DAG:   func.func private @opaque_fn2() -> i1
// CHECK-LABEL: func.func @gn
// CHECK-SAME:    (%[[A:.*]]: !vrir.array<f64, 2, col_major>) -> !vrir.array<f64, 2, col_major>
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         call @opaque_fn1()
// CHECK:         %[[COND:.*]] = call @opaque_fn2()
// CHECK:         scf.if %[[COND]] -> (i64)
// CHECK:           call @expr1()
// CHECK:         } else {
// CHECK:           call @expr2()
// CHECK:         %[[M:.*]] = arith.index_cast
// CHECK:         %[[N:.*]] = arith.index_cast
// CHECK:         %[[B:.*]] = vrir.zeros(%[[M]], %[[N]]) : !vrir.array<f64, 2, col_major>
// CHECK:         %[[M1:.*]] = arith.addi %[[M]], %[[C1]] : index
// CHECK:         %[[N1:.*]] = arith.addi %[[N]], %[[C1]] : index
// CHECK:         %[[OUT:.*]] = scf.for %[[I:.*]] = %[[C1]] to %[[M1]] step %[[C1]] iter_args(%{{.*}} = %[[B]])
// CHECK:           scf.for %[[J:.*]] = %[[I]] to %[[N1]] step %[[C1]] iter_args
// CHECK:             vrir.load %[[A]][%[[J]], %[[J]]] : !vrir.array<f64, 2, col_major>[index, index]
// CHECK:             vrir.load %[[A]][%[[I]], %[[J]]] : !vrir.array<f64, 2, col_major>[index, index]
// CHECK:             vrir.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] flags [#vrir.index<lower|grow>, #vrir.index<lower|grow>]
// CHECK:         return %[[OUT]]
