// RUN: vr-opt %s -finalize-memref-to-llvm -convert-func-to-llvm \
// RUN:   -vrir-lower-region-dispatch -reconcile-unrealized-casts | FileCheck %s

// Calls of an outlined region go through a wrapper that stores the facts of
// its arguments (A's aligned pointer, offset, sizes and strides; n widened
// to i64; x's bits; a slot for the start time), asks the dispatcher, calls
// the version it returns, or the generic region, and reports the return.

// CHECK-LABEL: llvm.func @vrir_rt_region_exit(!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func @vrir_rt_region_enter(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
// CHECK-LABEL: llvm.func @f_region0(
// CHECK-NOT:     vrir.region
// CHECK-LABEL: llvm.func internal @f_region0.dispatch
// CHECK-SAME:    (%{{.*}}: !llvm.ptr, %[[DATA:.*]]: !llvm.ptr, %[[OFF:.*]]: i64, %[[S0:.*]]: i64, %[[S1:.*]]: i64, %[[T0:.*]]: i64, %[[T1:.*]]: i64, %[[N:.*]]: i32, %[[X:.*]]: f64) -> f64
// CHECK:         %[[FACTS:.*]] = llvm.alloca %{{.*}} x !llvm.array<9 x i64>
// CHECK:         %[[P:.*]] = llvm.ptrtoint %[[DATA]]
// CHECK:         llvm.store %[[P]]
// CHECK:         llvm.store %[[OFF]]
// CHECK:         llvm.store %[[S0]]
// CHECK:         llvm.store %[[S1]]
// CHECK:         llvm.store %[[T0]]
// CHECK:         llvm.store %[[T1]]
// CHECK:         %[[NW:.*]] = llvm.sext %[[N]] : i32 to i64
// CHECK:         llvm.store %[[NW]]
// CHECK:         %[[XB:.*]] = llvm.bitcast %[[X]] : f64 to i64
// CHECK:         llvm.store %[[XB]]
// CHECK:         %[[REGION:.*]] = llvm.mlir.addressof @__vrir_region_f_region0
// CHECK:         %[[FN:.*]] = llvm.call @vrir_rt_region_enter(%[[REGION]], %[[FACTS]])
// CHECK:         %[[MISSING:.*]] = llvm.icmp "eq" %[[FN]]
// CHECK:         llvm.cond_br %[[MISSING]], ^[[GENERIC:.*]], ^[[SPECIAL:.*]]
// CHECK:       ^[[SPECIAL]]:
// CHECK:         %[[R1:.*]] = llvm.call %[[FN]](
// CHECK:         llvm.call @vrir_rt_region_exit(%[[REGION]], %[[FACTS]])
// CHECK:         llvm.return %[[R1]]
// CHECK:       ^[[GENERIC]]:
// CHECK:         %[[R2:.*]] = llvm.call @f_region0(
// CHECK:         llvm.call @vrir_rt_region_exit(%[[REGION]], %[[FACTS]])
// CHECK:         llvm.return %[[R2]]
// CHECK-LABEL: llvm.func @f(
// CHECK:         llvm.call @f_region0.dispatch
// CHECK:       llvm.mlir.global private constant @__vrir_region_f_region0_name("f_region0\00")
// CHECK:       llvm.mlir.global private constant @__vrir_region_f_region0_signature("m2:8S,i32V,f64\00")
// CHECK:       llvm.mlir.global private constant @__vrir_region_f_region0_options("cpu:1:1:1\00")
// CHECK:       llvm.mlir.global private constant @__vrir_region_f_region0_source("module {}\00")
// CHECK:       llvm.mlir.global internal @__vrir_region_f_region0() {{.*}} : !llvm.struct<(ptr, ptr, ptr, ptr, ptr)>
// CHECK:         llvm.mlir.zero : !llvm.ptr

func.func private @f_region0(%A: memref<?x?xf64>, %n: i32, %x: f64) -> f64 attributes {
    vrir.region = {source = "module {}", signature = "m2:8S,i32V,f64",
                   options = "cpu:1:1:1"}} {
  %c0 = arith.constant 0 : index
  %v = memref.load %A[%c0, %c0] : memref<?x?xf64>
  return %v : f64
}
func.func @f(%A: memref<?x?xf64>, %n: i32, %x: f64) -> f64 {
  %r = func.call @f_region0(%A, %n, %x) : (memref<?x?xf64>, i32, f64) -> f64
  return %r : f64
}
