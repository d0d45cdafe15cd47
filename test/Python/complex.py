# RUN: %vrir_emit %s escape --args "c128, i64" | FileCheck %s
# RUN: %vrir_emit %s scale --args "c64[:], c64" | FileCheck %s --check-prefix=ARR
# RUN: %vrir_emit %s escape --args "c128, i64" | vr-opt --vrir-to-cpu > /dev/null
# RUN: %vrir_emit %s scale --args "c64[:], c64" | vr-opt --vrir-to-cpu > /dev/null
# Complex scalars and arrays: complex.constant, vrir.binary on complex<f64>,
# abs to the real part type.
import numpy as np
import vrir


@vrir.jit
def escape(c, maxit):
    z = 0j
    k = 0
    while k < maxit and abs(z) <= 2:
        z = z * z + c
        k += 1
    return k, z.real, z.conjugate()


@vrir.jit
def scale(A, s):
    return A * s + 1j, np.exp(A).imag, A.sum()

# CHECK-LABEL: func.func @escape(%arg0: complex<f64> {{.*}}, %arg1: i64
# CHECK-SAME: -> (i64, f64, complex<f64>)
# CHECK: complex.constant [0x0000000000000000 : f64, 0x0000000000000000 : f64] : complex<f64>
# CHECK: vrir.unary abs %{{.*}} : complex<f64> -> f64
# CHECK: vrir.binary mul %{{.*}}, %{{.*}} : complex<f64>, complex<f64> -> complex<f64>
# CHECK: vrir.binary add %{{.*}}, %{{.*}} : complex<f64>, complex<f64> -> complex<f64>
# CHECK: vrir.unary real %{{.*}} : complex<f64> -> f64
# CHECK: vrir.unary conj %{{.*}} : complex<f64> -> complex<f64>

# A Python complex scalar keeps complex64 arrays single precision (NEP 50).
# ARR-LABEL: func.func @scale(%arg0: !vrir.array<complex<f32>, 1, strided> {{.*}}, %arg1: complex<f32>
# ARR: vrir.binary mul %{{.*}}, %{{.*}} : !vrir.array<complex<f32>, 1, strided>, complex<f32> -> !vrir.array<complex<f32>, 1, row_major>
# ARR: complex.constant [0x00000000 : f32, 0x3F800000 : f32] : complex<f32>
# ARR: vrir.unary exp {{.*}} -> !vrir.array<complex<f32>, 1, row_major>
# ARR: vrir.part_view imag {{.*}} : !vrir.array<complex<f32>, 1, row_major> -> !vrir.array<f32, 1, strided>
# ARR: vrir.reduce sum %{{.*}} : !vrir.array<complex<f32>, 1, strided> -> complex<f32>
