// The affine route end to end: a triangular nest with an offset, a symbol
// (the i64 argument k) in a subscript and a store to the transposed
// position runs through affine.for/affine.load/affine.store, and gives the
// same array as the scf-only lowering. With A = arange(16).reshape(4, 4)
// and k = 1, B[j, i] = A[i - 1, j + 1] = 4 (i - 1) + j + 1 for j < i.
// RUN: vr-opt %s --pass-pipeline='builtin.module(vrir-to-cpu)' \
// RUN:   --mlir-print-ir-after=vrir-raise-to-affine -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IR
// IR: affine.for %[[I:.*]] = 1 to
// IR:   affine.for %[[J:.*]] = 0 to {{.*}}(%[[I]])
// IR:     affine.load %{{.*}}[%[[I]] - 1, %[[J]] + symbol(%{{.*}})]
// IR:     affine.store %{{.*}}, %{{.*}}[%[[J]], %[[I]]]
// RUN: vr-run %s --entry tri --arg A=arange:4x4 --arg k=1 | FileCheck %s
// RUN: vr-run %s --entry tri --arg A=arange:4x4 --arg k=1 --no-affine | FileCheck %s
// CHECK: result 0: {{\[}}[0, 1, 5, 9], [0, 0, 6, 10], [0, 0, 0, 11], [0, 0, 0, 0]]

!m = !vrir.array<f64, 2, row_major>
func.func @tri(%A: !m, %k: i64) -> !m {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %d = vrir.dim %A, 0 : !m
  %n = arith.index_cast %d : index to i64
  %B = vrir.zeros(%d, %d) : !m
  scf.for %i = %c1 to %n step %c1 : i64 {
    scf.for %j = %c0 to %i step %c1 : i64 {
      %r = arith.subi %i, %c1 : i64
      %c = arith.addi %j, %k : i64
      %x = vrir.load %A[%r, %c] : !m[i64, i64]
      vrir.store %x, %B[%j, %i] : !m[i64, i64]
    }
  }
  return %B : !m
}
