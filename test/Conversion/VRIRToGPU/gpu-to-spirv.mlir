// RUN: vr-opt %s --vrir-convert-gpu-to-spirv --split-input-file | FileCheck %s
// RUN: %if spirv-tools %{ vr-opt %s --vrir-convert-gpu-to-spirv --split-input-file | %validate-spirv | FileCheck %s --check-prefix=VALID %}

// Every spirv.module passes spirv-val for Vulkan 1.1.
// VALID-COUNT-7: valid: @__spv__kernels

// The gpu.module stays (the launch lowering reads its kernels' argument
// attributes) and records its bounds-check sites; the SPIR-V copy binds
// the buffers at (0, 0), (0, 1), ..., then one parameter block holding the
// scalar arguments in int64 slots (their bits zero-extended: an f32 is the
// low half, an i1 is non-zero), the error buffer last (its five int64 words
// as ten int32 halves). A bounds-error call sets the flag with a 32-bit atomic
// and, the first time, stores site, dimension, index and extent, low half
// first. The work-group size is the launch's.
module attributes {gpu.container_module} {
  func.func @host(%buf: memref<?xf64>, %off: index, %n: index, %s: index, %x: f32, %flag: i1) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    // CHECK: gpu.launch_func @kernels::@k blocks in (%{{.*}}) threads in (%{{.*}}) args(%{{.*}} : memref<?xf64>, %{{.*}} : index, %{{.*}} : index, %{{.*}} : index, %{{.*}} : f32, %{{.*}} : i1)
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%buf : memref<?xf64>, %off : index, %n : index, %s : index, %x : f32, %flag : i1)
    return
  }
  // CHECK: gpu.module @kernels attributes {vrir.sites = ["array argument #0, accessed at a.py:5:6", "array argument #0, accessed at a.py:3:4"]}
  // CHECK: gpu.func @k(%{{.*}}: memref<?xf64> {vrir.rank = 1 : i64}, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: f32, %{{.*}}: i1) kernel
  // CHECK: llvm.call @vrir_rt_parallel_bounds_error

  // CHECK-LABEL: spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [{{.*}}], [{{.*}}]> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Float64, Int8, Int16, Float16, StorageBuffer8BitAccess, StorageBuffer16BitAccess, Int64Atomics]
  // CHECK-DAG: spirv.GlobalVariable @k_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<__spv__kernels_k_arg_0_block, (!spirv.rtarray<f64, stride=8> [0])>, StorageBuffer>
  // CHECK-DAG: spirv.GlobalVariable @k_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
  // CHECK-DAG: spirv.GlobalVariable @k_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<10 x i32, stride=4> [0])>, StorageBuffer>
  // CHECK-NOT: spirv.GlobalVariable @k_arg_3
  // CHECK: spirv.func @k() "None"
  // CHECK-DAG: %[[C2:.*]] = spirv.Constant 2 : i32
  // CHECK-DAG: %[[C3:.*]] = spirv.Constant 3 : i32
  // CHECK-DAG: %[[C4:.*]] = spirv.Constant 4 : i32
  // CHECK-DAG: %[[ONE:.*]] = spirv.Constant 1 : i32
  // CHECK-DAG: %[[ZERO:.*]] = spirv.Constant 0 : i32
  // CHECK-DAG: %[[Z64:.*]] = spirv.Constant 0 : i64
  // CHECK: %[[PARAMS:.*]] = spirv.mlir.addressof @k_arg_1
  // CHECK: %[[ERR:.*]] = spirv.mlir.addressof @k_arg_2
  // CHECK: %[[XSLOT:.*]] = spirv.AccessChain %[[PARAMS]][%[[ZERO]], %[[C3]]]
  // CHECK: %[[XBITS:.*]] = spirv.Load "StorageBuffer" %[[XSLOT]] : i64
  // CHECK: %[[XLOW:.*]] = spirv.SConvert %[[XBITS]] : i64 to i32
  // CHECK: spirv.Bitcast %[[XLOW]] : i32 to f32
  // CHECK: %[[FSLOT:.*]] = spirv.AccessChain %[[PARAMS]][%[[ZERO]], %[[C4]]]
  // CHECK: %[[FLAG:.*]] = spirv.Load "StorageBuffer" %[[FSLOT]] : i64
  // CHECK: spirv.INotEqual %[[FLAG]], %[[Z64]] : i64
  // CHECK: spirv.mlir.selection
  // CHECK: %[[W0:.*]] = spirv.AccessChain %[[ERR]][%[[ZERO]], %[[ZERO]]]
  // CHECK: %[[OLD:.*]] = spirv.AtomicOr <Device> <None> %[[W0]], %[[ONE]] : !spirv.ptr<i32, StorageBuffer>
  // CHECK: %[[FIRST:.*]] = spirv.IEqual %[[OLD]], %[[ZERO]] : i32
  // CHECK: spirv.BranchConditional %[[FIRST]]
  // CHECK: %[[W1:.*]] = spirv.AccessChain %[[ERR]][%[[ZERO]], %[[C2]]]
  // CHECK: spirv.Store "StorageBuffer" %[[W1]], %[[ZERO]] : i32
  // CHECK: %[[W1H:.*]] = spirv.AccessChain %[[ERR]][%[[ZERO]], %[[C3]]]
  // CHECK: spirv.Store "StorageBuffer" %[[W1H]], %{{.*}} : i32
  // CHECK-COUNT-6: spirv.Store "StorageBuffer"
  // CHECK: %[[W0B:.*]] = spirv.AccessChain %[[ERR]][%[[ZERO]], %[[ZERO]]]
  // CHECK: spirv.AtomicOr <Device> <None> %[[W0B]], %[[ONE]]
  // CHECK: %[[W1B:.*]] = spirv.AccessChain %[[ERR]][%[[ZERO]], %[[C2]]]
  // CHECK: spirv.Store "StorageBuffer" %[[W1B]], %[[ONE]] : i32
  // CHECK: spirv.EntryPoint "GLCompute" @k
  // CHECK: spirv.ExecutionMode @k "LocalSize", 64, 1, 1
  // CHECK-NOT: llvm.
  // CHECK: }
  gpu.module @kernels {
    llvm.mlir.global internal constant @site_a("array argument #0, accessed at a.py:3:4\00") {addr_space = 0 : i32}
    llvm.mlir.global internal constant @site_b("array argument #0, accessed at a.py:5:6\00") {addr_space = 0 : i32}
    llvm.func @vrir_rt_parallel_bounds_error(!llvm.ptr, i64, i64, i64)
    gpu.func @k(%buf: memref<?xf64> {vrir.rank = 1 : i64}, %off: index, %n: index, %s: index, %x: f32, %flag: i1) kernel {
      %c0_i64 = arith.constant 0 : i64
      %i = gpu.global_id x
      %i64 = arith.index_cast %i : index to i64
      %n64 = arith.index_cast %n : index to i64
      %bad = arith.cmpi uge, %i, %n : index
      scf.if %bad {
        %a = llvm.mlir.addressof @site_b : !llvm.ptr
        llvm.call @vrir_rt_parallel_bounds_error(%a, %c0_i64, %i64, %n64) : (!llvm.ptr, i64, i64, i64) -> ()
      } else {
        %m = arith.muli %i, %s : index
        %l = arith.addi %off, %m : index
        %v = arith.extf %x : f32 to f64
        %z = arith.constant 0.0 : f64
        %w = arith.select %flag, %v, %z : f64
        memref.store %w, %buf[%l] : memref<?xf64>
      }
      %big = arith.cmpi sgt, %i64, %n64 : i64
      scf.if %big {
        %a = llvm.mlir.addressof @site_a : !llvm.ptr
        llvm.call @vrir_rt_parallel_bounds_error(%a, %c0_i64, %i64, %n64) : (!llvm.ptr, i64, i64, i64) -> ()
      }
      gpu.return
    }
  }
}

