// A run compiles only the functions the entry reaches: @uses_missing calls
// a function no library defines, which fails the JIT's link when it is
// compiled, yet running @twice (which calls @helper) works: the optimized
// IR of the run holds the entry and what it calls only. Emitting a library
// keeps every public function.
// RUN: rm -rf %t && mkdir -p %t/lib
// RUN: vr-run %s --entry twice --arg 2.5 --dump-ir %t | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=IR < %t/optimized.ll
// RUN: vr-run %s --entry twice --emit-shared %t/lib.so --dump-ir %t/lib
// RUN: FileCheck %s --check-prefix=LIB < %t/lib/optimized.ll

// OUT: result 0: 5
// IR-NOT: uses_missing
// IR-NOT: vrir_test_no_such_function
// IR: define {{.*}} @twice(
// IR-NOT: uses_missing
// LIB-DAG: define {{.*}} @twice(
// LIB-DAG: define {{.*}} @uses_missing(
// LIB-DAG: declare {{.*}} @vrir_test_no_such_function(

func.func private @vrir_test_no_such_function(f64) -> f64

func.func @helper(%x: f64) -> f64 {
  %y = arith.addf %x, %x : f64
  return %y : f64
}

func.func @twice(%x: f64) -> f64 {
  %y = func.call @helper(%x) : (f64) -> f64
  return %y : f64
}

func.func @uses_missing(%x: f64) -> f64 {
  %y = func.call @vrir_test_no_such_function(%x) : (f64) -> f64
  return %y : f64
}
