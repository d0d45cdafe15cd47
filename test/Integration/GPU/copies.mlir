// Copies on potential write: a time-step loop whose GPU section copies the
// array it then writes (old = u.copy(); u[i] = f(old)). The copy shares u's
// device buffer and the kernel writing u makes the device copy, so u moves
// once each way; the first copy is made on the host (u is not on the
// device yet) and uploaded. With VRIR_GPU_COPY_ON_WRITE=0 every copy is
// made on the host: u comes back and the copy goes up every step. Results
// as on the CPU on each backend, and through Vulkan's staging copies (the
// device-local buffers of the freed copies are taken again by the next
// steps while earlier work is in flight).
//
// DEFINE: %{run} = vr-run %s --entry main --arg u=%t.u.npy --arg steps=10 --print-limit=100000 --stats
// RUN: %python -c "import numpy as np; np.save('%t.u.npy', (np.arange(1000.0) * 37) %% 101)"
// RUN: %{run} --target=cpu > %t.cpu
// RUN: %if opencl %{ %{run} --target=opencl > %t.opencl 2> %t.opencl.stats && diff %t.cpu %t.opencl && FileCheck %s < %t.opencl.stats %}
// RUN: %if vulkan %{ %{run} --target=vulkan > %t.vulkan 2> %t.vulkan.stats && diff %t.cpu %t.vulkan && FileCheck %s < %t.vulkan.stats %}
// RUN: %if vulkan %{ env VRIR_VULKAN_STAGING=1 %{run} --target=vulkan > %t.staging 2> %t.staging.stats && diff %t.cpu %t.staging && FileCheck %s < %t.staging.stats %}
// RUN: %if opencl %{ env VRIR_GPU_COPY_ON_WRITE=0 %{run} --target=opencl > %t.eager 2> %t.eager.stats && diff %t.cpu %t.eager && FileCheck %s --check-prefix=EAGER < %t.eager.stats %}
// RUN: %if vulkan %{ env VRIR_GPU_COPY_ON_WRITE=0 %{run} --target=vulkan > %t.eager 2> %t.eager.stats && diff %t.cpu %t.eager && FileCheck %s --check-prefix=EAGER < %t.eager.stats %}
// CHECK: gpu stats: kernels=10 uploads=2 downloads=1 bytes_uploaded=16000 bytes_downloaded=8000 {{.*}} shared_copies=9 device_copies=9
// EAGER: gpu stats: kernels=10 uploads=11 downloads=10 {{.*}} shared_copies=0 device_copies=0

!v = !vrir.array<f64, 1, row_major>

module {
  func.func @main(%u: !v, %steps: index) -> !v {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %quarter = arith.constant 0.25 : f64
    %half = arith.constant 0.5 : f64
    %n = vrir.dim %u, 0 : !v
    %last = arith.subi %n, %c1 : index
    %r = vrir.range %c1 to %last
    scf.for %t = %c0 to %steps step %c1 {
      vrir.gpu_section {
        %old = vrir.copy %u : !v to !v
        vrir.pfor (%i) in %r : !vrir.range shared(%u, %old : !v, !v) {
          %left = arith.subi %i, %c1 : index
          %right = arith.addi %i, %c1 : index
          %a = vrir.load %old[%left] : !v[index]
          %b = vrir.load %old[%i] : !v[index]
          %c = vrir.load %old[%right] : !v[index]
          %ac = arith.addf %a, %c : f64
          %outer = arith.mulf %ac, %quarter : f64
          %inner = arith.mulf %b, %half : f64
          %s = arith.addf %outer, %inner : f64
          vrir.store %s, %u[%i] : !v[index]
        }
      }
    }
    return %u : !v
  }
}
