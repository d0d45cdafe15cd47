// RUN: vr-opt %s --vrir-convert-gpu-to-spirv | FileCheck %s
// RUN: vr-opt %s --vrir-convert-gpu-to-spirv="client=opencl" | FileCheck %s --check-prefix=OPENCL
// RUN: %if spirv-tools %{ vr-opt %s --vrir-convert-gpu-to-spirv | %validate-spirv | FileCheck %s --check-prefix=VALID %}

// arith.remsi for Vulkan (OpSRem's sign is undefined there for negative
// operands): |a| umod |b|, negated when a < 0. The sign is not taken from
// a == SAbs(a), which the minimum value also satisfies (INT_MIN % 3 came
// out +2). OpenCL's OpSRem has C's semantics and is used as it is.

// CHECK-LABEL: spirv.func @k
// CHECK: %[[A:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i32
// CHECK: %[[B:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i32
// CHECK: %[[ABSA:.*]] = spirv.GL.SAbs %[[A]] : i32
// CHECK: %[[ABSB:.*]] = spirv.GL.SAbs %[[B]] : i32
// CHECK: %[[MAG:.*]] = spirv.UMod %[[ABSA]], %[[ABSB]] : i32
// CHECK: %[[NEG:.*]] = spirv.SLessThan %[[A]], %{{.*}} : i32
// CHECK: %[[NEGATED:.*]] = spirv.SNegate %[[MAG]] : i32
// CHECK: spirv.Select %[[NEG]], %[[NEGATED]], %[[MAG]] : i1, i32
// CHECK-NOT: spirv.IEqual
// CHECK: spirv.Return
// OPENCL-LABEL: spirv.func @k
// OPENCL: spirv.SRem %{{.*}}, %{{.*}} : i32
// OPENCL-NOT: spirv.IEqual
// VALID: valid: @__spv__kernels
module attributes {gpu.container_module} {
  func.func @host(%a: memref<?xi32>, %b: memref<?xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<?xi32>, %b : memref<?xi32>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%a: memref<?xi32> {vrir.rank = 1 : i64}, %b: memref<?xi32> {vrir.rank = 1 : i64}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = memref.load %a[%c0] : memref<?xi32>
      %y = memref.load %a[%c1] : memref<?xi32>
      %r = arith.remsi %x, %y : i32
      memref.store %r, %b[%c0] : memref<?xi32>
      gpu.return
    }
  }
}
