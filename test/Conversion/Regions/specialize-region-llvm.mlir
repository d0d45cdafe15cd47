// RUN: vr-opt %s -finalize-memref-to-llvm -vrir-allow-negative-strides \
// RUN:   -convert-arith-to-llvm -convert-func-to-llvm -vrir-specialize-region-llvm \
// RUN:   -reconcile-unrealized-casts -canonicalize | FileCheck %s

// A region specialised for A of 8x4 (row-major, nothing else overlaps it)
// and n = 6, after lowering: A's sizes and strides are constants, its data
// pointer is noalias, n is a constant; B's facts give it none of these. A
// negative stride becomes a constant too (see @reversed), with no `nuw` on
// the arithmetic it enters (vrir-allow-negative-strides, as in the pipeline).

// CHECK-LABEL: llvm.func @region
// CHECK-SAME:    (%{{.*}}: !llvm.ptr, %[[ADATA:.*]]: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %[[BDATA:.*]]: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[X:.*]]: f64) -> f64
// CHECK-NOT:     vrir.region_facts
// CHECK-DAG:     %[[C8:.*]] = llvm.mlir.constant(8 : i64)
// CHECK-DAG:     %[[C4:.*]] = llvm.mlir.constant(4 : i64)
// CHECK-DAG:     %[[C6:.*]] = llvm.mlir.constant(6 : i64)
// CHECK:         %[[ROW:.*]] = llvm.mul %[[C6]], %[[C4]]
// CHECK:         %[[AT:.*]] = llvm.add %[[ROW]], %[[C8]]
// CHECK:         llvm.getelementptr inbounds %[[ADATA]][%[[AT]]]
// CHECK:         llvm.getelementptr inbounds %[[BDATA]][6]
func.func @region(%A: memref<?x?xf64>, %B: memref<?xf64>, %n: index, %x: f64) -> f64 attributes {
    vrir.region_facts = [
      {rank = 2 : i64, shape = array<i64: 8, 4>, strides = array<i64: 4, 1>, noalias},
      {rank = 1 : i64},
      {value = 6 : i64}, {}]} {
  %c0 = arith.constant 0 : index
  %d = memref.dim %A, %c0 : memref<?x?xf64>
  %v = memref.load %A[%n, %d] : memref<?x?xf64>
  %w = memref.load %B[%n] : memref<?xf64>
  %s = arith.addf %v, %w : f64
  %t = arith.addf %s, %x : f64
  return %t : f64
}

// CHECK-LABEL: llvm.func @reversed
// CHECK-SAME:    (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[I:.*]]: i64)
// CHECK:         %[[MINUS1:.*]] = llvm.mlir.constant(-1 : i64)
// CHECK:         llvm.mul %[[I]], %[[MINUS1]] overflow<nsw> : i64
// CHECK-NOT:     nuw
func.func @reversed(%A: memref<?xf64, strided<[?], offset: ?>>, %i: index) -> f64 attributes {
    vrir.region_facts = [
      {rank = 1 : i64, shape = array<i64: 8>, strides = array<i64: -1>}, {}]} {
  %v = memref.load %A[%i] : memref<?xf64, strided<[?], offset: ?>>
  return %v : f64
}
