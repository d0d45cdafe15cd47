// RUN: vr-opt %s -vrir-convert-memref-access-to-llvm | FileCheck %s

// Row-major: the row is indexed by i and j times their strides, then the
// element by k (stride 1) on its own; both steps keep upstream's flags.
// CHECK-LABEL: func.func @row_major
// CHECK-SAME: (%[[M:.*]]: memref<?x?x?xf64>, %[[I:.*]]: index, %[[J:.*]]: index, %[[K:.*]]: index)
// CHECK-DAG: %[[KI:.*]] = builtin.unrealized_conversion_cast %[[K]] : index to i64
// CHECK-DAG: %[[JI:.*]] = builtin.unrealized_conversion_cast %[[J]] : index to i64
// CHECK-DAG: %[[II:.*]] = builtin.unrealized_conversion_cast %[[I]] : index to i64
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %[[M]]
// CHECK: %[[S0:.*]] = llvm.extractvalue %[[D]][4, 0]
// CHECK: %[[T0:.*]] = llvm.mul %[[II]], %[[S0]] overflow<nsw> : i64
// CHECK: %[[S1:.*]] = llvm.extractvalue %[[D]][4, 1]
// CHECK: %[[T1:.*]] = llvm.mul %[[JI]], %[[S1]] overflow<nsw> : i64
// CHECK: %[[ROWOFF:.*]] = llvm.add %[[T0]], %[[T1]] overflow<nsw> : i64
// CHECK: %[[BASE:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: %[[ROW:.*]] = llvm.getelementptr inbounds|nuw %[[BASE]][%[[ROWOFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: %[[EL:.*]] = llvm.getelementptr inbounds|nuw %[[ROW]][%[[KI]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: %[[V:.*]] = llvm.load %[[EL]] : !llvm.ptr -> f64
// CHECK: return %[[V]]
func.func @row_major(%m: memref<?x?x?xf64>, %i: index, %j: index, %k: index) -> f64 {
  %v = memref.load %m[%i, %j, %k] : memref<?x?x?xf64>
  return %v : f64
}

// Column-major: the first dimension has stride 1, so i indexes the column
// (base + offset + j * stride), and `nontemporal` carries over.
// CHECK-LABEL: func.func @column_major
// CHECK-SAME: (%[[M:.*]]: memref<?x?xf32, strided<[1, ?], offset: ?>>, %[[I:.*]]: index, %[[J:.*]]: index, %[[V:.*]]: f32)
// CHECK-DAG: %[[JI:.*]] = builtin.unrealized_conversion_cast %[[J]] : index to i64
// CHECK-DAG: %[[II:.*]] = builtin.unrealized_conversion_cast %[[I]] : index to i64
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %[[M]]
// CHECK: %[[S1:.*]] = llvm.extractvalue %[[D]][4, 1]
// CHECK: %[[T1:.*]] = llvm.mul %[[JI]], %[[S1]] overflow<nsw> : i64
// CHECK: %[[ALIGNED:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: %[[OFFSET:.*]] = llvm.extractvalue %[[D]][2]
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[ALIGNED]][%[[OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[COLUMN:.*]] = llvm.getelementptr inbounds|nuw %[[BASE]][%[[T1]]]
// CHECK: %[[EL:.*]] = llvm.getelementptr inbounds|nuw %[[COLUMN]][%[[II]]]
// CHECK: llvm.store %[[V]], %[[EL]] {nontemporal} : f32, !llvm.ptr
func.func @column_major(%m: memref<?x?xf32, strided<[1, ?], offset: ?>>, %i: index, %j: index, %v: f32) {
  memref.store %v, %m[%i, %j] {nontemporal = true} : memref<?x?xf32, strided<[1, ?], offset: ?>>
  return
}

// No unit stride: the last dimension indexes the row, times its stride;
// the alignment carries over.
// CHECK-LABEL: func.func @strided
// CHECK: %[[S0:.*]] = llvm.extractvalue %{{.*}}[4, 0]
// CHECK: %[[T0:.*]] = llvm.mul %{{.*}}, %[[S0]] overflow<nsw> : i64
// CHECK: %[[ROW:.*]] = llvm.getelementptr inbounds|nuw %{{.*}}[%[[T0]]] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK: %[[S1:.*]] = llvm.extractvalue %{{.*}}[4, 1]
// CHECK: %[[T1:.*]] = llvm.mul %{{.*}}, %[[S1]] overflow<nsw> : i64
// CHECK: %[[EL:.*]] = llvm.getelementptr inbounds|nuw %[[ROW]][%[[T1]]]
// CHECK: llvm.load %[[EL]] {alignment = 16 : i64} : !llvm.ptr -> i32
func.func @strided(%m: memref<?x?xi32, strided<[?, ?], offset: ?>>, %i: index, %j: index) -> i32 {
  %v = memref.load %m[%i, %j] {alignment = 16 : i64} : memref<?x?xi32, strided<[?, ?], offset: ?>>
  return %v : i32
}

// Static strides and offset become constants.
// CHECK-LABEL: func.func @static
// CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[T0:.*]] = llvm.mul %{{.*}}, %[[C16]] overflow<nsw> : i64
// CHECK: %[[C3:.*]] = llvm.mlir.constant(3 : index) : i64
// CHECK: %[[BASE:.*]] = llvm.getelementptr %{{.*}}[%[[C3]]]
// CHECK: %[[ROW:.*]] = llvm.getelementptr inbounds|nuw %[[BASE]][%[[T0]]]
// CHECK: %[[C2:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: %[[T1:.*]] = llvm.mul %{{.*}}, %[[C2]] overflow<nsw> : i64
// CHECK: llvm.getelementptr inbounds|nuw %[[ROW]][%[[T1]]]
func.func @static(%m: memref<4x8xf64, strided<[16, 2], offset: 3>>, %i: index, %j: index) -> f64 {
  %v = memref.load %m[%i, %j] : memref<4x8xf64, strided<[16, 2], offset: 3>>
  return %v : f64
}

// Ranks 0 and 1 stay for finalize-memref-to-llvm.
// CHECK-LABEL: func.func @low_rank
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<?xf64>
// CHECK: memref.load %{{.*}}[] : memref<f64>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf64>
// CHECK-NOT: llvm.getelementptr
func.func @low_rank(%m: memref<?xf64>, %s: memref<f64>, %i: index) {
  %v = memref.load %m[%i] : memref<?xf64>
  %w = memref.load %s[] : memref<f64>
  %r = arith.addf %v, %w : f64
  memref.store %r, %m[%i] : memref<?xf64>
  return
}
