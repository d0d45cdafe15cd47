// Region specialization end to end: the loop nest below moves into
// @shift_region0 behind a vrir.dispatch whose arguments come in another
// order than the function's (n, which the region converts to an index,
// first). With --specialize the dispatcher compiles one version and reuses
// it on the next runs: by default (VRIR_SPECIALIZE=auto) one for the
// arrays' aliasing only, since that version keeps no check in its loop (two
// proven, the other two hoisted); VRIR_SPECIALIZE=all compiles one for the
// call's shapes (all four checks proven against them); VRIR_SPECIALIZE=0
// runs the generic version; results are the same, and an out-of-bounds
// access inside the specialised code still names the caller's argument.
// @window's check stays in its loops without the values of lo, hi and w:
// there the default tries aliasing only, then every fact, and keeps that.
// RUN: vr-opt %s --pass-pipeline='builtin.module(vrir-to-cpu{specialize=true})' \
// RUN:   --mlir-print-ir-after=vrir-outline-regions -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IR
// IR: vrir.dispatch @shift_region0(%arg2, %arg0, %arg1) shapes [1, 2] values [0]
// IR: func.func private @shift_region0(%{{.*}}: i64, %{{.*}}: !vrir.array<f64, 1, row_major> {vrir.array_description = "array argument #0"}, %{{.*}}: !vrir.array<f64, 1, row_major> {vrir.array_description = "array argument #1"})
// IR-SAME: signature = "i64V,m1:8S,m1:8S"
// RUN: vr-run %s --entry shift --arg A=arange:5 --arg B=zeros:5 --arg n=4 \
// RUN:   --specialize --repeat 3 -stats 2>&1 | FileCheck %s --check-prefixes=CHECK,AUTO
// RUN: env VRIR_SPECIALIZE=all vr-run %s --entry shift --arg A=arange:5 \
// RUN:   --arg B=zeros:5 --arg n=4 --specialize --repeat 3 -stats 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,STATS
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
// ALIAS: region shift_region0: calls=3 hits=2 misses=1 generic=0 compile_failures=0 compile_ms={{[0-9.]+}} checks=4 proven=2 cached=1 compiles=1 facts=aliasing
// AUTO: region shift_region0: calls=3 hits=2 misses=1 generic=0 compile_failures=0 compile_ms={{[0-9.]+}} checks=4 proven=2 cached=1 compiles=1 facts=aliasing
// STATS: region shift_region0: calls=3 hits=2 misses=1 generic=0 compile_failures=0 compile_ms={{[0-9.]+}} checks=4 proven=4 cached=1 compiles=1 facts=all
// GENERIC: region shift_region0: calls=3 hits=0 misses=0 generic=3 compile_failures=0 compile_ms=0.0 checks=0 proven=0 cached=0 compiles=0 facts=none
// RUN: not vr-run %s --entry shift --arg A=arange:4 --arg B=zeros:4 --arg n=4 \
// RUN:   --specialize 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: env VRIR_SPECIALIZE=alias not vr-run %s --entry shift --arg A=arange:4 \
// RUN:   --arg B=zeros:4 --arg n=4 --specialize 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: env VRIR_SPECIALIZE=all not vr-run %s --entry shift --arg A=arange:4 \
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

// The default on @window: aliasing only keeps the four checks of x[i + k]
// and y[i] in the loops, every fact proves them, so that version runs.
// RUN: env VRIR_SPECIALIZE_VERBOSE=1 vr-run %s --entry window \
// RUN:   --arg x=arange:10 --arg y=zeros:10 --arg lo=1 --arg hi=6 --arg w=4 \
// RUN:   --specialize --repeat 2 -stats 2>&1 | FileCheck %s --check-prefix=WINDOW
// WINDOW: vrir: specialized window_region0 for [{}, {}, {}, {rank = 1 : i64, noalias}, {rank = 1 : i64, noalias}] in {{[0-9.]+}} ms (0 of 4 checks proven, 4 kept)
// WINDOW-NEXT: vrir: specialized window_region0 for [{value = 1 : i64}, {value = 6 : i64}, {value = 4 : i64}, {rank = 1 : i64, shape = array<i64: 10>, strides = array<i64: 1>, noalias}, {rank = 1 : i64, shape = array<i64: 10>, strides = array<i64: 1>, noalias}] in {{[0-9.]+}} ms (4 of 4 checks proven, 0 kept)
// WINDOW: result 0: 90
// WINDOW: region window_region0: calls=2 hits=1 misses=1 generic=0 compile_failures=0 compile_ms={{[0-9.]+}} checks=4 proven=4 cached=1 compiles=2 facts=all
// With w = 6 the last window reads x[10]: the specialised code raises.
// RUN: not vr-run %s --entry window --arg x=arange:10 --arg y=zeros:10 \
// RUN:   --arg lo=1 --arg hi=6 --arg w=6 --specialize 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WINDOW-ERR
// WINDOW-ERR: vrir: error: index out of bounds: array 'x', accessed at {{.*}}regions.mlir:[[@LINE+12]]:{{[0-9]+}}: dimension 0, index 10, extent 10
func.func @window(%x: !v, %y: !v, %lo64: i64, %hi64: i64, %w64: i64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %lo = arith.index_cast %lo64 : i64 to index
  %hi = arith.index_cast %hi64 : i64 to index
  %w = arith.index_cast %w64 : i64 to index
  // y[i] = x[i] + ... + x[i + w - 1] for lo <= i < hi; the sum of y.
  %t = scf.for %i = %lo to %hi step %c1 iter_args(%total = %zero) -> (f64) {
    %s = scf.for %k = %c0 to %w step %c1 iter_args(%acc = %zero) -> (f64) {
      %ik = arith.addi %i, %k : index
      %v = vrir.load %x[%ik] : !v[index]
      %sum = arith.addf %acc, %v : f64
      scf.yield %sum : f64
    }
    vrir.store %s, %y[%i] : !v[index]
    %next = arith.addf %total, %s : f64
    scf.yield %next : f64
  }
  return %t : f64
}
