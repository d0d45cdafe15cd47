// RUN: vr-opt %s -split-input-file -convert-vrir-to-memref -canonicalize | FileCheck %s
// RUN: vr-opt %s -split-input-file -convert-vrir-to-memref=gpu-sections=true -canonicalize -verify-diagnostics | FileCheck %s --check-prefix=GPU

!v = !vrir.array<f64, 1, row_major>

// On the CPU: 64 chunks in parallel, each folding its iterations in order
// from the identity (-0.0 for a float sum, the type's minimum for max) into
// a buffer allocated once; the chunks are then folded in order into the
// initial values.
// CHECK-LABEL: func.func @sum_and_max
//   CHECK-DAG: %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f64
//   CHECK-DAG: %[[MIN:.*]] = arith.constant -9223372036854775808 : i64
//   CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
//       CHECK: %[[SUMS:.*]] = memref.alloca() : memref<64xf64>
//       CHECK: %[[MAXES:.*]] = memref.alloca() : memref<64xi64>
//       CHECK: scf.parallel (%[[C:.*]]) = (%{{.*}}) to (%[[C64]])
//       CHECK:   %[[CHUNK:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %[[NEGZERO]], %[[M:.*]] = %[[MIN]])
//       CHECK:     arith.addf %[[S]], %{{.*}} : f64
//       CHECK:     arith.maxsi %[[M]], %{{.*}} : i64
//       CHECK:   memref.store %[[CHUNK]]#0, %[[SUMS]][%[[C]]]
//       CHECK:   memref.store %[[CHUNK]]#1, %[[MAXES]][%[[C]]]
//       CHECK: %[[ALL:.*]]:2 = scf.for %[[K:.*]] = %{{.*}} to %[[C64]] step %{{.*}} iter_args(%[[T:.*]] = %arg2, %[[U:.*]] = %arg3)
//       CHECK:   memref.load %[[SUMS]][%[[K]]]
//       CHECK:   memref.load %[[MAXES]][%[[K]]]
//       CHECK: llvm.call @vrir_rt_parallel_check
//       CHECK: return %[[ALL]]#0, %[[ALL]]#1
func.func @sum_and_max(%A: !v, %n: index, %s0: f64, %m0: i64) -> (f64, i64) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  %s, %m = vrir.pfor (%i) in %r : !vrir.range shared(%A : !v) reduce(sum %s0 : f64, max %m0 : i64) {
    %x = vrir.load %A[%i] flags [#vrir.index<none>] : !v[index]
    %k = arith.index_cast %i : index to i64
    vrir.yield %x, %k : f64, i64
  }
  return %s, %m : f64, i64
}

// -----

!v = !vrir.array<f64, 1, row_major>

// A pfor inside a pfor runs serially: its accumulator starts from the
// initial value and is carried through the loop.
// CHECK-LABEL: func.func @nested
//       CHECK: scf.parallel
//       CHECK:   %[[P:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %arg2) -> (f64)
//       CHECK:     %[[NEXT:.*]] = arith.mulf %[[ACC]], %{{.*}} : f64
//       CHECK:     scf.yield %[[NEXT]]
//       CHECK:   memref.store %[[P]], %arg0
func.func @nested(%A: !v, %n: index, %p0: f64) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !v) {
    %p = vrir.pfor (%j) in %r : !vrir.range reduce(prod %p0 : f64) {
      %x = vrir.load %A[%j] flags [#vrir.index<none>] : !v[index]
      vrir.yield %x : f64
    }
    vrir.store %p, %A[%i] flags [#vrir.index<none>] : !v[index]
  }
  return
}

// -----

!v = !vrir.array<f64, 1, row_major>

// In a GPU section, an scf.parallel over the whole domain with one
// scf.reduce from the identity (a reduction tree once mapped to kernels);
// the initial value is combined in on the host. (On the CPU the section is
// inline and the loop is chunked as above.)
// GPU-LABEL: func.func @in_section
//       GPU: %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
//       GPU: %[[R:.*]] = scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) init (%[[INF]]) -> f64
//       GPU:     scf.reduce(%{{.*}} : f64)
//       GPU:       arith.minimumf
//       GPU: arith.minimumf %arg2, %[[R]] : f64
// CHECK-LABEL: func.func @in_section
//       CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c64)
func.func @in_section(%A: !v, %n: index, %m0: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  %t = vrir.gpu_section -> (f64) {
    %m = vrir.pfor (%i) in %r : !vrir.range reduce(min %m0 : f64) {
      %x = vrir.load %A[%i] flags [#vrir.index<none>] : !v[index]
      vrir.yield %x : f64
    }
    vrir.yield %m : f64
  }
  return %t : f64
}

// -----

!v = !vrir.array<f64, 1, row_major>

// GPU kernels compute one reduction per loop (the CPU takes any number).
// CHECK-LABEL: func.func @two_in_section
//       CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f64, f64)
func.func @two_in_section(%A: !v, %n: index, %z: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  %t:2 = vrir.gpu_section -> (f64, f64) {
    // expected-error @+1 {{'vrir.pfor' op has 2 reductions in a GPU section; GPU kernels compute one reduction per loop (write one loop per reduction)}}
    %s:2 = vrir.pfor (%i) in %r : !vrir.range reduce(sum %z : f64, max %z : f64) {
      %x = vrir.load %A[%i] flags [#vrir.index<none>] : !v[index]
      vrir.yield %x, %x : f64, f64
    }
    vrir.yield %s#0, %s#1 : f64, f64
  }
  return %t#0, %t#1 : f64, f64
}

// -----

!v = !vrir.array<f64, 1, row_major>

// A reduction pfor inside a serial loop: the chunks' buffer is allocated
// once at the function's entry, not in the loop body (an alloca there grows
// the stack at every iteration).
// CHECK-LABEL: func.func @in_a_loop
//       CHECK: memref.alloca() : memref<64xf64>
//  CHECK-NEXT: scf.for
//   CHECK-NOT: memref.alloca
//       CHECK: scf.parallel
func.func @in_a_loop(%A: !v, %n: index, %s0: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %total = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %s0) -> (f64) {
    %r = vrir.range %c0 to %n
    %s = vrir.pfor (%i) in %r : !vrir.range shared(%A : !v) reduce(sum %acc : f64) {
      %x = vrir.load %A[%i] flags [#vrir.index<none>] : !v[index]
      vrir.yield %x : f64
    }
    scf.yield %s : f64
  }
  return %total : f64
}
