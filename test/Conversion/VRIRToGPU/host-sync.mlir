// RUN: vr-opt %s --vrir-gpu-host-sync --split-input-file | FileCheck %s

// A host loop around a launch, a host read of its result inside the loop
// and a host loop after it. The scope opens at the entry and closes before
// the return; the array argument is declared (its whole extent) once the
// scope is open; the new array is declared uninitialized; the read inside the
// launching loop stays there, the host-only loop gets one notice before it
// (a write: it stores), and the launch itself needs none.
// Each notice calls a helper per runtime function and array type, which
// computes the bytes the array spans (its offset, sizes and strides of any
// sign) and calls the runtime: one copy of that code per type, not per
// notice.
// CHECK-DAG: llvm.func @vrir_gpu_scope_begin()
// CHECK-DAG: llvm.func @vrir_gpu_scope_end()
// CHECK-DAG: llvm.func @vrir_gpu_host_access(i64, i64, i64)
// CHECK-DAG: llvm.func @vrir_gpu_host_uninitialized(i64, i64)
// CHECK-DAG: llvm.func @vrir_gpu_host_array(i64, i64)
// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64>
// CHECK-NEXT: llvm.call @vrir_gpu_scope_begin()
// CHECK-NEXT: %[[AS:.*]] = memref.cast %[[A]] : memref<?xf64> to memref<?xf64, strided<[?], offset: ?>>
// CHECK-NEXT: call @[[ARRAY:__vrir_gpu_host_array_[0-9a-f]+]](%[[AS]])
// CHECK-NOT: @__vrir_gpu_host_array_
// CHECK: %[[B:.*]] = memref.alloc(
// CHECK-NEXT: %[[BS:.*]] = memref.cast %[[B]]
// CHECK-NEXT: call @[[UNINIT:__vrir_gpu_host_uninitialized_[0-9a-f]+]](%[[BS]])
// CHECK: scf.for
// CHECK-NOT: @__vrir_gpu_host_access
// CHECK: gpu.launch_func
// CHECK: %[[BR:.*]] = memref.cast %[[B]]
// CHECK: %[[READ:.*]] = arith.constant 0 : i64
// CHECK: call @[[ACCESS:__vrir_gpu_host_access_[0-9a-f]+]](%[[BR]], %[[READ]])
// CHECK-NEXT: memref.load %[[B]]
// CHECK: }
// CHECK: %[[AW:.*]] = memref.cast %[[A]]
// CHECK: %[[WRITE:.*]] = arith.constant 1 : i64
// CHECK: call @[[ACCESS]](%[[AW]], %[[WRITE]])
// CHECK-NEXT: scf.for
// CHECK-NOT: call
// CHECK: memref.store
// CHECK: }
// CHECK: llvm.call @vrir_gpu_scope_end()
// CHECK-NEXT: return
// CHECK: func.func private @[[ACCESS]](%[[ARG:.*]]: memref<?xf64, strided<[?], offset: ?>>, %[[MODE:.*]]: i64)
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %[[SIZE:.*]], %[[STRIDE:.*]] = memref.extract_strided_metadata %[[ARG]]
// CHECK: arith.cmpi slt, %[[STRIDE]]
// CHECK: llvm.call @vrir_gpu_host_access(%{{.*}}, %{{.*}}, %[[MODE]])
// CHECK-NEXT: return
// CHECK: func.func private @[[UNINIT]](
// CHECK: llvm.call @vrir_gpu_host_uninitialized(
// CHECK: func.func private @[[ARRAY]](
// CHECK: llvm.call @vrir_gpu_host_array(
module attributes {gpu.container_module} {
  func.func @host(%A: memref<?xf64>, %n: index, %steps: index) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %B = memref.alloc(%n) : memref<?xf64>
    %sum = scf.for %t = %c0 to %steps step %c1 iter_args(%acc = %zero) -> f64 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
          args(%A : memref<?xf64>, %B : memref<?xf64>)
      %v = memref.load %B[%c0] : memref<?xf64>
      %s = arith.addf %acc, %v : f64
      scf.yield %s : f64
    }
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %A[%i] : memref<?xf64>
      memref.store %x, %A[%i] : memref<?xf64>
    }
    memref.dealloc %B : memref<?xf64>
    return %sum : f64
  }
  gpu.module @kernels {
    gpu.func @k(%A: memref<?xf64>, %B: memref<?xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %A[%i] : memref<?xf64>
      memref.store %v, %B[%i] : memref<?xf64>
      gpu.return
    }
  }
}

