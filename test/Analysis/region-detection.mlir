// RUN: vr-opt %s -split-input-file -vrir-test-region-detection -o /dev/null \
// RUN:   -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s
//
// Region detection (thesis 6.3, appendix B): one case per rule, and the
// thesis's figures 6.2, 6.3 and 6.5. Each legal region is reported on its
// first op with its last op, whether it is interesting and its critical
// shape and value variables at entry (constants left out).

!m = !vrir.array<f64, 2, col_major>
// Thesis figure 6.2 (test/Dialect/VRIR/examples/fig6_2_gn.mlir): the region
// starts at program point P, after the opaque calls and the conditional
// that defines n; its critical value variables are m and n, its critical
// shape variable A. The constants before the calls form a region of their
// own, not an interesting one.
module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  func.func private @opaque_fn1() -> i64
  func.func private @opaque_fn2() -> i1
  func.func private @expr1() -> i64
  func.func private @expr2() -> i64

  func.func @gn(%A: !m) -> !m {
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
    %B = vrir.zeros(%m, %n) : !m
    // Loop nest L: for i=1:m, for j=i:n (inclusive stops).
    %m1 = arith.addi %m, %c1 : index
    %n1 = arith.addi %n, %c1 : index
    // B grows on write (MATLAB), so it is carried through the loops.
    %Bout = scf.for %i = %c1 to %m1 step %c1 iter_args(%Bi = %B) -> (!m) {
      %Bj = scf.for %j = %i to %n1 step %c1 iter_args(%Bc = %Bi) -> (!m) {
        // t = A(j,j)*2;
        %ajj = vrir.load %A[%j, %j] : !m[index, index]
        %t = arith.mulf %ajj, %two : f64
        // B(i,j) = A(i,j)*2 + t;
        %aij = vrir.load %A[%i, %j] : !m[index, index]
        %aij2 = arith.mulf %aij, %two : f64
        %v = arith.addf %aij2, %t : f64
        %Bn = vrir.store %v, %Bc[%i, %j] flags [#vrir.index<lower|grow>, #vrir.index<lower|grow>]
            : !m[index, index] -> !m
        scf.yield %Bn : !m
      }
      scf.yield %Bj : !m
    }
    return %Bout : !m
  }
}
// CHECK: remark: region 0 to 'arith.constant' at {{.*}}, not interesting; critical shapes {{\[}}] values {{\[}}]
// CHECK: remark: region 1 to 'scf.for' at {{.*}}, interesting (array loops 2, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%2, %0]

// -----
!v = !vrir.array<f64, 1, row_major>
!iv = !vrir.array<i64, 1, row_major>
!m = !vrir.array<f64, 2, row_major>

// Appendix B, array library operation (A = B + C): the operands' shapes
// are critical, the result's is inferred. Two vector operations make the
// region interesting.
func.func @library(%B: !v, %C: !v) -> !v {
  %A = vrir.binary add %B, %C : !v, !v -> !v
  %D = vrir.binary mul %A, %A : !v, !v -> !v
  return %D : !v
}
// CHECK: remark: region 0 to 'vrir.binary' at {{.*}}, interesting (array loops 0, vector ops 2, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0, %arg1] values {{\[}}]

// -----
!v = !vrir.array<f64, 1, row_major>
// Appendix B, allocation (A = zeros(m, n)): the sizes are critical values.
func.func @allocation(%m: index, %B: !v) -> !v {
  %A = vrir.zeros(%m) : !v
  %C = vrir.binary add %A, %B : !v, !v -> !v
  %D = vrir.binary mul %C, %C : !v, !v -> !v
  return %D : !v
}
// CHECK: remark: region 0 to 'vrir.binary' at {{.*}}, interesting (array loops 0, vector ops 2, in loops 0, GPU sections 0); critical shapes {{\[}}%arg1] values {{\[}}%arg0]

// -----
!v = !vrir.array<f64, 1, row_major>
// Appendix B, element read in an affine loop (t = A[i + m]): A's shape and
// the subscript's use m are critical; so are the loop bounds (n).
func.func @affine_read(%A: !v, %B: !v, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = arith.addi %i, %m : index
    %t = vrir.load %A[%s] : !v[index]
    vrir.store %t, %B[%i] : !v[index]
  }
  return
}
// CHECK: remark: region 0 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg1, %arg0] values {{\[}}%arg2, %arg3]

