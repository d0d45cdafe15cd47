// A kernel the device cannot take runs on the CPU (its host version), with
// the same result, whatever the reason: here a 1-D grid of 66407
// work-groups, beyond lavapipe's maxComputeWorkGroupCount of 65535 (GPUs
// with a larger limit run it on the device: fallbacks=0 there), and on
// OpenCL a device memory limit below the kernel's 2 x 136 MB.
// VRIR_GPU_CPU_FALLBACK=0 makes each an error.
//
// RUN: %if vulkan %{ env VRIR_GPU_VERBOSE=1 vr-run %s --entry big --arg n=17000000 --target=vulkan --stats 2>&1 | FileCheck %s --check-prefixes=CHECK,GRID %}
// RUN: %if vulkan %{ env VRIR_GPU_CPU_FALLBACK=0 not vr-run %s --entry big --arg n=17000000 --target=vulkan 2>&1 | FileCheck %s --check-prefix=GRID-ERROR %}
// RUN: %if opencl %{ env VRIR_GPU_VERBOSE=1 VRIR_GPU_MEMORY_LIMIT=100000000 vr-run %s --entry big --arg n=17000000 --target=opencl --stats 2>&1 | FileCheck %s --check-prefixes=CHECK,MEMORY %}
// GRID: vrir: kernel 'big_kernel' runs on the CPU: GPU: kernel 'big_kernel': a grid of 66407 work-groups exceeds the device's limit 65535 in dimension 0
// GRID-ERROR: vrir: error: GPU: kernel 'big_kernel': a grid of 66407 work-groups exceeds the device's limit 65535 in dimension 0
// MEMORY: vrir: kernel 'big_kernel' runs on the CPU: GPU: out of device memory: a kernel's arrays need 272000000 bytes on the device at once
// CHECK: result 0: 6
// CHECK: gpu stats: kernels=0 uploads=0 downloads=0 {{.*}} fallbacks=1

!v = !vrir.array<f64, 1, row_major>
module {
  // B = 2 A + 1 for A = ones(n); returns B[n-1] + B[0] (6).
  func.func @big(%n: index) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f64
    %two = arith.constant 2.0 : f64
    %A = vrir.ones(%n) : !v
    %B = vrir.zeros(%n) : !v
    %r = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %r : !vrir.range shared(%A, %B : !v, !v) {
        %a = vrir.load %A[%i] : !v[index]
        %m = arith.mulf %a, %two : f64
        %b = arith.addf %m, %one : f64
        vrir.store %b, %B[%i] : !v[index]
      }
    }
    %last = arith.subi %n, %c1 : index
    %x = vrir.load %B[%last] : !v[index]
    %y = vrir.load %B[%c0] : !v[index]
    %s = arith.addf %x, %y : f64
    return %s : f64
  }
}