// -----

// Views: a host read of a subview is a notice for the bytes of the view;
// the allocation the launch uses through a view is declared uninitialized;
// a call that takes the array is a write. Functions that launch nothing are
// left alone.
// CHECK-LABEL: func.func @views(
// CHECK: llvm.call @vrir_gpu_scope_begin()
// CHECK: %[[M:.*]] = memref.alloc() : memref<16xf32>
// CHECK: call @__vrir_gpu_host_uninitialized_
// CHECK: %[[V:.*]] = memref.subview %[[M]]
// CHECK: gpu.launch_func
// CHECK: %[[VR:.*]] = memref.cast %[[V]]
// CHECK: call @__vrir_gpu_host_access_{{.*}}(%[[VR]],
// CHECK-NEXT: memref.load %[[V]]
// CHECK: %[[MW:.*]] = memref.cast %[[M]]
// CHECK: %[[WRITE:.*]] = arith.constant 1 : i64
// CHECK: call @__vrir_gpu_host_access_{{.*}}(%[[MW]], %[[WRITE]])
// CHECK-NEXT: call @consume(%[[M]])
// CHECK: llvm.call @vrir_gpu_scope_end()
// CHECK-LABEL: func.func @no_launch(
// CHECK-NOT: call
// CHECK: return
module attributes {gpu.container_module} {
  func.func private @consume(memref<16xf32>)
  func.func @views() -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %M = memref.alloc() : memref<16xf32>
    %V = memref.subview %M[4] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%V : memref<8xf32, strided<[1], offset: 4>>)
    %x = memref.load %V[%c0] : memref<8xf32, strided<[1], offset: 4>>
    call @consume(%M) : (memref<16xf32>) -> ()
    return %x : f32
  }
  func.func @no_launch(%A: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %x = memref.load %A[%c0] : memref<4xf32>
    return %x : f32
  }
  gpu.module @kernels {
    gpu.func @k(%V: memref<8xf32, strided<[1], offset: 4>>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %V[%i] : memref<8xf32, strided<[1], offset: 4>>
      gpu.return
    }
  }
}

// -----

// A kernel's host version (`vrir-gpu-cpu-fallback`) only runs when the
// kernel could not: its notices stay inside it (out of its loop), so that
// nothing is downloaded when the kernel ran on the device.
// CHECK-LABEL: func.func @fallback(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64>
// CHECK: gpu.launch_func
// CHECK-NOT: @__vrir_gpu_host_access
// CHECK: scf.if
// CHECK-NEXT: %[[AW:.*]] = memref.cast %[[A]]
// CHECK: call @__vrir_gpu_host_access_{{.*}}(%[[AW]],
// CHECK-NEXT: scf.parallel
// CHECK-NOT: call
// CHECK: memref.store
// CHECK: } {vrir.gpu_fallback}
module attributes {gpu.container_module} {
  func.func @fallback(%A: memref<?xf64>, %n: index, %on_host: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f64
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%A : memref<?xf64>)
    scf.if %on_host {
      scf.parallel (%i) = (%c0) to (%n) step (%c1) {
        memref.store %one, %A[%i] : memref<?xf64>
      }
    } {vrir.gpu_fallback}
    return
  }
  gpu.module @kernels {
    gpu.func @k(%A: memref<?xf64>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f64
      memref.store %one, %A[%i] : memref<?xf64>
      gpu.return
    }
  }
}

// -----

