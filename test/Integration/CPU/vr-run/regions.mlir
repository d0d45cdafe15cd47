// Region specialization end to end: the loop nest below moves into
// @shift_region0 behind a vrir.dispatch whose arguments come in another
// order than the function's (n, which the region converts to an index,
// first). With --specialize the dispatcher compiles one version for the
// call's shapes (all four bounds checks proven against them) and reuses it
// on the next runs; VRIR_SPECIALIZE=alias compiles one for the arrays'
// aliasing only (no extents: two checks proven, the other two hoisted);
// VRIR_SPECIALIZE=0 runs the generic version; results are the same, and an
// out-of-bounds access inside the specialised code still names the
// caller's argument.
// RUN: vr-opt %s --pass-pipeline='builtin.module(vrir-to-cpu{specialize=true})' \
// RUN:   --mlir-print-ir-after=vrir-outline-regions -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IR
// IR: vrir.dispatch @shift_region0(%arg2, %arg0, %arg1) shapes [1, 2] values [0]
// IR: func.func private @shift_region0(%{{.*}}: i64, %{{.*}}: !vrir.array<f64, 1, row_major> {vrir.array_description = "array argument #0"}, %{{.*}}: !vrir.array<f64, 1, row_major> {vrir.array_description = "array argument #1"})
// IR-SAME: signature = "i64V,m1:8S,m1:8S"
// RUN: vr-run %s --entry shift --arg A=arange:5 --arg B=zeros:5 --arg n=4 \
// RUN:   --specialize --repeat 3 -stats 2>&1 | FileCheck %s --check-prefixes=CHECK,STATS
// RUN: env VRIR_SPECIALIZE=alias VRIR_SPECIALIZE_VERBOSE=1 vr-run %s \
// RUN:   --entry shift --arg A=arange:5 --arg B=zeros:5 --arg n=4 \
// RUN:   --specialize --repeat 3 -stats 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ALIAS
// ALIAS: vrir: specialized shift_region0 for [{}, {rank = 1 : i64, noalias}, {rank = 1 : i64, noalias}]
// RUN: env VRIR_SPECIALIZE=0 vr-run %s --entry shift --arg A=arange:5 \
// RUN:   --arg B=zeros:5 --arg n=4 --specialize --repeat 3 -stats 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,GENERIC
// RUN: vr-run %s --entry shift --arg A=arange:5 --arg B=zeros:5 --arg n=4 \
// RUN:   | FileCheck %s
// CHECK: result 0: 10
// ALIAS: region shift_region0: calls=3 hits=2 misses=1 generic=0 compile_failures=0 compile_ms={{[0-9.]+}} checks=4 proven=2 cached=1
// STATS: region shift_region0: calls=3 hits=2 misses=1 generic=0 compile_failures=0 compile_ms={{[0-9.]+}} checks=4 proven=4 cached=1
// GENERIC: region shift_region0: calls=3 hits=0 misses=0 generic=3 compile_failures=0 compile_ms=0.0 checks=0 proven=0 cached=0
// RUN: not vr-run %s --entry shift --arg A=arange:4 --arg B=zeros:4 --arg n=4 \
// RUN:   --specialize 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: env VRIR_SPECIALIZE=alias not vr-run %s --entry shift --arg A=arange:4 \
// RUN:   --arg B=zeros:4 --arg n=4 --specialize 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: vrir: error: index out of bounds: array 'A', accessed at {{.*}}regions.mlir:[[@LINE+11]]:{{[0-9]+}}: dimension 0, index 4, extent 4

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
