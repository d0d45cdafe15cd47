// -O1 is the quick tier of the Python frontend's tiered compilation: the
// loops stay scalar (no vectorization, no unrolling) and code generation
// is fast, yet the values are those of -O3 bit for bit (no fast-math).
// --verify-each-pass verifies the IR after every pass (by default only
// after the last one).
// RUN: rm -rf %t && mkdir -p %t
// RUN: vr-run %s --entry f --mcpu=x86-64-v3 -O1 --arg X=rand:67 --arg Y=zeros:67 --out Y=%t/quick.npy --dump-ir %t | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=QUICK < %t/optimized.ll
// RUN: vr-run %s --entry f --mcpu=x86-64-v3 --verify-each-pass --arg X=rand:67 --arg Y=zeros:67 --out X=%t/x.npy --out Y=%t/full.npy --dump-ir %t | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=FULL < %t/optimized.ll
// RUN: %python -c "import numpy as np; x, q, f = (np.load('%t/' + n + '.npy') for n in ('x', 'quick', 'full')); assert np.array_equal(q, f), (q, f); assert np.allclose(f, 3.0 * x * x + x / 7.0, rtol=1e-15)"

// OUT-NOT: error
// QUICK-LABEL: define {{.*}} @f(
// QUICK-NOT: <4 x double>
// FULL-LABEL: define {{.*}} @f(
// FULL: <4 x double>

!v = !vrir.array<f64, 1, row_major>
func.func @f(%X: !v, %Y: !v) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f64
  %seven = arith.constant 7.0 : f64
  %n = vrir.dim %X, 0 : !v
  scf.for %i = %c0 to %n step %c1 {
    %x = vrir.load %X[%i] flags [#vrir.index<none>] : !v[index]
    %a = arith.mulf %three, %x : f64
    %b = arith.mulf %a, %x : f64
    %c = arith.divf %x, %seven : f64
    %y = arith.addf %b, %c : f64
    vrir.store %y, %Y[%i] flags [#vrir.index<none>] : !v[index]
  }
  return
}
