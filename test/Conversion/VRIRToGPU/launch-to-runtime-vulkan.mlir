// RUN: vr-opt %s --vrir-convert-gpu-to-spirv --vrir-gpu-launch-to-runtime=format=vulkan-spirv | FileCheck %s
// RUN: not vr-opt %s --vrir-gpu-launch-to-runtime=format=vulkan-spirv 2>&1 | FileCheck %s --check-prefix=MISSING

// The SPIR-V binary (the magic number 0x07230203, little-endian, then
// version 1.0) becomes a word-aligned constant, the sites their own NUL-
// separated constant; the launch passes format 1 (VRIR_GPU_FORMAT_VULKAN_
// SPIRV), its byte size, the kernel name and the one site, and the same
// argument table as for OpenCL C: four arguments (the buffer with its
// offset in one entry, three scalars), not the error buffer. The GPU and
// SPIR-V modules are gone.
// CHECK-NOT: gpu.module
// CHECK-NOT: spirv.module
// CHECK-DAG: llvm.mlir.global internal constant @[[SITES:.*]]("array argument #0, accessed at a.py:3:4\00\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[NAME:.*]]("k\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[BIN:.*]]("\03\02#\07\00\00\01\00{{.*}}") {addr_space = 0 : i32, alignment = 8 : i64}
// CHECK-LABEL: func.func @host
// CHECK: %[[TABLE:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[BYTES:.*]] = arith.constant 192 : i64
// CHECK: "llvm.intr.memcpy"(%[[TABLE]], %{{.*}}, %[[BYTES]])
// CHECK: llvm.getelementptr %[[TABLE]][19]
// CHECK-NOT: llvm.getelementptr %[[TABLE]]
// CHECK-DAG: %[[FORMAT:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[BINPTR:.*]] = llvm.mlir.addressof @[[BIN]]
// CHECK-DAG: %[[NAMEPTR:.*]] = llvm.mlir.addressof @[[NAME]]
// CHECK-DAG: %[[SITESPTR:.*]] = llvm.mlir.addressof @[[SITES]]
// CHECK-DAG: %[[NUMARGS:.*]] = arith.constant 4 : i64
// CHECK: llvm.call @vrir_gpu_launch(%[[FORMAT]], %[[BINPTR]], %{{.*}}, %[[NAMEPTR]], %[[SITESPTR]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NUMARGS]], %[[TABLE]])

// MISSING: error: 'gpu.module' op has no SPIR-V form (spirv.module @__spv__kernels and vrir.sites): run vrir-convert-gpu-to-spirv first
module attributes {gpu.container_module} {
  func.func @host(%buf: memref<?xf64>, %off: index, %n: index, %s: index, %x: f32) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%buf : memref<?xf64>, %off : index, %n : index, %s : index, %x : f32)
    return
  }
  gpu.module @kernels {
    llvm.mlir.global internal constant @site_a("array argument #0, accessed at a.py:3:4\00") {addr_space = 0 : i32}
    llvm.func @vrir_rt_parallel_bounds_error(!llvm.ptr, i64, i64, i64)
    gpu.func @k(%buf: memref<?xf64> {vrir.rank = 1 : i64}, %off: index, %n: index, %s: index, %x: f32) kernel {
      %c0_i64 = arith.constant 0 : i64
      %i = gpu.global_id x
      %bad = arith.cmpi uge, %i, %n : index
      scf.if %bad {
        %a = llvm.mlir.addressof @site_a : !llvm.ptr
        %i64 = arith.index_cast %i : index to i64
        %n64 = arith.index_cast %n : index to i64
        llvm.call @vrir_rt_parallel_bounds_error(%a, %c0_i64, %i64, %n64) : (!llvm.ptr, i64, i64, i64) -> ()
      } else {
        %m = arith.muli %i, %s : index
        %l = arith.addi %off, %m : index
        %v = arith.extf %x : f32 to f64
        memref.store %v, %buf[%l] : memref<?xf64>
      }
      gpu.return
    }
  }
}
