// RUN: vr-translate --gpu-to-opencl-c %s | FileCheck %s
// RUN: vr-translate --gpu-to-opencl-c %s | %opencl-c-check

// memref.atomic_rmw of every kind on i32, i64, f32 and f64 in global, local
// and private memory, and memref.generic_atomic_rmw. 32-bit integer kinds use
// the OpenCL 1.2 builtins, 64-bit ones cl_khr_int64_*_atomics; the others
// (floats, muli) are compare-and-swap loops on the bits. The old value is the
// result.

// CHECK-LABEL: // gpu.module @atomics
// CHECK: #pragma OPENCL FP_CONTRACT OFF
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
// CHECK-EMPTY:
// CHECK-NEXT: static inline int vrirh_atomic_muli_int_global(volatile __global int *p, int v) {
// CHECK-NEXT:   volatile __global int *q = (volatile __global int *)p;
// CHECK-NEXT:   int old = *q;
// CHECK-NEXT:   for (;;) {
// CHECK-NEXT:     int expected = old;
// CHECK-NEXT:     int cur = expected;
// CHECK-NEXT:     old = atomic_cmpxchg(q, expected, (int)((uint)cur * (uint)v));
// CHECK-NEXT:     if (old == expected)
// CHECK-NEXT:       return cur;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK: static inline float vrirh_atomic_addf_float_global(volatile __global float *p, float v) {
// CHECK-NEXT:   volatile __global int *q = (volatile __global int *)p;
// CHECK-NEXT:   int old = *q;
// CHECK-NEXT:   for (;;) {
// CHECK-NEXT:     int expected = old;
// CHECK-NEXT:     float cur = as_float(expected);
// CHECK-NEXT:     old = atomic_cmpxchg(q, expected, as_int(cur + v));
// CHECK-NEXT:     if (old == expected)
// CHECK-NEXT:       return cur;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// The helper a CAS loop calls comes first.
// CHECK: static inline float vrirh_maximumf_float(float a, float b) {
// CHECK: static inline float vrirh_atomic_maximumf_float_global(
// CHECK:     old = atomic_cmpxchg(q, expected, as_int(vrirh_maximumf_float(cur, v)));
// CHECK: static inline double vrirh_atomic_addf_double_global(volatile __global double *p, double v) {
// CHECK-NEXT:   volatile __global long *q = (volatile __global long *)p;
// CHECK-NEXT:   long old = *q;
// CHECK-NEXT:   for (;;) {
// CHECK-NEXT:     long expected = old;
// CHECK-NEXT:     double cur = as_double(expected);
// CHECK-NEXT:     old = atom_cmpxchg(q, expected, as_long(cur + v));
// CHECK: static inline double vrirh_atomic_addf_double_local(volatile __local double *p, double v) {
// CHECK-NEXT:   volatile __local long *q = (volatile __local long *)p;

