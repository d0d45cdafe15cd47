// RUN: vr-opt %s -vrir-numpy-complex | FileCheck %s

// Declared once, privately, with C99's `double _Complex` as complex<f64>.
// CHECK-DAG: func.func private @vrir_rt_cpow(f64, f64, f64, f64) -> complex<f64>
// CHECK-DAG: func.func private @csqrt(complex<f64>) -> complex<f64>
// CHECK-DAG: func.func private @ccos(complex<f64>) -> complex<f64>

// complex.pow passes the four parts to NumPy's npy_cpow (the runtime's).
// CHECK-LABEL: func.func @power
// CHECK-SAME: (%[[A:.*]]: complex<f64>, %[[B:.*]]: complex<f64>)
// CHECK-DAG: %[[ARE:.*]] = complex.re %[[A]]
// CHECK-DAG: %[[AIM:.*]] = complex.im %[[A]]
// CHECK-DAG: %[[BRE:.*]] = complex.re %[[B]]
// CHECK-DAG: %[[BIM:.*]] = complex.im %[[B]]
// CHECK: %[[R:.*]] = call @vrir_rt_cpow(%[[ARE]], %[[AIM]], %[[BRE]], %[[BIM]])
// CHECK: return %[[R]]
func.func @power(%a: complex<f64>, %b: complex<f64>) -> complex<f64> {
  %r = complex.pow %a, %b : complex<f64>
  return %r : complex<f64>
}

// CHECK-LABEL: func.func @functions
// CHECK: %[[S:.*]] = call @csqrt(%{{.*}}) : (complex<f64>) -> complex<f64>
// CHECK: call @ccos(%[[S]]) : (complex<f64>) -> complex<f64>
// CHECK-NOT: complex.sqrt
// CHECK-NOT: complex.cos
func.func @functions(%a: complex<f64>) -> complex<f64> {
  %s = complex.sqrt %a : complex<f64>
  %c = complex.cos %s : complex<f64>
  return %c : complex<f64>
}

// complex<f32> calls the runtime's single-precision functions (C returns
// `float _Complex` in one register, LLVM {float, float} in two) with the
// parts widened, and rounds the result back (exactly).
// CHECK-LABEL: func.func @single
// CHECK: %[[RE:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: %[[IM:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: call @vrir_rt_csqrtf(%[[RE]], %[[IM]]) : (f64, f64) -> complex<f64>
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: call @vrir_rt_cpowf({{.*}}) : (f64, f64, f64, f64) -> complex<f64>
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: complex.create %{{.*}}, %{{.*}} : complex<f32>
func.func @single(%a: complex<f32>) -> complex<f32> {
  %s = complex.sqrt %a : complex<f32>
  %p = complex.pow %s, %a : complex<f32>
  return %p : complex<f32>
}

// Other complex operations stay for convert-complex-to-standard.
// CHECK-LABEL: func.func @others
// CHECK: complex.abs
// CHECK: complex.mul
func.func @others(%a: complex<f64>) -> (f64, complex<f64>) {
  %m = complex.abs %a : complex<f64>
  %p = complex.mul %a, %a : complex<f64>
  return %m, %p : f64, complex<f64>
}

// Division is NumPy's Smith's method: ratio and reciprocal scale per branch,
// |0| for a zero divisor, chosen by selects.
// CHECK-LABEL: func.func @divide
// CHECK-SAME: (%{{.*}}: complex<f64>, %[[B:.*]]: complex<f64>)
// CHECK-DAG: %[[BRE:.*]] = complex.re %[[B]] : complex<f64>
// CHECK-DAG: %[[BIM:.*]] = complex.im %[[B]] : complex<f64>
// CHECK-DAG: %[[ABSRE:.*]] = math.absf %[[BRE]]
// CHECK-DAG: %[[ABSIM:.*]] = math.absf %[[BIM]]
// CHECK-DAG: %[[RATIO1:.*]] = arith.divf %[[BIM]], %[[BRE]]
// CHECK-DAG: %[[RATIO2:.*]] = arith.divf %[[BRE]], %[[BIM]]
// CHECK-DAG: %[[FIRST:.*]] = arith.cmpf oge, %[[ABSRE]], %[[ABSIM]]
// CHECK: %[[RE:.*]] = arith.select %[[FIRST]]
// CHECK: %[[IM:.*]] = arith.select %[[FIRST]]
// CHECK: complex.create %[[RE]], %[[IM]] : complex<f64>
// CHECK-NOT: complex.div
func.func @divide(%a: complex<f64>, %b: complex<f64>) -> complex<f64> {
  %r = complex.div %a, %b : complex<f64>
  return %r : complex<f64>
}
