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
