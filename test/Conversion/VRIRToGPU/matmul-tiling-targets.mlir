// The default tiling of matrix products per element type, the same on
// every target: f64 takes 64x64 tiles 8 deep with 8x8 work-items, other
// types 128x128 tiles 16 deep with 16x16 work-items (the fastest of those
// measured on an H200). --gpu-matmul-tiling replaces both.
// RUN: vr-opt %s --vrir-to-opencl -mlir-print-ir-after=vrir-gpu-map-sections -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPENCL
// RUN: vr-opt %s --vrir-to-vulkan -mlir-print-ir-after=vrir-gpu-map-sections -o /dev/null 2>&1 | FileCheck %s --check-prefix=VULKAN

// OPENCL-LABEL: func.func @products
// OPENCL: threads({{.*}}) in ({{.*}} = %c16{{[_0-9]*}}, {{.*}} = %c16{{[_0-9]*}}, {{.*}}) workgroup(%{{.*}} : memref<16x33xvector<4xf32>, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x32xvector<4xf32>, #gpu.address_space<workgroup>>)
// OPENCL: threads({{.*}}) in ({{.*}} = %c8{{[_0-9]*}}, {{.*}} = %c8{{[_0-9]*}}, {{.*}}) workgroup(%{{.*}} : memref<8x33xvector<2xf64>, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x32xvector<2xf64>, #gpu.address_space<workgroup>>)
// VULKAN-LABEL: func.func @products
// VULKAN: threads({{.*}}) in ({{.*}} = %c16{{[_0-9]*}}, {{.*}} = %c16{{[_0-9]*}}, {{.*}}) workgroup(%{{.*}} : memref<16x33xvector<4xf32>, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x32xvector<4xf32>, #gpu.address_space<workgroup>>)
// VULKAN: threads({{.*}}) in ({{.*}} = %c8{{[_0-9]*}}, {{.*}} = %c8{{[_0-9]*}}, {{.*}}) workgroup(%{{.*}} : memref<8x33xvector<2xf64>, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x32xvector<2xf64>, #gpu.address_space<workgroup>>)
func.func @products(%A: !vrir.array<f32, 2, row_major>, %B: !vrir.array<f64, 2, row_major>) -> (!vrir.array<f32, 2, row_major>, !vrir.array<f64, 2, row_major>) {
  %r:2 = vrir.gpu_section -> (!vrir.array<f32, 2, row_major>, !vrir.array<f64, 2, row_major>) {
    %C = vrir.matmul %A, %A : !vrir.array<f32, 2, row_major>, !vrir.array<f32, 2, row_major> -> !vrir.array<f32, 2, row_major>
    %D = vrir.matmul %B, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
    vrir.yield %C, %D : !vrir.array<f32, 2, row_major>, !vrir.array<f64, 2, row_major>
  }
  return %r#0, %r#1 : !vrir.array<f32, 2, row_major>, !vrir.array<f64, 2, row_major>
}
