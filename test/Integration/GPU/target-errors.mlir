// RUN: not vr-run %s --entry f --target=cuda 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: env VRIR_TARGET=metal not vr-run %s --entry f 2>&1 | FileCheck %s --check-prefix=ENV
// RUN: vr-run %s --entry f --target=cpu | FileCheck %s --check-prefix=CPU
// RUN: %if opencl %{ vr-run %s --entry f --target=opencl | FileCheck %s --check-prefix=CPU %}
// RUN: %if opencl %{ env VRIR_TARGET=opencl vr-run %s --entry f | FileCheck %s --check-prefix=CPU %}
// RUN: %if vulkan %{ vr-run %s --entry f --target=vulkan | FileCheck %s --check-prefix=CPU %}
// A matrix-product tiling that is not five numbers, or that the kernel
// mapping cannot use, is an error before anything runs.
// RUN: not vr-run %s --entry f --target=opencl --gpu-matmul-tiling=64,64,16 2>&1 | FileCheck %s --check-prefix=TILING-COUNT
// RUN: not vr-run %s --entry f --target=opencl --gpu-matmul-tiling=64,64,16,16,x 2>&1 | FileCheck %s --check-prefix=TILING-TEXT
// RUN: not vr-run %s --entry f --target=vulkan --gpu-matmul-tiling=64,60,16,16,16 2>&1 | FileCheck %s --check-prefix=TILING-SHAPE
// RUN: not vr-run %s --entry f --target=vulkan --gpu-index-bits=16 2>&1 | FileCheck %s --check-prefix=INDEX-BITS

// NAME: vr-run: error: unknown target 'cuda' (expected cpu, opencl, vulkan or opencl-spirv)
// ENV: vr-run: error: unknown target 'metal' (expected cpu, opencl, vulkan or opencl-spirv)
// CPU: result 0: 42
// TILING-COUNT: vr-run: error: --gpu-matmul-tiling takes 5 numbers: M,N,K,X,Y
// TILING-TEXT: for the --gpu-matmul-tiling option: 'x' value invalid
// INDEX-BITS: vr-run: error: --gpu-index-bits takes 32 or 64
// TILING-SHAPE: error: vrir-gpu-map-sections: bad matrix-product tiling: tile-n must be a multiple of threads-x and tile-m of threads-y

func.func @f() -> i64 {
  %c = arith.constant 42 : i64
  return %c : i64
}
