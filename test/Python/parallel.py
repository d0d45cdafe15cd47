# RUN: %vrir_emit %s smooth --args "f64[::1]" | FileCheck %s --check-prefix=PRANGE
# RUN: %vrir_emit %s stencil --args "f64[:, ::1], f64[:, ::1]" | FileCheck %s --check-prefix=PFOR
# RUN: %vrir_emit %s stencil --args "f64[:, ::1], f64[:, ::1]" | vr-opt > /dev/null
# vrir.prange and vrir.pfor(vrir.Domain(...), shared=[...]) become vrir.pfor
# over a vrir.range / vrir.domain with the shared arrays listed.
import numpy as np
import vrir


@vrir.jit
def smooth(x):
    y = np.empty_like(x)
    for i in vrir.prange(1, len(x) - 1):
        y[i] = (x[i - 1] + x[i] + x[i + 1]) / 3.0
    return y


@vrir.jit
def stencil(A, B):
    m, n = A.shape
    for i, j in vrir.pfor(vrir.Domain(range(1, m - 1), range(1, n - 1)), shared=[A, B]):
        B[i, j] = (A[i, j] + A[i - 1, j] + A[i + 1, j]) / 3


# PRANGE: %[[R:.*]] = vrir.range %{{.*}} to %{{.*}} step %{{.*}}
# PRANGE: vrir.pfor (%[[I:.*]]) in %[[R]] : !vrir.range shared(%{{.*}}, %{{.*}} : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major>) {
# PRANGE-NEXT: scf.execute_region {
# PRANGE: arith.index_cast %[[I]] : index to i64
# PRANGE: scf.yield
# PRANGE: } loc({{.*}}parallel.py":13:5)

# PFOR: %[[D:.*]] = vrir.domain %{{.*}}, %{{.*}} : !vrir.domain<2>
# PFOR: vrir.pfor (%{{.*}}, %{{.*}}) in %[[D]] : !vrir.domain<2> shared(%{{.*}}, %{{.*}} : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>) {
# PFOR: vrir.store
