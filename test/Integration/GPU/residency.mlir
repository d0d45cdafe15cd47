// Arrays stay on the device between the launches of a function: the GPU
// runtime's counters (vr-run --stats) on each backend, and the same results
// as the CPU (integer-valued data: every operation is exact).
//
// DEFINE: %{run} = vr-run %s --entry main --arg A=%t.x.npy --arg B=%t.x.npy --arg M=%t.M.npy --arg steps=10 --print-limit=100000 --stats
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(64.0)); np.save('%t.M.npy', np.arange(64.0 * 64).reshape(64, 64) %% 7)"
// RUN: %{run} --target=cpu > %t.cpu
// RUN: %if opencl %{ %{run} --target=opencl > %t.opencl 2> %t.opencl.stats && diff %t.cpu %t.opencl && FileCheck %s < %t.opencl.stats %}
// RUN: %if vulkan %{ %{run} --target=vulkan > %t.vulkan 2> %t.vulkan.stats && diff %t.cpu %t.vulkan && FileCheck %s < %t.vulkan.stats %}
// Vulkan through staging copies (what discrete GPUs use) on any device:
// RUN: %if vulkan %{ env VRIR_VULKAN_STAGING=1 %{run} --target=vulkan > %t.staging 2> %t.staging.stats && diff %t.cpu %t.staging && FileCheck %s < %t.staging.stats %}
// ... with the kernels' parameter blocks in host memory rather than in
// host-visible device memory (VRIR_VULKAN_PARAMS=host):
// RUN: %if vulkan %{ env VRIR_VULKAN_STAGING=1 VRIR_VULKAN_PARAMS=host %{run} --target=vulkan > %t.params 2> %t.params.stats && diff %t.cpu %t.params && FileCheck %s < %t.params.stats %}
// ... with copies larger than a 1000-byte chunk going through the two
// staging slots chunk by chunk (64 MiB chunks by default):
// RUN: %if vulkan %{ env VRIR_VULKAN_STAGING=1 VRIR_VULKAN_STAGING_CHUNK=1000 %{run} --target=vulkan > %t.chunks 2> %t.chunks.stats && diff %t.cpu %t.chunks && FileCheck %s < %t.chunks.stats %}
//
// Out of device memory (a limit of 35000 bytes: the product's matrix and
// vectors fit, not everything else besides): the arrays it does not use go
// back to the host and leave the device, with the same results. Below what
// one kernel needs (20000 bytes), that kernel runs on the CPU, with the
// same results; with VRIR_GPU_CPU_FALLBACK=0, a clear error.
// RUN: %if opencl %{ env VRIR_GPU_MEMORY_LIMIT=35000 %{run} --target=opencl > %t.evict 2> %t.evict.stats && diff %t.cpu %t.evict && FileCheck %s --check-prefix=EVICT < %t.evict.stats %}
// RUN: %if vulkan %{ env VRIR_GPU_MEMORY_LIMIT=35000 %{run} --target=vulkan > %t.evict 2> %t.evict.stats && diff %t.cpu %t.evict && FileCheck %s --check-prefix=EVICT < %t.evict.stats %}
// RUN: %if opencl %{ env VRIR_GPU_MEMORY_LIMIT=20000 %{run} --target=opencl > %t.fallback 2> %t.fallback.stats && diff %t.cpu %t.fallback && FileCheck %s --check-prefix=FALLBACK < %t.fallback.stats %}
// RUN: %if vulkan %{ env VRIR_GPU_MEMORY_LIMIT=20000 %{run} --target=vulkan > %t.fallback 2> %t.fallback.stats && diff %t.cpu %t.fallback && FileCheck %s --check-prefix=FALLBACK < %t.fallback.stats %}
// RUN: %if opencl %{ env VRIR_GPU_MEMORY_LIMIT=20000 VRIR_GPU_CPU_FALLBACK=0 not %{run} --target=opencl 2>&1 | FileCheck %s --check-prefix=OOM %}
// EVICT: gpu stats: {{.*}} evictions=1 fallbacks=0
// FALLBACK: gpu stats: {{.*}} fallbacks=1
// OOM: vrir: error: GPU: out of device memory: a kernel's arrays need 33792 bytes on the device at once (GPU: the device memory limit of 20000 bytes (VRIR_GPU_MEMORY_LIMIT) is reached)

