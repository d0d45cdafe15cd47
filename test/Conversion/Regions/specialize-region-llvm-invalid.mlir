// RUN: vr-opt %s -split-input-file -vrir-specialize-region-llvm -verify-diagnostics
//
// Facts that do not match the lowered function: a clear
// error, not a crash.

// A rank-1 array is 5 parameters, not 2.
// expected-error @+1 {{vrir.region_facts describes 5 parameters, the function has 2}}
llvm.func @facts_mismatch(%p: !llvm.ptr, %n: i64) attributes {
    vrir.region_facts = [{rank = 1 : i64}]} {
  llvm.return
}