// -----
!v = !vrir.array<f64, 1, row_major>
// Appendix B, element read in a non-affine position (A[i * i]): nothing is
// added for it; B's write is affine.
func.func @non_affine_read(%A: !v, %B: !v, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = arith.muli %i, %i : index
    %t = vrir.load %A[%s] : !v[index]
    vrir.store %t, %B[%i] : !v[index]
  }
  return
}
// CHECK: remark: region 0 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg1] values {{\[}}%arg2]

// -----
!v = !vrir.array<f64, 1, row_major>
!iv = !vrir.array<i64, 1, row_major>
// Appendix B, a read whose result is critical (a loop bound read from an
// array, as CSR's row pointers): the array is a critical shape and value.
func.func @critical_read(%ptr: !iv, %x: !v, %y: !v, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %ip1 = arith.addi %i, %c1 : index
    %lo64 = vrir.load %ptr[%i] : !iv[index]
    %hi64 = vrir.load %ptr[%ip1] : !iv[index]
    %lo = arith.index_cast %lo64 : i64 to index
    %hi = arith.index_cast %hi64 : i64 to index
    scf.for %k = %lo to %hi step %c1 {
      %t = vrir.load %x[%k] : !v[index]
      vrir.store %t, %y[%i] : !v[index]
    }
  }
  return
}
// CHECK: remark: region 0 to 'scf.for' at {{.*}}, interesting (array loops 2, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg2, %arg1, %arg0] values {{\[}}%arg0, %arg3]

// -----
!v = !vrir.array<f64, 1, row_major>
// Appendix B, slice (B = A(m:n)): A's shape and the bounds are critical,
// B's shape is inferred.
func.func @slice(%A: !v, %m: index, %n: index) -> !v {
  %r = vrir.range %m to %n
  %B = vrir.slice %A[%r] : !v[!vrir.range] -> !vrir.array<f64, 1, strided>
  %C = vrir.binary add %B, %B : !vrir.array<f64, 1, strided>, !vrir.array<f64, 1, strided> -> !v
  %D = vrir.binary mul %C, %C : !v, !v -> !v
  return %D : !v
}
// CHECK: remark: region 0 to 'vrir.binary' at {{.*}}, interesting (array loops 0, vector ops 2, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%arg1, %arg2]

// -----
!v = !vrir.array<f64, 1, row_major>
!iv = !vrir.array<i64, 1, row_major>
// Appendix B, an array subscripted with an array (C = A(B)) and assigned
// through one (A(B) = C): both arrays' shapes, and the index array's values.
func.func @gather_scatter(%A: !v, %B: !iv, %D: !v) {
  %C = vrir.gather %A[%B] : !v[!iv] -> !v
  %E = vrir.binary add %C, %C : !v, !v -> !v
  vrir.scatter %E, %D[%B] : !v, !v[!iv]
  return
}
// CHECK: remark: region 0 to 'vrir.scatter' at {{.*}}, interesting (array loops 0, vector ops 3, in loops 0, GPU sections 0); critical shapes {{\[}}%arg2, %arg1, %arg0] values {{\[}}%arg1]

// -----
!v = !vrir.array<f64, 1, row_major>
// Appendix B, element write in an affine loop (A[i + t0] = t1): A's shape
// and t0 are critical; t1, a scalar computed in the region from a float
// argument, is not.
func.func @affine_write(%A: !v, %t0: index, %x: f64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = arith.addi %i, %t0 : index
    %t1 = arith.mulf %x, %x : f64
    vrir.store %t1, %A[%s] : !v[index]
  }
  return
}
// CHECK: remark: region 0 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%arg1, %arg3]

// -----
!v = !vrir.array<f64, 1, row_major>
// Appendix B, scalars: a critical scalar defined by integer arithmetic
// (n = a + b) makes a and b critical; one defined otherwise (k from a float)
// ends the region, which then starts after it.
func.func @scalars(%A: !v, %a: index, %b: index, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.addi %a, %b : index
  scf.for %i = %c0 to %n step %c1 {
    %t = vrir.load %A[%i] : !v[index]
    vrir.store %t, %A[%i] : !v[index]
  }
  %k64 = arith.fptosi %x : f64 to i64
  %k = arith.index_cast %k64 : i64 to index
  scf.for %i = %c0 to %k step %c1 {
    %t = vrir.load %A[%i] : !v[index]
    vrir.store %t, %A[%i] : !v[index]
  }
  return
}
// CHECK: remark: region 0 to 'arith.fptosi' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%arg1, %arg2]
// CHECK: remark: region 1 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%1]

