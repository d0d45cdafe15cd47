// RUN: vr-opt %s -split-input-file -convert-vrir-to-memref -canonicalize | FileCheck %s

!m = !vrir.array<f64, 2, row_major>

// The outer pfor's first dimension is an scf.parallel (normalized
// counters), its other dimensions and a nested pfor run serially; the error
// one iteration recorded is raised after the loop.
// CHECK-LABEL: func.func @nest
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%{{.*}}) step (%c1)
// CHECK:   scf.for %[[J:.*]] = %c0 to %{{.*}} step %c1
// CHECK:     scf.for %[[K:.*]] = %c0 to %{{.*}} step %c1
// CHECK:       memref.store %{{.*}}, %{{.*}}[%[[I]], %[[K]]]
// CHECK-NOT: scf.parallel
// CHECK: llvm.call @vrir_rt_parallel_check()
func.func @nest(%A: !m, %n: index) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  %d = vrir.domain %r, %r : !vrir.domain<2>
  vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%A : !m) {
    vrir.pfor (%k) in %r : !vrir.range shared(%A : !m) {
      %x = arith.constant 1.0 : f64
      vrir.store %x, %A[%i, %k] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
    }
  }
  return
}

// -----

!m = !vrir.array<f64, 2, row_major>

// Inside a parallel loop a failed check is recorded and the access skipped.
// CHECK-LABEL: func.func @checked_in_pfor
// CHECK: scf.parallel
// CHECK:   llvm.call @vrir_rt_parallel_bounds_error
// CHECK:   %[[OK:.*]] = arith.xori %{{.*}}, %true
// CHECK:   scf.if %[[OK]] {
// CHECK:     memref.store
func.func @checked_in_pfor(%A: !m, %n: index) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !m) {
    %x = arith.constant 1.0 : f64
    vrir.store %x, %A[%i, %i] : !m[index, index]
  }
  return
}

// -----

// A GPU section runs inline on the CPU.
// CHECK-LABEL: func.func @section
// CHECK-NOT: vrir.gpu_section
// CHECK: %[[S:.*]] = arith.addf %arg0, %arg0
// CHECK: return %[[S]]
func.func @section(%x: f64) -> f64 {
  %s = vrir.gpu_section -> (f64) {
    %t = arith.addf %x, %x : f64
    vrir.yield %t : f64
  }
  return %s : f64
}

// -----

!iv = !vrir.array<i64, 1, row_major>

// Atomics: read-modify-write is memref.atomic_rmw; compare-and-swap calls a
// private cmpxchg helper. Both are bounds-checked and skipped on failure.
// CHECK: llvm.func internal @__vrir_cas_i64(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64) -> i64
// CHECK:   llvm.cmpxchg
// CHECK-LABEL: func.func @atomics
// CHECK: scf.parallel
// CHECK:   memref.atomic_rmw addi
// CHECK:   memref.extract_aligned_pointer_as_index
// CHECK:   llvm.inttoptr
// CHECK:   llvm.call @__vrir_cas_i64
func.func @atomics(%h: !iv, %n: index) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%h : !iv) {
    %old = vrir.atomic_rmw add %h[%i], %one : !iv[index]
    %prev = vrir.atomic_cas %h[%c0], %old, %one : !iv[index]
  }
  return
}

// -----

// Float atomics: min is minimumf; compare-and-swap goes through the bits.
// CHECK-LABEL: func.func @float_atomics
// CHECK: memref.atomic_rmw minimumf
// CHECK: arith.bitcast %{{.*}} : f64 to i64
// CHECK: llvm.call @__vrir_cas_i64
func.func @float_atomics(%h: !vrir.array<f64, 1, row_major>, %n: index, %x: f64) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%h : !vrir.array<f64, 1, row_major>) {
    %old = vrir.atomic_rmw min %h[%i], %x : !vrir.array<f64, 1, row_major>[index]
    %prev = vrir.atomic_cas %h[%i], %old, %x : !vrir.array<f64, 1, row_major>[index]
  }
  return
}
