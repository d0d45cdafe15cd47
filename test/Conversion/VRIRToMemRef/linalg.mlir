// RUN: vr-opt %s -convert-vrir-to-memref -split-input-file | FileCheck %s
// The whole CPU pipeline reaches the LLVM dialect:
// RUN: vr-opt %s --vrir-to-cpu -split-input-file | FileCheck %s --check-prefix=CPU

// f64 matmul: inner dimensions checked, result allocated, and for non-empty
// operands each operand is used in place when BLAS can read it (one unit
// stride, a leading dimension >= max(1, extent)) or packed into a row-major
// temporary; the CBLAS order follows the result layout and an operand
// stored the other way is passed transposed. Empty operands give zeros.

// CHECK-DAG: llvm.func @cblas_dgemm(i32, i32, i32, i32, i32, i32, f64, !llvm.ptr, i32, !llvm.ptr, i32, f64, !llvm.ptr, i32)
// CHECK-DAG: llvm.mlir.global internal constant @[[SHAPES:.*]]("matmul: shapes (m,k) and (k2,n) not aligned (array argument #0, accessed at
// CPU-LABEL: llvm.func @matmul_f64(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @matmul_f64
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?xf64>, %[[B:arg[0-9]+]]: memref<?x?xf64, strided<[1, ?]>>)
// CHECK: %[[M:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x?xf64>
// CHECK: %[[K:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x?xf64>
// CHECK: %[[K2:.*]] = memref.dim %[[B]]
// CHECK: %[[N:.*]] = memref.dim %[[B]]
// CHECK: %[[BAD:.*]] = arith.cmpi ne, %[[K]], %[[K2]] : index
// CHECK: scf.if %[[BAD]] {
// CHECK:   llvm.mlir.addressof @[[SHAPES]]
// CHECK:   llvm.call @vrir_rt_error
// CHECK: %[[C:.*]] = memref.alloc(%[[M]], %[[N]]) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK: scf.if %{{.*}} {
// CHECK:   %[[AOP:.*]] = scf.if %{{.*}} -> (memref<?x?xf64, strided<[?, ?], offset: ?>>) {
// CHECK:     memref.cast %[[A]]
// CHECK:   } else {
// CHECK:     %[[PACK:.*]] = memref.alloc
// CHECK:     linalg.copy ins(%[[A]] : memref<?x?xf64>) outs(%[[PACK]] : memref<?x?xf64>)
// CHECK:   memref.extract_aligned_pointer_as_index %[[AOP]]
// CHECK:   %[[APTR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK:   %[[BOP:.*]] = scf.if
// CHECK:   %[[BPTR:.*]] = llvm.getelementptr
// CHECK:   %[[TRANSA:.*]] = arith.select %{{.*}}, %c111_i32, %c112_i32 : i32
// CHECK:   %[[TRANSB:.*]] = arith.select %{{.*}}, %c111_i32, %c112_i32 : i32
// CHECK:   memref.extract_aligned_pointer_as_index %[[C]]
// CHECK:   %[[CPTR:.*]] = llvm.getelementptr
// CHECK:   llvm.call @cblas_dgemm(%c101_i32, %[[TRANSA]], %[[TRANSB]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[APTR]], %{{.*}}, %[[BPTR]], %{{.*}}, %{{.*}}, %[[CPTR]], %{{.*}})
// CHECK: } else {
// CHECK:   linalg.fill ins(%{{.*}} : f64) outs(%[[C]] : memref<?x?xf64>)
// CHECK: return %[[C]]
func.func @matmul_f64(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, col_major>)
    -> !vrir.array<f64, 2, row_major> {
  %C = vrir.matmul %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, col_major>
      -> !vrir.array<f64, 2, row_major>
  return %C : !vrir.array<f64, 2, row_major>
}

// -----

// f32 into a column-major result: CblasColMajor, and a row-major operand is
// the transposed one.

