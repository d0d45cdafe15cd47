// RUN: vr-opt %s -convert-vrir-to-memref -split-input-file | FileCheck %s
// The whole CPU pipeline reaches the LLVM dialect:
// RUN: vr-opt %s --vrir-to-cpu -split-input-file | FileCheck %s --check-prefix=CPU

// Slices are views built from the strided metadata of the array: an integer
// index adds index * stride to the offset and drops the dimension, a range
// (start, stop, step) adds start * stride and keeps a dimension of
// trip-count size and stride * step. Default flags check both ends of a
// non-empty range.

// CPU-LABEL: llvm.func @view_int_range(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @view_int_range
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?xf64>, %[[I:arg[0-9]+]]: index, %[[START:arg[0-9]+]]: index, %[[STOP:arg[0-9]+]]: index, %[[STEP:arg[0-9]+]]: index)
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
// The integer index is checked against dimension 0.
// CHECK: arith.cmpi uge, %[[I]], %[[SIZES]]#0
// CHECK: llvm.call @vrir_rt_bounds_error
// CHECK: %[[IOFF:.*]] = arith.muli %[[I]], %[[STRIDES]]#0
// CHECK: %[[OFF1:.*]] = arith.addi %[[OFF]], %[[IOFF]]
// A zero step is an error.
// CHECK: arith.cmpi eq, %[[STEP]]
// CHECK: llvm.call @vrir_rt_error
// CHECK: %[[COUNT:.*]] = arith.maxsi
// First and last element checked against dimension 1.
// CHECK: llvm.call @vrir_rt_bounds_error
// CHECK: llvm.call @vrir_rt_bounds_error
// CHECK: %[[ROFF:.*]] = arith.muli %[[START]], %[[STRIDES]]#1
// CHECK: %[[OFF2:.*]] = arith.addi %[[OFF1]], %[[ROFF]]
// CHECK: %[[STRIDE:.*]] = arith.muli %[[STRIDES]]#1, %[[STEP]]
// An empty range may start at -1: an empty view has offset 0.
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[COUNT]], %{{.*}} : index
// CHECK: %[[OFF3:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[OFF2]] : index
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF3]]], sizes: [%[[COUNT]]], strides: [%[[STRIDE]]] : memref<f64> to memref<?xf64, strided<[?], offset: ?>>
// CHECK-NOT: linalg.copy
// CHECK: return %[[VIEW]]
func.func @view_int_range(%A: !vrir.array<f64, 2, row_major>, %i: index, %r: !vrir.range)
    -> !vrir.array<f64, 1, strided> {
  %v = vrir.slice %A[%i, %r] : !vrir.array<f64, 2, row_major>[index, !vrir.range]
      -> !vrir.array<f64, 1, strided>
  return %v : !vrir.array<f64, 1, strided>
}

// -----

// A 3-D array indexed by one integer: the two trailing dimensions are kept
// whole (sizes and strides of the array).

