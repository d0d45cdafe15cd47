// RUN: vr-opt %s -split-input-file -convert-vrir-to-memref -canonicalize | FileCheck %s

// Array types become memrefs by layout.
// CHECK-LABEL: func.func @types
// CHECK-SAME: memref<?x?xf64>
// CHECK-SAME: memref<?x?xi32, strided<[1, ?]>>
// CHECK-SAME: memref<?xcomplex<f32>, strided<[?], offset: ?>>
// CHECK-SAME: memref<i1>
func.func @types(%a: !vrir.array<f64, 2, row_major>, %b: !vrir.array<i32, 2, col_major>,
                 %c: !vrir.array<complex<f32>, 1, strided>, %d: !vrir.array<i1, 0, row_major>) {
  return
}

// -----

// Allocation checks for negative sizes and fills; column-major arrays are a
// flat buffer viewed with Fortran strides.
// CHECK-LABEL: func.func @alloc
// CHECK-SAME: (%[[M:[a-z0-9_]+]]: index, %[[N:[a-z0-9_]+]]: index)
// CHECK: arith.cmpi slt, %[[M]]
// CHECK: arith.cmpi slt, %[[N]]
// CHECK: scf.if
// CHECK:   llvm.call @vrir_rt_error
// CHECK: %[[ROW:.*]] = memref.alloc(%[[M]], %[[N]]) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[ROW]] : memref<?x?xf64>)
// CHECK: %[[COUNT:.*]] = arith.muli %[[M]], %[[N]]
// CHECK: %[[FLAT:.*]] = memref.alloc(%[[COUNT]]) {alignment = 64 : i64} : memref<?xi32>
// CHECK: memref.reinterpret_cast %[[FLAT]] to offset: [0], sizes: [%[[M]], %[[N]]], strides: [1, %[[M]]]
// CHECK: linalg.fill ins(%c1_i32 : i32)
func.func @alloc(%m: index, %n: index) -> (!vrir.array<f64, 2, row_major>, !vrir.array<i32, 2, col_major>) {
  %a = vrir.zeros(%m, %n) : !vrir.array<f64, 2, row_major>
  %b = vrir.ones(%m, %n) : !vrir.array<i32, 2, col_major>
  return %a, %b : !vrir.array<f64, 2, row_major>, !vrir.array<i32, 2, col_major>
}

// -----

// An unused allocation whose sizes may fail their checks keeps the checks
// and allocates nothing.
// CHECK-LABEL: func.func @unused_alloc
// CHECK-SAME: (%[[N:[a-z0-9_]+]]: index)
// CHECK: arith.cmpi slt, %[[N]]
// CHECK: llvm.call @vrir_rt_error
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @unused_alloc(%n: index) {
  %a = vrir.zeros(%n) : !vrir.array<f64, 1, row_major>
  return
}

// -----

// CHECK-LABEL: func.func @shape
// CHECK: %[[D0:.*]] = memref.dim %arg0, %c0
// CHECK: %[[D1:.*]] = memref.dim %arg0, %c1
// CHECK: %[[N:.*]] = arith.muli %[[D0]], %[[D1]]
// CHECK: return %{{.*}}, %[[N]]
func.func @shape(%A: !vrir.array<f64, 2, row_major>) -> (index, index) {
  %d = vrir.dim %A, 1 : !vrir.array<f64, 2, row_major>
  %n = vrir.numel %A : !vrir.array<f64, 2, row_major>
  return %d, %n : index, index
}

// -----

