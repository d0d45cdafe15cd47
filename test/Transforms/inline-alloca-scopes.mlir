// RUN: vr-opt %s -vrir-inline-alloca-scopes | FileCheck %s

llvm.func @callee(i64)

// A scope that allocates nothing is inlined, calls or not.
// CHECK-LABEL: func.func @empty_scope
// CHECK-NOT: memref.alloca_scope
// CHECK: llvm.call @callee
// CHECK: memref.store
func.func @empty_scope(%m: memref<?xf64>, %i: index, %x: f64, %k: i64) {
  memref.alloca_scope {
    llvm.call @callee(%k) : (i64) -> ()
    memref.store %x, %m[%i] : memref<?xf64>
  }
  return
}

// A scope with a stack allocation stays.
// CHECK-LABEL: func.func @allocating_scope
// CHECK: memref.alloca_scope
// CHECK:   memref.alloca
func.func @allocating_scope(%x: f64) {
  memref.alloca_scope {
    %a = memref.alloca() : memref<f64>
    memref.store %x, %a[] : memref<f64>
  }
  return
}

// An allocation inside a nested allocation scope (here a parallel loop,
// which releases its own stack) does not count.
// CHECK-LABEL: func.func @nested_scope
// CHECK-NOT: memref.alloca_scope
// CHECK: scf.parallel
// CHECK:   memref.alloca
func.func @nested_scope(%x: f64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.alloca_scope {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %a = memref.alloca() : memref<f64>
      memref.store %x, %a[] : memref<f64>
      scf.reduce
    }
  }
  return
}