// CHECK-LABEL: __kernel void all(
// CHECK: double a8, __global long *vrir_error) {
// CHECK-NEXT: int v0 = atomic_add(&a0[a4], a5);
// CHECK-NEXT: int v1 = vrirh_atomic_muli_int_global(&a0[a4], a5);
// CHECK-NEXT: int v2 = atomic_and(&a0[a4], a5);
// CHECK-NEXT: int v3 = atomic_or(&a0[a4], a5);
// CHECK-NEXT: int v4 = atomic_xor(&a0[a4], a5);
// CHECK-NEXT: int v5 = atomic_max(&a0[a4], a5);
// CHECK-NEXT: int v6 = atomic_min(&a0[a4], a5);
// CHECK-NEXT: int v7 = (int)atomic_max((volatile __global uint *)&a0[a4], (uint)a5);
// CHECK-NEXT: int v8 = (int)atomic_min((volatile __global uint *)&a0[a4], (uint)a5);
// CHECK-NEXT: int v9 = atomic_xchg(&a0[a4], a5);
// CHECK-NEXT: long v10 = atom_add(&a1[a4], a6);
// CHECK-NEXT: long v11 = vrirh_atomic_muli_long_global(&a1[a4], a6);
// CHECK-NEXT: long v12 = atom_and(&a1[a4], a6);
// CHECK-NEXT: long v13 = atom_or(&a1[a4], a6);
// CHECK-NEXT: long v14 = atom_xor(&a1[a4], a6);
// CHECK-NEXT: long v15 = atom_max(&a1[a4], a6);
// CHECK-NEXT: long v16 = atom_min(&a1[a4], a6);
// CHECK-NEXT: long v17 = (long)atom_max((volatile __global ulong *)&a1[a4], (ulong)a6);
// CHECK-NEXT: long v18 = (long)atom_min((volatile __global ulong *)&a1[a4], (ulong)a6);
// CHECK-NEXT: long v19 = atom_xchg(&a1[a4], a6);
// CHECK-NEXT: float v20 = vrirh_atomic_addf_float_global(&a2[a4], a7);
// CHECK-NEXT: float v21 = vrirh_atomic_mulf_float_global(&a2[a4], a7);
// CHECK-NEXT: float v22 = vrirh_atomic_maximumf_float_global(&a2[a4], a7);
// CHECK-NEXT: float v23 = vrirh_atomic_minimumf_float_global(&a2[a4], a7);
// CHECK-NEXT: float v24 = vrirh_atomic_maxnumf_float_global(&a2[a4], a7);
// CHECK-NEXT: float v25 = vrirh_atomic_minnumf_float_global(&a2[a4], a7);
// CHECK-NEXT: float v26 = atomic_xchg(&a2[a4], a7);
// CHECK-NEXT: double v27 = vrirh_atomic_addf_double_global(&a3[a4], a8);
// CHECK-NEXT: double v28 = vrirh_atomic_mulf_double_global(&a3[a4], a8);
// CHECK-NEXT: double v29 = vrirh_atomic_maximumf_double_global(&a3[a4], a8);
// CHECK-NEXT: double v30 = vrirh_atomic_minimumf_double_global(&a3[a4], a8);
// CHECK-NEXT: double v31 = vrirh_atomic_maxnumf_double_global(&a3[a4], a8);
// CHECK-NEXT: double v32 = vrirh_atomic_minnumf_double_global(&a3[a4], a8);
// CHECK-NEXT: double v33 = as_double(atom_xchg((volatile __global long *)&a3[a4], as_long(a8)));
// CHECK-NEXT: }

// Local memory is atomic too; private memory needs no atomicity.
// CHECK-LABEL: __kernel void workgroup(
// CHECK: __global long *vrir_error) {
// CHECK-NEXT: __local double wg0[1] __attribute__((aligned(16)));
// CHECK-NEXT: __local int wg1[4] __attribute__((aligned(16)));
// CHECK-NEXT: double pv0[2];
// CHECK-NEXT: long v0 = 0L;
// CHECK-NEXT: double v1 = vrirh_atomic_addf_double_local(&wg0[v0], a2);
// CHECK-NEXT: int v2 = atomic_add(&wg1[a1], a3);
// CHECK-NEXT: int v3 = (int)atomic_max((volatile __local uint *)&wg1[a1], (uint)a3);
// CHECK-NEXT: double v4 = pv0[v0];
// CHECK-NEXT: pv0[v0] = vrirh_maximumf_double(v4, a2);
// CHECK-NEXT: double v5;
// CHECK-NEXT: {
// CHECK-NEXT: volatile __global long *v6 = (volatile __global long *)&a0[a1];
// CHECK-NEXT: long v7 = *v6;
// CHECK-NEXT: for (;;) {
// CHECK-NEXT: long v8 = v7;
// CHECK-NEXT: double v9 = as_double(v8);
// CHECK-NEXT: double v10 = v9 * a2;
// CHECK-NEXT: double v11 = v10 + a2;
// CHECK-NEXT: v7 = atom_cmpxchg(v6, v8, as_long(v11));
// CHECK-NEXT: if (v7 == v8) {
// CHECK-NEXT: v5 = v9;
// CHECK-NEXT: break;
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: int v12;
// CHECK-NEXT: {
// CHECK-NEXT: volatile __local int *v13 = (volatile __local int *)&wg1[a1];
// CHECK-NEXT: int v14 = *v13;
// CHECK-NEXT: for (;;) {
// CHECK-NEXT: int v15 = v14;
// CHECK-NEXT: int v16 = v15;
// CHECK-NEXT: int v17 = (int)((uint)v16 * (uint)a3);
// CHECK-NEXT: v14 = atomic_cmpxchg(v13, v15, v17);
// CHECK-NEXT: if (v14 == v15) {
// CHECK-NEXT: v12 = v16;
// CHECK-NEXT: break;
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: double v18;
// CHECK-NEXT: {
// CHECK-NEXT: double v19 = pv0[v0];
// CHECK-NEXT: double v20 = v19 * a2;
// CHECK-NEXT: pv0[v0] = v20;
// CHECK-NEXT: v18 = v19;
// CHECK-NEXT: }
// CHECK-NEXT: }