// -----
!v = !vrir.array<f64, 1, row_major>
func.func private @opaque() -> index
// 6.3.3, conditionals. In @branch_no_def neither branch defines a critical
// variable: the sets of both branches are merged. In @branch_def the
// branches define the loop bound: the condition becomes critical. In
// @branch_call a branch is opaque: the conditional is in no region, but
// its branches are searched (the loop in the then-branch is a region).
func.func @branch_no_def(%A: !v, %c: i1, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.if %c {
    %t = vrir.load %A[%m] : !v[index]
    vrir.store %t, %A[%c0] : !v[index]
  }
  scf.for %i = %c0 to %n step %c1 {
    %t = vrir.load %A[%i] : !v[index]
    vrir.store %t, %A[%i] : !v[index]
  }
  return
}
func.func @branch_def(%A: !v, %c: i1, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = scf.if %c -> (index) {
    scf.yield %m : index
  } else {
    %d = arith.addi %n, %c1 : index
    scf.yield %d : index
  }
  scf.for %i = %c0 to %b step %c1 {
    %t = vrir.load %A[%i] : !v[index]
    vrir.store %t, %A[%i] : !v[index]
  }
  return
}
func.func @branch_call(%A: !v, %c: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = scf.if %c -> (index) {
    scf.for %i = %c0 to %n step %c1 {
      %t = vrir.load %A[%i] : !v[index]
      vrir.store %t, %A[%i] : !v[index]
    }
    scf.yield %n : index
  } else {
    %o = func.call @opaque() : () -> index
    scf.yield %o : index
  }
  scf.for %i = %c0 to %b step %c1 {
    %t = vrir.load %A[%i] : !v[index]
    vrir.store %t, %A[%i] : !v[index]
  }
  return
}
// CHECK: remark: region 0 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%arg3]
// CHECK: remark: region 1 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%arg2, %arg3, %arg1]
// CHECK: remark: region 2 to 'arith.constant' at {{.*}}, not interesting; critical shapes {{\[}}] values {{\[}}]
// CHECK: remark: region 3 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%arg2]
// CHECK: remark: region 4 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%0]

// -----
!v = !vrir.array<f64, 1, row_major>
func.func private @log(f64)
// 6.3.4, loops. A while loop joins with no bound parameters. A loop
// carrying a critical scalar (the bound of the next loop) cannot join the
// region after it; it starts its own. A call in a loop body keeps the loop
// out of every region.
func.func @loops(%A: !v, %n: index, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%i: index):
    %t = vrir.load %A[%i] : !v[index]
    vrir.store %t, %A[%i] : !v[index]
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  %k = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %t = vrir.load %A[%i] : !v[index]
    %a = arith.addi %acc, %c1 : index
    scf.yield %a : index
  }
  scf.for %i = %c0 to %k step %c1 {
    %t = vrir.load %A[%i] : !v[index]
    vrir.store %t, %A[%i] : !v[index]
  }
  scf.for %i = %c0 to %n step %c1 {
    %t = vrir.load %A[%i] : !v[index]
    func.call @log(%t) : (f64) -> ()
  }
  return
}
// CHECK: remark: region 0 to 'scf.for' at {{.*}}, interesting (array loops 2, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%arg1]
// CHECK: remark: region 1 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%1]

