// RUN: vr-opt %s -vrir-lower-region-dispatch -verify-diagnostics
//
// A region signature that does not match the lowered function: a clear
// error, not a crash. (A malformed `vrir.region` never gets here: the
// dialect verifies it, see test/Dialect/VRIR/invalid-dispatch.mlir.)

// expected-error @+1 {{the region signature "m1:8S" does not match the function's 2 parameters}}
llvm.func @signature_mismatch(%p: !llvm.ptr, %n: i64) attributes {
    vrir.region = {source = "module {}", signature = "m1:8S", options = "cpu:1:1:1"}} {
  llvm.return
}