// CPU-LABEL: llvm.func @matmul_f32_col_major(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @matmul_f32_col_major
// CHECK:   arith.select %{{.*}}, %c112_i32, %c111_i32 : i32
// CHECK:   llvm.call @cblas_sgemm(%c102_i32, {{.*}}) : (i32, i32, i32, i32, i32, i32, f32, !llvm.ptr, i32, !llvm.ptr, i32, f32, !llvm.ptr, i32) -> ()
func.func @matmul_f32_col_major(%A: !vrir.array<f32, 2, strided>, %B: !vrir.array<f32, 2, row_major>)
    -> !vrir.array<f32, 2, col_major> {
  %C = vrir.matmul %A, %B : !vrir.array<f32, 2, strided>, !vrir.array<f32, 2, row_major>
      -> !vrir.array<f32, 2, col_major>
  return %C : !vrir.array<f32, 2, col_major>
}

// -----

// X^T X and X X^T (one operand the transpose of the other, as a view or a
// copy): one syrk computes the upper triangle (CblasUpper = 121) and a loop
// nest mirrors it into the lower one. X stored in the result's order is
// passed as it is (X^T X: CblasTrans = 112), else as its transpose.

// CHECK-DAG: llvm.func @cblas_dsyrk(i32, i32, i32, i32, i32, f64, !llvm.ptr, i32, f64, !llvm.ptr, i32)
// CPU-LABEL: llvm.func @gram_view(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @gram_view
// CHECK-SAME: (%[[X:arg[0-9]+]]: memref<?x?xf64>)
// CHECK-NOT: cblas_dgemm
// CHECK: %[[C:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK: %[[TRANS:.*]] = arith.select %{{.*}}, %c112_i32, %c111_i32 : i32
// CHECK: llvm.call @cblas_dsyrk(%c101_i32, %c121_i32, %[[TRANS]], {{.*}}) : (i32, i32, i32, i32, i32, f64, !llvm.ptr, i32, f64, !llvm.ptr, i32) -> ()
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[ONE:.*]] {
// CHECK:   %[[NEXT:.*]] = arith.addi %[[I]], %[[ONE]] : index
// CHECK:   scf.for %[[J:.*]] = %[[NEXT]] to %{{.*}} step %[[ONE]] {
// CHECK:     %[[UPPER:.*]] = memref.load %[[C]][%[[I]], %[[J]]] : memref<?x?xf64>
// CHECK:     memref.store %[[UPPER]], %[[C]][%[[J]], %[[I]]] : memref<?x?xf64>
// CHECK: } else {
// CHECK:   linalg.fill
// CHECK: return %[[C]]
func.func @gram_view(%X: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 2, row_major> {
  %T = vrir.permute %X [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
  %C = vrir.matmul %T, %X : !vrir.array<f64, 2, col_major>, !vrir.array<f64, 2, row_major>
      -> !vrir.array<f64, 2, row_major>
  return %C : !vrir.array<f64, 2, row_major>
}

// X X^T with the transpose copied, f32, into a column-major result.
// CHECK-LABEL: func.func @gram_copy_f32
// CHECK: arith.select %{{.*}}, %c111_i32, %c112_i32 : i32
// CHECK: llvm.call @cblas_ssyrk(%c102_i32, %c121_i32, {{.*}}) : (i32, i32, i32, i32, i32, f32, !llvm.ptr, i32, f32, !llvm.ptr, i32) -> ()
func.func @gram_copy_f32(%X: !vrir.array<f32, 2, col_major>) -> !vrir.array<f32, 2, col_major> {
  %T = vrir.transpose %X : !vrir.array<f32, 2, col_major> to !vrir.array<f32, 2, row_major>
  %C = vrir.matmul %X, %T : !vrir.array<f32, 2, col_major>, !vrir.array<f32, 2, row_major>
      -> !vrir.array<f32, 2, col_major>
  return %C : !vrir.array<f32, 2, col_major>
}

// A product of two different arrays, one transposed, stays a gemm.
// CHECK-LABEL: func.func @not_gram
// CHECK-NOT: syrk
// CHECK: llvm.call @cblas_dgemm
func.func @not_gram(%X: !vrir.array<f64, 2, row_major>, %Y: !vrir.array<f64, 2, row_major>)
    -> !vrir.array<f64, 2, row_major> {
  %T = vrir.permute %X [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
  %C = vrir.matmul %T, %Y : !vrir.array<f64, 2, col_major>, !vrir.array<f64, 2, row_major>
      -> !vrir.array<f64, 2, row_major>
  return %C : !vrir.array<f64, 2, row_major>
}

// -----

// Integer (and complex) products: linalg.matmul into a zero-filled result,
// on the operands as they are.

// CPU-LABEL: llvm.func @matmul_i64(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @matmul_i64
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?xi64>, %[[B:arg[0-9]+]]: memref<?x?xi64, strided<[?, ?], offset: ?>>)
// CHECK: llvm.call @vrir_rt_error
// CHECK: %[[C:.*]] = memref.alloc
// CHECK: linalg.fill ins(%{{.*}} : i64) outs(%[[C]] : memref<?x?xi64>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : memref<?x?xi64>, memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%[[C]] : memref<?x?xi64>)
// CHECK-NOT: llvm.call @cblas
// CHECK: return %[[C]]
func.func @matmul_i64(%A: !vrir.array<i64, 2, row_major>, %B: !vrir.array<i64, 2, strided>)
    -> !vrir.array<i64, 2, row_major> {
  %C = vrir.matmul %A, %B : !vrir.array<i64, 2, row_major>, !vrir.array<i64, 2, strided>
      -> !vrir.array<i64, 2, row_major>
  return %C : !vrir.array<i64, 2, row_major>
}

// -----

// CPU-LABEL: llvm.func @matmul_complex(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @matmul_complex
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<?x?xcomplex<f32>>, memref<?x?xcomplex<f32>>)
func.func @matmul_complex(%A: !vrir.array<complex<f32>, 2, row_major>,
                          %B: !vrir.array<complex<f32>, 2, row_major>)
    -> !vrir.array<complex<f32>, 2, row_major> {
  %C = vrir.matmul %A, %B : !vrir.array<complex<f32>, 2, row_major>,
      !vrir.array<complex<f32>, 2, row_major> -> !vrir.array<complex<f32>, 2, row_major>
  return %C : !vrir.array<complex<f32>, 2, row_major>
}

// -----

// f64 matvec: the matrix's own order (no transposition), the vector in
// place if its increment is positive, else packed.

// CPU-LABEL: llvm.func @matvec_f64(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @matvec_f64
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?xf64, strided<[1, ?]>>, %[[X:arg[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>)
// CHECK: %[[M:.*]] = memref.dim %[[A]], %c0
// CHECK: %[[N:.*]] = memref.dim %[[A]], %c1
// CHECK: %[[N2:.*]] = memref.dim %[[X]]
// CHECK: arith.cmpi ne, %[[N]], %[[N2]] : index
// CHECK: llvm.call @vrir_rt_error
// CHECK: %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf64>
// CHECK: scf.if
// CHECK:   %{{.*}}, %{{.*}}, %{{.*}}, %[[INC:.*]] = memref.extract_strided_metadata %[[X]]
// CHECK:   %[[POS:.*]] = arith.cmpi sgt, %[[INC]], %{{.*}} : index
// CHECK:   scf.if %[[POS]] -> (memref<?xf64, strided<[?], offset: ?>>) {
// CHECK:   } else {
// CHECK:     linalg.copy ins(%[[X]]
// CHECK:   %[[ORDER:.*]] = arith.select %{{.*}}, %c101_i32, %c102_i32 : i32
// CHECK:   llvm.call @cblas_dgemv(%[[ORDER]], %c111_i32, {{.*}}) : (i32, i32, i32, i32, f64, !llvm.ptr, i32, !llvm.ptr, i32, f64, !llvm.ptr, i32) -> ()
// CHECK: } else {
// CHECK:   linalg.fill ins(%{{.*}} : f64) outs(%[[Y]] : memref<?xf64>)
func.func @matvec_f64(%A: !vrir.array<f64, 2, col_major>, %x: !vrir.array<f64, 1, strided>)
    -> !vrir.array<f64, 1, row_major> {
  %y = vrir.matvec %A, %x : !vrir.array<f64, 2, col_major>, !vrir.array<f64, 1, strided>
      -> !vrir.array<f64, 1, row_major>
  return %y : !vrir.array<f64, 1, row_major>
}

// -----

// CPU-LABEL: llvm.func @matvec_i32(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @matvec_i32
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?xi32>, %[[X:arg[0-9]+]]: memref<?xi32>)
// CHECK: %[[Y:.*]] = memref.alloc
// CHECK: linalg.fill ins(%{{.*}} : i32) outs(%[[Y]] : memref<?xi32>)
// CHECK: linalg.matvec ins(%[[A]], %[[X]] : memref<?x?xi32>, memref<?xi32>) outs(%[[Y]] : memref<?xi32>)
func.func @matvec_i32(%A: !vrir.array<i32, 2, row_major>, %x: !vrir.array<i32, 1, row_major>)
    -> !vrir.array<i32, 1, row_major> {
  %y = vrir.matvec %A, %x : !vrir.array<i32, 2, row_major>, !vrir.array<i32, 1, row_major>
      -> !vrir.array<i32, 1, row_major>
  return %y : !vrir.array<i32, 1, row_major>
}

// -----

// Transpose: a new array of the reversed sizes in the result layout.

// CPU-LABEL: llvm.func @transpose(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[A:arg[0-9]+]]: memref<?x?x?xi32, strided<[?, ?, ?], offset: ?>>)
// CHECK: %[[D0:.*]] = memref.dim %[[A]], %c0
// CHECK: %[[D1:.*]] = memref.dim %[[A]], %c1
// CHECK: %[[D2:.*]] = memref.dim %[[A]], %c2
// CHECK: %[[T:.*]] = memref.alloc(%[[D2]], %[[D1]], %[[D0]]) {alignment = 64 : i64} : memref<?x?x?xi32>
// CHECK: linalg.transpose ins(%[[A]] : {{.*}}) outs(%[[T]] : memref<?x?x?xi32>) permutation = [2, 1, 0]
// CHECK: return %[[T]]
func.func @transpose(%A: !vrir.array<i32, 3, strided>) -> !vrir.array<i32, 3, row_major> {
  %T = vrir.transpose %A : !vrir.array<i32, 3, strided> to !vrir.array<i32, 3, row_major>
  return %T : !vrir.array<i32, 3, row_major>
}

// -----

// CPU-LABEL: llvm.func @transpose_col_major(
// CPU-NOT: {{(= | {2,})"?(vrir|memref|linalg|scf|bufferization|builtin)\.[a-z_]+}}
// CHECK-LABEL: func.func @transpose_col_major
// CHECK: %[[FLAT:.*]] = memref.alloc
// CHECK: %[[T:.*]] = memref.reinterpret_cast %[[FLAT]]
// CHECK: linalg.transpose ins(%{{.*}} : memref<?x?xf64>) outs(%[[T]] : memref<?x?xf64, strided<[1, ?]>>) permutation = [1, 0]
func.func @transpose_col_major(%A: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 2, col_major> {
  %T = vrir.transpose %A : !vrir.array<f64, 2, row_major> to !vrir.array<f64, 2, col_major>
  return %T : !vrir.array<f64, 2, col_major>
}
