// RUN: vr-opt %s --vrir-gpu-launch-to-runtime --split-input-file --verify-diagnostics | FileCheck %s

// The kernel module becomes OpenCL C text in a constant; the launch a call
// of vrir_gpu_launch with an argument table of six words per argument: the
// buffer's lowest byte, byte length, element size, offset and access, then
// the scalars (index: 8 bytes, f32: 4 bytes).
// CHECK-NOT: gpu.module
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("{{.*}}__kernel void k(__global double *{{.*}}long {{.*}}float {{.*}}__global long *vrir_error)
// CHECK-DAG: llvm.mlir.global internal constant @[[NAME:.*]]("k\00")
// CHECK-DAG: llvm.func @vrir_gpu_launch(i64, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr)
// CHECK-LABEL: func.func @host
// CHECK: %[[TABLE:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: llvm.getelementptr %[[TABLE]][0]
// CHECK: llvm.getelementptr %[[TABLE]][17]
// CHECK: llvm.call @vrir_gpu_launch(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[TABLE]])
// CHECK-NOT: gpu.launch_func
module attributes {gpu.container_module} {
  func.func @host(%buf: memref<?xf64>, %off: index, %n: index, %s: index, %x: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%buf : memref<?xf64>, %off : index, %n : index, %s : index, %x : f32)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%buf: memref<?xf64> {vrir.rank = 1 : i64}, %off: index, %n: index, %s: index, %x: f32) kernel {
      %i = gpu.thread_id x
      %m = arith.muli %i, %s : index
      %l = arith.addi %off, %m : index
      %v = arith.extf %x : f32 to f64
      memref.store %v, %buf[%l] : memref<?xf64>
      gpu.return
    }
  }
}

// -----

// A memref the ABI pass did not flatten: the translation rejects it.
module attributes {gpu.container_module} {
  func.func @host(%buf: memref<?x?xf64>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%buf : memref<?x?xf64>)
    return
  }
  gpu.module @kernels {
    // expected-error @+1 {{argument #0 of type 'memref<?x?xf64>' cannot be passed to an OpenCL C kernel}}
    gpu.func @k(%buf: memref<?x?xf64>) kernel {
      gpu.return
    }
  }
}