// CPU-LABEL: llvm.func @implicit_trailing(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @implicit_trailing
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SIZES:.*]]:3, %[[STRIDES:.*]]:3 = memref.extract_strided_metadata
// CHECK: %[[OFF1:.*]] = arith.addi %[[OFF]]
// CHECK: %[[OFF2:.*]] = arith.select %{{.*}}, %{{.*}}, %[[OFF1]] : index
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF2]]], sizes: [%[[SIZES]]#1, %[[SIZES]]#2], strides: [%[[STRIDES]]#1, %[[STRIDES]]#2] : memref<f64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
func.func @implicit_trailing(%T: !vrir.array<f64, 3, col_major>, %i: index)
    -> !vrir.array<f64, 2, strided> {
  %v = vrir.slice %T[%i] : !vrir.array<f64, 3, col_major>[index]
      -> !vrir.array<f64, 2, strided>
  return %v : !vrir.array<f64, 2, strided>
}

// -----

// NumPy ranges (`negative` flag): bounds wrap and are clipped into
// [lowest, highest] = [0, n] for a positive step and [-1, n - 1] for a
// negative one; no bounds error. `none` on the integer index: no check.

// CPU-LABEL: llvm.func @numpy_negative_step(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @numpy_negative_step
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?xf64>, %[[I:arg[0-9]+]]: index, %[[N:arg[0-9]+]]: index)
// CHECK-NOT: vrir_rt_bounds_error
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[STEP:.*]], %{{.*}} : index
// CHECK: %[[LOWEST:.*]] = arith.select %[[NEG]], %{{.*}}, %{{.*}} : index
// CHECK: %[[HIGHEST:.*]] = arith.select %[[NEG]]
// CHECK: %[[WRAP:.*]] = arith.select
// CHECK: %[[CLIP:.*]] = arith.maxsi %[[WRAP]], %[[LOWEST]]
// CHECK: %[[START:.*]] = arith.minsi %[[CLIP]], %[[HIGHEST]]
// CHECK: arith.minsi
// CHECK: %[[COUNT:.*]] = arith.maxsi
// CHECK-NOT: vrir_rt_bounds_error
// CHECK: arith.muli %[[START]], %{{.*}}
// CHECK: %[[STRIDE:.*]] = arith.muli %{{.*}}, %[[STEP]]
// CHECK: memref.reinterpret_cast {{.*}} sizes: [%[[COUNT]]], strides: [%[[STRIDE]]]
func.func @numpy_negative_step(%A: !vrir.array<f64, 2, row_major>, %i: index, %n: index)
    -> !vrir.array<f64, 1, strided> {
  %m1 = arith.constant -1 : index
  %r = vrir.range %m1 to %n step %m1
  %v = vrir.slice %A[%r, %i] flags [#vrir.index<lower|upper|negative>, #vrir.index<none>]
      : !vrir.array<f64, 2, row_major>[!vrir.range, index] -> !vrir.array<f64, 1, strided>
  return %v : !vrir.array<f64, 1, strided>
}

// -----

// `copy`: the view is copied into a new array of the result layout.

// CPU-LABEL: llvm.func @copy_col_major(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @copy_col_major
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast {{.*}} to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[FLAT:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf64>
// CHECK: %[[NEW:.*]] = memref.reinterpret_cast %[[FLAT]] {{.*}} to memref<?x?xf64, strided<[1, ?]>>
// CHECK: linalg.copy ins(%[[VIEW]] : {{.*}}) outs(%[[NEW]] : {{.*}})
// CHECK: return %[[NEW]] : memref<?x?xf64, strided<[1, ?]>>
module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  func.func @copy_col_major(%A: !vrir.array<f64, 2, col_major>, %a: index, %b: index)
      -> !vrir.array<f64, 2, col_major> {
    %r = vrir.range %a to %b
    %B = vrir.slice %A[%r, %r] {copy}
        : !vrir.array<f64, 2, col_major>[!vrir.range, !vrir.range] -> !vrir.array<f64, 2, col_major>
    return %B : !vrir.array<f64, 2, col_major>
  }
}

// -----

// A scalar assigned to a slice: linalg.fill of the view.

// CPU-LABEL: llvm.func @store_scalar(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @store_scalar
// CHECK-SAME: %[[X:arg[0-9]+]]: f64)
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK: linalg.fill ins(%[[X]] : f64) outs(%[[VIEW]] : memref<?x?xf64, strided<[?, ?], offset: ?>>)
func.func @store_scalar(%A: !vrir.array<f64, 2, row_major>, %r: !vrir.range, %x: f64) {
  vrir.store_slice %x, %A[%r] : f64, !vrir.array<f64, 2, row_major>[!vrir.range]
  return
}

// -----

// An array assigned to a slice: broadcast check, copy of the value when its
// memory overlaps the selection (byte ranges from the aligned pointers,
// offsets, sizes and strides), a broadcast view
// (stride 0 for missing and size-1 dimensions), then a copy.

// CPU-LABEL: llvm.func @store_array(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @store_array
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?x?xf64>, %[[I:arg[0-9]+]]: index, %[[V:arg[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>)
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} : memref<f64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[VSIZE:.*]] = memref.dim %[[V]]
// CHECK: %[[DIFF:.*]] = arith.cmpi ne, %[[VSIZE]]
// CHECK: %[[NOT1:.*]] = arith.cmpi ne, %[[VSIZE]]
// CHECK: %[[BAD:.*]] = arith.andi %[[DIFF]], %[[NOT1]]
// CHECK: scf.if %[[BAD]] {
// CHECK:   llvm.call @vrir_rt_error
// CHECK: memref.extract_aligned_pointer_as_index %[[V]]
// CHECK: memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK: %[[BEFORE:.*]] = arith.cmpi ult
// CHECK: %[[AFTER:.*]] = arith.cmpi ult
// CHECK: %[[MEET:.*]] = arith.andi %[[BEFORE]], %[[AFTER]] : i1
// CHECK: %[[NONEMPTY:.*]] = arith.xori
// CHECK: %[[OVERLAP:.*]] = arith.andi %[[MEET]], %[[NONEMPTY]] : i1
// CHECK: %[[SRC:.*]] = scf.if %[[OVERLAP]] -> (memref<?xf64, strided<[?], offset: ?>>) {
// CHECK:   %[[TMP:.*]] = memref.alloc
// CHECK:   linalg.copy ins(%[[V]] : {{.*}}) outs(%[[TMP]] : memref<?xf64>)
// CHECK:   %[[CAST:.*]] = memref.cast %[[TMP]]
// CHECK:   scf.yield %[[CAST]]
// CHECK: } else {
// CHECK:   %[[CAST2:.*]] = memref.cast %[[V]]
// CHECK:   scf.yield %[[CAST2]]
// CHECK: %[[SBASE:.*]], %[[SOFF:.*]], %[[SSIZE:.*]], %[[SSTRIDE:.*]] = memref.extract_strided_metadata %[[SRC]]
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[SSIZE]]
// CHECK: %[[BSTRIDE:.*]] = arith.select %[[IS1]], %{{.*}}, %[[SSTRIDE]]
// CHECK: %[[BCAST:.*]] = memref.reinterpret_cast %[[SBASE]] to offset: [%[[SOFF]]], sizes: [{{.*}}], strides: [0, %[[BSTRIDE]]]
// CHECK: linalg.copy ins(%[[BCAST]] : {{.*}}) outs(%[[VIEW]] : {{.*}})
func.func @store_array(%A: !vrir.array<f64, 3, row_major>, %i: index,
                       %v: !vrir.array<f64, 1, strided>) {
  vrir.store_slice %v, %A[%i] : !vrir.array<f64, 1, strided>, !vrir.array<f64, 3, row_major>[index]
  return
}

