// RUN: vr-opt %s --convert-vrir-to-memref=gpu-sections=true | FileCheck %s
// RUN: vr-opt %s --convert-vrir-to-memref | FileCheck %s --check-prefix=CPU

// In GPU mode a section stays (as a marked scf.execute_region), a pfor is
// parallel over its whole domain and matmul takes the linalg form; on the
// CPU the section is inlined, only the outermost dimension is parallel and
// matmul calls BLAS.

!m = !vrir.array<f64, 2, row_major>

// CHECK-LABEL: func.func @section
// CHECK: %[[R:.*]] = scf.execute_region -> memref<?x?xf64> {
// CHECK:   scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %{{.*}}) {
// CHECK-NOT: scf.for
// CHECK:     memref.store
// CHECK:   scf.reduce
// CHECK:   llvm.call @vrir_rt_parallel_check()
// CHECK:   linalg.matmul
// CHECK-NOT: cblas
// CHECK:   scf.yield %{{.*}} : memref<?x?xf64>
// CHECK: } {vrir.gpu_section}
// CHECK: return %[[R]]

// CPU-LABEL: func.func @section
// CPU-NOT: scf.execute_region
// CPU: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CPU:   scf.for
// CPU: llvm.call @cblas_dgemm
func.func @section(%A: !m, %B: !m) -> !m {
  %c0 = arith.constant 0 : index
  %m = vrir.dim %A, 0 : !m
  %n = vrir.dim %A, 1 : !m
  %rm = vrir.range %c0 to %m
  %rn = vrir.range %c0 to %n
  %d = vrir.domain %rm, %rn : !vrir.domain<2>
  %r = vrir.gpu_section -> (!m) {
    vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%A : !m) {
      %x = vrir.load %A[%i, %j] : !m[index, index]
      %y = arith.mulf %x, %x : f64
      vrir.store %y, %A[%i, %j] : !m[index, index]
    }
    %p = vrir.matmul %A, %B : !m, !m -> !m
    vrir.yield %p : !m
  }
  return %r : !m
}
