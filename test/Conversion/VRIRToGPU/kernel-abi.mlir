// RUN: vr-opt %s --vrir-gpu-kernel-abi --split-input-file --verify-diagnostics | FileCheck %s

// A 2-D strided array becomes buffer, offset, 2 sizes, 2 strides; loads,
// stores and dim use them; a constant operand is rematerialized in the
// kernel. The launch passes the base buffer (reinterpreted as 1-D up to
// the highest element) and the metadata.
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @host
  // CHECK-SAME: (%[[A:.*]]: memref<?x?xf64, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<?xf64>)
  // CHECK: %[[LOCAL:.*]] = memref.alloc
  // CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
  // CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<f64> to memref<?xf64>
  // CHECK: gpu.launch_func @kernels::@k {{.*}} args(%[[FLAT]] : memref<?xf64>, %[[OFF]] : index, %[[SIZES]]#0 : index, %[[SIZES]]#1 : index, %[[STRIDES]]#0 : index, %[[STRIDES]]#1 : index, %{{.*}} : memref<?xf64>, %{{.*}} : index, %{{.*}} : index, %{{.*}} : index, %{{.*}} : memref<?xf64>, %{{.*}} : index, %{{.*}} : index, %{{.*}} : index)
  func.func @host(%A: memref<?x?xf64, strided<[?, ?], offset: ?>>, %B: memref<?xf64>) {
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %local = memref.alloc(%c7) : memref<?xf64>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?x?xf64, strided<[?, ?], offset: ?>>, %c7 : index, %B : memref<?xf64>, %local : memref<?xf64>)
    memref.dealloc %local : memref<?xf64>
    return
  }
  // CHECK: gpu.func @k(%[[BUF:.*]]: memref<?xf64> {vrir.rank = 2 : i64}, %[[O:.*]]: index, %[[N0:.*]]: index, %[[N1:.*]]: index, %[[S0:.*]]: index, %[[S1:.*]]: index, %[[BB:.*]]: memref<?xf64> {vrir.rank = 1 : i64, vrir.readonly}, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %[[L:.*]]: memref<?xf64> {vrir.noalias, vrir.rank = 1 : i64}, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index) kernel
  // CHECK: %[[C7:.*]] = arith.constant 7 : index
  // CHECK: %[[I:.*]] = gpu.thread_id x
  // CHECK: %[[M0:.*]] = arith.muli %[[I]], %[[S0]]
  // CHECK: %[[L0:.*]] = arith.addi %[[O]], %[[M0]]
  // CHECK: %[[M1:.*]] = arith.muli %[[C7]], %[[S1]]
  // CHECK: %[[L1:.*]] = arith.addi %[[L0]], %[[M1]]
  // CHECK: %[[V:.*]] = memref.load %[[BUF]][%[[L1]]] : memref<?xf64>
  // CHECK: memref.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<?xf64>
  // CHECK: arith.index_cast %[[N1]]
  gpu.module @kernels {
    gpu.func @k(%A: memref<?x?xf64, strided<[?, ?], offset: ?>>, %j: index, %B: memref<?xf64>, %L: memref<?xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %A[%i, %j] : memref<?x?xf64, strided<[?, ?], offset: ?>>
      %c0 = arith.constant 0 : index
      %w = memref.load %B[%c0] : memref<?xf64>
      %s = arith.addf %v, %w : f64
      memref.store %s, %A[%j, %i] : memref<?x?xf64, strided<[?, ?], offset: ?>>
      memref.store %s, %L[%i] : memref<?xf64>
      %c1 = arith.constant 1 : index
      %n = memref.dim %A, %c1 : memref<?x?xf64, strided<[?, ?], offset: ?>>
      %n64 = arith.index_cast %n : index to i64
      gpu.return
    }
  }
}

// -----

