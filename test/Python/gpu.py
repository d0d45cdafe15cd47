# RUN: %vrir_emit %s with_block --args "f64[:, ::1], f64" | FileCheck %s
# RUN: %vrir_emit %s markers --args "f64[:, ::1], f64" | FileCheck %s
# RUN: %vrir_emit %s markers --args "f64[:, ::1], f64" | vr-opt > /dev/null
# RUN: not %vrir_emit %s unbalanced --args "f64[:, ::1], f64" 2>&1 | FileCheck %s --check-prefix=ERR
# `with vrir.gpu():` and the vrir.gpu_begin() / vrir.gpu_end() markers give
# the same vrir.gpu_section; the variables it assigns come out as results.
import numpy as np
import vrir


@vrir.jit
def with_block(A, k):
    with vrir.gpu():
        for i, j in vrir.pfor(vrir.Domain(A.shape[0], A.shape[1]), shared=[A]):
            A[i, j] = A[i, j] * k
        s = np.sum(A)
    return s


@vrir.jit
def markers(A, k):
    vrir.gpu_begin()
    for i, j in vrir.pfor(vrir.Domain(A.shape[0], A.shape[1]), shared=[A]):
        A[i, j] = A[i, j] * k
    s = np.sum(A)
    vrir.gpu_end()
    return s


@vrir.jit
def unbalanced(A, k):
    vrir.gpu_begin()
    if k > 0:
        vrir.gpu_end()
    return k

# CHECK: %[[R:.*]] = vrir.gpu_section -> (f64) {
# CHECK-NEXT: %[[E:.*]] = scf.execute_region -> (f64) {
# CHECK: vrir.pfor
# CHECK: vrir.reduce sum
# CHECK: scf.yield %{{.*}} : f64
# CHECK: vrir.yield %[[E]] : f64
# CHECK: vrir.write %[[R]], %{{.*}} : !vrir.var<f64>

# ERR: vrir.emit: error: {{.*}}gpu.py:32: vrir.gpu_begin() without a vrir.gpu_end() after it in the same block