// -----

// In a parallel loop a failed index check is recorded: the view is empty
// and the assignment is skipped.

// CPU-LABEL: llvm.func @store_in_pfor(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @store_in_pfor
// CHECK: scf.parallel
// CHECK:   llvm.call @vrir_rt_parallel_bounds_error
// CHECK:   %[[SIZE:.*]] = arith.select %[[FAILED:.*]], %c0_{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK:   %[[VIEW:.*]] = memref.reinterpret_cast {{.*}} sizes: [%[[SIZE]]]
// CHECK:   %[[OK:.*]] = arith.xori %[[FAILED]], %{{.*}} : i1
// CHECK:   scf.if %[[OK]] {
// CHECK:     linalg.fill ins(%{{.*}} : f64) outs(%[[VIEW]]
// CHECK: llvm.call @vrir_rt_parallel_check
func.func @store_in_pfor(%A: !vrir.array<f64, 2, row_major>, %n: index, %x: f64) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<f64, 2, row_major>) {
    vrir.store_slice %x, %A[%i, %r] : f64, !vrir.array<f64, 2, row_major>[index, !vrir.range]
  }
  return
}

// -----

// np.take along axis 1: loops over the index array outside, the other
// dimensions inside; each index is wrapped (negative flag) and checked.

// CPU-LABEL: llvm.func @gather_axis1(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @gather_axis1
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?xf64>, %[[IDX:arg[0-9]+]]: memref<?xi64>)
// CHECK: %[[R:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK: scf.for %[[J:.*]] =
// CHECK:   %[[RAW:.*]] = memref.load %[[IDX]][%[[J]]] : memref<?xi64>
// CHECK:   %[[RAWI:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK:   %[[NEG:.*]] = arith.cmpi slt, %[[RAWI]]
// CHECK:   %[[K:.*]] = arith.select %[[NEG]]
// CHECK:   llvm.call @vrir_rt_bounds_error
// CHECK:   scf.for %[[I:.*]] =
// CHECK:     %[[E:.*]] = memref.load %[[A]][%[[I]], %[[K]]] : memref<?x?xf64>
// CHECK:     memref.store %[[E]], %[[R]][%[[I]], %[[J]]] : memref<?x?xf64>
// CHECK: return %[[R]]
func.func @gather_axis1(%A: !vrir.array<f64, 2, row_major>, %idx: !vrir.array<i64, 1, row_major>)
    -> !vrir.array<f64, 2, row_major> {
  %g = vrir.gather %A[%idx] flags <lower|upper|negative> {axis = 1 : i64}
      : !vrir.array<f64, 2, row_major>[!vrir.array<i64, 1, row_major>]
      -> !vrir.array<f64, 2, row_major>
  return %g : !vrir.array<f64, 2, row_major>
}

// -----

// A[idx] = v along axis 0 of a 2-D array: v is broadcast to the selection
// (len(idx), n) and copied first if its memory overlaps A's.