// -----
!m = !vrir.array<f64, 2, col_major>
// 6.5.2, growth: a growing write with affine subscripts in an affine loop is
// kept (optimistically assumed not to grow); one outside a loop is not.
module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  func.func @growth(%A: !m, %n: index, %x: f64) -> !m {
    %c1 = arith.constant 1 : index
    %n1 = arith.addi %n, %c1 : index
    %B = scf.for %i = %c1 to %n1 step %c1 iter_args(%Bi = %A) -> (!m) {
      %Bn = vrir.store %x, %Bi[%i, %i] flags [#vrir.index<lower|grow>, #vrir.index<lower|grow>] : !m[index, index] -> !m
      scf.yield %Bn : !m
    }
    %C = vrir.store %x, %B[%n, %n] flags [#vrir.index<lower|grow>, #vrir.index<lower|grow>] : !m[index, index] -> !m
    return %C : !m
  }
}
// CHECK: remark: region 0 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%arg1]

// -----
!m = !vrir.array<f64, 2, row_major>
// Parallel loops and GPU sections are taken whole; the domain's bounds are
// critical values.
func.func @parallel(%A: !m, %B: !m) {
  %c0 = arith.constant 0 : index
  %n = vrir.dim %A, 0 : !m
  %m = vrir.dim %A, 1 : !m
  vrir.gpu_section {
    %r0 = vrir.range %c0 to %n
    %r1 = vrir.range %c0 to %m
    %d = vrir.domain %r0, %r1 : !vrir.domain<2>
    vrir.pfor (%i, %j) in %d : !vrir.domain<2>
        shared(%A : !m) {
      %t = vrir.load %B[%i, %j] : !m[index, index]
      vrir.store %t, %A[%i, %j] : !m[index, index]
    }
  }
  return
}
// CHECK: remark: region 0 to 'vrir.gpu_section' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 1); critical shapes {{\[}}%arg0, %arg1] values {{\[}}]

// -----
!v = !vrir.array<f64, 1, row_major>
func.func private @non_analyzable() -> index
// Thesis figure 6.3 (pseudo-Python): n comes from a non-analyzable
// expression and is not in the region, which holds the allocation and the
// loop; at each program point the critical sets are shown. B's shape is
// critical inside the loop (its next iteration reads it), A's is inferred
// from the allocation.
//
//   n = non_analyzable()
//   A = zeros(n)
//   for i in range(n):
//       A[i] = B[i] * 2
func.func @fig6_3(%B: !v) -> !v {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n = func.call @non_analyzable() : () -> index
  %A = vrir.zeros(%n) : !v
  scf.for %i = %c0 to %n step %c1 {
    %b = vrir.load %B[%i] : !v[index]
    %t = arith.mulf %b, %two : f64
    vrir.store %t, %A[%i] : !v[index]
  }
  return %A : !v
}
// CHECK: remark: region 0 to 'arith.constant' at {{.*}}, not interesting; critical shapes {{\[}}] values {{\[}}]
// CHECK: remark: before: shapes {{\[}}] values {{\[}}]
// CHECK: remark: before: shapes {{\[}}] values {{\[}}]
// CHECK: remark: before: shapes {{\[}}] values {{\[}}]
// CHECK: remark: region 1 to 'scf.for' at {{.*}}, interesting (array loops 1, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0] values {{\[}}%0]
// CHECK: remark: before: shapes {{\[}}%arg0] values {{\[}}%0]
// CHECK: remark: before: shapes {{\[}}%1, %arg0] values {{\[}}%0]

// -----
!v = !vrir.array<f64, 1, row_major>
// Thesis figure 6.5b: after inlining stencil into foo's time-step loop, the
// whole nest is one region whose critical shapes are {A, B} and critical
// value is {m}.
func.func @fig6_5(%A: !v, %B: !v, %m64: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f64
  %m = arith.index_cast %m64 : i64 to index
  scf.for %step = %c0 to %m step %c1 {
    %n = vrir.dim %A, 0 : !v
    scf.for %i = %c1 to %n step %c1 {
      %im1 = arith.subi %i, %c1 : index
      %ip1 = arith.addi %i, %c1 : index
      %b0 = vrir.load %B[%i] : !v[index]
      %bm = vrir.load %B[%im1] : !v[index]
      %bp = vrir.load %B[%ip1] : !v[index]
      %s0 = arith.addf %b0, %bm : f64
      %s1 = arith.addf %s0, %bp : f64
      %v = arith.divf %s1, %three : f64
      vrir.store %v, %A[%i] : !v[index]
    }
  }
  return
}
// CHECK: remark: region 0 to 'scf.for' at {{.*}}, interesting (array loops 2, vector ops 0, in loops 0, GPU sections 0); critical shapes {{\[}}%arg0, %arg1] values {{\[}}%arg2]