// -----

// Atomics: upstream's kinds, xori and assign, and a compare-and-swap loop
// for generic_atomic_rmw (its result is the value it replaced). The
// work-group size folds from the affine map of constants the map pass
// leaves on the host.
module attributes {gpu.container_module} {
  func.func @host(%h: memref<?xi64>, %w: memref<?xi32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %bx = affine.apply affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>(%c256)[%c0, %c1]
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%bx, %c1, %c1)
        args(%h : memref<?xi64>, %w : memref<?xi32>)
    return
  }
  // CHECK-LABEL: spirv.module @__spv__kernels
  // CHECK: spirv.func @k()
  // CHECK: %[[P:.*]] = spirv.AccessChain %{{.*}} : {{.*}} -> !spirv.ptr<i64, StorageBuffer>
  // CHECK: %[[A:.*]] = spirv.AtomicIAdd <Device> <None> %[[P]]
  // CHECK: spirv.AtomicXor <Device> <None>
  // CHECK: spirv.AtomicExchange <Device> <None>
  // CHECK: spirv.AtomicSMax <Device> <None>
  // CHECK: %[[INIT:.*]] = spirv.Load "StorageBuffer" %[[P]] : i64
  // CHECK: spirv.mlir.loop {
  // CHECK:   spirv.Branch ^bb1(%[[INIT]] : i64)
  // CHECK: ^bb1(%[[CUR:.*]]: i64):
  // CHECK:   %[[EQ:.*]] = spirv.IEqual %[[CUR]], %[[A]] : i64
  // CHECK:   %[[NEXT:.*]] = spirv.Select %[[EQ]]
  // CHECK:   %[[OLD:.*]] = spirv.AtomicCompareExchange <Device> <None> <None> %[[P]], %[[NEXT]], %[[CUR]]
  // CHECK:   %[[RETRY:.*]] = spirv.INotEqual %[[OLD]], %[[CUR]] : i64
  // CHECK:   spirv.BranchConditional %[[RETRY]]
  // CHECK: spirv.ExecutionMode @k "LocalSize", 256, 1, 1
  gpu.module @kernels {
    gpu.func @k(%h: memref<?xi64>, %w: memref<?xi32>) kernel {
      %i = gpu.global_id x
      %one = arith.constant 1 : i64
      %seven = arith.constant 7 : i32
      %a = memref.atomic_rmw addi %one, %h[%i] : (i64, memref<?xi64>) -> i64
      %b = memref.atomic_rmw xori %seven, %w[%i] : (i32, memref<?xi32>) -> i32
      %c = memref.atomic_rmw assign %seven, %w[%i] : (i32, memref<?xi32>) -> i32
      %d = memref.atomic_rmw maxs %seven, %w[%i] : (i32, memref<?xi32>) -> i32
      %e = memref.generic_atomic_rmw %h[%i] : memref<?xi64> {
      ^bb0(%cur: i64):
        %eq = arith.cmpi eq, %cur, %a : i64
        %next = arith.select %eq, %one, %cur : i64
        memref.atomic_yield %next : i64
      }
      memref.store %e, %h[%i] : memref<?xi64>
      gpu.return
    }
  }
}

