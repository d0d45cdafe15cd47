# RUN: %vrir_emit %s annotated | FileCheck %s --check-prefix=ANN
# RUN: %vrir_emit %s thesis | FileCheck %s --check-prefix=THESIS
# RUN: %vrir_emit %s plain --args "f64[::1, :], f32[:, :, ::1], i32, b1" | FileCheck %s --check-prefix=ARGS
# RUN: not %vrir_emit %s plain --args "f64[::2]" 2>&1 | FileCheck %s --check-prefix=BAD
# Declared types: parameter annotations in the thesis's style, and --args
# in signature notation ([:] any layout, [:, ::1] C order, [::1, :] Fortran).
import vrir


def annotated(A: vrir.f64[:, ::1], B: vrir.f64[::1, :], n: vrir.i64, z: complex):
    return A[0, 0] + B[0, 0] * n


def thesis(A: vrir.Array(vrir.float64, 2, "RowMajor"), B: vrir.Array(vrir.float64, 2, "RowMajor")):
    return A[0, 0] + B[0, 0]


def plain(A, B, n, p):
    return A[0, 0]

# ANN: func.func @annotated(%arg0: !vrir.array<f64, 2, row_major> {{.*}}, %arg1: !vrir.array<f64, 2, col_major> {{.*}}, %arg2: i64 {{.*}}, %arg3: complex<f64>
# THESIS: func.func @thesis(%arg0: !vrir.array<f64, 2, row_major> {{.*}}, %arg1: !vrir.array<f64, 2, row_major>
# ARGS: func.func @plain(%arg0: !vrir.array<f64, 2, col_major> {{.*}}, %arg1: !vrir.array<f32, 3, row_major> {{.*}}, %arg2: i32 {{.*}}, %arg3: i1
# BAD: array dimensions are ':' or '::1', got '::2'
