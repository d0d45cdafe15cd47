// RUN: vr-translate --gpu-to-opencl-c %s | FileCheck %s
// RUN: vr-translate --gpu-to-opencl-c %s | %opencl-c-check

// Float arithmetic, exact constants, every cmpf predicate (C comparisons are
// ordered, != is unordered), NaN-propagating minimum/maximum helpers, and
// conversions.

// CHECK-LABEL: // gpu.module @floats
// CHECK: #pragma OPENCL FP_CONTRACT OFF
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_fp16 : enable
// CHECK-EMPTY:
// CHECK-NEXT: static inline double vrirh_minimumf_double(double a, double b) {
// CHECK-NEXT:   if (isnan(a) || isnan(b))
// CHECK-NEXT:     return a + b;
// CHECK-NEXT:   if (a == b)
// CHECK-NEXT:     return signbit(a) ? a : b;
// CHECK-NEXT:   return a < b ? a : b;
// CHECK-NEXT: }
// CHECK: static inline double vrirh_maximumf_double(double a, double b) {
// CHECK:     return signbit(a) ? b : a;
// CHECK-NEXT:   return a > b ? a : b;
// CHECK: static inline float vrirh_minimumf_float(float a, float b) {

// CHECK-LABEL: __kernel void floats(double a0, double a1, float a2, half a3,
// CHECK-NEXT:                       __global long *vrir_error) {
gpu.module @floats {
  gpu.func @floats(%a: f64, %b: f64, %x: f32, %h: f16) kernel {
    // CHECK-NEXT: double v0 = a0 + a1;
    // CHECK-NEXT: double v1 = a0 - a1;
    // CHECK-NEXT: double v2 = a0 * a1;
    // CHECK-NEXT: double v3 = a0 / a1;
    // CHECK-NEXT: double v4 = fmod(a0, a1);
    // CHECK-NEXT: double v5 = -a0;
    // CHECK-NEXT: double v6 = vrirh_minimumf_double(a0, a1);
    // CHECK-NEXT: double v7 = vrirh_maximumf_double(a0, a1);
    // CHECK-NEXT: double v8 = fmin(a0, a1);
    // CHECK-NEXT: double v9 = fmax(a0, a1);
    // CHECK-NEXT: float v10 = vrirh_minimumf_float(a2, a2);
    // CHECK-NEXT: half v11 = a3 * a3;
    %0 = arith.addf %a, %b : f64
    %1 = arith.subf %a, %b : f64
    %2 = arith.mulf %a, %b fastmath<contract> : f64
    %3 = arith.divf %a, %b : f64
    %4 = arith.remf %a, %b : f64
    %5 = arith.negf %a : f64
    %6 = arith.minimumf %a, %b : f64
    %7 = arith.maximumf %a, %b : f64
    %8 = arith.minnumf %a, %b : f64
    %9 = arith.maxnumf %a, %b : f64
    %10 = arith.minimumf %x, %x : f32
    %11 = arith.mulf %h, %h : f16
    // CHECK-NEXT: bool v12 = false;
    // CHECK-NEXT: bool v13 = a0 == a1;
    // CHECK-NEXT: bool v14 = a0 > a1;
    // CHECK-NEXT: bool v15 = a0 >= a1;
    // CHECK-NEXT: bool v16 = a0 < a1;
    // CHECK-NEXT: bool v17 = a0 <= a1;
    // CHECK-NEXT: bool v18 = a0 < a1 || a0 > a1;
    // CHECK-NEXT: bool v19 = !isnan(a0) && !isnan(a1);
    // CHECK-NEXT: bool v20 = !(a0 < a1 || a0 > a1);
    // CHECK-NEXT: bool v21 = !(a0 <= a1);
    // CHECK-NEXT: bool v22 = !(a0 < a1);
    // CHECK-NEXT: bool v23 = !(a0 >= a1);
    // CHECK-NEXT: bool v24 = !(a0 > a1);
    // CHECK-NEXT: bool v25 = !(a0 == a1);
    // CHECK-NEXT: bool v26 = isnan(a0) || isnan(a1);
    // CHECK-NEXT: bool v27 = true;
    %12 = arith.cmpf false, %a, %b : f64
    %13 = arith.cmpf oeq, %a, %b : f64
    %14 = arith.cmpf ogt, %a, %b : f64
    %15 = arith.cmpf oge, %a, %b : f64
    %16 = arith.cmpf olt, %a, %b : f64
    %17 = arith.cmpf ole, %a, %b : f64
    %18 = arith.cmpf one, %a, %b : f64
    %19 = arith.cmpf ord, %a, %b : f64
    %20 = arith.cmpf ueq, %a, %b : f64
    %21 = arith.cmpf ugt, %a, %b : f64
    %22 = arith.cmpf uge, %a, %b : f64
    %23 = arith.cmpf ult, %a, %b : f64
    %24 = arith.cmpf ule, %a, %b : f64
    %25 = arith.cmpf une, %a, %b : f64
    %26 = arith.cmpf uno, %a, %b : f64
    %27 = arith.cmpf true, %a, %b : f64
    // Constants read back exactly: shortest decimal, else hexadecimal.
    // CHECK-NEXT: double v28 = 0.1;
    // CHECK-NEXT: double v29 = 0.3333333333333333;
    // CHECK-NEXT: double v30 = 1.0E+300;
    // CHECK-NEXT: double v31 = 5.0E-324;
    // CHECK-NEXT: double v32 = -0.0;
    // CHECK-NEXT: double v33 = (double)INFINITY;
    // CHECK-NEXT: double v34 = -(double)INFINITY;
    // CHECK-NEXT: double v35 = (double)NAN;
    // CHECK-NEXT: double v36 = as_double((long)0x7FF8000000000001UL);
    // CHECK-NEXT: float v37 = 0.1f;
    // CHECK-NEXT: float v38 = 3.0f;
    // CHECK-NEXT: float v39 = -(float)INFINITY;
    // CHECK-NEXT: half v40 = (half)0.1f;
    // CHECK-NEXT: half v41 = (half)6.55E+4f;
    // CHECK-NEXT: double v42 = 123456789.0;
    %28 = arith.constant 0.1 : f64
    %29 = arith.constant 0.3333333333333333 : f64
    %30 = arith.constant 1.0e300 : f64
    %31 = arith.constant 4.9406564584124654e-324 : f64
    %32 = arith.constant -0.0 : f64
    %33 = arith.constant 0x7FF0000000000000 : f64
    %34 = arith.constant 0xFFF0000000000000 : f64
    %35 = arith.constant 0x7FF8000000000000 : f64
    %36 = arith.constant 0x7FF8000000000001 : f64
    %37 = arith.constant 0.1 : f32
    %38 = arith.constant 3.0 : f32
    %39 = arith.constant 0xFF800000 : f32
    %40 = arith.constant 0.1 : f16
    %41 = arith.constant 65504.0 : f16
    %42 = arith.constant 123456789.0 : f64
    // Conversions (i1 is -1 when signed).
    // CHECK-NEXT: long v43 = 3L;
    // CHECK-NEXT: int v44 = -1;
    // CHECK-NEXT: double v45 = (double)v43;
    // CHECK-NEXT: double v46 = (double)(ulong)v43;
    // CHECK-NEXT: float v47 = (float)(-(int)v13);
    // CHECK-NEXT: float v48 = (float)(uchar)v13;
    // CHECK-NEXT: int v49 = (int)a0;
    // CHECK-NEXT: int v50 = (int)(uint)a0;
    // CHECK-NEXT: long v51 = (long)a2;
    // CHECK-NEXT: bool v52 = a0 != 0;
    // CHECK-NEXT: double v53 = (double)a2;
    // CHECK-NEXT: float v54 = (float)a0;
    // CHECK-NEXT: half v55 = (half)a2;
    // CHECK-NEXT: long v56 = as_long(a0);
    // CHECK-NEXT: double v57 = as_double(v56);
    // CHECK-NEXT: int v58 = as_int(a2);
    // CHECK-NEXT: float v59 = as_float(v44);
    // CHECK-NEXT: short v60 = as_short(a3);
    // CHECK-NEXT: half v61 = as_half(v60);
    %43 = arith.constant 3 : i64
    %44 = arith.constant -1 : i32
    %45 = arith.sitofp %43 : i64 to f64
    %46 = arith.uitofp %43 : i64 to f64
    %47 = arith.sitofp %13 : i1 to f32
    %48 = arith.uitofp %13 : i1 to f32
    %49 = arith.fptosi %a : f64 to i32
    %50 = arith.fptoui %a : f64 to i32
    %51 = arith.fptosi %x : f32 to i64
    %52 = arith.fptoui %a : f64 to i1
    %53 = arith.extf %x : f32 to f64
    %54 = arith.truncf %a : f64 to f32
    %55 = arith.truncf %x : f32 to f16
    %56 = arith.bitcast %a : f64 to i64
    %57 = arith.bitcast %56 : i64 to f64
    %58 = arith.bitcast %x : f32 to i32
    %59 = arith.bitcast %44 : i32 to f32
    %60 = arith.bitcast %h : f16 to i16
    %61 = arith.bitcast %60 : i16 to f16
    // CHECK-NEXT: double v62 = v13 ? a0 : a1;
    // CHECK-NEXT: }
    %62 = arith.select %13, %a, %b : f64
    gpu.return
  }
}
