// RUN: vr-opt %s -vrir-uplift-while-to-for | FileCheck %s

// A range loop as lift-cf-to-scf leaves it: compare, then add the step.
// CHECK-LABEL: func.func @counted
// CHECK-NOT: scf.while
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f64) : i64
func.func @counted(%n: i64, %x: f64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r:2 = scf.while (%i = %c0, %s = %x) : (i64, f64) -> (i64, f64) {
    %c = arith.cmpi slt, %i, %n : i64
    scf.condition(%c) %i, %s : i64, f64
  } do {
  ^bb0(%i: i64, %s: f64):
    %t = arith.addf %s, %s : f64
    %next = arith.addi %i, %c1 : i64
    scf.yield %next, %t : i64, f64
  }
  return %r#1 : f64
}

// A loop whose condition is not a bound on a counter stays a while loop.
// CHECK-LABEL: func.func @data_dependent
// CHECK: scf.while
func.func @data_dependent(%x: f64) -> f64 {
  %lim = arith.constant 100.0 : f64
  %r = scf.while (%s = %x) : (f64) -> f64 {
    %c = arith.cmpf olt, %s, %lim : f64
    scf.condition(%c) %s : f64
  } do {
  ^bb0(%s: f64):
    %t = arith.addf %s, %s : f64
    scf.yield %t : f64
  }
  return %r : f64
}

// The counter after the loop is the first value that fails the test,
// lb + trip * step, or lb when the loop does not run (upstream gives the
// value of the last iteration). The empty loop folds away.
// CHECK-LABEL: func.func @counter_after_loop
// CHECK-SAME: (%[[N:.*]]: i64, %[[STEP:.*]]: i64)
// CHECK: %[[LB:.*]] = arith.constant 0 : i64
// CHECK: %[[TRIP:.*]] = arith.ceildivsi %[[N]], %[[STEP]] : i64
// CHECK: %[[END:.*]] = arith.muli %[[TRIP]], %[[STEP]] : i64
// CHECK: %[[EXIT:.*]] = arith.maxsi %[[END]], %[[LB]] : i64
// CHECK: return %[[EXIT]]
func.func @counter_after_loop(%n: i64, %step: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %r = scf.while (%i = %c0) : (i64) -> i64 {
    %c = arith.cmpi slt, %i, %n : i64
    scf.condition(%c) %i : i64
  } do {
  ^bb0(%i: i64):
    %next = arith.addi %i, %step : i64
    scf.yield %next : i64
  }
  return %r : i64
}

// A loop that runs keeps its body; the counter's exit value is computed
// after it (max(n, 0) with step 1, once folded).
// CHECK-LABEL: func.func @counter_and_body
// CHECK-SAME: (%[[N:.*]]: i64, %{{.*}}: f64)
// CHECK: %[[LOOP:.*]] = scf.for
// CHECK: %[[EXIT:.*]] = arith.maxsi %[[N]], %{{.*}} : i64
// CHECK: return %[[EXIT]], %[[LOOP]]
func.func @counter_and_body(%n: i64, %x: f64) -> (i64, f64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r:2 = scf.while (%i = %c0, %s = %x) : (i64, f64) -> (i64, f64) {
    %c = arith.cmpi slt, %i, %n : i64
    scf.condition(%c) %i, %s : i64, f64
  } do {
  ^bb0(%i: i64, %s: f64):
    %t = arith.addf %s, %s : f64
    %next = arith.addi %i, %c1 : i64
    scf.yield %next, %t : i64, f64
  }
  return %r#0, %r#1 : i64, f64
}