// -----

// Workgroup and private attributions become Workgroup and Function
// variables; gpu.block_dim is the fixed work-group size.
module attributes {gpu.container_module} {
  func.func @host(%out: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c8, %c1)
        args(%out : memref<?xf32>)
    return
  }
  // CHECK-LABEL: spirv.module @__spv__kernels
  // CHECK: spirv.GlobalVariable @__workgroup_mem__0 : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, Workgroup>
  // CHECK: spirv.func @k()
  // CHECK-DAG: spirv.Constant 32 : i64
  // CHECK-DAG: spirv.Variable : !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32>)>, Function>
  // CHECK: spirv.Store "Workgroup"
  // CHECK: spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
  // CHECK: spirv.Load "Workgroup"
  // CHECK: spirv.GL.Exp %{{.*}} : f32
  // CHECK: spirv.ExecutionMode @k "LocalSize", 32, 8, 1
  gpu.module @kernels {
    gpu.func @k(%out: memref<?xf32>) workgroup(%tile : memref<256xf32, #gpu.address_space<workgroup>>) private(%p : memref<4xf32, #gpu.address_space<private>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_dim x
      %row = arith.muli %ty, %bx : index
      %t = arith.addi %row, %tx : index
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %c0 = arith.constant 0 : index
      memref.store %f, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      %g = memref.load %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      memref.store %g, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c255 = arith.constant 255 : index
      %o = arith.subi %c255, %t : index
      %v = memref.load %tile[%o] : memref<256xf32, #gpu.address_space<workgroup>>
      %e = math.exp %v : f32
      memref.store %e, %out[%t] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// Work-group arrays of vectors (the runs of the matrix-product tiles) are
// arrays of SPIR-V vectors, built with CompositeConstruct and read lane by
// lane with CompositeExtract.
module attributes {gpu.container_module} {
  func.func @host(%out: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out : memref<?xf32>)
    return
  }
  // CHECK-LABEL: spirv.module @__spv__kernels
  // CHECK: spirv.GlobalVariable @__workgroup_mem__0 : !spirv.ptr<!spirv.struct<(!spirv.array<8 x vector<4xf32>>)>, Workgroup>
  // CHECK: spirv.func @k()
  // CHECK: %[[VEC:.*]] = spirv.CompositeConstruct %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (f32, f32, f32, f32) -> vector<4xf32>
  // CHECK: spirv.Store "Workgroup" %{{.*}}, %[[VEC]] : vector<4xf32>
  // CHECK: %[[LOADED:.*]] = spirv.Load "Workgroup" %{{.*}} : vector<4xf32>
  // CHECK: spirv.CompositeExtract %[[LOADED]][2 : i32] : vector<4xf32>
  gpu.module @kernels {
    gpu.func @k(%out: memref<?xf32>) workgroup(%tile : memref<2x4xvector<4xf32>, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %run = vector.from_elements %f, %f, %f, %f : vector<4xf32>
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      memref.store %run, %tile[%c1, %c3] : memref<2x4xvector<4xf32>, #gpu.address_space<workgroup>>
      gpu.barrier
      %loaded = memref.load %tile[%c1, %c3] : memref<2x4xvector<4xf32>, #gpu.address_space<workgroup>>
      %lane = vector.extract %loaded[2] : f32 from vector<4xf32>
      memref.store %lane, %out[%t] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// f64 math that GLSL.std.450 has for any width; bool arrays as bytes, i16
// arrays with 16-bit storage. A target environment on the gpu.module wins.
module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf64>, %b: memref<?xi1>, %s: memref<?xi16>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf64>, %b : memref<?xi1>, %s : memref<?xi16>)
    return
  }
  // CHECK-LABEL: spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [{{.*}}StorageBuffer16BitAccess{{.*}}]
  // CHECK-SAME: max_compute_workgroup_invocations = 64
  // CHECK-DAG: spirv.GlobalVariable @k_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
  // CHECK-DAG: spirv.GlobalVariable @k_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i16, stride=2> [0])>, StorageBuffer>
  // CHECK: spirv.GL.Sqrt %{{.*}} : f64
  // CHECK: spirv.GL.Floor %{{.*}} : f64
  // CHECK: spirv.GL.FAbs %{{.*}} : f64
  // CHECK: spirv.GL.Fma %{{.*}} : f64
  // CHECK: spirv.Store "StorageBuffer" %{{.*}}, %{{.*}} : i8
  // CHECK: spirv.IAdd %{{.*}} : i16
  gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Float64, Int8, Int16, StorageBuffer8BitAccess, StorageBuffer16BitAccess, Int64Atomics], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]>, api=Vulkan, #spirv.resource_limits<max_compute_workgroup_invocations = 64>>} {
    gpu.func @k(%x: memref<?xf64>, %b: memref<?xi1>, %s: memref<?xi16>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf64>
      %r = math.sqrt %v : f64
      %f = math.floor %r : f64
      %a = math.absf %f : f64
      %m = math.fma %a, %r, %v : f64
      memref.store %m, %x[%i] : memref<?xf64>
      %z = arith.constant 0.0 : f64
      %neg = arith.cmpf olt, %v, %z : f64
      memref.store %neg, %b[%i] : memref<?xi1>
      %k = memref.load %s[%i] : memref<?xi16>
      %k2 = arith.addi %k, %k : i16
      memref.store %k2, %s[%i] : memref<?xi16>
      gpu.return
    }
  }
}

