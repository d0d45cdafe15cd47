// RUN: vr-opt %s --vrir-gpu-cpu-fallback -verify-diagnostics

// A GPU section outside a func.func: the kernel's host version has no
// function to sit next to.
llvm.func @not_func(%n: i64, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.index_cast %n : i64 to index
  scf.execute_region {
    // expected-error @+1 {{'scf.if' op GPU section outside a func.func of a module: no place for the kernel's host version}}
    scf.parallel (%i) = (%c0) to (%m) step (%c1) {
      %v = arith.index_cast %i : index to i64
      llvm.store %v, %p : i64, !llvm.ptr
    }
    scf.yield
  } {vrir.gpu_section}
  llvm.return
}
