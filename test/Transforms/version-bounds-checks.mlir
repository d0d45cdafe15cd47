// RUN: vr-opt %s -split-input-file -vrir-bounds-check-elim -vrir-version-bounds-checks | FileCheck %s

!v = !vrir.array<f64, 1, row_major>
!m = !vrir.array<f64, 2, row_major>

// `for i in range(n): s += x[i]` with `n` an argument: the upper check
// cannot be proven; it becomes one test before the loop (in 128 bits, at
// i = n - 1, where len(x) - 1 - i is smallest, or the loop is empty),
// choosing a copy without it.
// CHECK-LABEL: func.func @argument_bound
// CHECK: %[[LB:.*]] = arith.extsi %{{.*}} : i64 to i128
// CHECK: %[[UB:.*]] = arith.extsi %{{.*}} : i64 to i128
// CHECK: %[[EMPTY:.*]] = arith.cmpi sge, %[[LB]], %[[UB]] : i128
// CHECK: vrir.dim %{{.*}}, 0
// CHECK: %[[OK:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : i128
// CHECK: %[[COND:.*]] = arith.ori %[[EMPTY]], %[[OK]] : i1
// CHECK: %[[R:.*]] = scf.if %[[COND]] -> (f64) {
// CHECK:   scf.for
// CHECK:     vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
// CHECK: return %[[R]]
func.func @argument_bound(%x: !v, %n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 : i64 {
    %v = vrir.load %x[%i] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %t = arith.addf %acc, %v : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// A subscript that is not linear in the counter (x[i * i]) is not hoisted.
// CHECK-LABEL: func.func @not_linear
// CHECK-NOT: scf.if
// CHECK: vrir.load %{{.*}}[%{{.*}}] : !vrir.array
func.func @not_linear(%x: !v) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = vrir.dim %x, 0 : !v
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %j = arith.muli %i, %i : index
    %v = vrir.load %x[%j] : !v[index]
    %t = arith.addf %acc, %v : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// A check on a value computed in the loop (an index read from memory) is
// not hoisted; the other one in the same loop is.
// CHECK-LABEL: func.func @gathered
// CHECK: scf.if
// CHECK:   vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK:   vrir.load %{{.*}}[%{{.*}}] : !vrir.array<f64
// CHECK: } else {
// CHECK:   vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
// CHECK:   vrir.load %{{.*}}[%{{.*}}] : !vrir.array<f64
func.func @gathered(%x: !v, %idx: !vrir.array<i64, 1, row_major>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %k = vrir.load %idx[%i] : !vrir.array<i64, 1, row_major>[index]
    %v = vrir.load %x[%k] : !v[i64]
    %t = arith.addf %acc, %v : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// Loops without results keep scf.if's own terminators; the test depends on
// the outer counter and is made once per outer iteration.
// CHECK-LABEL: func.func @rows
// CHECK: scf.for %[[I:.*]] =
// CHECK:   scf.if
// CHECK:     scf.for
// CHECK:       vrir.store %{{.*}}, %{{.*}}[%[[I]], %{{.*}}] flags [#vrir.index<none>, #vrir.index<none>]
// CHECK:   } else {
// CHECK:     scf.for
// CHECK:       vrir.store %{{.*}}, %{{.*}}[%[[I]], %{{.*}}] flags [#vrir.index<none>, #vrir.index<upper>]
func.func @rows(%A: !m) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  %n = vrir.dim %A, 0 : !m
  scf.for %i = %c0 to %n step %c1 {
    %i1 = arith.addi %i, %c1 : index
    scf.for %j = %i1 to %n step %c1 {
      vrir.store %x, %A[%i, %j] : !m[index, index]
    }
  }
  return
}

// A parallel loop over a 2-D domain (a GPU section's kernel, or OpenMP):
// the test runs on the host before it; each check is evaluated at the
// corner of the domain where its expression is smallest.
// CHECK-LABEL: func.func @pfor_domain
// CHECK: vrir.gpu_section
// CHECK:   scf.if %{{.*}} {
// CHECK:     vrir.pfor
// CHECK:       vrir.load %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<none>, #vrir.index<none>]
// CHECK:   } else {
// CHECK:     vrir.pfor
// CHECK:       vrir.load %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<upper>, #vrir.index<upper>]
func.func @pfor_domain(%A: !m, %B: !m) {
  %c0 = arith.constant 0 : index
  %n = vrir.dim %B, 0 : !m
  %m = vrir.dim %B, 1 : !m
  %rows = vrir.range %c0 to %n
  %cols = vrir.range %c0 to %m
  %d = vrir.domain %rows, %cols : !vrir.domain<2>
  vrir.gpu_section {
    vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%B : !m) {
      %x = vrir.load %A[%i, %j] : !m[index, index]
      vrir.store %x, %B[%i, %j] : !m[index, index]
    }
  }
  return
}

// Inside a GPU kernel (an scf.for in a pfor of a section) the test would
// need 128-bit integers on the device: the loop is left as it is.
// CHECK-LABEL: func.func @in_kernel
// CHECK-NOT: scf.if
// CHECK: vrir.load %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<none>, #vrir.index<upper>]
func.func @in_kernel(%A: !m, %B: !m, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = vrir.dim %B, 0 : !m
  %rows = vrir.range %c0 to %n
  vrir.gpu_section {
    vrir.pfor (%i) in %rows : !vrir.range shared(%B : !m) {
      %s = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %c0) -> index {
        %x = vrir.load %B[%i, %j] : !m[index, index]
        scf.yield %acc : index
      }
    }
  }
  return
}

