// RUN: vr-opt %s -split-input-file -vrir-test-loop-info -o /dev/null \
// RUN:   -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s

!v = !vrir.array<f64, 1, row_major>
!m = !vrir.array<f64, 2, row_major>

// A triangular nest: the inner loop's bound
// is the outer counter; its accesses are listed on the inner loop only, the
// arrays read and written on both.
// CHECK: remark: loop 0 (scf.for), depth 1, parent none, children [1]; accesses []; reads [%arg0]; writes [%arg0]; live-in [%arg0, %1]; calls 0; allocations 0; early exit no
// CHECK: remark: loop 1 (scf.for), depth 2, parent 0, children []; accesses [load %arg0[%arg1, %arg2], store %arg0[%arg2, %arg1]]; reads [%arg0]; writes [%arg0]; live-in [%arg0, %arg1]; calls 0; allocations 0; early exit no
func.func @triangular(%A: !m) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %d = vrir.dim %A, 0 : !m
  %n = arith.index_cast %d : index to i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    scf.for %j = %c0 to %i step %c1 : i64 {
      %x = vrir.load %A[%i, %j] : !m[i64, i64]
      vrir.store %x, %A[%j, %i] : !m[i64, i64]
    }
  }
  return
}

// -----

!v = !vrir.array<f64, 1, row_major>

func.func private @helper(f64) -> f64

// A call and an allocation in a loop; a pfor inside a plain while loop. The
// array allocated in the loop is the loop's own: not listed as read or
// written by it (the pfor, inside, lists it).
// CHECK: remark: loop 0 (scf.while), depth 1, parent none, children [1]; accesses [load %arg0[%arg3]]; reads [%arg0]; writes []; live-in [%arg2, %arg0, %arg1]; calls 1; allocations 1; early exit no
// CHECK: remark: loop 1 (vrir.pfor), depth 2, parent 0, children []; accesses [store %3[%arg5]]; reads [%3]; writes [%3]; live-in [%2, %3, %4]; calls 0; allocations 0; early exit no
func.func @while_with_pfor(%A: !v, %n: index, %stop: f64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %i0 = arith.constant 0 : index
  %r:2 = scf.while (%i = %c0, %s = %zero) : (i64, f64) -> (i64, f64) {
    %go = arith.cmpf olt, %s, %stop : f64
    scf.condition(%go) %i, %s : i64, f64
  } do {
  ^bb0(%i: i64, %s: f64):
    %x = vrir.load %A[%i] : !v[i64]
    %y = func.call @helper(%x) : (f64) -> f64
    %B = vrir.zeros(%n) : !v
    %range = vrir.range %i0 to %n
    vrir.pfor (%k) in %range : !vrir.range shared(%B : !v) {
      vrir.store %y, %B[%k] : !v[index]
    }
    %t = arith.addf %s, %y : f64
    %next = arith.addi %i, %c1 : i64
    scf.yield %next, %t : i64, f64
  }
  return %r#1 : f64
}

// -----

!v = !vrir.array<f64, 1, row_major>

// A `for` loop with a `break`, as lift-cf-to-scf structures it: the body
// runs in the condition region and the exit taken is dispatched after it.
// CHECK: remark: loop 0 (scf.while), depth 1, parent none, children []; accesses [load %arg0[%arg2]]; reads [%arg0]; writes []; live-in [%2, %arg0, %arg1]; calls 0; allocations 0; early exit yes
func.func @find(%A: !v, %x: f64) -> i64 {
  %true = arith.constant true
  %c2_i32 = arith.constant 2 : i32
  %poison = ub.poison : i64
  %c0_i32 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i64
  %cm1 = arith.constant -1 : i64
  %d = vrir.dim %A, 0 : !v
  %n = arith.index_cast %d : index to i64
  %w:3 = scf.while (%i = %c0) : (i64) -> (i64, i64, i32) {
    %in = arith.cmpi slt, %i, %n : i64
    %r:3 = scf.if %in -> (i64, i32, i32) {
      %e = vrir.load %A[%i] : !v[i64]
      %hit = arith.cmpf oeq, %e, %x : f64
      %which = arith.extui %hit : i1 to i32
      %miss = arith.xori %hit, %true : i1
      %go = arith.extui %miss : i1 to i32
      %next = scf.if %hit -> (i64) {
        scf.yield %poison : i64
      } else {
        %i1 = arith.addi %i, %c1 : i64
        scf.yield %i1 : i64
      }
      scf.yield %next, %which, %go : i64, i32, i32
    } else {
      scf.yield %poison, %c2_i32, %c0_i32 : i64, i32, i32
    }
    %cont = arith.trunci %r#2 : i32 to i1
    scf.condition(%cont) %r#0, %i, %r#1 : i64, i64, i32
  } do {
  ^bb0(%next: i64, %i: i64, %which: i32):
    scf.yield %next : i64
  }
  %sel = arith.index_castui %w#2 : i32 to index
  %k = scf.index_switch %sel -> i64
  case 1 {
    scf.yield %w#1 : i64
  }
  default {
    scf.yield %cm1 : i64
  }
  return %k : i64
}