gpu.module @atomics {
  gpu.func @all(%ai: memref<?xi32>, %al: memref<?xi64>, %af: memref<?xf32>, %ad: memref<?xf64>, %i: index, %vi: i32, %vl: i64, %vf: f32, %vd: f64) kernel {
    %i32_addi = memref.atomic_rmw addi %vi, %ai[%i] : (i32, memref<?xi32>) -> i32
    %i32_muli = memref.atomic_rmw muli %vi, %ai[%i] : (i32, memref<?xi32>) -> i32
    %i32_andi = memref.atomic_rmw andi %vi, %ai[%i] : (i32, memref<?xi32>) -> i32
    %i32_ori = memref.atomic_rmw ori %vi, %ai[%i] : (i32, memref<?xi32>) -> i32
    %i32_xori = memref.atomic_rmw xori %vi, %ai[%i] : (i32, memref<?xi32>) -> i32
    %i32_maxs = memref.atomic_rmw maxs %vi, %ai[%i] : (i32, memref<?xi32>) -> i32
    %i32_mins = memref.atomic_rmw mins %vi, %ai[%i] : (i32, memref<?xi32>) -> i32
    %i32_maxu = memref.atomic_rmw maxu %vi, %ai[%i] : (i32, memref<?xi32>) -> i32
    %i32_minu = memref.atomic_rmw minu %vi, %ai[%i] : (i32, memref<?xi32>) -> i32
    %i32_assign = memref.atomic_rmw assign %vi, %ai[%i] : (i32, memref<?xi32>) -> i32
    %i64_addi = memref.atomic_rmw addi %vl, %al[%i] : (i64, memref<?xi64>) -> i64
    %i64_muli = memref.atomic_rmw muli %vl, %al[%i] : (i64, memref<?xi64>) -> i64
    %i64_andi = memref.atomic_rmw andi %vl, %al[%i] : (i64, memref<?xi64>) -> i64
    %i64_ori = memref.atomic_rmw ori %vl, %al[%i] : (i64, memref<?xi64>) -> i64
    %i64_xori = memref.atomic_rmw xori %vl, %al[%i] : (i64, memref<?xi64>) -> i64
    %i64_maxs = memref.atomic_rmw maxs %vl, %al[%i] : (i64, memref<?xi64>) -> i64
    %i64_mins = memref.atomic_rmw mins %vl, %al[%i] : (i64, memref<?xi64>) -> i64
    %i64_maxu = memref.atomic_rmw maxu %vl, %al[%i] : (i64, memref<?xi64>) -> i64
    %i64_minu = memref.atomic_rmw minu %vl, %al[%i] : (i64, memref<?xi64>) -> i64
    %i64_assign = memref.atomic_rmw assign %vl, %al[%i] : (i64, memref<?xi64>) -> i64
    %f32_addf = memref.atomic_rmw addf %vf, %af[%i] : (f32, memref<?xf32>) -> f32
    %f32_mulf = memref.atomic_rmw mulf %vf, %af[%i] : (f32, memref<?xf32>) -> f32
    %f32_maximumf = memref.atomic_rmw maximumf %vf, %af[%i] : (f32, memref<?xf32>) -> f32
    %f32_minimumf = memref.atomic_rmw minimumf %vf, %af[%i] : (f32, memref<?xf32>) -> f32
    %f32_maxnumf = memref.atomic_rmw maxnumf %vf, %af[%i] : (f32, memref<?xf32>) -> f32
    %f32_minnumf = memref.atomic_rmw minnumf %vf, %af[%i] : (f32, memref<?xf32>) -> f32
    %f32_assign = memref.atomic_rmw assign %vf, %af[%i] : (f32, memref<?xf32>) -> f32
    %f64_addf = memref.atomic_rmw addf %vd, %ad[%i] : (f64, memref<?xf64>) -> f64
    %f64_mulf = memref.atomic_rmw mulf %vd, %ad[%i] : (f64, memref<?xf64>) -> f64
    %f64_maximumf = memref.atomic_rmw maximumf %vd, %ad[%i] : (f64, memref<?xf64>) -> f64
    %f64_minimumf = memref.atomic_rmw minimumf %vd, %ad[%i] : (f64, memref<?xf64>) -> f64
    %f64_maxnumf = memref.atomic_rmw maxnumf %vd, %ad[%i] : (f64, memref<?xf64>) -> f64
    %f64_minnumf = memref.atomic_rmw minnumf %vd, %ad[%i] : (f64, memref<?xf64>) -> f64
    %f64_assign = memref.atomic_rmw assign %vd, %ad[%i] : (f64, memref<?xf64>) -> f64
    gpu.return
  }
  gpu.func @workgroup(%out: memref<?xf64>, %i: index, %vd: f64, %vi: i32)
      workgroup(%sum: memref<1xf64, #gpu.address_space<workgroup>>, %cnt: memref<4xi32, #gpu.address_space<workgroup>>)
      private(%p: memref<2xf64, #gpu.address_space<private>>) kernel {
    %c0 = arith.constant 0 : index
    %0 = memref.atomic_rmw addf %vd, %sum[%c0] : (f64, memref<1xf64, #gpu.address_space<workgroup>>) -> f64
    %1 = memref.atomic_rmw addi %vi, %cnt[%i] : (i32, memref<4xi32, #gpu.address_space<workgroup>>) -> i32
    %2 = memref.atomic_rmw maxu %vi, %cnt[%i] : (i32, memref<4xi32, #gpu.address_space<workgroup>>) -> i32
    %3 = memref.atomic_rmw maximumf %vd, %p[%c0] : (f64, memref<2xf64, #gpu.address_space<private>>) -> f64
    %4 = memref.generic_atomic_rmw %out[%i] : memref<?xf64> {
    ^bb0(%cur: f64):
      %n = arith.mulf %cur, %vd : f64
      %m = arith.addf %n, %vd : f64
      memref.atomic_yield %m : f64
    }
    %5 = memref.generic_atomic_rmw %cnt[%i] : memref<4xi32, #gpu.address_space<workgroup>> {
    ^bb0(%cur: i32):
      %n = arith.muli %cur, %vi : i32
      memref.atomic_yield %n : i32
    }
    %6 = memref.generic_atomic_rmw %p[%c0] : memref<2xf64, #gpu.address_space<private>> {
    ^bb0(%cur: f64):
      %n = arith.mulf %cur, %vd : f64
      memref.atomic_yield %n : f64
    }
    gpu.return
  }
}