// CPU-LABEL: llvm.func @scatter_axis0(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @scatter_axis0
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?xf64>, %[[IDX:arg[0-9]+]]: memref<?xi32>, %[[V:arg[0-9]+]]: memref<?xf64>)
// CHECK: llvm.call @vrir_rt_error
// CHECK: memref.extract_aligned_pointer_as_index %[[V]]
// CHECK: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[SRC:.*]] = scf.if
// CHECK: %[[BCAST:.*]] = memref.reinterpret_cast {{.*}} to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: scf.for %[[J:.*]] =
// CHECK:   memref.load %[[IDX]][%[[J]]] : memref<?xi32>
// CHECK:   %[[K:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:   llvm.call @vrir_rt_bounds_error
// CHECK:   scf.for %[[I:.*]] =
// CHECK:     %[[E:.*]] = memref.load %[[BCAST]][%[[J]], %[[I]]]
// CHECK:     memref.store %[[E]], %[[A]][%[[K]], %[[I]]] : memref<?x?xf64>
func.func @scatter_axis0(%A: !vrir.array<f64, 2, row_major>, %idx: !vrir.array<i32, 1, row_major>,
                         %v: !vrir.array<f64, 1, row_major>) {
  vrir.scatter %v, %A[%idx] : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 2, row_major>[!vrir.array<i32, 1, row_major>]
  return
}

// -----

// A scalar scattered along axis 1 of a 1-based module: index base
// subtracted, stored directly.

// CPU-LABEL: llvm.func @scatter_scalar_matlab(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @scatter_scalar_matlab
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?xf64, strided<[1, ?]>>, %[[IDX:arg[0-9]+]]: memref<?x?xi64, strided<[1, ?]>>, %[[X:arg[0-9]+]]: f64)
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK: scf.for %[[J0:.*]] =
// CHECK:   scf.for %[[J1:.*]] =
// CHECK:     memref.load %[[IDX]][%[[J0]], %[[J1]]]
// CHECK:     %[[K:.*]] = arith.subi
// CHECK:     scf.for %[[I:.*]] =
// CHECK:       memref.store %[[X]], %[[A]][%[[I]], %[[K]]]
module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  func.func @scatter_scalar_matlab(%A: !vrir.array<f64, 2, col_major>,
                                   %idx: !vrir.array<i64, 2, col_major>, %x: f64) {
    vrir.scatter %x, %A[%idx] {axis = 1 : i64}
        : f64, !vrir.array<f64, 2, col_major>[!vrir.array<i64, 2, col_major>]
    return
  }
}

// -----

// A fused slice assignment: the selection's view, the broadcast check of
// each array input, then one loop nest writing either straight into the
// view or, when an input overlaps the selection other than as the same
// view, into a temporary that is then copied into the view.

// CPU-LABEL: llvm.func @store_map(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @store_map
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?xf64>, %[[I:arg[0-9]+]]: index, %[[X:arg[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>, %[[S:arg[0-9]+]]: f64)
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} : memref<f64> to memref<?xf64, strided<[?], offset: ?>>
// CHECK: memref.dim %[[X]]
// CHECK: llvm.call @vrir_rt_error
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK: %[[ANY:.*]] = arith.ori %{{.*}}, %{{.*}} : i1
// CHECK-NEXT: %[[DEST:.*]] = scf.if %[[ANY]] -> (memref<?xf64, strided<[?], offset: ?>>) {
// CHECK:   %[[TMP:.*]] = memref.alloc
// CHECK:   %[[CAST:.*]] = memref.cast %[[TMP]]
// CHECK:   scf.yield %[[CAST]]
// CHECK: } else {
// CHECK:   scf.yield %[[VIEW]]
// CHECK: }
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} outs(%[[DEST]] : {{.*}})
// CHECK:   arith.mulf
// CHECK: scf.if %[[ANY]] {
// CHECK:   linalg.copy ins(%[[DEST]] : {{.*}}) outs(%[[VIEW]] : {{.*}})
// CHECK: }
// CHECK-NOT: linalg.generic
func.func @store_map(%A: !vrir.array<f64, 2, row_major>, %i: index,
                     %x: !vrir.array<f64, 1, strided>, %s: f64) {
  vrir.store_map %x, %s into %A[%i] : (!vrir.array<f64, 1, strided>, f64) -> !vrir.array<f64, 2, row_major>[index] {
  ^bb0(%a: f64, %b: f64):
    %t = arith.mulf %a, %b : f64
    vrir.yield %t : f64
  }
  return
}