// -----

// The variable that carries an scf.for result holds its initial value
// before the loop (upstream stores it only at the end of an iteration:
// undefined after a loop of no iteration).
module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf64>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf64>, %n : index)
    return
  }
  // CHECK-LABEL: spirv.module @__spv__kernels
  // CHECK: %[[ZERO:.*]] = spirv.Constant 0.000000e+00 : f64
  // CHECK: %[[VAR:.*]] = spirv.Variable : !spirv.ptr<f64, Function>
  // CHECK: spirv.Store "Function" %[[VAR]], %[[ZERO]] : f64
  // CHECK-NEXT: spirv.mlir.loop {
  // CHECK-NEXT:   spirv.Branch ^[[HEADER:.*]](%{{.*}}, %[[ZERO]] : i64, f64)
  // CHECK-NEXT: ^[[HEADER]](%[[I:.*]]: i64, %[[ACC:.*]]: f64):
  // CHECK:        spirv.BranchConditional %{{.*}}, ^[[BODY:.*]], ^[[MERGE:.*]]
  // CHECK-NEXT: ^[[BODY]]:
  // CHECK:        spirv.mlir.selection
  // CHECK:        %[[SUM:.*]] = spirv.FAdd %[[ACC]], %{{.*}} : f64
  // CHECK-NEXT:   spirv.Store "Function" %[[VAR]], %[[SUM]] : f64
  // CHECK-NEXT:   %[[NEXT:.*]] = spirv.IAdd %[[I]], %{{.*}} : i64
  // CHECK-NEXT:   spirv.Branch ^[[HEADER]](%[[NEXT]], %[[SUM]] : i64, f64)
  // CHECK-NEXT: ^[[MERGE]]:
  // CHECK-NEXT:   spirv.mlir.merge
  // CHECK-NEXT: }
  // CHECK-NEXT: spirv.Load "Function" %[[VAR]] : f64
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf64>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f64
      %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
        %v = memref.load %x[%i] : memref<?xf64>
        %pos = arith.cmpf ogt, %v, %zero : f64
        %w = scf.if %pos -> (f64) {
          scf.yield %v : f64
        } else {
          %m = arith.negf %v : f64
          scf.yield %m : f64
        }
        %next = arith.addf %acc, %w : f64
        scf.yield %next : f64
      }
      memref.store %sum, %x[%c0] : memref<?xf64>
      gpu.return
    }
  }
}

