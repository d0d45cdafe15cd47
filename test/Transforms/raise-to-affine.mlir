// RUN: vr-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(vrir-raise-to-affine),canonicalize)' | FileCheck %s

// The frontends' shape: i64 counters over extents cast from index, and
// subscripts cast back. The nest and both accesses become affine; the i64
// casts fold away.
// CHECK-LABEL: func.func @sum_of_squares
//   CHECK-DAG: %[[M:.*]] = memref.dim %arg0, %c0
//   CHECK-DAG: %[[N:.*]] = memref.dim %arg0, %c1
//       CHECK: affine.for %[[I:.*]] = 0 to %[[M]] iter_args
//       CHECK:   affine.for %[[J:.*]] = 0 to %[[N]] iter_args
//       CHECK:     affine.load %arg0[%[[I]], %[[J]]]
//   CHECK-NOT: scf.for
func.func @sum_of_squares(%A: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %m = memref.dim %A, %c0 : memref<?x?xf64>
  %n = memref.dim %A, %c1 : memref<?x?xf64>
  %mi = arith.index_cast %m : index to i64
  %ni = arith.index_cast %n : index to i64
  %r = scf.for %i = %c0_i64 to %mi step %c1_i64 iter_args(%s = %zero) -> (f64) : i64 {
    %t = scf.for %j = %c0_i64 to %ni step %c1_i64 iter_args(%u = %s) -> (f64) : i64 {
      %ii = arith.index_cast %i : i64 to index
      %jj = arith.index_cast %j : i64 to index
      %x = memref.load %A[%ii, %jj] : memref<?x?xf64>
      %xx = arith.mulf %x, %x : f64
      %v = arith.addf %u, %xx : f64
      scf.yield %v : f64
    }
    scf.yield %t : f64
  }
  return %r : f64
}

// -----

// A triangular nest whose inner bound is the outer counter plus one, with
// subscripts that offset and scale the counters and an i64 argument as a
// symbol (cast once, at the function's entry).
// CHECK-LABEL: func.func @triangular
//       CHECK: %[[K:.*]] = arith.index_cast %arg1 : i64 to index
//       CHECK: affine.for %[[I:.*]] = 1 to
//       CHECK:   affine.for %[[J:.*]] = 0 to #{{.*}}(%[[I]])
//       CHECK:     affine.load %arg0[%[[I]] - 1, %[[J]] * 2 + symbol(%[[K]])]
//       CHECK:     affine.store %{{.*}}, %arg0[%[[J]], %[[I]]]
func.func @triangular(%A: memref<?x?xf64>, %k: i64) {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %c2_i64 = arith.constant 2 : i64
  %m = memref.dim %A, %c0 : memref<?x?xf64>
  %mi = arith.index_cast %m : index to i64
  scf.for %i = %c1_i64 to %mi step %c1_i64 : i64 {
    %i1 = arith.addi %i, %c1_i64 : i64
    scf.for %j = %c0_i64 to %i1 step %c1_i64 : i64 {
      %im1 = arith.subi %i, %c1_i64 : i64
      %j2 = arith.muli %j, %c2_i64 : i64
      %j2k = arith.addi %j2, %k : i64
      %r = arith.index_cast %im1 : i64 to index
      %c = arith.index_cast %j2k : i64 to index
      %x = memref.load %A[%r, %c] : memref<?x?xf64>
      %ii = arith.index_cast %i : i64 to index
      %jj = arith.index_cast %j : i64 to index
      memref.store %x, %A[%jj, %ii] : memref<?x?xf64>
    }
  }
  return
}

// -----

// What stays: a loop whose bound is read from memory in each iteration of
// an outer loop (CSR rows; an inner loop with affine bounds in it is still
// raised, but subscripts using the non-affine counter stay), a
// non-constant step, a product of two counters, and a counter of a
// parallel loop. A value loaded outside every loop is fixed in the
// function: a symbol.
// CHECK-LABEL: func.func @not_affine
//       CHECK: affine.for %[[K:.*]] = 0 to %{{.*}} {
//       CHECK:   %[[STOP:.*]] = affine.load %arg1[%[[K]]]
//       CHECK:   scf.for %[[I:.*]] = %c0 to %[[STOP]] step %c1 {
//       CHECK:     affine.for %[[J:.*]] = 0 to %{{.*}} {
//       CHECK:       memref.load %arg0[%[[I]], %[[J]]]
//       CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %arg2 {
//       CHECK: affine.for %[[P:.*]] = 0 to
//       CHECK:   arith.muli %[[P]], %[[P]]
//       CHECK:   memref.load
//       CHECK: scf.parallel (%[[Q:.*]]) =
//       CHECK:   memref.load %arg0[%[[Q]], %[[Q]]]
func.func @not_affine(%A: memref<?x?xf64>, %bounds: memref<?xindex>, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c1 : memref<?x?xf64>
  %rows = memref.dim %bounds, %c0 : memref<?xindex>
  scf.for %k = %c0 to %rows step %c1 {
    %stop = memref.load %bounds[%k] : memref<?xindex>
    scf.for %i = %c0 to %stop step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %x = memref.load %A[%i, %j] : memref<?x?xf64>
        memref.store %x, %A[%j, %i] : memref<?x?xf64>
      }
    }
  }
  scf.for %i = %c0 to %n step %step {
    %x = memref.load %A[%i, %i] : memref<?x?xf64>
    memref.store %x, %A[%i, %c0] : memref<?x?xf64>
  }
  scf.for %p = %c0 to %n step %c1 {
    %pp = arith.muli %p, %p : index
    %x = memref.load %A[%pp, %c0] : memref<?x?xf64>
    memref.store %x, %A[%p, %c0] : memref<?x?xf64>
  }
  scf.parallel (%q) = (%c0) to (%n) step (%c1) {
    %x = memref.load %A[%q, %q] : memref<?x?xf64>
    memref.store %x, %A[%c0, %q] : memref<?x?xf64>
  }
  return
}
