// RUN: vr-opt %s -vrir-interrupt-points | FileCheck %s

// Loops with loops inside, and while loops, read the Ctrl-C flag at the
// start of each iteration; innermost counted loops do not.
// CHECK-DAG: llvm.mlir.global external @vrir_rt_interrupt_flag() {addr_space = 0 : i32} : i32
// CHECK-DAG: llvm.func @vrir_rt_raise_interrupt() attributes {passthrough = ["noreturn", "cold"]}
// CHECK-LABEL: func.func @nest
// CHECK: scf.for
// CHECK-NEXT:   %[[ADDR:.*]] = llvm.mlir.addressof @vrir_rt_interrupt_flag : !llvm.ptr
// CHECK-NEXT:   %[[FLAG:.*]] = llvm.load %[[ADDR]] atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[SET:.*]] = arith.cmpi ne, %[[FLAG]], %[[ZERO]] : i32
// CHECK-NEXT:   scf.if %[[SET]] {
// CHECK-NEXT:     llvm.call @vrir_rt_raise_interrupt() {{.*}} : () -> ()
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.for
// CHECK-NOT:      llvm.load
// CHECK:          memref.store
func.func @nest(%A: memref<?x?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %x, %A[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// CHECK-LABEL: func.func @while
// CHECK: scf.while
// CHECK: do {
// CHECK-NEXT: ^bb0(%{{.*}}: f64):
// CHECK-NEXT:   llvm.mlir.addressof @vrir_rt_interrupt_flag
func.func @while(%x: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r = scf.while (%v = %x) : (f64) -> f64 {
    %c = arith.cmpf oge, %v, %zero : f64
    scf.condition(%c) %v : f64
  } do {
  ^bb0(%v: f64):
    %w = arith.addf %v, %one : f64
    scf.yield %w : f64
  }
  return %r : f64
}

// A parallel loop with a loop inside polls per iteration.
// CHECK-LABEL: func.func @parallel_nest
// CHECK: scf.parallel
// CHECK-NEXT: llvm.mlir.addressof @vrir_rt_interrupt_flag
func.func @parallel_nest(%A: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %x, %A[%j] : memref<?xf64>
    }
    scf.reduce
  }
  return
}

// A flat parallel loop and an innermost counted loop do not poll.
// CHECK-LABEL: func.func @flat
// CHECK-NOT: vrir_rt_interrupt_flag
// CHECK: return
func.func @flat(%A: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %x, %A[%i] : memref<?xf64>
    scf.reduce
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %x, %A[%i] : memref<?xf64>
  }
  return
}

// Inner counted loops of at most 128 iterations bound the work of an
// iteration: the loop around them does not poll (it vectorizes once they
// are unrolled). One of 129 iterations, or of an unknown count, makes the
// outer loop poll.
// CHECK-LABEL: func.func @short_inner
// CHECK-NOT: vrir_rt_interrupt_flag
// CHECK: return
func.func @short_inner(%A: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    %s = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f64) {
      %ik = arith.addi %i, %k : index
      %x = memref.load %A[%ik] : memref<?xf64>
      %sum = arith.addf %acc, %x : f64
      scf.yield %sum : f64
    }
    memref.store %s, %A[%i] : memref<?xf64>
  }
  return
}

// CHECK-LABEL: func.func @long_inner
// CHECK: scf.for %{{.*}} to %arg1 step
// CHECK-NEXT: llvm.mlir.addressof @vrir_rt_interrupt_flag
// CHECK: scf.for %{{.*}} to %c129 step
// CHECK-NEXT: memref.store
// CHECK: scf.for %{{.*}} to %arg1 step
// CHECK-NEXT: llvm.mlir.addressof @vrir_rt_interrupt_flag
func.func @long_inner(%A: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c129 = arith.constant 129 : index
  %x = arith.constant 1.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %c129 step %c1 {
      memref.store %x, %A[%k] : memref<?xf64>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %c1 step %c1 {
      scf.for %j = %c0 to %c1 step %c1 {
        memref.store %x, %A[%j] : memref<?xf64>
      }
    }
  }
  return
}
