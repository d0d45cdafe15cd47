// RUN: vr-translate --gpu-to-opencl-c %s | FileCheck %s
// RUN: vr-translate --gpu-to-opencl-c %s | %opencl-c-check

// Kernel parameters (const for vrir.readonly, restrict for vrir.noalias, i1
// as one byte), loads and stores, workgroup and private memory, memref.alloca,
// work-item functions and barriers.

// CHECK-LABEL: // gpu.module @kernels
// CHECK: cl_khr_fp64
// CHECK-NOT: atomics
gpu.module @kernels {
  // CHECK-LABEL: __kernel void params(__global const float *restrict a0,
  // CHECK-NEXT:                       __global float *restrict a1, __global const long *a2,
  // CHECK-NEXT:                       __global uchar *a3, __global int *a4, long a5, long a6,
  // CHECK-NEXT:                       int a7, short a8, char a9, uchar a10_, float a11,
  // CHECK-NEXT:                       __global long *vrir_error) {
  // CHECK-NEXT: bool a10 = a10_ != 0;
  gpu.func @params(%in: memref<?xf32> {vrir.readonly, vrir.noalias},
                   %out: memref<?xf32> {vrir.noalias},
                   %idx: memref<?xindex> {vrir.readonly},
                   %mask: memref<?xi1>, %fixed: memref<16xi32, #gpu.address_space<global>>,
                   %n: index, %l: i64, %i: i32, %s: i16, %c: i8, %b: i1, %f: f32) kernel {
    // CHECK-NEXT: long v0 = a2[a5];
    // CHECK-NEXT: float v1 = a0[v0];
    // CHECK-NEXT: float v2 = v1 * a11;
    // CHECK-NEXT: a1[a5] = v2;
    // CHECK-NEXT: bool v3 = a3[a5] != 0;
    // CHECK-NEXT: bool v4 = v3 ^ a10;
    // CHECK-NEXT: a3[a5] = v4 ? 1 : 0;
    // CHECK-NEXT: a4[a5] = a7;
    // CHECK-NEXT: }
    %j = memref.load %idx[%n] : memref<?xindex>
    %x = memref.load %in[%j] : memref<?xf32>
    %y = arith.mulf %x, %f : f32
    memref.store %y, %out[%n] : memref<?xf32>
    %m = memref.load %mask[%n] : memref<?xi1>
    %nm = arith.xori %m, %b : i1
    memref.store %nm, %mask[%n] : memref<?xi1>
    memref.store %i, %fixed[%n] : memref<16xi32, #gpu.address_space<global>>
    gpu.return
  }

  // CHECK-LABEL: __kernel void ids(__global long *a0, __global long *vrir_error) {
  gpu.func @ids(%out: memref<?xindex>) kernel {
    // CHECK-NEXT: long v0 = (long)get_local_id(0);
    // CHECK-NEXT: long v1 = (long)get_local_id(1);
    // CHECK-NEXT: long v2 = (long)get_local_id(2);
    // CHECK-NEXT: long v3 = (long)get_group_id(0);
    // CHECK-NEXT: long v4 = (long)get_group_id(1);
    // CHECK-NEXT: long v5 = (long)get_local_size(2);
    // CHECK-NEXT: long v6 = (long)get_num_groups(0);
    // CHECK-NEXT: long v7 = (long)get_global_id(1);
    // CHECK-NEXT: barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    %0 = gpu.thread_id x
    %1 = gpu.thread_id y
    %2 = gpu.thread_id z
    %3 = gpu.block_id x
    %4 = gpu.block_id y
    %5 = gpu.block_dim z
    %6 = gpu.grid_dim x
    %7 = gpu.global_id y
    gpu.barrier
    memref.store %7, %out[%0] : memref<?xindex>
    gpu.return
  }

  // Workgroup attributions are __local arrays, private ones and allocas
  // private arrays; multi-dimensional ones are indexed row-major, in 32-bit
  // arithmetic (their shapes have fewer than 2^31 elements; a larger one
  // keeps 64-bit arithmetic, below).
  // CHECK-LABEL: __kernel void shared(__global double *a0, long a1, __global long *vrir_error) {
  // CHECK-NEXT: __local double wg0[64] __attribute__((aligned(16)));
  // CHECK-NEXT: __local uchar wg1[32] __attribute__((aligned(16)));
  // CHECK-NEXT: int pv0[4];
  // CHECK-NEXT: long v0 = (long)get_local_id(0);
  // CHECK-NEXT: double v1 = a0[a1];
  // CHECK-NEXT: long v2 = 0L;
  // CHECK-NEXT: wg0[(int)v2 * 8 + (int)v0] = v1;
  // CHECK-NEXT: barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  // CHECK-NEXT: long v3 = 1L;
  // CHECK-NEXT: long v4 = 3L;
  // CHECK-NEXT: double v5 = wg0[(int)v3 * 8 + (int)v4];
  // CHECK-NEXT: bool v6 = true;
  // CHECK-NEXT: wg1[v4] = v6 ? 1 : 0;
  // CHECK-NEXT: int v7 = 7;
  // CHECK-NEXT: pv0[v4] = v7;
  // CHECK-NEXT: float v8[6];
  // CHECK-NEXT: float v9 = (float)v5;
  // CHECK-NEXT: v8[((int)v3 * 3 + (int)v4) * 2 + (int)v3] = v9;
  // CHECK-NEXT: a0[a1] = v5;
  // CHECK-NEXT: }
  // CHECK-NOT: helper
  // CHECK-NOT: decl
  gpu.func @shared(%a: memref<?xf64>, %n: index)
      workgroup(%tile: memref<8x8xf64, #gpu.address_space<workgroup>>,
                %flags: memref<32xi1, #gpu.address_space<workgroup>>)
      private(%scratch: memref<4xi32, #gpu.address_space<private>>) kernel {
    %tid = gpu.thread_id x
    %x = memref.load %a[%n] : memref<?xf64>
    %c0 = arith.constant 0 : index
    memref.store %x, %tile[%c0, %tid] : memref<8x8xf64, #gpu.address_space<workgroup>>
    gpu.barrier
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %y = memref.load %tile[%c1, %c3] : memref<8x8xf64, #gpu.address_space<workgroup>>
    %t = arith.constant true
    memref.store %t, %flags[%c3] : memref<32xi1, #gpu.address_space<workgroup>>
    %seven = arith.constant 7 : i32
    memref.store %seven, %scratch[%c3] : memref<4xi32, #gpu.address_space<private>>
    %buf = memref.alloca() : memref<1x3x2xf32>
    %yf = arith.truncf %y : f64 to f32
    memref.store %yf, %buf[%c1, %c3, %c1] : memref<1x3x2xf32>
    memref.store %y, %a[%n] : memref<?xf64>
    gpu.return
  }

  // Work-group arrays of vectors (the runs of the matrix-product tiles):
  // OpenCL vector types, built from their lanes and read lane by lane.
  // CHECK-LABEL: __kernel void runs(__global float *a0, long a1, __global double *a2,
  // CHECK-NEXT: __global long *vrir_error) {
  // CHECK-NEXT: __local float4 wg0[8] __attribute__((aligned(16)));
  // CHECK-NEXT: __local double2 wg1[2] __attribute__((aligned(16)));
  // CHECK-NEXT: float v0 = a0[a1];
  // CHECK-NEXT: float4 v1 = (float4)(v0, v0, v0, v0);
  // CHECK-NEXT: long v2 = 1L;
  // CHECK-NEXT: wg0[(int)v2 * 4 + (int)v2] = v1;
  // CHECK-NEXT: float4 v3 = wg0[(int)v2 * 4 + (int)v2];
  // CHECK-NEXT: float v4 = v3.s3;
  // CHECK-NEXT: a0[a1] = v4;
  // CHECK-NEXT: double v5 = (double)v4;
  // CHECK-NEXT: double2 v6 = (double2)(v5, v5);
  // CHECK-NEXT: wg1[v2] = v6;
  // CHECK-NEXT: double v7 = v6.s1;
  // CHECK-NEXT: a2[v2] = v7;
  gpu.func @runs(%a: memref<?xf32>, %n: index, %d: memref<?xf64>)
      workgroup(%tile: memref<2x4xvector<4xf32>, #gpu.address_space<workgroup>>,
                %pairs: memref<2xvector<2xf64>, #gpu.address_space<workgroup>>) kernel {
    %x = memref.load %a[%n] : memref<?xf32>
    %v = vector.from_elements %x, %x, %x, %x : vector<4xf32>
    %c1 = arith.constant 1 : index
    memref.store %v, %tile[%c1, %c1] : memref<2x4xvector<4xf32>, #gpu.address_space<workgroup>>
    %w = memref.load %tile[%c1, %c1] : memref<2x4xvector<4xf32>, #gpu.address_space<workgroup>>
    %lane = vector.extract %w[3] : f32 from vector<4xf32>
    memref.store %lane, %a[%n] : memref<?xf32>
    %e = arith.extf %lane : f32 to f64
    %p = vector.from_elements %e, %e : vector<2xf64>
    memref.store %p, %pairs[%c1] : memref<2xvector<2xf64>, #gpu.address_space<workgroup>>
    %q = vector.extract %p[1] : f64 from vector<2xf64>
    memref.store %q, %d[%c1] : memref<?xf64>
    gpu.return
  }

  // CHECK-LABEL: __kernel void wide(
  // CHECK: float v2 = wg0[v0 * 65536L + v1];
  gpu.func @wide(%a: memref<?xf32>)
      workgroup(%big: memref<65536x65536xf32, #gpu.address_space<workgroup>>) kernel {
    %i = gpu.thread_id x
    %j = gpu.thread_id y
    %v = memref.load %big[%i, %j] : memref<65536x65536xf32, #gpu.address_space<workgroup>>
    memref.store %v, %a[%i] : memref<?xf32>
    gpu.return
  }

  // Device functions and declarations are skipped.
  gpu.func @helper(%x: f32) -> f32 {
    gpu.return %x : f32
  }
  func.func private @decl(f32) -> f32
}
