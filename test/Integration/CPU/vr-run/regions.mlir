// Outlined regions (vrir-outline-regions) run as the code they came from:
// the loop nest below moves into @shift_region0 behind a vrir.dispatch whose
// arguments come in another order than the function's (n, which the
// region converts to an index, first), and an
// out-of-bounds access inside still names the caller's argument.
// RUN: vr-opt %s --pass-pipeline='builtin.module(vrir-to-cpu{regions=true})' \
// RUN:   --mlir-print-ir-after=vrir-outline-regions -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IR
// IR: vrir.dispatch @shift_region0(%arg2, %arg0, %arg1) shapes [1, 2] values [0]
// IR: func.func private @shift_region0(%{{.*}}: i64, %{{.*}}: !vrir.array<f64, 1, row_major> {vrir.array_description = "array argument #0"}, %{{.*}}: !vrir.array<f64, 1, row_major> {vrir.array_description = "array argument #1"})
// RUN: vr-run %s --entry shift --arg A=arange:5 --arg B=zeros:5 --arg n=4 \
// RUN:   --outline-regions | FileCheck %s
// RUN: vr-run %s --entry shift --arg A=arange:5 --arg B=zeros:5 --arg n=4 \
// RUN:   | FileCheck %s
// CHECK: result 0: 10
// RUN: not vr-run %s --entry shift --arg A=arange:4 --arg B=zeros:4 --arg n=4 \
// RUN:   --outline-regions 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: vrir: error: index out of bounds: array argument #0, accessed at {{.*}}regions.mlir:[[@LINE+11]]:{{[0-9]+}}: dimension 0, index 4, extent 4

!v = !vrir.array<f64, 1, row_major>
func.func @shift(%A: !v, %B: !v, %n64: i64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = arith.index_cast %n64 : i64 to index
  // B[i] = A[i + 1] for i < n, then the sum of B.
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %ip1 = arith.addi %i, %c1 : index
    %x = vrir.load %A[%ip1] : !v[index]
    vrir.store %x, %B[%i] : !v[index]
    %sum = arith.addf %acc, %x : f64
    scf.yield %sum : f64
  }
  return %s : f64
}