// The calls are inlined into @main: one scope. Uploads: A and B once
// (before the time loop) and M once (the product's vector is A, still on
// the device); none for the arrays kernels create (y, z, w and the
// temporaries), nor for x: the copy of A shares A's device buffer (copy on
// potential write), and the first kernel of @host_read, which writes x,
// makes the copy on the device. Downloads: A and B at the end, x after each
// of the 4 steps of @host_read, and the results y, z and w: 9 arrays of 64
// doubles.
// CHECK: gpu stats: kernels={{[0-9]+}} uploads=3 downloads=9 bytes_uploaded=33792 bytes_downloaded=4608 {{.*}} shared_copies=1 device_copies=1

!m = !vrir.array<f64, 2, row_major>
!v = !vrir.array<f64, 1, row_major>

module {
  func.func @main(%A: !v, %B: !v, %M: !m, %steps: index) -> (f64, !v, !v, !v, !v) {
    call @time_loop(%A, %B, %steps) : (!v, !v, index) -> ()
    %c4 = arith.constant 4 : index
    %x = vrir.copy %A : !v to !v
    %sum = call @host_read(%x, %c4) : (!v, index) -> f64
    %y, %z = call @two_sections(%M, %A) : (!m, !v) -> (!v, !v)
    %w = call @temporaries(%B) : (!v) -> !v
    return %sum, %x, %y, %z, %w : f64, !v, !v, !v, !v
  }

  // A time-step loop around a section of two kernels.
  func.func @time_loop(%A: !v, %B: !v, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f64
    %two = arith.constant 2.0 : f64
    %n = vrir.dim %A, 0 : !v
    %r = vrir.range %c0 to %n
    scf.for %t = %c0 to %steps step %c1 {
      vrir.gpu_section {
        vrir.pfor (%i) in %r : !vrir.range shared(%A, %B : !v, !v) {
          %a = vrir.load %A[%i] : !v[index]
          %b = arith.addf %a, %one : f64
          vrir.store %b, %B[%i] : !v[index]
        }
        vrir.pfor (%i) in %r : !vrir.range shared(%A, %B : !v, !v) {
          %b = vrir.load %B[%i] : !v[index]
          %a = arith.mulf %b, %two : f64
          %c = arith.subf %a, %b : f64
          vrir.store %c, %A[%i] : !v[index]
        }
      }
    }
    return
  }

  // The host reads the array after each section: one download per step,
  // no upload after the first (the host only read it).
  func.func @host_read(%x: !v, %steps: index) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f64
    %zero = arith.constant 0.0 : f64
    %n = vrir.dim %x, 0 : !v
    %r = vrir.range %c0 to %n
    %sum = scf.for %t = %c0 to %steps step %c1 iter_args(%acc = %zero) -> f64 {
      vrir.gpu_section {
        vrir.pfor (%i) in %r : !vrir.range shared(%x : !v) {
          %a = vrir.load %x[%i] : !v[index]
          %b = arith.addf %a, %one : f64
          vrir.store %b, %x[%i] : !v[index]
        }
      }
      %first = vrir.load %x[%c0] : !v[index]
      %next = arith.addf %acc, %first : f64
      scf.yield %next : f64
    }
    return %sum : f64
  }

  // Two sections in a row: the first one's result stays on the device for
  // the second.
  func.func @two_sections(%M: !m, %x: !v) -> (!v, !v) {
    %two = arith.constant 2.0 : f64
    %y = vrir.gpu_section -> (!v) {
      %p = vrir.matvec %M, %x : !m, !v -> !v
      vrir.yield %p : !v
    }
    %z = vrir.gpu_section -> (!v) {
      %q = vrir.binary mul %y, %two : !v, f64 -> !v
      vrir.yield %q : !v
    }
    return %y, %z : !v, !v
  }

  // Whole-array temporaries: created on the device, never uploaded.
  func.func @temporaries(%x: !v) -> !v {
    %two = arith.constant 2.0 : f64
    %r = vrir.gpu_section -> (!v) {
      %y = vrir.binary mul %x, %two : !v, f64 -> !v
      %z = vrir.binary add %y, %x : !v, !v -> !v
      %w = vrir.binary mul %z, %y : !v, !v -> !v
      vrir.yield %w : !v
    }
    return %r : !v
  }
}
