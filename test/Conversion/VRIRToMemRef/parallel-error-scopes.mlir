// RUN: vr-opt %s -split-input-file -vrir-parallel-error-scopes | FileCheck %s

llvm.func @vrir_rt_error(!llvm.ptr)
llvm.func @vrir_rt_parallel_bounds_error(!llvm.ptr, i64, i64, i64)

// A body that can raise (it calls vrir_rt_error) runs as chunks of its
// iterations: each chunk registers a runtime record (one per chunk, in
// memory allocated once at the function's entry) and calls _setjmp on it;
// the chunk's loop ends as soon as the loop's status says an iteration
// failed; after the loop the first error is raised once. Iterations with loops of their own (here the
// second dimension) read the status each.
// CHECK-LABEL: llvm.func @_setjmp(!llvm.ptr) -> i32 attributes {passthrough = ["returns_twice"]}
// CHECK-LABEL: func.func @raises
// CHECK-DAG: %[[STATUS:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, ptr)> {alignment = 8 : i64}
// CHECK-DAG: %[[CHUNKS:.*]] = llvm.alloca %{{.*}} x i8 {alignment = 16 : i64}
// CHECK: llvm.store %{{.*}}, %[[STATUS]] : i64, !llvm.ptr
// CHECK: %[[COUNT:.*]] = arith.ceildivui
// CHECK: %[[NCHUNKS:.*]] = arith.minui %[[COUNT]], %c64
// CHECK: scf.parallel (%[[C:.*]]) = (%{{.*}}) to (%[[NCHUNKS]])
// CHECK:   %[[RECORD:.*]] = llvm.getelementptr %[[CHUNKS]]
// CHECK:   llvm.call @vrir_rt_parallel_enter(%[[RECORD]], %[[STATUS]], %{{.*}})
// CHECK:   %[[JMP:.*]] = llvm.call @_setjmp(%[[RECORD]])
// CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[JMP]]
// CHECK:   scf.if %[[FIRST]] {
// CHECK:     scf.while (%[[K:.*]] = %{{.*}}) : (index) -> index {
// CHECK:       %[[IN:.*]] = arith.cmpi ult, %[[K]]
// CHECK:       %[[FAILED:.*]] = llvm.load %[[STATUS]] atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK:       %[[GO:.*]] = arith.cmpi eq, %[[FAILED]]
// CHECK:       %[[BOTH:.*]] = arith.andi %[[IN]], %[[GO]]
// CHECK:       scf.condition(%[[BOTH]]) %[[K]]
// CHECK:     } do {
// CHECK:       ^bb0(%[[KK:.*]]: index):
// CHECK:         %[[I:.*]] = arith.addi %{{.*}}, %{{.*}}
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK:           llvm.call @vrir_rt_error
// CHECK:   llvm.call @vrir_rt_parallel_leave(%[[RECORD]])
// CHECK: llvm.call @vrir_rt_parallel_finish(%[[STATUS]])
// CHECK-NOT: scf.parallel
func.func @raises(%A: memref<?x?xf64>, %n: index, %m: index, %text: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    memref.store %x, %A[%i, %j] : memref<?x?xf64>
    llvm.call @vrir_rt_error(%text) : (!llvm.ptr) -> ()
    scf.reduce
  }
  return
}

// -----

llvm.func @vrir_rt_parallel_bounds_error(!llvm.ptr, i64, i64, i64)

// Parallel bounds errors are recorded and return: chunks register
// themselves, without _setjmp. A flat body reads the status once per block
// of 64 iterations (the loop over the block vectorizes).
// CHECK-LABEL: func.func @records
// CHECK: llvm.call @vrir_rt_parallel_enter(%{{.*}}, %{{.*}}, %[[ZERO:.*]])
// CHECK-NOT: _setjmp
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (index) -> index {
// CHECK:   %{{.*}} = arith.cmpi ult, %{{.*}}, %[[LAST:.*]] : index
// CHECK:   llvm.load %{{.*}} atomic monotonic
// CHECK: } do {
// CHECK:   ^bb0(%[[BLOCK:.*]]: index):
// CHECK:     %[[NEXT:.*]] = arith.addi %[[BLOCK]], %c64
// CHECK:     %[[END:.*]] = arith.minui %[[NEXT]], %[[LAST]]
// CHECK:     scf.for %{{.*}} = %[[BLOCK]] to %[[END]] step
// CHECK-NOT:   llvm.load
// CHECK:       llvm.call @vrir_rt_parallel_bounds_error
// CHECK: llvm.call @vrir_rt_parallel_leave
// CHECK: llvm.call @vrir_rt_parallel_finish
func.func @records(%n: index, %text: !llvm.ptr, %v: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    llvm.call @vrir_rt_parallel_bounds_error(%text, %v, %v, %v) : (!llvm.ptr, i64, i64, i64) -> ()
    scf.reduce
  }
  return
}

// -----

// An allocation can run out of memory, which raises.
// CHECK-LABEL: func.func @allocates
// CHECK: llvm.call @_setjmp
func.func @allocates(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = memref.alloc(%i) : memref<?xf64>
    memref.dealloc %t : memref<?xf64>
    scf.reduce
  }
  return
}

// -----

llvm.func @vrir_rt_error(!llvm.ptr)

// A guarded loop inside a serial loop: its memory is allocated once, at the
// function's entry, not at the start of the scf.for body (an
// AutomaticAllocationScope whose LLVM lowering does not free it: 32 KiB of
// stack per iteration overflowed the stack of an LU decomposition).
// CHECK-LABEL: func.func @in_a_loop
// CHECK-NEXT: llvm.mlir.constant
// CHECK-NEXT: llvm.alloca %{{.*}} x !llvm.struct<(i64, ptr)>
// CHECK-NEXT: llvm.mlir.constant
// CHECK-NEXT: llvm.alloca %{{.*}} x i8
// CHECK: scf.for
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @vrir_rt_parallel_enter
func.func @in_a_loop(%A: memref<?xf64>, %n: index, %text: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  scf.for %k = %c0 to %n step %c1 {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      memref.store %x, %A[%i] : memref<?xf64>
      llvm.call @vrir_rt_error(%text) : (!llvm.ptr) -> ()
      scf.reduce
    }
  }
  return
}

// -----

// Bodies that cannot fail, loops with results and nested loops are left
// alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: vrir_rt_parallel_enter
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK-NOT: vrir_rt_parallel_enter
func.func @untouched(%A: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %A[%i] : memref<?xf64>
    %y = arith.mulf %x, %x : f64
    memref.store %y, %A[%i] : memref<?xf64>
    scf.reduce
  }
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %x = memref.load %A[%i] : memref<?xf64>
    scf.reduce(%x : f64) {
    ^bb0(%l: f64, %r: f64):
      %s = arith.addf %l, %r : f64
      scf.reduce.return %s : f64
    }
  }
  return %sum : f64
}

