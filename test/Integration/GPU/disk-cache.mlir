// Compiled OpenCL programs are kept on disk: a second process loads them
// instead of compiling (vr-run --stats counts both).
// REQUIRES: opencl
// RUN: rm -rf %t.cache
// RUN: env VRIR_CACHE_DIR=%t.cache vr-run %s --entry f --arg x=arange:100 --target=opencl --stats 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: env VRIR_CACHE_DIR=%t.cache vr-run %s --entry f --arg x=arange:100 --target=opencl --stats 2>&1 | FileCheck %s --check-prefix=SECOND
// A damaged entry (garbage, or cut short) is a miss: the program is
// compiled again, not loaded.
// RUN: for f in %t.cache/gpu/*; do echo garbage > $f; done
// RUN: env VRIR_CACHE_DIR=%t.cache vr-run %s --entry f --arg x=arange:100 --target=opencl --stats 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: for f in %t.cache/gpu/*; do head -c 12 $f > $f.cut && mv $f.cut $f; done
// RUN: env VRIR_CACHE_DIR=%t.cache vr-run %s --entry f --arg x=arange:100 --target=opencl --stats 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: env VRIR_CACHE_DIR=%t.cache VRIR_GPU_DISK_CACHE=0 vr-run %s --entry f --arg x=arange:100 --target=opencl --stats 2>&1 | FileCheck %s --check-prefix=FIRST

// FIRST: result 0: 9900
// FIRST: compiles=1 {{.*}} disk_cache_hits=0
// SECOND: result 0: 9900
// SECOND: compiles=0 {{.*}} disk_cache_hits=1

!v = !vrir.array<f64, 1, row_major>
func.func @f(%x: !v) -> f64 {
  %c0 = arith.constant 0 : index
  %n = vrir.dim %x, 0 : !v
  %r = vrir.range %c0 to %n
  %two = arith.constant 2.0 : f64
  vrir.gpu_section {
    vrir.pfor (%i) in %r : !vrir.range shared(%x : !v) {
      %a = vrir.load %x[%i] : !v[index]
      %b = arith.mulf %a, %two : f64
      vrir.store %b, %x[%i] : !v[index]
    }
  }
  %s = vrir.reduce sum %x : !v -> f64
  return %s : f64
}
