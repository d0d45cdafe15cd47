# RUN: %vrir_emit %s stencil --args "f64[:, ::1], f64[:, ::1]" | vr-opt --pass-pipeline="builtin.module(mem2reg,lift-cf-to-scf,canonicalize,vrir-uplift-while-to-for,canonicalize,vrir-bounds-check-elim)" --remarks-filter=vrir-bce 2>&1 | FileCheck %s
# RUN: %vrir_emit %s lu --args "f64[:, ::1]" | vr-opt --pass-pipeline="builtin.module(mem2reg,lift-cf-to-scf,canonicalize,vrir-uplift-while-to-for,canonicalize,vrir-bounds-check-elim)" --remarks-filter=vrir-bce 2>&1 | FileCheck %s --check-prefix=LU
# Bounds-check elimination on the Python frontend's output, with the
# remarks naming the checks kept and the counts per function.


def stencil(A, B):
    for i in range(1, A.shape[0] - 1):
        for j in range(1, A.shape[1] - 1):
            B[i, j] = A[i - 1, j] + A[i + 1, j] + A[i, j - 1] + A[i, j + 1]
    return B

# A's loads are proven; the loops say nothing about B's extents, so the
# store keeps its upper checks (its lower ones go: i, j >= 1).
# CHECK: remark: [Missed] CheckKept | Category:vrir-bce | Function={{.*}} | Remark="kept the check of the upper bound of index 0 of array 'B', accessed at {{.*}}bounds_check_elim.py:10:13"
# CHECK: remark: [Missed] CheckKept | Category:vrir-bce | Function={{.*}} | Remark="kept the check of the upper bound of index 1 of array 'B'
# CHECK: remark: [Analysis] BoundsChecks | Category:vrir-bce | Function={{.*}} | Remark="20 bounds checks: 18 proven, 0 repeated, 2 kept"
# CHECK-COUNT-4: vrir.load {{.*}} flags [#vrir.index<none>, #vrir.index<none>]
# CHECK: vrir.store {{.*}} flags [#vrir.index<upper>, #vrir.index<upper>]


def lu(A):
    n = A.shape[0]
    for k in range(n):
        for i in range(k + 1, n):
            A[i, k] /= A[k, k]
            for j in range(k + 1, n):
                A[i, j] -= A[i, k] * A[k, j]

# Rows are bounded by n = A.shape[0]; columns may be fewer than rows, so
# the column checks stay where they are first made: A[i, k] (k < n) and
# A[i, j] in the inner loop; the others repeat them.
# LU: Remark="kept the check of the upper bound of index 1 of array 'A', accessed at {{.*}}bounds_check_elim.py:26:13"
# LU: Remark="kept the check of the upper bound of index 1 of array 'A', accessed at {{.*}}bounds_check_elim.py:28:17"
# LU: Remark="{{[0-9]+}} bounds checks: {{[0-9]+}} proven, {{[0-9]+}} repeated, 2 kept"
