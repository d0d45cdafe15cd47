# RUN: %vrir_emit %s interior --args "f64[:, ::1]" | FileCheck %s
# RUN: %vrir_emit %s interior --args "f64[:, ::1]" | vr-opt > /dev/null
# Slices are vrir.range operands of vrir.slice (a strided view); a slice
# assignment is vrir.store_slice; integer-array indexing is vrir.gather.
import numpy as np
import vrir


@vrir.jit
def interior(A):
    B = A[1:-1, ::2]
    A[0, :] = 0.0
    idx = np.arange(2)
    return B, A[::-1, 0][idx]

# CHECK-LABEL: func.func @interior(%arg0: !vrir.array<f64, 2, row_major>
# CHECK-SAME: -> (!vrir.array<f64, 2, strided>, !vrir.array<f64, 1, row_major>)
# CHECK: vrir.range %{{.*}} to %{{.*}} step %{{.*}}
# CHECK: %[[B:.*]] = vrir.slice %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !vrir.array<f64, 2, row_major>[!vrir.range, !vrir.range] -> !vrir.array<f64, 2, strided> loc("B"(
# CHECK: vrir.store_slice %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] flags {{.*}} : f64, !vrir.array<f64, 2, row_major>[i64, !vrir.range]
# CHECK: vrir.slice {{.*}} : !vrir.array<f64, 2, row_major>[!vrir.range, i64] -> !vrir.array<f64, 1, strided>
# CHECK: vrir.gather %{{.*}}[%{{.*}}] flags <lower|upper|negative> : !vrir.array<f64, 1, strided>[!vrir.array<i64, 1, row_major>] -> !vrir.array<f64, 1, row_major>
