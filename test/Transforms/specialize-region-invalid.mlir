// RUN: vr-opt %s -split-input-file -vrir-specialize-region -verify-diagnostics
//
// Facts that do not match the function: a clear error, not a crash.

// expected-error @+1 {{vrir.region_facts has 1 entries for 2 arguments}}
func.func @short_facts(%n: index, %m: index) -> index attributes {
    vrir.region_facts = [{value = 3 : i64}]} {
  return %n : index
}
