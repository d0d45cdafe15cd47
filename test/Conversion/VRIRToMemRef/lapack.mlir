// RUN: vr-opt %s -convert-vrir-to-memref -split-input-file | FileCheck %s
// RUN: vr-opt %s --vrir-to-cpu -split-input-file | FileCheck %s --check-prefix=CPU

// vrir.cholesky: the operand is checked square and copied into the new
// result; a non-empty matrix goes to potrf, its integers by reference
// through stack slots in an alloca scope, with uplo 'U' for a row-major
// result (LAPACK reads it transposed) and a positive info raised as an
// error; the strict upper triangle is then zeroed.

// CHECK-DAG: llvm.mlir.global internal constant @[[SQUARE:.*]]("cholesky: matrix is not square (array argument #0
// CHECK-DAG: llvm.mlir.global internal constant @[[UPPER:.*]]("U\00")
// CHECK-DAG: llvm.func @dpotrf_(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64)
// CHECK-DAG: llvm.mlir.global internal constant @[[NOTPD:.*]]("cholesky: matrix is not positive definite (array argument #0
// CHECK-LABEL: func.func @cholesky(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf64>)
// CHECK:   %[[N:.*]] = memref.dim %[[A]], %c0
// CHECK:   %[[M:.*]] = memref.dim %[[A]], %c1
// CHECK:   %[[NE:.*]] = arith.cmpi ne, %[[N]], %[[M]]
// CHECK:   scf.if %[[NE]] {
// CHECK:     llvm.mlir.addressof @[[SQUARE]]
// CHECK:   %[[L:.*]] = memref.alloc(%[[N]], %[[N]])
// CHECK:   linalg.copy ins(%[[A]] : {{.*}}) outs(%[[L]] : {{.*}})
// CHECK:   scf.if
// CHECK:     llvm.mlir.addressof @[[UPPER]]
// CHECK:     %[[INFO:.*]] = memref.alloca_scope -> (i32) {
// CHECK:       %[[SLOTS:.*]] = memref.alloca() : memref<8xi32>
// CHECK:       llvm.call @dpotrf_(
// CHECK:       %[[I:.*]] = memref.load %[[SLOTS]][%c7
// CHECK:       memref.alloca_scope.return %[[I]] : i32
// CHECK:     %[[FAILED:.*]] = arith.cmpi sgt, %[[INFO]], %c0_i32
// CHECK:     scf.if %[[FAILED]] {
// CHECK:       llvm.mlir.addressof @[[NOTPD]]
// CHECK:   scf.for %[[ROW:.*]] = %{{.*}} to %[[N]]
// CHECK:     %[[NEXT:.*]] = arith.addi %[[ROW]], %c1
// CHECK:     scf.for %[[COL:.*]] = %[[NEXT]] to %[[N]]
// CHECK:       memref.store %{{.*}}, %[[L]][%[[ROW]], %[[COL]]]
// CHECK:   return %[[L]]