// -----

// Float atomics on a kernel's buffer: the buffer is declared as integers of
// the same width; loads and stores bitcast, atomic add (and a generic
// read-modify-write) compare and swap the bits, exchange swaps them.
module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf64>, %y: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf64>, %y : memref<?xf32>)
    return
  }
  // CHECK-LABEL: spirv.module @__spv__kernels
  // CHECK-DAG: spirv.GlobalVariable @k_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
  // CHECK-DAG: spirv.GlobalVariable @k_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  // CHECK: spirv.func @k()
  // CHECK: %[[BITS:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i64
  // CHECK: %[[V:.*]] = spirv.Bitcast %[[BITS]] : i64 to f64
  // CHECK: spirv.mlir.loop
  // CHECK:   %[[CUR:.*]] = spirv.Bitcast %{{.*}} : i64 to f64
  // CHECK:   %[[SUM:.*]] = spirv.FAdd %[[CUR]], %[[V]] : f64
  // CHECK:   %[[NEW:.*]] = spirv.Bitcast %[[SUM]] : f64 to i64
  // CHECK:   spirv.AtomicCompareExchange <Device> <None> <None> %{{.*}}, %[[NEW]], %{{.*}} : !spirv.ptr<i64, StorageBuffer>
  // CHECK: spirv.mlir.loop
  // CHECK:   spirv.GL.FMax
  // CHECK:   spirv.AtomicCompareExchange <Device> <None> <None> %{{.*}} : !spirv.ptr<i32, StorageBuffer>
  // CHECK: spirv.AtomicExchange <Device> <None> %{{.*}} : !spirv.ptr<i32, StorageBuffer>
  // CHECK: spirv.Store "StorageBuffer" %{{.*}}, %{{.*}} : i64
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf64>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %v = memref.load %x[%c1] : memref<?xf64>
      %a = memref.atomic_rmw addf %v, %x[%c0] : (f64, memref<?xf64>) -> f64
      %f = arith.truncf %v : f64 to f32
      %m = memref.generic_atomic_rmw %y[%c0] : memref<?xf32> {
      ^bb0(%cur: f32):
        %n = arith.maximumf %cur, %f : f32
        memref.atomic_yield %n : f32
      }
      %e = memref.atomic_rmw assign %m, %y[%c1] : (f32, memref<?xf32>) -> f32
      memref.store %a, %x[%c1] : memref<?xf64>
      gpu.return
    }
  }
}
