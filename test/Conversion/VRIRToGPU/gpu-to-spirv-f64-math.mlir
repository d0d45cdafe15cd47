// RUN: vr-opt %s --vrir-convert-gpu-to-spirv | FileCheck %s
// RUN: vr-opt %s --vrir-convert-gpu-to-spirv | FileCheck %s --check-prefix=NOGL
// RUN: %if spirv-tools %{ vr-opt %s --vrir-convert-gpu-to-spirv | %validate-spirv | FileCheck %s --check-prefix=VALID %}
// RUN: vr-opt %s --vrir-convert-gpu-to-spirv=client=opencl | FileCheck %s --check-prefix=OPENCL

// For Vulkan, f64 math functions (GLSL.std.450 has them for 16- and 32-bit
// floats only) are expanded into arithmetic (vrir-gpu-expand-f64-math) in
// the copy that becomes SPIR-V; the gpu.module keeps them. The float
// instructions of the expansions are decorated NoContraction, the kernel's
// own arithmetic is not. The binary passes spirv-val for Vulkan 1.1.

// VALID: valid: @__spv__kernels
// NOGL-NOT: spirv.GL.{{(Exp|Log|Sin|Cos|Pow)}}

module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf64>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf64>)
    return
  }
  // CHECK:       gpu.module @kernels
  // CHECK:         math.exp %{{.*}} : f64
  // CHECK:         math.log %{{.*}} : f64
  // CHECK:         math.sin %{{.*}} : f64

  // CHECK-LABEL: spirv.module @__spv__kernels Logical GLSL450
  // CHECK-SAME:    [Float64, Shader, Int64
  // CHECK:         spirv.func @k()
  // CHECK:           %[[V:.*]] = spirv.Load "StorageBuffer"
  // CHECK:           %[[SQ:.*]] = spirv.FMul %[[V]], %[[V]] : f64
  // exp: the reduction, its integer scale factor
  // CHECK:           spirv.FOrdLessThan %{{.*}}, %{{.*}} : f64 {no_contraction}
  // CHECK:           spirv.GL.RoundEven
  // CHECK:           spirv.FSub %{{.*}}, %{{.*}} {no_contraction} : f64
  // CHECK:           spirv.FDiv %{{.*}}, %{{.*}} {no_contraction} : f64
  // CHECK:           spirv.ConvertFToS %{{.*}} : f64 to i64
  // log: the exponent from the bits
  // CHECK:           spirv.ConvertSToF %{{.*}} : i64 to f64
  // sin: the Payne-Hanek reduction in a branch of its own
  // CHECK:           spirv.GL.RoundEven
  // CHECK:           spirv.GL.Floor
  // CHECK:           spirv.mlir.selection
  // CHECK:             spirv.IMul
  // CHECK:           spirv.Store "StorageBuffer"
  // CHECK:           spirv.Return
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf64>
      %sq = arith.mulf %v, %v : f64
      %e = math.exp %sq : f64
      %l = math.log %e : f64
      %s = math.sin %l : f64
      memref.store %s, %x[%i] : memref<?xf64>
      gpu.return
    }
  }
}

// OpenCL.std has the f64 functions.
// OPENCL-LABEL: spirv.module @__spv__kernels Physical64 OpenCL
// OPENCL:         spirv.CL.exp %{{.*}} : f64
// OPENCL:         spirv.CL.log %{{.*}} : f64
// OPENCL:         spirv.CL.sin %{{.*}} : f64
// OPENCL-NOT:     no_contraction
