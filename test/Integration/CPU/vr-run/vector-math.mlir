// Vectorized loops call glibc's vector math library (libmvec) for exp,
// log, pow, sin, cos and tan: on x86-64-v3 (AVX2) four doubles a call.
// The kernel runs with the library the JIT loads (67 elements: the
// vector body and a scalar remainder), and an --emit-shared library
// depends on it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: vr-run %s --entry f --mcpu=x86-64-v3 --arg X=rand:67 --arg Y=zeros:67 --out X=%t/x.npy --out Y=%t/y.npy --dump-ir %t | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=IR < %t/optimized.ll
// RUN: vr-run %s --entry f --mcpu=x86-64-v3 --emit-shared %t/lib.so
// RUN: llvm-readelf --dynamic %t/lib.so | FileCheck %s --check-prefix=NEEDED
// RUN: %python -c "import numpy as np; x, y = np.load('%t/x.npy'), np.load('%t/y.npy'); assert np.allclose(y, np.exp(x) + np.log(x ** -1.5), rtol=1e-14), (x, y)"

// OUT-NOT: error
// IR-LABEL: define {{.*}} @f(
// IR-DAG: call {{.*}}<4 x double> @_ZGVdN4v_exp(<4 x double>
// IR-DAG: call {{.*}}<4 x double> @_ZGVdN4vv_pow(<4 x double>
// IR-DAG: call {{.*}}<4 x double> @_ZGVdN4v_log(<4 x double>
// NEEDED: libmvec.so.1

!v = !vrir.array<f64, 1, row_major>
func.func @f(%X: !v, %Y: !v) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %exponent = arith.constant -1.5 : f64
  %n = vrir.dim %X, 0 : !v
  scf.for %i = %c0 to %n step %c1 {
    %x = vrir.load %X[%i] flags [#vrir.index<none>] : !v[index]
    %e = math.exp %x : f64
    %p = math.powf %x, %exponent : f64
    %l = math.log %p : f64
    %y = arith.addf %e, %l : f64
    vrir.store %y, %Y[%i] flags [#vrir.index<none>] : !v[index]
  }
  return
}