// MATLAB: 1-based; only the checks the flags ask for; the error names the
// array and the position. Both checks are one unsigned comparison (extents
// are never negative).
// CHECK: llvm.mlir.global internal constant @{{.*}}("array argument #0, accessed at {{.*}}array-ops.mlir:[[@LINE+13]]:{{[0-9]+}}\00")
// CHECK-LABEL: func.func @load_matlab
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<?x?xf64, strided<[1, ?]>>, %[[I:[a-z0-9_]+]]: index, %[[J:[a-z0-9_]+]]: i64)
// CHECK: %[[I0:.*]] = arith.subi %[[I]], %c1
// CHECK: %[[BAD:.*]] = arith.cmpi uge, %[[I0]], %{{.*}}
// CHECK: scf.if %[[BAD]]
// CHECK:   llvm.call @vrir_rt_bounds_error
// CHECK: %[[JI:.*]] = arith.index_cast %[[J]]
// CHECK: %[[J0:.*]] = arith.subi %[[JI]], %c1
// CHECK-NOT: scf.if
// CHECK: memref.load %[[A]][%[[I0]], %[[J0]]]
module attributes {vrir.index_base = 1 : i64} {
  func.func @load_matlab(%A: !vrir.array<f64, 2, col_major>, %i: index, %j: i64) -> f64 {
    %x = vrir.load %A[%i, %j] flags [#vrir.index<lower|upper>, #vrir.index<none>] : !vrir.array<f64, 2, col_major>[index, i64]
    return %x : f64
  }
}

// -----

// NumPy negative indices wrap around before the checks.
// CHECK-LABEL: func.func @load_negative
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %arg1, %c0
// CHECK: %[[WRAP:.*]] = arith.addi %arg1, %[[DIM:.*]] : index
// CHECK: %[[IDX:.*]] = arith.select %[[NEG]], %[[WRAP]], %arg1
// CHECK: arith.cmpi uge, %[[IDX]], %[[DIM]]
// CHECK: memref.load %arg0[%[[IDX]]]
func.func @load_negative(%A: !vrir.array<f64, 1, row_major>, %i: index) -> f64 {
  %x = vrir.load %A[%i] flags [#vrir.index<lower|upper|negative>] : !vrir.array<f64, 1, row_major>[index]
  return %x : f64
}

// -----

// Flattened (MATLAB linear) indexing of a column-major matrix: checked
// against the element count, split with the first dimension fastest.
// CHECK-LABEL: func.func @load_flattened
// CHECK: %[[D0:.*]] = memref.dim %arg0, %c0
// CHECK: %[[D1:.*]] = memref.dim %arg0, %c1
// CHECK: %[[COUNT:.*]] = arith.muli %[[D0]], %[[D1]]
// CHECK: arith.cmpi uge, %{{.*}}, %[[COUNT]]
// CHECK: %[[ROW:.*]] = arith.remsi %{{.*}}, %[[D0]]
// CHECK: %[[REST:.*]] = arith.divsi %{{.*}}, %[[D0]]
// CHECK: %[[COL:.*]] = arith.remsi %[[REST]], %[[D1]]
// CHECK: memref.load %arg0[%[[ROW]], %[[COL]]]
module attributes {vrir.index_base = 1 : i64} {
  func.func @load_flattened(%A: !vrir.array<f64, 2, col_major>, %k: index) -> f64 {
    %x = vrir.load %A[%k] {flattened} : !vrir.array<f64, 2, col_major>[index]
    return %x : f64
  }
}

// -----

// Growth: a zero-filled larger array receives the old elements when the
// index is past the end; the store goes to whichever array results.
// CHECK-LABEL: func.func @store_grow
// CHECK: %[[PAST:.*]] = arith.cmpi sgt
// CHECK: %[[ARR:.*]] = scf.if %{{.*}} -> (memref<?xf64, strided<[1]>>) {
// CHECK:   memref.alloc
// CHECK:   linalg.fill
// CHECK:   memref.subview
// CHECK:   linalg.copy
// CHECK:   scf.yield
// CHECK: } else {
// CHECK:   scf.yield %arg0
// CHECK: memref.store %arg2, %[[ARR]]
// CHECK: return %[[ARR]]
module attributes {vrir.index_base = 1 : i64} {
  func.func @store_grow(%A: !vrir.array<f64, 1, col_major>, %i: index, %x: f64) -> !vrir.array<f64, 1, col_major> {
    %B = vrir.store %x, %A[%i] flags [#vrir.index<lower|grow>] : !vrir.array<f64, 1, col_major>[index] -> !vrir.array<f64, 1, col_major>
    return %B : !vrir.array<f64, 1, col_major>
  }
}

// -----

// Ranges become (start, stop, step), 0-based with an exclusive stop: a
// MATLAB range a:s:b moves b one step past the end and subtracts the base.
// CHECK-LABEL: func.func @matlab_range
// CHECK: scf.parallel (%[[K:.*]]) = (%c0) to (%{{.*}}) step (%c1)
// CHECK:   %[[OFF:.*]] = arith.muli %[[K]], %arg1
// CHECK:   %[[IV0:.*]] = arith.addi %{{.*}}, %[[OFF]]
// CHECK:   %[[IV:.*]] = arith.addi %[[IV0]], %c1
// CHECK:   memref.store %{{.*}}, %arg3[%{{.*}}]
// CHECK: llvm.call @vrir_rt_parallel_check()
module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  func.func @matlab_range(%a: index, %s: index, %b: index, %A: !vrir.array<i64, 1, col_major>) {
    %r = vrir.range %a to %b step %s
    vrir.pfor (%k) in %r : !vrir.range shared(%A : !vrir.array<i64, 1, col_major>) {
      %v = arith.index_cast %k : index to i64
      vrir.store %v, %A[%k] flags [#vrir.index<none>] : !vrir.array<i64, 1, col_major>[index]
    }
    return
  }
}

// -----

// Scalar variables left after mem2reg live in rank-0 memrefs.
// CHECK-LABEL: func.func @variable
// CHECK: %[[V:.*]] = memref.alloca() : memref<f64>
// CHECK: memref.store %arg0, %[[V]][]
// CHECK: memref.load %[[V]][]
func.func @variable(%x: f64) -> f64 {
  %v = vrir.alloca "v" : !vrir.var<f64>
  vrir.write %x, %v : !vrir.var<f64>
  %y = vrir.read %v : !vrir.var<f64>
  return %y : f64
}

// -----

// A poison array (a variable read before it is written) is an empty array
// on the stack, allocated at the function entry: buffer deallocation
// compares its pointer with others, which must not be poison.
// CHECK-LABEL: func.func @poison
// CHECK: %[[B:.*]] = memref.alloca() : memref<0xf64>
// CHECK: %[[P:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [0], strides: [1] : memref<0xf64> to memref<?xf64>
// CHECK: return %[[P]]
// CHECK-NOT: ub.poison
func.func @poison() -> !vrir.array<f64, 1, row_major> {
  %p = ub.poison : !vrir.array<f64, 1, row_major>
  return %p : !vrir.array<f64, 1, row_major>
}

// -----

// CHECK-LABEL: func.func @poison_in_loop
// CHECK: memref.alloca() : memref<0xi64>
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [0, 0], strides: [1, 1] : memref<0xi64> to memref<?x?xi64, strided<[1, ?]>>
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK: return
func.func @poison_in_loop(%n: index, %x: !vrir.array<i64, 2, col_major>)
    -> !vrir.array<i64, 2, col_major> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x)
      -> (!vrir.array<i64, 2, col_major>) {
    %q = ub.poison : !vrir.array<i64, 2, col_major>
    scf.yield %q : !vrir.array<i64, 2, col_major>
  }
  return %r : !vrir.array<i64, 2, col_major>
}

// -----

// An arith.select of arrays (mem2reg's value of an array variable assigned
// in one branch) selects the memrefs.
// CHECK-LABEL: func.func @select_arrays
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: memref<?xf64, strided<[?], offset: ?>>, %[[B:.*]]: memref<?xf64, strided<[?], offset: ?>>)
// CHECK: %[[R:.*]] = arith.select %[[C]], %[[A]], %[[B]] : memref<?xf64, strided<[?], offset: ?>>
// CHECK: return %[[R]]
func.func @select_arrays(%c: i1, %a: !vrir.array<f64, 1, strided>, %b: !vrir.array<f64, 1, strided>)
    -> !vrir.array<f64, 1, strided> {
  %r = arith.select %c, %a, %b : !vrir.array<f64, 1, strided>
  return %r : !vrir.array<f64, 1, strided>
}
