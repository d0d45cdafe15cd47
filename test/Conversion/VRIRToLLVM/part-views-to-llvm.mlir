// RUN: vr-opt %s -vrir-convert-part-views-to-llvm | FileCheck %s

// The imaginary parts of a complex matrix: the source's descriptor with the
// offset 2 * offset + 1, the same pointers and sizes, and twice the strides.
// CHECK-LABEL: func.func @imag
// CHECK-SAME: (%[[M:.*]]: memref<?x?xcomplex<f64>, strided<[?, ?], offset: ?>>)
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %[[M]] : memref<?x?xcomplex<f64>, strided<[?, ?], offset: ?>> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[ALLOCATED:.*]] = llvm.extractvalue %[[D]][0]
// CHECK: llvm.insertvalue %[[ALLOCATED]], %{{.*}}[0]
// CHECK: %[[ALIGNED:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: llvm.insertvalue %[[ALIGNED]], %{{.*}}[1]
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK: %[[OFFSET:.*]] = llvm.extractvalue %[[D]][2]
// CHECK: %[[DOUBLED:.*]] = llvm.mul %[[OFFSET]], %[[TWO]] : i64
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK: %[[IMAG:.*]] = llvm.add %[[DOUBLED]], %[[ONE]] : i64
// CHECK: llvm.insertvalue %[[IMAG]], %{{.*}}[2]
// CHECK: %[[SIZE0:.*]] = llvm.extractvalue %[[D]][3, 0]
// CHECK: llvm.insertvalue %[[SIZE0]], %{{.*}}[3, 0]
// CHECK: %[[STRIDE0:.*]] = llvm.extractvalue %[[D]][4, 0]
// CHECK: %[[S0:.*]] = llvm.mul %[[STRIDE0]], %[[TWO]] : i64
// CHECK: llvm.insertvalue %[[S0]], %{{.*}}[4, 0]
// CHECK: %[[SIZE1:.*]] = llvm.extractvalue %[[D]][3, 1]
// CHECK: llvm.insertvalue %[[SIZE1]], %{{.*}}[3, 1]
// CHECK: %[[STRIDE1:.*]] = llvm.extractvalue %[[D]][4, 1]
// CHECK: %[[S1:.*]] = llvm.mul %[[STRIDE1]], %[[TWO]] : i64
// CHECK: %[[VIEW:.*]] = llvm.insertvalue %[[S1]], %{{.*}}[4, 1]
// CHECK: %[[R:.*]] = builtin.unrealized_conversion_cast %[[VIEW]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: return %[[R]]
func.func @imag(%m: memref<?x?xcomplex<f64>, strided<[?, ?], offset: ?>>) -> memref<?x?xf64, strided<[?, ?], offset: ?>> {
  %im = vrir.memref_part_view imag %m : memref<?x?xcomplex<f64>, strided<[?, ?], offset: ?>> -> memref<?x?xf64, strided<[?, ?], offset: ?>>
  return %im : memref<?x?xf64, strided<[?, ?], offset: ?>>
}

// The real parts of a contiguous complex<f32> vector: offset 2 * offset
// (an identity layout's descriptor still holds its offset and stride).
// CHECK-LABEL: func.func @real
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK: %[[OFFSET:.*]] = llvm.extractvalue %[[D]][2]
// CHECK: %[[DOUBLED:.*]] = llvm.mul %[[OFFSET]], %[[TWO]] : i64
// CHECK-NOT: llvm.add
// CHECK: llvm.insertvalue %[[DOUBLED]], %{{.*}}[2]
// CHECK: %[[STRIDE:.*]] = llvm.extractvalue %[[D]][4, 0]
// CHECK: llvm.mul %[[STRIDE]], %[[TWO]] : i64
func.func @real(%m: memref<?xcomplex<f32>>) -> memref<?xf32, strided<[?], offset: ?>> {
  %re = vrir.memref_part_view real %m : memref<?xcomplex<f32>> -> memref<?xf32, strided<[?], offset: ?>>
  return %re : memref<?xf32, strided<[?], offset: ?>>
}
