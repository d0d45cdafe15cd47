// Bounds-check elimination end to end (vr-run --stats counts): the sum over
// x[0..n) keeps its upper check as one test before the loop (n is an
// argument), the loop over the array's own extent loses both checks, and
// x[n - 1] keeps its own; n past the end still raises, with or without
// the passes.
// RUN: vr-run %s --entry sum_first --arg x=arange:8 --arg n=8 --stats 2>&1 | FileCheck %s
// CHECK: 28
// CHECK: bounds checks: checks=6 proven=3 repeated=0 hoisted=1 kept=2
// RUN: not vr-run %s --entry sum_first --arg x=arange:8 --arg n=9 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not vr-run %s --entry sum_first --arg x=arange:8 --arg n=9 --keep-checks 2>&1 | FileCheck %s --check-prefix=OOB
// OOB: index out of bounds: {{.*}}dimension 0, index 8, extent 8
// RUN: vr-run %s --entry sum_first --arg x=arange:8 --arg n=8 --keep-checks --stats 2>&1 | FileCheck %s --check-prefix=KEEP
// KEEP: 28
// KEEP: bounds checks: checks=0 proven=0

!v = !vrir.array<f64, 1, row_major>
func.func @sum_first(%x: !v, %n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  // Hoisted: one test (n <= len(x)) before the loop.
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 : i64 {
    %v = vrir.load %x[%i] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %t = arith.addf %acc, %v : f64
    scf.yield %t : f64
  }
  // Proven: 0 <= i < len(x).
  %d = vrir.dim %x, 0 : !v
  %m = arith.index_cast %d : index to i64
  %t = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %s) -> f64 : i64 {
    %v = vrir.load %x[%i] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %u = arith.addf %acc, %v : f64
    scf.yield %u : f64
  }
  // Kept: n - 1 may be anything.
  %last = arith.subi %n, %c1 : i64
  %w = vrir.load %x[%last] flags [#vrir.index<lower|upper|negative>] : !v[i64]
  %r = arith.subf %t, %s : f64
  %q = arith.subf %r, %w : f64
  %z = arith.addf %q, %w : f64
  return %z : f64
}
