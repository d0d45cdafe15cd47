// RUN: vr-opt %s --vrir-gpu-launch-to-runtime --split-input-file --verify-diagnostics | FileCheck %s

// The kernel module becomes OpenCL C text in a constant; the launch a call
// of vrir_gpu_launch with an argument table of six words per argument: the
// array as a view (kind 2: its buffer's address, rank 1, element size 8,
// origin, access read+write), then the scalars (kind 1: the size and the
// stride, 8 bytes, then the f32, 4 bytes). The constant words come from a
// global copied into the table once, at the function's entry; the launch
// stores the others (the address, the origin and the scalars' bits).
// CHECK-NOT: gpu.module
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("{{.*}}__kernel void k(__global double *{{.*}}long {{.*}}float {{.*}}__global long *vrir_error)
// CHECK-DAG: llvm.mlir.global internal constant @[[NAME:.*]]("k\00")
// CHECK-DAG: llvm.func @vrir_gpu_launch(i64, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal constant @[[ARGS:__vrir_gpu_args_.*]](dense<[2, 0, 1, 8, 0, 3, 1, 0, 8, 0, 0, 0, 1, 0, 8, 0, 0, 0, 1, 0, 4, 0, 0, 0]> : tensor<24xi64>) {{{.*}}alignment = 8 : i64} : !llvm.array<24 x i64>
// CHECK-LABEL: func.func @host
// CHECK: %[[TABLE:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[TEMPLATE:.*]] = llvm.mlir.addressof @[[ARGS]]
// CHECK: %[[BYTES:.*]] = arith.constant 192 : i64
// CHECK: "llvm.intr.memcpy"(%[[TABLE]], %[[TEMPLATE]], %[[BYTES]])
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[ADDRESS:.*]] = arith.index_cast %[[PTR]]
// CHECK: %[[ORIGIN:.*]] = arith.index_cast %arg1
// CHECK: %[[SIZE:.*]] = arith.index_cast %arg2
// CHECK: %[[STRIDE:.*]] = arith.index_cast %arg3
// CHECK: %[[BITS:.*]] = arith.bitcast %arg4 : f32 to i32
// CHECK: %[[SCALAR:.*]] = arith.extui %[[BITS]]
// CHECK: %[[W1:.*]] = llvm.getelementptr %[[TABLE]][1]
// CHECK: llvm.store %[[ADDRESS]], %[[W1]]
// CHECK: %[[W4:.*]] = llvm.getelementptr %[[TABLE]][4]
// CHECK: llvm.store %[[ORIGIN]], %[[W4]]
// CHECK: %[[W7:.*]] = llvm.getelementptr %[[TABLE]][7]
// CHECK: llvm.store %[[SIZE]], %[[W7]]
// CHECK: %[[W13:.*]] = llvm.getelementptr %[[TABLE]][13]
// CHECK: llvm.store %[[STRIDE]], %[[W13]]
// CHECK: %[[W19:.*]] = llvm.getelementptr %[[TABLE]][19]
// CHECK: llvm.store %[[SCALAR]], %[[W19]]
// CHECK-NOT: llvm.store
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

// -----

// A launch in a loop: the table's constant words are copied once, before
// the loop; each iteration stores the words that change (rank 2: the view,
// then two sizes and two strides).
// CHECK-LABEL: func.func @in_loop
// CHECK: %[[TABLE:.*]] = llvm.alloca
// CHECK: "llvm.intr.memcpy"(%[[TABLE]]
// CHECK: scf.for
// CHECK-NOT: llvm.intr.memcpy
// CHECK-COUNT-6: llvm.store
// CHECK-NOT: llvm.store
// CHECK: llvm.call @vrir_gpu_launch
module attributes {gpu.container_module} {
  func.func @in_loop(%buf: memref<?xf64>, %off: index, %m: index, %n: index,
                     %s0: index, %s1: index, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %t = %c0 to %steps step %c1 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
          args(%buf : memref<?xf64>, %off : index, %m : index, %n : index, %s0 : index, %s1 : index)
    }
    return
  }
  gpu.module @kernels {
    gpu.func @k(%buf: memref<?xf64> {vrir.rank = 2 : i64}, %off: index, %m: index, %n: index, %s0: index, %s1: index) kernel {
      gpu.return
    }
  }
}

// -----

// A buffer whose rank says more sizes and strides than the launch passes.
module attributes {gpu.container_module} {
  func.func @short(%buf: memref<?xf64>, %off: index, %n: index) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{passes a buffer of rank 2 without its offset, sizes and strides}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%buf : memref<?xf64>, %off : index, %n : index)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%buf: memref<?xf64> {vrir.rank = 2 : i64}, %off: index, %n: index) kernel {
      gpu.return
    }
  }
}