// The whole pipeline reaches LLVM: the scope is a stack save and restore.
// CPU-LABEL: llvm.func @cholesky(
// CPU:         llvm.intr.stacksave
// CPU:         llvm.call @dpotrf_(
// CPU:         llvm.intr.stackrestore
func.func @cholesky(%A: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 2, row_major> {
  %L = vrir.cholesky %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
  return %L : !vrir.array<f64, 2, row_major>
}

// -----

// A column-major f32 result: spotrf with uplo 'L'.
// CHECK-DAG: llvm.mlir.global internal constant @[[LOWER:.*]]("L\00")
// CHECK-LABEL: func.func @cholesky_col_f32(
// CHECK:   llvm.mlir.addressof @[[LOWER]]
// CHECK:   llvm.call @spotrf_(
func.func @cholesky_col_f32(%A: !vrir.array<f32, 2, strided>) -> !vrir.array<f32, 2, col_major> {
  %L = vrir.cholesky %A : !vrir.array<f32, 2, strided> -> !vrir.array<f32, 2, col_major>
  return %L : !vrir.array<f32, 2, col_major>
}

// -----

// vrir.inv: in place in the result (either layout), getrf with i32 pivots,
// a singular matrix raised, then getri with an n * 64 workspace.
// CHECK-DAG: llvm.func @dgetrf_(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @dgetri_(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal constant @[[SINGULAR:.*]]("inv: singular matrix (array argument #0
// CHECK-LABEL: func.func @inv(
// CHECK:   %[[X:.*]] = memref.alloc
// CHECK:   linalg.copy ins(%{{.*}}) outs(%[[X]] : {{.*}})
// CHECK:   memref.alloc(%{{.*}}) {{.*}} : memref<?xi32>
// CHECK:   llvm.call @dgetrf_(
// CHECK:   llvm.mlir.addressof @[[SINGULAR]]
// CHECK:   %[[WORK:.*]] = arith.muli %{{.*}}, %c64
// CHECK:   memref.alloc(%[[WORK]]) {{.*}} : memref<?xf64>
// CHECK:   llvm.call @dgetri_(
// CHECK:   llvm.mlir.addressof @[[SINGULAR]]
// CHECK:   return %[[X]]
func.func @inv(%A: !vrir.array<f64, 2, strided>) -> !vrir.array<f64, 2, row_major> {
  %X = vrir.inv %A : !vrir.array<f64, 2, strided> -> !vrir.array<f64, 2, row_major>
  return %X : !vrir.array<f64, 2, row_major>
}

// -----

// vrir.solve with a row-major matrix result: the right-hand side is solved
// in a column-major copy, which is copied into the result afterwards; the
// matrix is factored in a column-major copy of its own.
// CHECK-DAG: llvm.func @dgesv_(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal constant @[[ALIGN:.*]]("solve: shapes (n,n) and (m,k) not aligned (array argument #0
// CHECK-LABEL: func.func @solve_rows(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf64>, %[[B:.*]]: memref<?x?xf64>)
// CHECK:   llvm.mlir.addressof @[[ALIGN]]
// CHECK:   %[[X:.*]] = memref.alloc
// CHECK:   %[[COLS:.*]] = memref.reinterpret_cast %{{.*}} : memref<?xf64> to memref<?x?xf64, strided<[1, ?]>>
// CHECK:   linalg.copy ins(%[[B]] : {{.*}}) outs(%[[COLS]] : {{.*}})
// CHECK:   scf.if
// CHECK:     %[[LU:.*]] = memref.reinterpret_cast %{{.*}} : memref<?xf64> to memref<?x?xf64, strided<[1, ?]>>
// CHECK:     linalg.copy ins(%[[A]] : {{.*}}) outs(%[[LU]] : {{.*}})
// CHECK:     llvm.call @dgesv_(
// CHECK:   linalg.copy ins(%[[COLS]] : {{.*}}) outs(%[[X]] : {{.*}})
// CHECK:   return %[[X]]
func.func @solve_rows(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 2, row_major> {
  %X = vrir.solve %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
  return %X : !vrir.array<f64, 2, row_major>
}

// -----

// A vector right-hand side is solved in the result itself.
// CHECK-LABEL: func.func @solve_vector(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf64>, %[[B:.*]]: memref<?xf64, strided<[?], offset: ?>>)
// CHECK:   %[[X:.*]] = memref.alloc
// CHECK:   linalg.copy ins(%[[B]] : {{.*}}) outs(%[[X]] : {{.*}})
// CHECK:   llvm.call @dgesv_(
// CHECK-NOT: linalg.copy
// CHECK:   return %[[X]]
func.func @solve_vector(%A: !vrir.array<f64, 2, row_major>, %b: !vrir.array<f64, 1, strided>) -> !vrir.array<f64, 1, row_major> {
  %x = vrir.solve %A, %b : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, strided> -> !vrir.array<f64, 1, row_major>
  return %x : !vrir.array<f64, 1, row_major>
}

// -----

// A triangular solve: trtrs (uplo, trans 'N', diag 'N') on a column-major
// copy of the matrix, no pivots; a zero on the diagonal is singular.
// CHECK-DAG: llvm.mlir.global internal constant @[[SINGULAR:.*]]("solve: singular matrix
// CHECK-LABEL: func.func @solve_upper(
// CHECK:   linalg.copy
// CHECK-NOT: llvm.call @dgesv_(
// CHECK:   llvm.call @dtrtrs_(
// CHECK:   llvm.mlir.addressof @[[SINGULAR]]
// CHECK:   return
func.func @solve_upper(%U: !vrir.array<f64, 2, row_major>, %b: !vrir.array<f64, 1, strided>) -> !vrir.array<f64, 1, row_major> {
  %x = vrir.solve %U, %b triangular upper : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, strided> -> !vrir.array<f64, 1, row_major>
  return %x : !vrir.array<f64, 1, row_major>
}

// -----

// vrir.det: getrf on a copy (its info is not an error: an exact zero pivot
// makes the product 0), then the product of the diagonal, negated where
// the pivot row differs from i + 1.
// CHECK-LABEL: func.func @det(
// CHECK:   %[[LU:.*]] = memref.reinterpret_cast %{{.*}} : memref<?xf64> to memref<?x?xf64, strided<[1, ?]>>
// CHECK:   llvm.call @dgetrf_(
// CHECK-NOT: vrir_rt_error
// CHECK:   %[[D:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[P:.*]] = %cst{{.*}}) -> (f64) {
// CHECK:     %[[U:.*]] = memref.load %[[LU]][%[[I]], %[[I]]]
// CHECK:     %[[ROW:.*]] = memref.load
// CHECK:     arith.cmpi ne, %[[ROW]]
// CHECK:     %[[S:.*]] = arith.mulf %[[P]], %[[U]]
// CHECK:     arith.negf %[[S]]
// CHECK:     arith.select
// CHECK:   return %[[D]]
func.func @det(%A: !vrir.array<f64, 2, row_major>) -> f64 {
  %d = vrir.det %A : !vrir.array<f64, 2, row_major> -> f64
  return %d : f64
}

// -----

// vrir.slogdet: the same factorization, then the product of the pivots'
// signs (1 above 0, -1 below, the pivot itself otherwise: 0 or NaN),
// negated where the pivot row differs from i + 1, and the sum of the
// logarithms of their magnitudes; + 0 makes a -0 sign 0.
// CHECK-LABEL: func.func @slogdet(
// CHECK:   llvm.call @sgetrf_(
// CHECK-NOT: vrir_rt_error
// CHECK:   %[[F:.*]]:2 = scf.for %{{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK:     %[[U:.*]] = memref.load
// CHECK:     arith.cmpf ogt, %[[U]]
// CHECK:     arith.cmpf olt, %[[U]]
// CHECK:     arith.select
// CHECK:     %[[SIGN:.*]] = arith.select
// CHECK:     arith.mulf %[[S]], %[[SIGN]]
// CHECK:     arith.negf
// CHECK:     arith.select
// CHECK:     %[[ABS:.*]] = math.absf %[[U]]
// CHECK:     %[[LOG:.*]] = math.log %[[ABS]]
// CHECK:     arith.addf %[[L]], %[[LOG]]
// CHECK:   %[[SIGN0:.*]] = arith.addf %[[F]]#0, %{{.*}}
// CHECK:   return %[[SIGN0]], %[[F]]#1
func.func @slogdet(%A: !vrir.array<f32, 2, col_major>) -> (f32, f32) {
  %s, %l = vrir.slogdet %A : !vrir.array<f32, 2, col_major> -> f32, f32
  return %s, %l : f32, f32
}

// -----

// vrir.eigh: syevd on a column-major copy of the operand (jobz 'V' with
// the eigenvectors, 'N' without; uplo 'L'), a workspace query (sizes -1)
// before the call, a positive info raised; the copy is the eigenvector
// result when that is column-major.
// CHECK-DAG: llvm.mlir.global internal constant @[[NOTCONV:.*]]("eigh: eigenvalues did not converge (array argument #0
// CHECK-DAG: llvm.func @dsyevd_(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64)
// CHECK-LABEL: func.func @eigh(
// CHECK:   %[[V:.*]] = memref.reinterpret_cast %{{.*}} to memref<?x?xf64, strided<[1, ?]>>
// CHECK:   linalg.copy
// CHECK:   %[[W:.*]] = memref.alloc(
// CHECK:   scf.if
// CHECK:     llvm.call @dsyevd_(
// CHECK:     llvm.call @dsyevd_(
// CHECK:     llvm.mlir.addressof @[[NOTCONV]]
// CHECK-NOT: linalg.copy
// CHECK:   return %[[W]], %[[V]]
func.func @eigh(%A: !vrir.array<f64, 2, row_major>) -> (!vrir.array<f64, 1, row_major>, !vrir.array<f64, 2, col_major>) {
  %w, %V = vrir.eigh %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>, !vrir.array<f64, 2, col_major>
  return %w, %V : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 2, col_major>
}

// -----

// vrir.svd: gesdd (jobz 'S' for the reduced factors) on a column-major
// copy; an empty operand skips LAPACK (identity factors); a row-major
// factor is a copy of LAPACK's column-major one; a nonzero info or a NaN
// singular value is raised.
// CHECK-DAG: llvm.mlir.global internal constant @[[JOBZ:.*]]("S\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[NOTCONV:.*]]("svd: SVD did not converge (array argument #0
// CHECK-DAG: llvm.func @sgesdd_(
// CHECK-LABEL: func.func @svd(
// CHECK:   scf.if
// CHECK:   } else {
// CHECK:     llvm.mlir.addressof @[[JOBZ]]
// CHECK:     llvm.call @sgesdd_(
// CHECK:     llvm.call @sgesdd_(
// CHECK:     arith.cmpf uno
// CHECK:     llvm.mlir.addressof @[[NOTCONV]]
// CHECK:   linalg.copy
// CHECK:   return
func.func @svd(%A: !vrir.array<f32, 2, strided>) -> (!vrir.array<f32, 2, row_major>, !vrir.array<f32, 1, row_major>, !vrir.array<f32, 2, col_major>) {
  %U, %s, %Vh = vrir.svd %A : !vrir.array<f32, 2, strided> -> !vrir.array<f32, 2, row_major>, !vrir.array<f32, 1, row_major>, !vrir.array<f32, 2, col_major>
  return %U, %s, %Vh : !vrir.array<f32, 2, row_major>, !vrir.array<f32, 1, row_major>, !vrir.array<f32, 2, col_major>
}

// -----

// vrir.qr: geqrf on a column-major copy (workspace query first), R read
// from its upper triangle, then orgqr for Q (its columns copied out).
// CHECK-DAG: llvm.func @dgeqrf_(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @dorgqr_(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @qr(
// CHECK:   linalg.copy
// CHECK:   llvm.call @dgeqrf_(
// CHECK:   llvm.call @dgeqrf_(
// CHECK:   arith.cmpi sle
// CHECK:   llvm.call @dorgqr_(
// CHECK:   llvm.call @dorgqr_(
// CHECK:   memref.subview
// CHECK:   linalg.copy
func.func @qr(%A: !vrir.array<f64, 2, row_major>) -> (!vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>) {
  %Q, %R = vrir.qr %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>
  return %Q, %R : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>
}