// Addresses: one taken only to be compared (a slice assignment's overlap
// test, through arithmetic into a branch condition) is no access, so the
// arrays stay on the device; one that becomes a pointer (for a library
// call) is, and gets a notice, hoisted out of the scf.if that launches
// nothing.
// CHECK-LABEL: func.func @addresses(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64>, %[[B:[a-z0-9]+]]: memref<?xf64>, %[[C:[a-z0-9]+]]: memref<?xf64>
// CHECK: scf.for
// CHECK: gpu.launch_func
// CHECK-NOT: memref.cast %[[A]]
// CHECK-NOT: memref.cast %[[B]]
// CHECK: %[[CW:.*]] = memref.cast %[[C]]
// CHECK: call @__vrir_gpu_host_access_{{.*}}(%[[CW]],
// CHECK-NEXT: scf.if
// CHECK-NOT: @__vrir_gpu_host_access
// CHECK: llvm.call @vrir_gpu_scope_end()
module attributes {gpu.container_module} {
  llvm.func @library(!llvm.ptr)
  func.func @addresses(%A: memref<?xf64>, %B: memref<?xf64>, %C: memref<?xf64>,
                       %n: index, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %t = %c0 to %steps step %c1 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
          args(%A : memref<?xf64>, %B : memref<?xf64>)
      %a = memref.extract_aligned_pointer_as_index %A : memref<?xf64> -> index
      %b = memref.extract_aligned_pointer_as_index %B : memref<?xf64> -> index
      %end = arith.addi %b, %n : index
      %overlap = arith.cmpi ult, %a, %end : index
      scf.if %overlap {
        %p = memref.extract_aligned_pointer_as_index %C : memref<?xf64> -> index
        %i = arith.index_cast %p : index to i64
        %ptr = llvm.inttoptr %i : i64 to !llvm.ptr
        llvm.call @library(%ptr) : (!llvm.ptr) -> ()
      }
    }
    return
  }
  gpu.module @kernels {
    gpu.func @k(%A: memref<?xf64>, %B: memref<?xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %A[%i] : memref<?xf64>
      memref.store %v, %B[%i] : memref<?xf64>
      gpu.return
    }
  }
}

// -----

// Copies of whole contiguous arrays go to the runtime (copy on potential
// write): a call of `vrir_gpu_copy(target, source, bytes)` through a helper
// per array type replaces the memref.copy, with no notices for it. Like a
// launch, such a copy keeps the notices of the host-only code after it from
// being hoisted above it (the read of %B stays in the loop). A copy of a
// strided view stays a memref.copy, with notices.
// CHECK-DAG: llvm.func @vrir_gpu_copy(i64, i64, i64)
// CHECK-LABEL: func.func @copies(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64>
// CHECK: scf.for
// CHECK: gpu.launch_func
// CHECK: %[[B:.*]] = memref.alloc(
// CHECK-NOT: __vrir_gpu_host_access
// CHECK: %[[AC:.*]] = memref.cast %[[A]] : memref<?xf64> to memref<?xf64, strided<[?], offset: ?>>
// CHECK-NEXT: %[[BC:.*]] = memref.cast %[[B]] : memref<?xf64> to memref<?xf64, strided<[?], offset: ?>>
// CHECK-NEXT: call @[[COPY:__vrir_gpu_copy_[0-9a-f]+]](%[[AC]], %[[BC]])
// CHECK-NOT: memref.copy %[[A]]
// CHECK: call @__vrir_gpu_host_access_{{.*}}(
// CHECK-NEXT: memref.load %[[B]]
// CHECK: }
// CHECK: call @__vrir_gpu_host_access_
// CHECK: call @__vrir_gpu_host_access_
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<4xf64, strided<[2]>> to memref<4xf64>
// CHECK: func.func private @[[COPY]](%[[SOURCE:.*]]: memref<?xf64, strided<[?], offset: ?>>, %[[TARGET:.*]]: memref<?xf64, strided<[?], offset: ?>>)
// CHECK-DAG: memref.extract_aligned_pointer_as_index %[[SOURCE]]
// CHECK-DAG: memref.extract_aligned_pointer_as_index %[[TARGET]]
// CHECK: llvm.call @vrir_gpu_copy(
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  func.func @copies(%A: memref<?xf64>, %n: index, %steps: index) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %sum = scf.for %t = %c0 to %steps step %c1 iter_args(%acc = %zero) -> f64 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
          args(%A : memref<?xf64>)
      %B = memref.alloc(%n) : memref<?xf64>
      memref.copy %A, %B : memref<?xf64> to memref<?xf64>
      %v = memref.load %B[%c0] : memref<?xf64>
      memref.dealloc %B : memref<?xf64>
      %s = arith.addf %acc, %v : f64
      scf.yield %s : f64
    }
    %S = memref.alloc() : memref<8xf64>
    %V = memref.subview %S[0] [4] [2] : memref<8xf64> to memref<4xf64, strided<[2]>>
    %C = memref.alloc() : memref<4xf64>
    memref.copy %V, %C : memref<4xf64, strided<[2]>> to memref<4xf64>
    return %sum : f64
  }
  gpu.module @kernels {
    gpu.func @k(%A: memref<?xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %A[%i] : memref<?xf64>
      memref.store %v, %A[%i] : memref<?xf64>
      gpu.return
    }
  }
}