// CSR rows: k in [indptr[i], indptr[i+1]), both bounds unknown. The copy
// needs k >= 0 at the first k, which also makes NumPy's negative-index
// wrap-around a no-op: it drops both (the gathered x[indices[k]] keeps its
// checks).
// CHECK-LABEL: func.func @csr_row
// CHECK: scf.if
// CHECK:   vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK:   vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK:   vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<lower|upper|negative>]
// CHECK: } else {
// CHECK:   vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<lower|upper|negative>]
func.func @csr_row(%data: !v, %indices: !vrir.array<i64, 1, row_major>, %x: !v, %lo: i64, %hi: i64) -> f64 {
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %s = scf.for %k = %lo to %hi step %c1 iter_args(%acc = %zero) -> f64 : i64 {
    %a = vrir.load %data[%k] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %j = vrir.load %indices[%k] flags [#vrir.index<lower|upper|negative>] : !vrir.array<i64, 1, row_major>[i64]
    %b = vrir.load %x[%j] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %p = arith.mulf %a, %b : f64
    %t = arith.addf %acc, %p : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// The second loop's bound is a result of the first, versioned before it:
// its test reads the first scf.if's result, not the loop's (now inside the
// else branch, where it would not dominate the test). Found by the Python
// frontend's fuzzer (`for i in range(n): ...` then `for j in range(i)`).
// CHECK-LABEL: func.func @bound_from_versioned_loop
// CHECK: %[[FIRST:.*]]:2 = scf.if
// CHECK: arith.extsi %[[FIRST]]#1 : i64 to i128
// CHECK: scf.if %{{.*}} -> (f64) {
// CHECK:   scf.for %{{.*}} = %{{.*}} to %[[FIRST]]#1
// CHECK:     vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
func.func @bound_from_versioned_loop(%x: !v, %n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %s:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %last = %c0) -> (f64, i64) : i64 {
    %v = vrir.load %x[%i] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %t = arith.addf %acc, %v : f64
    scf.yield %t, %i : f64, i64
  }
  %r = scf.for %j = %c0 to %s#1 step %c1 iter_args(%acc = %s#0) -> f64 : i64 {
    %v = vrir.load %x[%j] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %t = arith.addf %acc, %v : f64
    scf.yield %t : f64
  }
  return %r : f64
}
