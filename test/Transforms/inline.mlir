// RUN: vr-opt %s -vrir-inline=max-callee-size=4 | FileCheck %s
// RUN: vr-opt %s -vrir-inline | FileCheck %s --check-prefix=DEFAULT

!v = !vrir.array<f64, 1, row_major>

// 2 operations: inlined.
func.func private @small(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}

// 6 operations: above the bound of 4, below the default 300.
func.func private @big(%x: f64) -> f64 {
  %a = arith.mulf %x, %x : f64
  %b = arith.addf %a, %x : f64
  %c = arith.mulf %b, %a : f64
  %d = arith.addf %c, %b : f64
  %e = arith.mulf %d, %c : f64
  return %e : f64
}

// Self-recursive: never inlined into itself.
func.func private @recursive(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %stop = arith.cmpi sle, %n, %c0 : i64
  %r = scf.if %stop -> i64 {
    scf.yield %c0 : i64
  } else {
    %m = arith.subi %n, %c1 : i64
    %s = func.call @recursive(%m) : (i64) -> i64
    %t = arith.addi %s, %n : i64
    scf.yield %t : i64
  }
  return %r : i64
}

// CHECK-LABEL: func.func @caller
// CHECK-NOT: call @small
// CHECK: call @big
// CHECK: vrir.pfor
// CHECK-NOT: call @big
// CHECK: vrir.gpu_section
// CHECK-NOT: call @big
// CHECK: call @recursive
// DEFAULT-LABEL: func.func @caller
// DEFAULT-NOT: call @big
// DEFAULT: call @recursive
func.func @caller(%A: !v, %x: f64, %n: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %y = func.call @small(%x) : (f64) -> f64
  %z = func.call @big(%y) : (f64) -> f64
  %d = vrir.dim %A, 0 : !v
  %r = vrir.range %c0 to %d
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !v) {
    %w = func.call @big(%z) : (f64) -> f64
    vrir.store %w, %A[%i] : !v[index]
  }
  vrir.gpu_section {
    vrir.pfor (%i) in %r : !vrir.range shared(%A : !v) {
      %w = vrir.load %A[%i] : !v[index]
      %u = func.call @big(%w) : (f64) -> f64
      vrir.store %u, %A[%i] : !v[index]
    }
  }
  %s = func.call @recursive(%n) : (i64) -> i64
  return %s : i64
}
