// RUN: vr-opt %s -vrir-to-cpu | FileCheck %s
// RUN: vr-opt %s -vrir-to-cpu=openmp=false | FileCheck %s --check-prefix=SERIAL

// The whole CPU pipeline leaves only the LLVM dialect; pfor becomes an
// OpenMP work-sharing loop (or a serial loop without OpenMP).
// CHECK-NOT: vrir.
// CHECK-NOT: memref.
// CHECK-NOT: scf.
// CHECK-NOT: unrealized_conversion_cast
// CHECK: llvm.func @scale
// CHECK: omp.parallel
// CHECK: omp.wsloop
// SERIAL-NOT: omp.
// SERIAL: llvm.func @scale

!v = !vrir.array<f64, 1, row_major>
func.func @scale(%x: !v, %f: f64) -> !v {
  %c0 = arith.constant 0 : index
  %n = vrir.dim %x, 0 : !v
  %y = vrir.zeros(%n) : !v
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%x, %y : !v, !v) {
    %a = vrir.load %x[%i] : !v[index]
    %b = arith.mulf %a, %f : f64
    vrir.store %b, %y[%i] : !v[index]
  }
  return %y : !v
}
