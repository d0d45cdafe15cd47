// RUN: vr-opt %s -split-input-file -verify-diagnostics
//
// Verifier errors of the module-level semantics attributes
// (VRIRDialect::verifyOperationAttribute).

// expected-error @+1 {{unknown VRIR module attribute 'vrir.index_bas'}}
module attributes {vrir.index_bas = 1 : i64} {
}

// -----

// expected-error @+1 {{unknown VRIR module attribute 'vrir.frobnicate'}}
module attributes {vrir.frobnicate} {
}

// -----

// A vrir.* attribute anywhere but on a builtin.module.
// expected-error @+1 {{'vrir.index_base' is a module attribute; it is not allowed on 'func.func'}}
func.func @f() attributes {vrir.index_base = 1 : i64} {
  return
}

// -----

func.func @g() {
  // expected-error @+1 {{'vrir.memory' is a module attribute; it is not allowed on 'arith.constant'}}
  %c0 = arith.constant {vrir.memory = #vrir.memory<gc>} 0 : index
  return
}

// -----

// Unknown names are reported before the op kind is checked.
// expected-error @+1 {{unknown VRIR module attribute 'vrir.foo'}}
func.func @h() attributes {vrir.foo = 1 : i64} {
  return
}

// -----

// expected-error @+1 {{'vrir.index_base' must be the integer 0 or 1, got 2 : i64}}
module attributes {vrir.index_base = 2 : i64} {
}

// -----

// expected-error @+1 {{'vrir.index_base' must be the integer 0 or 1, got -1 : i64}}
module attributes {vrir.index_base = -1 : i64} {
}

// -----

// expected-error @+1 {{'vrir.index_base' must be the integer 0 or 1, got "1"}}
module attributes {vrir.index_base = "1"} {
}

// -----

// expected-error @+1 {{'vrir.index_base' must be the integer 0 or 1, got 1.000000e+00 : f64}}
module attributes {vrir.index_base = 1.0 : f64} {
}

// -----

// expected-error @+1 {{'vrir.range_exclusive' must be a bool, got 1 : i64}}
module attributes {vrir.range_exclusive = 1 : i64} {
}

// -----

// expected-error @+1 {{'vrir.range_exclusive' must be a bool, got "true"}}
module attributes {vrir.range_exclusive = "true"} {
}

// -----

// expected-error @+1 {{'vrir.memory' must be #vrir.memory<refcount> or #vrir.memory<gc>, got "gc"}}
module attributes {vrir.memory = "gc"} {
}

// -----

// expected-error @+1 {{'vrir.memory' must be #vrir.memory<refcount> or #vrir.memory<gc>, got #vrir.layout<row_major>}}
module attributes {vrir.memory = #vrir.layout<row_major>} {
}

// -----

// expected-error @+1 {{'vrir.memory' must be #vrir.memory<refcount> or #vrir.memory<gc>, got #vrir.index<lower>}}
module attributes {vrir.memory = #vrir.index<lower>} {
}

// -----

// A module nested in another is checked too.
module {
  // expected-error @+1 {{'vrir.index_base' must be the integer 0 or 1, got 3 : i64}}
  module attributes {vrir.index_base = 3 : i64} {
  }
}

// -----

// expected-error @+1 {{'vrir.index_base' must be the integer 0 or 1, got false}}
module attributes {vrir.index_base = false} {
}

// -----

// expected-error @+1 {{'vrir.index_base' must be the integer 0 or 1, got 18446744073709551617 : i128}}
module attributes {vrir.index_base = 18446744073709551617 : i128} {
}

// -----

func.func @gpu_section_mark_elsewhere() {
  // expected-error @+1 {{'vrir.gpu_section' is a unit attribute of vrir.gpu_section and of the scf.execute_region it lowers to}}
  %c = arith.constant {vrir.gpu_section} 0 : index
  return
}

// -----

func.func @gpu_fallback_mark_elsewhere(%c: i1) {
  // expected-error @+1 {{'vrir.gpu_fallback' is a unit attribute of the scf.if that holds a GPU kernel's host version}}
  scf.execute_region {
    scf.yield
  } {vrir.gpu_fallback}
  return
}
