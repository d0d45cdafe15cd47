// RUN: vr-opt %s --vrir-gpu-cpu-fallback --split-input-file | FileCheck %s
// RUN: vr-opt %s --vrir-gpu-cpu-fallback --split-input-file | FileCheck %s --check-prefix=HOST
// RUN: vr-opt %s --vrir-gpu-cpu-fallback --vrir-gpu-map-sections --split-input-file | FileCheck %s --check-prefix=MAP

// Each future kernel of a section (an outermost parallel loop, a linalg op
// outside loops) is bracketed by the runtime's fallback calls and followed
// by an scf.if calling its host version, a private function marked cold
// and optimized for size; a nested parallel loop is part of its kernel;
// host code of the section gets nothing; code outside sections neither.
// CHECK-DAG: llvm.func @vrir_gpu_fallback_begin()
// CHECK-DAG: llvm.func @vrir_gpu_fallback_end() -> i64
// CHECK-DAG: func.func private @kernels_host_kernel0({{.*}}) attributes {passthrough = ["cold", "noinline", "minsize", "optsize"]} {
// CHECK-DAG: func.func private @kernels_host_kernel1(%[[V:.*]]: f64, %[[X:.*]]: memref<?xf64>) attributes {passthrough = ["cold", "noinline", "minsize", "optsize"]} {
// CHECK-LABEL: func.func @kernels
// CHECK: scf.execute_region
// CHECK-NEXT: llvm.call @vrir_gpu_fallback_begin()
// CHECK-NEXT: scf.parallel (%[[I:.*]]) =
// CHECK:   scf.parallel
// CHECK: %[[TAKEN:.*]] = llvm.call @vrir_gpu_fallback_end() : () -> i64
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[ON_HOST:.*]] = arith.cmpi ne, %[[TAKEN]], %[[ZERO]] : i64
// CHECK-NEXT: scf.if %[[ON_HOST]] {
// CHECK-NEXT:   func.call @kernels_host_kernel0(
// CHECK-NEXT: } {vrir.gpu_fallback}
// CHECK-NEXT: memref.load
// CHECK-NEXT: llvm.call @vrir_gpu_fallback_begin()
// CHECK-NEXT: linalg.fill
// CHECK: scf.if
// CHECK-NEXT: func.call @kernels_host_kernel1(
// CHECK-NEXT: } {vrir.gpu_fallback}
// CHECK: scf.yield
// CHECK: } {vrir.gpu_section}
// CHECK-NOT: vrir_gpu_fallback
// CHECK: return
// The host versions hold the work as it was, and are not mapped: one
// kernel each, plus a plain loop.
// HOST-LABEL: func.func private @kernels_host_kernel0
// HOST: scf.parallel
// HOST:   scf.parallel
// HOST:     memref.store
// HOST-NOT: mapping
// HOST: return
// HOST-LABEL: func.func private @kernels_host_kernel1
// HOST-NEXT: linalg.fill
// MAP-LABEL: func.func @kernels(
// MAP: scf.parallel
// MAP: } {mapping = [#gpu.loop_dim_map<processor = block_x
// MAP: scf.if
// MAP-NEXT: func.call @kernels_host_kernel0
// MAP: scf.parallel
// MAP: } {mapping = [#gpu.loop_dim_map<processor = block_x
// MAP: scf.if
// MAP-NEXT: func.call @kernels_host_kernel1
func.func @kernels(%A: memref<?x?xf64>, %x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f64
  %v = scf.execute_region -> f64 {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      scf.parallel (%j) = (%c0) to (%n) step (%c1) {
        memref.store %cst, %A[%i, %j] : memref<?x?xf64>
      }
    }
    %h = memref.load %x[%c0] : memref<?xf64>
    linalg.fill ins(%h : f64) outs(%x : memref<?xf64>)
    scf.yield %h : f64
  } {vrir.gpu_section}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %cst, %x[%i] : memref<?xf64>
  }
  return %v : f64
}

// -----

// A reduction's value comes from the device or from the host version, a
// serial loop carrying the accumulator through the combiner.
// CHECK-LABEL: func.func private @reduction_host_kernel0
// CHECK-SAME: -> f64
// CHECK: %[[SERIAL:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// CHECK-NEXT:   %[[V:.*]] = memref.load %{{.*}}[%[[I]]]
// CHECK-NEXT:   %[[SUM:.*]] = arith.addf %[[ACC]], %[[V]] : f64
// CHECK-NEXT:   scf.yield %[[SUM]] : f64
// CHECK: return %[[SERIAL]] : f64
// CHECK-LABEL: func.func @reduction
// CHECK: llvm.call @vrir_gpu_fallback_begin()
// CHECK-NEXT: %[[GPU:.*]] = scf.parallel
// CHECK: %[[VALUE:.*]] = scf.if %{{.*}} -> (f64) {
// CHECK-NEXT: %[[CALL:.*]] = func.call @reduction_host_kernel0(
// CHECK-NEXT: scf.yield %[[CALL]] : f64
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[GPU]] : f64
// CHECK-NEXT: } {vrir.gpu_fallback}
// CHECK-NEXT: scf.yield %[[VALUE]] : f64
func.func @reduction(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.execute_region -> f64 {
    %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
      %v = memref.load %x[%i] : memref<?xf64>
      scf.reduce(%v : f64) {
      ^bb0(%a: f64, %b: f64):
        %t = arith.addf %a, %b : f64
        scf.reduce.return %t : f64
      }
    }
    scf.yield %r : f64
  } {vrir.gpu_section}
  return %s : f64
}

// -----

// A compare-and-swap loop in a kernel: in the host version, a loop around
// LLVM's cmpxchg (on the bits of a float) that returns the old value.
// CHECK-LABEL: func.func private @cas_host_kernel0
// CHECK: scf.parallel
// CHECK-NOT: memref.generic_atomic_rmw
// CHECK: %[[INIT:.*]] = memref.load
// CHECK-NEXT: %[[OLD:.*]] = scf.while (%[[CUR:.*]] = %[[INIT]]) : (f64) -> f64 {
// CHECK: %[[NEXT:.*]] = arith.select %{{.*}}, %{{.*}}, %[[CUR]] : f64
// CHECK: %[[SEEN:.*]] = llvm.call @__vrir_cas_i64(%{{.*}}, %{{.*}}, %{{.*}}) {{.*}} : (!llvm.ptr, i64, i64) -> i64
// CHECK: %[[RETRY:.*]] = arith.cmpi ne, %[[SEEN]], %{{.*}} : i64
// CHECK: %[[SEEN_F:.*]] = arith.bitcast %[[SEEN]] : i64 to f64
// CHECK-NEXT: scf.condition(%[[RETRY]]) %[[SEEN_F]] : f64
// CHECK: memref.store %[[OLD]]
// CHECK-LABEL: func.func @cas
// CHECK: scf.parallel
// CHECK: memref.generic_atomic_rmw
// CHECK: scf.if
// CHECK-NEXT: func.call @cas_host_kernel0
// CHECK-NEXT: } {vrir.gpu_fallback}
func.func @cas(%best: memref<?xf64>, %seen: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  scf.execute_region {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %old = memref.generic_atomic_rmw %best[%c0] : memref<?xf64> {
      ^bb0(%current: f64):
        %less = arith.cmpf olt, %current, %one : f64
        %next = arith.select %less, %one, %current : f64
        memref.atomic_yield %next : f64
      }
      memref.store %old, %seen[%i] : memref<?xf64>
    }
    scf.yield
  } {vrir.gpu_section}
  return
}
