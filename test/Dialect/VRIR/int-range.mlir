// RUN: vr-opt %s -split-input-file -int-range-optimizations | FileCheck %s

// vrir.dim is never negative, and a pfor over an exclusive range reports
// its bounds to upstream integer range analysis (LLVM 22 crashed on loops
// that report induction variables without bounds).
// CHECK-LABEL: func.func @pfor_counter
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: vrir.pfor
// CHECK: vrir.store %[[FALSE]], %{{.*}}[%{{.*}}]
// CHECK: return %[[FALSE]]
!v = !vrir.array<i1, 1, row_major>
func.func @pfor_counter(%A: !v) -> i1 {
  %c0 = arith.constant 0 : index
  %n = vrir.dim %A, 0 : !v
  %neg = arith.cmpi slt, %n, %c0 : index
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !v) {
    %below = arith.cmpi slt, %i, %c0 : index
    %k = arith.index_cast %below : i1 to index
    vrir.store %below, %A[%k] : !v[index]
  }
  return %neg : i1
}

// -----

// MATLAB's inclusive ranges are not LoopLikeOpInterface bounds: the pass
// runs and infers nothing about the counter.
// CHECK-LABEL: func.func @inclusive
// CHECK: arith.cmpi slt
module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  func.func @inclusive(%A: !vrir.array<i1, 1, col_major>, %n: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %r = vrir.range %c1 to %n
    vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<i1, 1, col_major>) {
      %small = arith.cmpi slt, %i, %c2 : index
      vrir.store %small, %A[%i] : !vrir.array<i1, 1, col_major>[index]
    }
    return
  }
}

// -----

// A reduction's result is not any iteration's contribution (a sum of n
// ones can exceed 1): the pfor forwards nothing to its results, so range
// analysis knows nothing of them and the comparison stays.
// CHECK-LABEL: func.func @reduction_result
// CHECK: %[[S:.*]] = vrir.pfor
// CHECK: %[[B:.*]] = arith.cmpi sle, %[[S]], %{{.*}} : i64
// CHECK: return %[[B]]
func.func @reduction_result(%n: index) -> i1 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r = vrir.range %c0 to %n
  %s = vrir.pfor (%i) in %r : !vrir.range reduce(sum %zero : i64) {
    vrir.yield %one : i64
  }
  %b = arith.cmpi sle, %s, %one : i64
  return %b : i1
}
