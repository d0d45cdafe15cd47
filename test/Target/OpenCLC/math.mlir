// RUN: vr-translate --gpu-to-opencl-c %s | FileCheck %s
// RUN: vr-translate --gpu-to-opencl-c %s | %opencl-c-check

// math ops: OpenCL builtins of the same meaning, integer powers as helpers.

// CHECK-LABEL: // gpu.module @math
// CHECK: static inline double vrirh_fpowi_double_int(double b, int e) {
// CHECK-NEXT:   uint n = e < 0 ? (uint)(0 - (uint)e) : (uint)e;
// CHECK-NEXT:   double r = 1;
// CHECK-NEXT:   while (n) {
// CHECK-NEXT:     if (n & 1)
// CHECK-NEXT:       r *= b;
// CHECK-NEXT:     b *= b;
// CHECK-NEXT:     n >>= 1;
// CHECK-NEXT:   }
// CHECK-NEXT:   return e < 0 ? 1 / r : r;
// CHECK-NEXT: }
// CHECK: static inline float vrirh_fpowi_float_long(float b, long e) {
// CHECK: static inline long vrirh_ipowi_long(long b, long e) {
// CHECK-NEXT:   if (e < 0) {
// CHECK-NEXT:     if (b == 1)
// CHECK-NEXT:       return 1;
// CHECK-NEXT:     if (b == -1)
// CHECK-NEXT:       return (e & 1) ? (long)-1 : (long)1;
// CHECK-NEXT:     return 0;
// CHECK-NEXT:   }
// CHECK-NEXT:   ulong r = 1, x = (ulong)b, n = (ulong)e;
// CHECK-NEXT:   while (n) {
// CHECK-NEXT:     if (n & 1)
// CHECK-NEXT:       r = (ulong)(r * x);
// CHECK-NEXT:     x = (ulong)(x * x);
// CHECK-NEXT:     n >>= 1;
// CHECK-NEXT:   }
// CHECK-NEXT:   return (long)r;
// CHECK-NEXT: }

// CHECK-LABEL: __kernel void math(
gpu.module @math {
  gpu.func @math(%a: f64, %b: f64, %c: f64, %x: f32, %i: i32, %l: i64) kernel {
    // CHECK: double v0 = sqrt(a0);
    // CHECK-NEXT: double v1 = rsqrt(a0);
    // CHECK-NEXT: double v2 = exp(a0);
    // CHECK-NEXT: double v3 = exp2(a0);
    // CHECK-NEXT: double v4 = expm1(a0);
    // CHECK-NEXT: double v5 = log(a0);
    // CHECK-NEXT: double v6 = log2(a0);
    // CHECK-NEXT: double v7 = log10(a0);
    // CHECK-NEXT: double v8 = log1p(a0);
    // CHECK-NEXT: double v9 = sin(a0);
    // CHECK-NEXT: double v10 = cos(a0);
    // CHECK-NEXT: double v11 = tan(a0);
    // CHECK-NEXT: double v12 = asin(a0);
    // CHECK-NEXT: double v13 = acos(a0);
    // CHECK-NEXT: double v14 = atan(a0);
    // CHECK-NEXT: double v15 = atan2(a0, a1);
    // CHECK-NEXT: double v16 = sinh(a0);
    // CHECK-NEXT: double v17 = cosh(a0);
    // CHECK-NEXT: double v18 = tanh(a0);
    // CHECK-NEXT: double v19 = asinh(a0);
    // CHECK-NEXT: double v20 = acosh(a0);
    // CHECK-NEXT: double v21 = atanh(a0);
    // CHECK-NEXT: double v22 = pow(a0, a1);
    // CHECK-NEXT: double v23 = fabs(a0);
    // CHECK-NEXT: double v24 = floor(a0);
    // CHECK-NEXT: double v25 = ceil(a0);
    // CHECK-NEXT: double v26 = round(a0);
    // CHECK-NEXT: double v27 = rint(a0);
    // CHECK-NEXT: double v28 = trunc(a0);
    // CHECK-NEXT: double v29 = fma(a0, a1, a2);
    // CHECK-NEXT: double v30 = copysign(a0, a1);
    // CHECK-NEXT: double v31 = erf(a0);
    // CHECK-NEXT: double v32 = erfc(a0);
    // CHECK-NEXT: double v33 = cbrt(a0);
    // CHECK-NEXT: bool v34 = isnan(a0);
    // CHECK-NEXT: bool v35 = isinf(a0);
    // CHECK-NEXT: bool v36 = isfinite(a0);
    // CHECK-NEXT: bool v37 = isnormal(a0);
    // CHECK-NEXT: float v38 = sqrt(a3);
    // CHECK-NEXT: double v39 = sin(a0);
    // CHECK-NEXT: double v40 = cos(a0);
    %0 = math.sqrt %a : f64
    %1 = math.rsqrt %a : f64
    %2 = math.exp %a : f64
    %3 = math.exp2 %a : f64
    %4 = math.expm1 %a : f64
    %5 = math.log %a : f64
    %6 = math.log2 %a : f64
    %7 = math.log10 %a : f64
    %8 = math.log1p %a : f64
    %9 = math.sin %a : f64
    %10 = math.cos %a : f64
    %11 = math.tan %a : f64
    %12 = math.asin %a : f64
    %13 = math.acos %a : f64
    %14 = math.atan %a : f64
    %15 = math.atan2 %a, %b : f64
    %16 = math.sinh %a : f64
    %17 = math.cosh %a : f64
    %18 = math.tanh %a : f64
    %19 = math.asinh %a : f64
    %20 = math.acosh %a : f64
    %21 = math.atanh %a : f64
    %22 = math.powf %a, %b : f64
    %23 = math.absf %a : f64
    %24 = math.floor %a : f64
    %25 = math.ceil %a : f64
    %26 = math.round %a : f64
    %27 = math.roundeven %a : f64
    %28 = math.trunc %a : f64
    %29 = math.fma %a, %b, %c : f64
    %30 = math.copysign %a, %b : f64
    %31 = math.erf %a : f64
    %32 = math.erfc %a : f64
    %33 = math.cbrt %a : f64
    %34 = math.isnan %a : f64
    %35 = math.isinf %a : f64
    %36 = math.isfinite %a : f64
    %37 = math.isnormal %a : f64
    %38 = math.sqrt %x : f32
    %39, %40 = math.sincos %a : f64
    // CHECK-NEXT: double v41 = vrirh_fpowi_double_int(a0, a4);
    // CHECK-NEXT: float v42 = vrirh_fpowi_float_long(a3, a5);
    // CHECK-NEXT: long v43 = vrirh_ipowi_long(a5, a5);
    // CHECK-NEXT: int v44 = (int)abs(a4);
    // CHECK-NEXT: int v45 = (int)clz(a4);
    // CHECK-NEXT: long v46 = (long)popcount(a5);
    // CHECK-NEXT: int v47 = (int)popcount((uint)(~(uint)a4 & ((uint)a4 - 1)));
    %41 = math.fpowi %a, %i : f64, i32
    %42 = math.fpowi %x, %l : f32, i64
    %43 = math.ipowi %l, %l : i64
    %44 = math.absi %i : i32
    %45 = math.ctlz %i : i32
    %46 = math.ctpop %l : i64
    %47 = math.cttz %i : i32
    gpu.return
  }
}
