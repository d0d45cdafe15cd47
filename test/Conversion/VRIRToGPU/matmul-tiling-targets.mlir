// The default tiling of matrix products per element type and target: f64
// takes 64x64 tiles 8 deep with 8x8 work-items everywhere; other types take
// 64x64x16 with 16x16 work-items through OpenCL, and f64's tiling through
// Vulkan (each the faster on an H200). --gpu-matmul-tiling replaces both.
// RUN: vr-opt %s --vrir-to-opencl -mlir-print-ir-after=vrir-gpu-map-sections -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPENCL
// RUN: vr-opt %s --vrir-to-vulkan -mlir-print-ir-after=vrir-gpu-map-sections -o /dev/null 2>&1 | FileCheck %s --check-prefix=VULKAN

// OPENCL-LABEL: func.func @products
// OPENCL: workgroup(%{{.*}} : memref<64x16xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>)
// OPENCL: workgroup(%{{.*}} : memref<64x8xf64, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x64xf64, #gpu.address_space<workgroup>>)
// VULKAN-LABEL: func.func @products
// VULKAN: workgroup(%{{.*}} : memref<64x8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x64xf32, #gpu.address_space<workgroup>>)
// VULKAN: workgroup(%{{.*}} : memref<64x8xf64, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x64xf64, #gpu.address_space<workgroup>>)
func.func @products(%A: !vrir.array<f32, 2, row_major>, %B: !vrir.array<f64, 2, row_major>) -> (!vrir.array<f32, 2, row_major>, !vrir.array<f64, 2, row_major>) {
  %r:2 = vrir.gpu_section -> (!vrir.array<f32, 2, row_major>, !vrir.array<f64, 2, row_major>) {
    %C = vrir.matmul %A, %A : !vrir.array<f32, 2, row_major>, !vrir.array<f32, 2, row_major> -> !vrir.array<f32, 2, row_major>
    %D = vrir.matmul %B, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
    vrir.yield %C, %D : !vrir.array<f32, 2, row_major>, !vrir.array<f64, 2, row_major>
  }
  return %r#0, %r#1 : !vrir.array<f32, 2, row_major>, !vrir.array<f64, 2, row_major>
}
