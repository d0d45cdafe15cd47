// RUN: vr-opt %s -split-input-file -verify-diagnostics
//
// Verifier errors of vrir.dispatch.

!m = !vrir.array<f64, 2, row_major>
func.func private @r(%A: !m, %n: index)
func.func @unknown_callee(%A: !m, %n: index) {
  // expected-error @+1 {{'vrir.dispatch' op names @missing, which is not a function of this module}}
  vrir.dispatch @missing(%A, %n) shapes [0] values [1] : (!m, index) -> ()
  return
}

// -----

!m = !vrir.array<f64, 2, row_major>
func.func private @r(%A: !m, %n: index) {
  return
}
func.func @wrong_type(%A: !m, %n: i64) {
  // expected-error @+1 {{'vrir.dispatch' op has type '(!vrir.array<f64, 2, row_major>, i64) -> ()' but the region @r has type '(!vrir.array<f64, 2, row_major>, index) -> ()'}}
  vrir.dispatch @r(%A, %n) shapes [0] values [1] : (!m, i64) -> ()
  return
}

// -----

!m = !vrir.array<f64, 2, row_major>
func.func private @r(%A: !m, %n: index)
func.func @declaration(%A: !m, %n: index) {
  // expected-error @+1 {{'vrir.dispatch' op names @r, a declaration: a region has a body}}
  vrir.dispatch @r(%A, %n) shapes [0] values [1] : (!m, index) -> ()
  return
}

// -----

!m = !vrir.array<f64, 2, row_major>
func.func @shape_of_scalar(%A: !m, %n: index) {
  // expected-error @+1 {{'vrir.dispatch' op critical_shapes names operand #1 of type 'index', not an array}}
  vrir.dispatch @r(%A, %n) shapes [0, 1] values [] : (!m, index) -> ()
  return
}

// -----

!m = !vrir.array<f64, 2, row_major>
func.func @value_of_float_array(%A: !m, %n: index) {
  // expected-error @+1 {{'vrir.dispatch' op critical_values names operand #0 of type '!vrir.array<f64, 2, row_major>', not an integer or an integer array}}
  vrir.dispatch @r(%A, %n) shapes [] values [0] : (!m, index) -> ()
  return
}

// -----

!m = !vrir.array<f64, 2, row_major>
func.func @out_of_range(%A: !m, %n: index) {
  // expected-error @+1 {{'vrir.dispatch' op critical_values names operand #2 of 2}}
  vrir.dispatch @r(%A, %n) shapes [] values [2] : (!m, index) -> ()
  return
}

// -----

!m = !vrir.array<f64, 2, row_major>
func.func @unordered(%A: !m, %B: !m) {
  // expected-error @+1 {{'vrir.dispatch' op critical_shapes must list operand positions once each, in increasing order}}
  vrir.dispatch @r(%A, %B) shapes [1, 0] values [] : (!m, !m) -> ()
  return
}

// -----

// expected-error @+1 {{'vrir.region' is a dictionary of strings source, signature and options on a function}}
func.func private @r_bad_region() attributes {vrir.region = {source = "module {}", signature = 3}}

// -----

// expected-error @+1 {{'vrir.region_facts' is an array of dictionaries (one per argument) on a function}}
func.func private @r_bad_facts(index) attributes {vrir.region_facts = [3]}
