// RUN: vr-opt %s --vrir-convert-gpu-to-spirv --split-input-file | FileCheck %s
// RUN: vr-opt %s --vrir-convert-gpu-to-spirv="index-bits=32" --split-input-file | FileCheck %s --check-prefix=I32
// RUN: vr-opt %s --vrir-convert-gpu-to-spirv="client=opencl" --split-input-file | FileCheck %s --check-prefix=OPENCL
// RUN: %if spirv-tools %{ vr-opt %s --vrir-convert-gpu-to-spirv --split-input-file | %validate-spirv | FileCheck %s --check-prefix=VALID %}
// RUN: not vr-opt %s --vrir-convert-gpu-to-spirv="index-bits=16" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// VALID-COUNT-2: valid: @__spv__kernels
// BAD: vrir-convert-gpu-to-spirv: index-bits must be 32 or 64, not 16

// Indices are computed in 64 bits (index), but an in-bounds index into a
// Workgroup array or into a storage buffer of 2-byte or wider elements fits
// in 31 bits (a binding spans at most 2^32 - 1 bytes): those access chains
// take 32-bit indices, built from the low halves of the 64-bit leaves
// (loop variables, parameters) with 32-bit additions and multiplications.
// Byte buffers keep 64-bit indices. OpenCL's pointers are not narrowed.
module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf32>, %b: memref<?xi8>, %n: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %b : memref<?xi8>, %n : index)
    return
  }
  // CHECK-LABEL: spirv.module @__spv__kernels
  // CHECK: spirv.func @k()
  // CHECK: %[[N:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i64
  // CHECK: %[[N32:.*]] = spirv.UConvert %[[N]] : i64 to i32
  // CHECK: %[[ID:.*]] = spirv.CompositeExtract %{{.*}}[0 : i32] : vector<3xi32>
  // CHECK: %[[ID64:.*]] = spirv.UConvert %[[ID]] : i32 to i64
  // CHECK: spirv.mlir.loop {
  // CHECK: ^bb1(%[[K:.*]]: i64):
  // CHECK: %[[K32:.*]] = spirv.UConvert %[[K]] : i64 to i32
  // CHECK: %[[ROW:.*]] = spirv.IMul %[[K32]], %[[N32]] : i32
  // CHECK: %[[AT:.*]] = spirv.IAdd %[[ROW]], %[[ID]] : i32
  // CHECK: spirv.AccessChain %{{.*}}[%{{.*}}, %[[AT]]] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
  // CHECK: spirv.AccessChain %{{.*}}[%{{.*}}, %{{.*}}] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>, i64, i64
  // CHECK: spirv.AccessChain %{{.*}}[%{{.*}}, %[[K32]]] : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32>)>, Workgroup>, i32, i32
  // The loop still counts in 64 bits.
  // CHECK: spirv.IAdd %[[K]], %{{.*}} : i64

  // With index-bits=32, every index is 32-bit, parameters truncated once.
  // I32-LABEL: spirv.module @__spv__kernels
  // I32-NOT: : i64, i64
  // I32: spirv.SConvert %{{.*}} : i64 to i32
  // I32-NOT: : i64, i64
  // I32: spirv.ExecutionMode

  // OPENCL-LABEL: spirv.module @__spv__kernels
  // OPENCL: spirv.PtrAccessChain %{{.*}}[%{{.*}}] : !spirv.ptr<f32, CrossWorkgroup>, i64
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>, %b: memref<?xi8>, %n: index) workgroup(%w : memref<16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %i = gpu.global_id x
      scf.for %k = %c0 to %c16 step %c1 {
        %row = arith.muli %k, %n : index
        %at = arith.addi %row, %i : index
        %v = memref.load %x[%at] : memref<?xf32>
        %byte = memref.load %b[%at] : memref<?xi8>
        memref.store %v, %w[%k] : memref<16xf32, #gpu.address_space<workgroup>>
        memref.store %byte, %b[%i] : memref<?xi8>
      }
      gpu.return
    }
  }
}

// -----

// What the kernel ABI proved of a buffer decorates its Vulkan binding:
// Restrict where no other binding reaches its memory, and NonWritable on
// the member of its block where the kernel only reads it. Each buffer has a
// block type of its own (NVIDIA's driver computed wrong results with
// NonWritable on bindings that share one). The parameter block and the
// error buffer are not decorated.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<?xf64>, %n: index, %b: memref<?xf64>, %c: memref<?xf64>, %d: memref<?xf64>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<?xf64>, %n : index, %b : memref<?xf64>, %c : memref<?xf64>, %d : memref<?xf64>)
    return
  }
  // CHECK-LABEL: spirv.module @__spv__kernels
  // CHECK-DAG: spirv.GlobalVariable @k_arg_0 bind(0, 0) {restrict} : !spirv.ptr<!spirv.struct<__spv__kernels_k_arg_0_block, (!spirv.rtarray<f64, stride=8> [0, NonWritable])>, StorageBuffer>
  // CHECK-DAG: spirv.GlobalVariable @k_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<__spv__kernels_k_arg_1_block, (!spirv.rtarray<f64, stride=8> [0, NonWritable])>, StorageBuffer>
  // CHECK-DAG: spirv.GlobalVariable @k_arg_2 bind(0, 2) {restrict} : !spirv.ptr<!spirv.struct<__spv__kernels_k_arg_2_block, (!spirv.rtarray<f64, stride=8> [0])>, StorageBuffer>
  // CHECK-DAG: spirv.GlobalVariable @k_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<__spv__kernels_k_arg_3_block, (!spirv.rtarray<f64, stride=8> [0])>, StorageBuffer>
  // CHECK-DAG: spirv.GlobalVariable @k_arg_4 bind(0, 4) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
  // CHECK-DAG: spirv.GlobalVariable @k_arg_5 bind(0, 5) : !spirv.ptr<!spirv.struct<(!spirv.array<10 x i32, stride=4> [0])>, StorageBuffer>
  // CHECK-NOT: non_writable
  // CHECK-NOT: restrict}
  // CHECK: spirv.func @k()
  // The accesses go through each binding's own type.
  // CHECK: spirv.mlir.addressof @k_arg_0 : !spirv.ptr<!spirv.struct<__spv__kernels_k_arg_0_block, (!spirv.rtarray<f64, stride=8> [0, NonWritable])>, StorageBuffer>
  gpu.module @kernels {
    gpu.func @k(%a: memref<?xf64> {vrir.rank = 1 : i64, vrir.readonly, vrir.noalias}, %n: index,
                %b: memref<?xf64> {vrir.rank = 1 : i64, vrir.readonly},
                %c: memref<?xf64> {vrir.rank = 1 : i64, vrir.noalias},
                %d: memref<?xf64> {vrir.rank = 1 : i64}) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%n] : memref<?xf64>
      %y = memref.load %b[%c0] : memref<?xf64>
      %s = arith.addf %x, %y : f64
      memref.store %s, %c[%c0] : memref<?xf64>
      memref.store %s, %d[%c0] : memref<?xf64>
      gpu.return
    }
  }
}
