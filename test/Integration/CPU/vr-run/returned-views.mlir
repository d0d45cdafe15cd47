// A function that returns views of its arguments (and a new array): the
// views are not copied (vrir-return-argument-views) and vr-run frees only
// the new array, once per run (under AddressSanitizer a free of an
// argument's buffer would fail this test).
// RUN: vr-run %s --entry views --arg A=arange:6 --repeat 3 | FileCheck %s
// RUN: vr-opt %s --pass-pipeline='builtin.module(vrir-to-cpu)' \
// RUN:   --mlir-print-ir-after=vrir-return-argument-views -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IR
// CHECK: result 0: [1, 2, 3, 4, 5]
// CHECK: result 1: [0, 2, 4]
// CHECK: result 2: [0, 2, 4, 6, 8, 10]
// IR-LABEL: func.func @views(
// The new array is the only one allocated; nothing is cloned.
// IR-COUNT-1: memref.alloc
// IR-NOT: bufferization.clone

!v = !vrir.array<f64, 1, row_major>
!s = !vrir.array<f64, 1, strided>
func.func @views(%A: !v) -> (!s, !s, !v) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = vrir.dim %A, 0 : !v
  %tail = vrir.range %c1 to %n step %c1
  %rest = vrir.slice %A[%tail] : !v[!vrir.range] -> !s
  %evens = vrir.range %c0 to %n step %c2
  %even = vrir.slice %A[%evens] : !v[!vrir.range] -> !s
  %doubled = vrir.binary add %A, %A : !v, !v -> !v
  return %rest, %even, %doubled : !s, !s, !v
}
