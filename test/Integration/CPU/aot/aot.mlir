// Ahead-of-time compilation: a shared library with C entry points, linked
// into a C host (host.c) that knows nothing of MLIR.
// RUN: vr-run %s --entry scale --emit-shared %t.so
// RUN: clang-22 %S/host.c -I%vrir_src_root/include %t.so -L%vrir_obj_root/lib -lvrir_runtime -Wl,-rpath,%vrir_obj_root/lib -o %t.host
// RUN: %host %t.host | FileCheck %s
// CHECK: 2.5 5 7.5 10
// CHECK: at(2) = 3
// CHECK: at(9): status 1: index out of bounds: array 'x', accessed at {{.*}}aot.mlir:{{[0-9]+}}:{{[0-9]+}}: dimension 0, index 9, extent 4

!v = !vrir.array<f64, 1, row_major>
module {
  func.func @scale(%x: !v, %factor: f64) -> !v {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %x, 0 : !v
    %y = vrir.empty(%n) : !v
    scf.for %i = %c0 to %n step %c1 {
      %a = vrir.load %x[%i] : !v[index]
      %b = arith.mulf %a, %factor : f64
      vrir.store %b, %y[%i] : !v[index]
    }
    return %y : !v
  }

  func.func @at(%x: !v, %i: i64) -> f64 {
    %a = vrir.load %x[%i] : !v[i64]
    return %a : f64
  }
}
