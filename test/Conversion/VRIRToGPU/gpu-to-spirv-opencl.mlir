// RUN: vr-opt %s --vrir-convert-gpu-to-spirv=client=opencl --split-input-file | FileCheck %s
// RUN: %if spirv-tools %{ vr-opt %s --vrir-convert-gpu-to-spirv=client=opencl --split-input-file | %validate-spirv --target-env opencl2.2 | FileCheck %s --check-prefix=VALID %}
// RUN: vr-opt %s --vrir-convert-gpu-to-spirv=client=opencl --vrir-gpu-launch-to-runtime=format=opencl-spirv --split-input-file | FileCheck %s --check-prefix=LAUNCH

// SPIR-V for OpenCL (the Kernel capability): kernel parameters in argument
// order, buffers as CrossWorkgroup pointers, scalars by value (an i1 as a
// byte), the error buffer last; f64 exp is OpenCL.std's; the error flag
// needs no 64-bit atomics (those are optional in OpenCL 2.2 full profile,
// which spirv-val checks).
// VALID-COUNT-2: valid: @__spv__kernels

// LAUNCH: llvm.mlir.global internal constant @{{.*}}("\03\02#\07\00{{.*}}") {addr_space = 0 : i32, alignment = 8 : i64}
// LAUNCH: %[[FORMAT:.*]] = arith.constant 2 : i64
// LAUNCH: llvm.call @vrir_gpu_launch(%[[FORMAT]],
// LAUNCH: %[[FORMAT2:.*]] = arith.constant 2 : i64
// LAUNCH: llvm.call @vrir_gpu_launch(%[[FORMAT2]],
module attributes {gpu.container_module} {
  func.func @host(%buf: memref<?xf64>, %off: index, %n: index, %s: index, %flag: i1) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%buf : memref<?xf64>, %off : index, %n : index, %s : index, %flag : i1)
    return
  }
  // CHECK-LABEL: spirv.module @__spv__kernels Physical64 OpenCL requires #spirv.vce<v1.0, [{{.*}}Kernel{{.*}}], []>
  // CHECK-NOT: Int64Atomics
  // CHECK: spirv.func @k(%[[BUF:.*]]: !spirv.ptr<f64, CrossWorkgroup>, %{{.*}}: i64, %[[N:.*]]: i64, %{{.*}}: i64, %[[FLAG:.*]]: i8, %[[ERR:.*]]: !spirv.ptr<!spirv.array<10 x i32>, CrossWorkgroup>) "None"
  // CHECK: spirv.AtomicOr <Device> <None> %{{.*}}, %{{.*}} : !spirv.ptr<i32, CrossWorkgroup>
  // CHECK: %[[P:.*]] = spirv.PtrAccessChain %[[BUF]][%{{.*}}] : !spirv.ptr<f64, CrossWorkgroup>, i64
  // CHECK: spirv.CL.exp %{{.*}} : f64
  // CHECK: spirv.Store "CrossWorkgroup" %[[P]]
  // CHECK: spirv.EntryPoint "Kernel" @k
  // CHECK: spirv.ExecutionMode @k "LocalSize", 64, 1, 1
  gpu.module @kernels {
    llvm.mlir.global internal constant @site("array argument #0, accessed at a.py:3:4\00") {addr_space = 0 : i32}
    llvm.func @vrir_rt_parallel_bounds_error(!llvm.ptr, i64, i64, i64)
    gpu.func @k(%buf: memref<?xf64> {vrir.rank = 1 : i64}, %off: index, %n: index, %s: index, %flag: i1) kernel {
      %c0_i64 = arith.constant 0 : i64
      %i = gpu.global_id x
      %bad = arith.cmpi uge, %i, %n : index
      scf.if %bad {
        %a = llvm.mlir.addressof @site : !llvm.ptr
        %i64 = arith.index_cast %i : index to i64
        %n64 = arith.index_cast %n : index to i64
        llvm.call @vrir_rt_parallel_bounds_error(%a, %c0_i64, %i64, %n64) : (!llvm.ptr, i64, i64, i64) -> ()
      } else {
        %m = arith.muli %i, %s : index
        %l = arith.addi %off, %m : index
        %v = memref.load %buf[%l] : memref<?xf64>
        %e = math.exp %v : f64
        %z = arith.constant 0.0 : f64
        %w = arith.select %flag, %e, %z : f64
        memref.store %w, %buf[%l] : memref<?xf64>
      }
      gpu.return
    }
  }
}

// -----

// Float atomics (f32: 64-bit ones need Int64Atomics, which OpenCL 2.2 full
// profile does not have) and workgroup memory.
module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf32>, %off: index, %size: index, %stride: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<?xf32>, %off : index, %size : index, %stride : index)
    return
  }
  // CHECK-LABEL: spirv.module @__spv__kernels
  // CHECK: spirv.GlobalVariable @__workgroup_mem__0 : !spirv.ptr<!spirv.array<32 x f32>, Workgroup>
  // CHECK: spirv.func @k(%[[X:.*]]: !spirv.ptr<i32, CrossWorkgroup>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !spirv.ptr<!spirv.array<10 x i32>, CrossWorkgroup>)
  // CHECK: spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
  // CHECK: spirv.mlir.loop
  // CHECK: spirv.FAdd %{{.*}} : f32
  // CHECK: spirv.AtomicCompareExchange <Device> <None> <None> %{{.*}} : !spirv.ptr<i32, CrossWorkgroup>
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32> {vrir.rank = 1 : i64}, %off: index, %size: index, %stride: index) workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      memref.store %f, %tile[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c31 = arith.constant 31 : index
      %o = arith.subi %c31, %t : index
      %g = memref.load %tile[%o] : memref<32xf32, #gpu.address_space<workgroup>>
      %old = memref.atomic_rmw addf %g, %x[%off] : (f32, memref<?xf32>) -> f32
      gpu.return
    }
  }
}