// A view of an argument inside the kernel: its offset and strides compose
// with the argument's.
module attributes {gpu.container_module} {
  func.func @host(%A: memref<?xf64>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@view blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf64>, %n : index)
    return
  }
  // CHECK-LABEL: gpu.func @view
  // CHECK-SAME: (%[[BUF:.*]]: memref<?xf64> {vrir.rank = 1 : i64}, %[[O:.*]]: index, %[[N0:.*]]: index, %[[S0:.*]]: index, %[[N:.*]]: index)
  // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
  // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
  // CHECK: %[[START:.*]] = arith.muli %[[C3]], %[[S0]]
  // CHECK: %[[VO:.*]] = arith.addi %[[O]], %[[START]]
  // CHECK: %[[VS:.*]] = arith.muli %[[C2]], %[[S0]]
  // CHECK: %[[I:.*]] = arith.muli %{{.*}}, %[[VS]]
  // CHECK: %[[LIN:.*]] = arith.addi %[[VO]], %[[I]]
  // CHECK: memref.store %{{.*}}, %[[BUF]][%[[LIN]]]
  gpu.module @kernels {
    gpu.func @view(%A: memref<?xf64>, %n: index) kernel {
      %i = gpu.thread_id x
      %view = memref.subview %A[3] [%n] [2] : memref<?xf64> to memref<?xf64, strided<[2], offset: 3>>
      %cst = arith.constant 1.0 : f64
      memref.store %cst, %view[%i] : memref<?xf64, strided<[2], offset: 3>>
      gpu.return
    }
  }
}

// -----

// Uses the ABI cannot express are diagnosed.
module attributes {gpu.container_module} {
  func.func @host(%A: memref<?xf64>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf64>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%A: memref<?xf64>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'memref.copy' op uses an array in a way the GPU kernel ABI does not support yet}}
      memref.copy %A, %A : memref<?xf64> to memref<?xf64>
      gpu.return
    }
  }
}

// -----

// In a region specialised for arguments that nothing else overlaps (the
// dispatcher's `noalias` facts), those arguments are distinct roots too;
// an argument without the fact, or passed twice, is not.
module attributes {gpu.container_module} {
  func.func @region(%A: memref<?xf64>, %B: memref<?xf64>, %C: memref<?xf64>)
      attributes {vrir.region_facts = [{rank = 1 : i64, noalias},
                                       {rank = 1 : i64, noalias},
                                       {rank = 1 : i64}]} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k_region blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf64>, %B : memref<?xf64>, %B : memref<?xf64>, %C : memref<?xf64>)
    return
  }
  // CHECK-LABEL: gpu.func @k_region
  // CHECK-SAME: (%arg0: memref<?xf64> {vrir.noalias, vrir.rank = 1 : i64},
  // CHECK-SAME: %arg4: memref<?xf64> {vrir.rank = 1 : i64, vrir.readonly},
  // CHECK-SAME: %arg8: memref<?xf64> {vrir.rank = 1 : i64},
  // CHECK-SAME: %arg12: memref<?xf64> {vrir.rank = 1 : i64},
  gpu.module @kernels {
    gpu.func @k_region(%a: memref<?xf64>, %b: memref<?xf64>, %b2: memref<?xf64>, %c: memref<?xf64>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %b[%c0] : memref<?xf64>
      memref.store %x, %a[%c0] : memref<?xf64>
      memref.store %x, %b2[%c0] : memref<?xf64>
      memref.store %x, %c[%c0] : memref<?xf64>
      gpu.return
    }
  }
}

// -----

// Views of one array that the kernel only reads may share memory and still
// be noalias (nothing writes what they share): the Jacobi sweep's five
// shifted views of one input.
module attributes {gpu.container_module} {
  func.func @region(%A: memref<?xf64>, %B: memref<?xf64>, %C: memref<?xf64>)
      attributes {vrir.region_facts = [{rank = 1 : i64, noalias},
                                       {rank = 1 : i64, noalias},
                                       {rank = 1 : i64}]} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k_reads blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf64>, %B : memref<?xf64>, %B : memref<?xf64>, %C : memref<?xf64>)
    return
  }
  // CHECK-LABEL: gpu.func @k_reads
  // CHECK-SAME: (%arg0: memref<?xf64> {vrir.noalias, vrir.rank = 1 : i64},
  // CHECK-SAME: %arg4: memref<?xf64> {vrir.noalias, vrir.rank = 1 : i64, vrir.readonly},
  // CHECK-SAME: %arg8: memref<?xf64> {vrir.noalias, vrir.rank = 1 : i64, vrir.readonly},
  // CHECK-SAME: %arg12: memref<?xf64> {vrir.rank = 1 : i64, vrir.readonly},
  gpu.module @kernels {
    gpu.func @k_reads(%a: memref<?xf64>, %b: memref<?xf64>, %b2: memref<?xf64>, %c: memref<?xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = memref.load %b[%c0] : memref<?xf64>
      %y = memref.load %b2[%c1] : memref<?xf64>
      %z = memref.load %c[%c0] : memref<?xf64>
      %s = arith.addf %x, %y : f64
      %t = arith.addf %s, %z : f64
      memref.store %t, %a[%c0] : memref<?xf64>
      gpu.return
    }
  }
}
