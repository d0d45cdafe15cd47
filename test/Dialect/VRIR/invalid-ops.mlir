// RUN: vr-opt %s -split-input-file -verify-diagnostics
//
// Verifier errors of the VRIR operations outside parallel loops and GPU
// sections (VRIROps.cpp), and the ODS constraint errors a frontend hits.

//===----------------------------------------------------------------------===//
// ODS constraints
//===----------------------------------------------------------------------===//

// A float used as an index.
func.func @load_float_index(%A: !vrir.array<f64, 1, row_major>, %f: f32) {
  // expected-error @+1 {{'vrir.load' op operand #1 must be variadic of index, i32 or i64, but got 'f32'}}
  %x = vrir.load %A[%f] : !vrir.array<f64, 1, row_major>[f32]
  return
}

// -----

func.func @store_float_index(%A: !vrir.array<f64, 1, row_major>, %x: f64, %f: f64) {
  // expected-error @+1 {{must be variadic of index, i32 or i64, but got 'f64'}}
  vrir.store %x, %A[%f] : !vrir.array<f64, 1, row_major>[f64]
  return
}

// -----

func.func @range_float_bound(%i: index, %f: f64) {
  // expected-error @+1 {{'vrir.range' op operand #1 must be index, but got 'f64'}}
  %r = "vrir.range"(%i, %f) : (index, f64) -> !vrir.range
  return
}

// -----

// The stored value does not have the element type of the array (built
// through the generic form, as a frontend using the C++ API would).
func.func @store_value_type(%A: !vrir.array<f64, 1, row_major>, %x: f32, %i: index) {
  // expected-error @+1 {{'vrir.store' op failed to verify that result type is the element type of the array}}
  "vrir.store"(%x, %A, %i) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (f32, !vrir.array<f64, 1, row_major>, index) -> ()
  return
}

// -----

// The same mistake in the custom syntax is a type clash of the value.
func.func @store_value_type_custom(%A: !vrir.array<f64, 1, row_major>, %x: f32, %i: index) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%x' expects different type than prior uses: 'f64' vs 'f32'}}
  vrir.store %x, %A[%i] : !vrir.array<f64, 1, row_major>[index]
  return
}

// -----

func.func @load_result_type(%A: !vrir.array<f64, 1, row_major>, %i: index) {
  // expected-error @+1 {{'vrir.load' op failed to verify that result type is the element type of the array}}
  %x = "vrir.load"(%A, %i) : (!vrir.array<f64, 1, row_major>, index) -> f32
  return
}

// -----

func.func @write_value_type(%v: !vrir.var<f64>, %x: f32) {
  // expected-error @+1 {{'vrir.write' op failed to verify that value type is the variable's value type}}
  "vrir.write"(%x, %v) : (f32, !vrir.var<f64>) -> ()
  return
}

// -----

func.func @read_result_type(%v: !vrir.var<f64>) {
  // expected-error @+1 {{'vrir.read' op failed to verify that result type is the variable's value type}}
  %x = "vrir.read"(%v) : (!vrir.var<f64>) -> i64
  return
}

// -----

func.func @binary_non_vrir_scalar(%x: i4) {
  // expected-error @+1 {{'vrir.binary' op operand #0 must be VRIR array or scalar, but got 'i4'}}
  %y = vrir.binary add %x, %x : i4, i4 -> i4
  return
}

// -----

// A vrir.yield outside vrir.pfor and vrir.gpu_section.
func.func @yield_outside() {
  // expected-error @+1 {{'vrir.yield' op expects parent op to be one of 'vrir.pfor, vrir.gpu_section, vrir.map, vrir.store_map'}}
  vrir.yield
}

// -----

func.func @yield_in_scf_if(%c: i1) {
  scf.if %c {
    // expected-error @+1 {{'vrir.yield' op expects parent op to be one of 'vrir.pfor, vrir.gpu_section, vrir.map, vrir.store_map'}}
    vrir.yield
  }
  return
}

// -----

func.func @dim_negative(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.dim' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %n = vrir.dim %A, -1 : !vrir.array<f64, 2, row_major>
  return
}

//===----------------------------------------------------------------------===//
// Domains and allocation
//===----------------------------------------------------------------------===//

// -----

func.func @domain_range_count(%r: !vrir.range) {
  // expected-error @+1 {{'vrir.domain' op builds a domain of rank 2 from 1 ranges; give one range per dimension}}
  %d = vrir.domain %r : !vrir.domain<2>
  return
}

// -----

func.func @zeros_size_count(%n: index) {
  // expected-error @+1 {{'vrir.zeros' op has 1 sizes for an array of rank 2; give one size per dimension}}
  %A = vrir.zeros(%n) : !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @ones_size_count(%n: index) {
  // expected-error @+1 {{'vrir.ones' op has 2 sizes for an array of rank 1; give one size per dimension}}
  %A = vrir.ones(%n, %n) : !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @empty_strided(%n: index) {
  // expected-error @+1 {{'vrir.empty' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %A = vrir.empty(%n) : !vrir.array<f64, 1, strided>
  return
}

// -----

func.func @dim_out_of_range(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.dim' op dimension 2 is out of range for the array operand of rank 2}}
  %n = vrir.dim %A, 2 : !vrir.array<f64, 2, row_major>
  return
}

//===----------------------------------------------------------------------===//
// Element access: vrir.load / vrir.store
//===----------------------------------------------------------------------===//

// -----

func.func @load_too_many_indices(%A: !vrir.array<f64, 1, row_major>, %i: index) {
  // expected-error @+1 {{'vrir.load' op has 2 indices but the array operand has rank 1}}
  %x = vrir.load %A[%i, %i] : !vrir.array<f64, 1, row_major>[index, index]
  return
}

// -----

func.func @load_no_index(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.load' op needs at least one index for an array of rank 2}}
  %x = vrir.load %A[] {flattened} : !vrir.array<f64, 2, row_major>
  return
}

// -----

// Fewer indices than dimensions without 'flattened'.
func.func @load_too_few_indices(%A: !vrir.array<f64, 3, col_major>, %i: index) {
  // expected-error @+1 {{'vrir.load' op has 2 indices for an array of rank 3; give one index per dimension, set 'flattened' for MATLAB linear indexing, or use vrir.slice for NumPy implicit full slices}}
  %x = vrir.load %A[%i, %i] : !vrir.array<f64, 3, col_major>[index, index]
  return
}

// -----

func.func @store_too_few_indices(%A: !vrir.array<f64, 2, col_major>, %x: f64, %i: index) {
  // expected-error @+1 {{'vrir.store' op has 1 indices for an array of rank 2; give one index per dimension}}
  vrir.store %x, %A[%i] : !vrir.array<f64, 2, col_major>[index]
  return
}

// -----

func.func @load_flags_count(%A: !vrir.array<f64, 2, row_major>, %i: index) {
  // expected-error @+1 {{'vrir.load' op has 2 indices but 1 entries in 'flags'; give one #vrir.index<...> per index}}
  %x = vrir.load %A[%i, %i] flags [#vrir.index<lower>] : !vrir.array<f64, 2, row_major>[index, index]
  return
}

// -----

func.func @store_flags_count(%A: !vrir.array<f64, 1, row_major>, %x: f64, %i: index) {
  // expected-error @+1 {{'vrir.store' op has 1 indices but 2 entries in 'flags'}}
  vrir.store %x, %A[%i] flags [#vrir.index<lower>, #vrir.index<upper>] : !vrir.array<f64, 1, row_major>[index]
  return
}

// -----

// Only element writes may grow.
func.func @load_grow(%A: !vrir.array<f64, 2, col_major>, %i: index) {
  // expected-error @+1 {{'vrir.load' op index #1 has the 'grow' flag, but only element writes (vrir.store) can grow an array}}
  %x = vrir.load %A[%i, %i] flags [#vrir.index<lower|upper>, #vrir.index<lower|grow>] : !vrir.array<f64, 2, col_major>[index, index]
  return
}

// -----

// A constant index below the index base of a MATLAB module fails its
// lower-bound check for sure.
module attributes {vrir.index_base = 1 : i64} {
  func.func @load_constant_below_base(%A: !vrir.array<f64, 1, col_major>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'vrir.load' op index #0 is the constant 0, below the module's index base 1}}
    %x = vrir.load %A[%c0] : !vrir.array<f64, 1, col_major>[index]
    return
  }
}

// -----

module attributes {vrir.index_base = 1 : i64} {
  func.func @store_constant_below_base(%A: !vrir.array<f64, 2, col_major>, %x: f64, %i: index) {
    %c0 = arith.constant 0 : i64
    // expected-error @+1 {{'vrir.store' op index #1 is the constant 0, below the module's index base 1}}
    vrir.store %x, %A[%i, %c0] : !vrir.array<f64, 2, col_major>[index, i64]
    return
  }
}

// -----

// A negative constant with an explicit lower-bound check (no wrap-around).
func.func @load_constant_negative(%A: !vrir.array<f64, 1, row_major>) {
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'vrir.load' op index #0 is the constant -1, below the module's index base 0}}
  %x = vrir.load %A[%m1] flags [#vrir.index<lower|upper>] : !vrir.array<f64, 1, row_major>[index]
  return
}

// -----

// Growth reallocates the array, which a view does not own.
func.func @store_grow_strided(%A: !vrir.array<f64, 1, strided>, %x: f64, %i: index) {
  // expected-error @+1 {{'vrir.store' op cannot grow a strided view: growth reallocates the array, which a view does not own}}
  %G = vrir.store %x, %A[%i] flags [#vrir.index<lower|grow>] : !vrir.array<f64, 1, strided>[index] -> !vrir.array<f64, 1, strided>
  return
}

// -----

// A growing store returns the (possibly new) array.
func.func @store_grow_no_result(%A: !vrir.array<f64, 1, col_major>, %x: f64, %i: index) {
  // expected-error @+1 {{'vrir.store' op has a 'grow' flag, so it must return the grown array (`-> type`)}}
  vrir.store %x, %A[%i] flags [#vrir.index<lower|grow>] : !vrir.array<f64, 1, col_major>[index]
  return
}

// -----

func.func @store_result_without_grow(%A: !vrir.array<f64, 2, col_major>, %x: f64, %i: index) {
  // expected-error @+1 {{'vrir.store' op returns a grown array but no index has the 'grow' flag}}
  %G = vrir.store %x, %A[%i, %i] flags [#vrir.index<lower|upper>, #vrir.index<lower>] : !vrir.array<f64, 2, col_major>[index, index] -> !vrir.array<f64, 2, col_major>
  return
}

// -----

// Without flags no index grows.
func.func @store_result_default_flags(%A: !vrir.array<f64, 1, col_major>, %x: f64, %i: index) {
  // expected-error @+1 {{'vrir.store' op returns a grown array but no index has the 'grow' flag}}
  %G = vrir.store %x, %A[%i] : !vrir.array<f64, 1, col_major>[index] -> !vrir.array<f64, 1, col_major>
  return
}

// -----

func.func @store_grown_type(%A: !vrir.array<f64, 2, col_major>, %x: f64, %i: index) {
  // expected-error @+1 {{'vrir.store' op grown array type '!vrir.array<f64, 2, row_major>' differs from the array operand type '!vrir.array<f64, 2, col_major>'}}
  %G = vrir.store %x, %A[%i, %i] flags [#vrir.index<grow>, #vrir.index<grow>] : !vrir.array<f64, 2, col_major>[index, index] -> !vrir.array<f64, 2, row_major>
  return
}

//===----------------------------------------------------------------------===//
// Slices
//===----------------------------------------------------------------------===//

// -----

func.func @slice_too_many_indices(%A: !vrir.array<f64, 1, row_major>, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.slice' op has 2 indices but the array operand has rank 1}}
  %s = vrir.slice %A[%r, %r] : !vrir.array<f64, 1, row_major>[!vrir.range, !vrir.range] -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @slice_flags_count(%A: !vrir.array<f64, 2, row_major>, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.slice' op has 1 indices but 2 entries in 'flags'}}
  %s = vrir.slice %A[%r] flags [#vrir.index<lower>, #vrir.index<lower>] : !vrir.array<f64, 2, row_major>[!vrir.range] -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @slice_grow(%A: !vrir.array<f64, 2, row_major>, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.slice' op index #0 has the 'grow' flag, but only element writes (vrir.store) can grow an array}}
  %s = vrir.slice %A[%r] flags [#vrir.index<grow>] : !vrir.array<f64, 2, row_major>[!vrir.range] -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @slice_element_type(%A: !vrir.array<f64, 2, row_major>, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.slice' op result element type 'f32' differs from the array operand's element type 'f64'}}
  %s = vrir.slice %A[%r] : !vrir.array<f64, 2, row_major>[!vrir.range] -> !vrir.array<f32, 2, strided>
  return
}

// -----

func.func @slice_single_element(%A: !vrir.array<f64, 2, row_major>, %i: index) {
  // expected-error @+1 {{'vrir.slice' op selects a single element; use vrir.load}}
  %s = vrir.slice %A[%i, %i] : !vrir.array<f64, 2, row_major>[index, index] -> !vrir.array<f64, 0, strided>
  return
}

// -----

// An integer index drops its dimension, a range keeps it, missing trailing
// indices keep theirs: [%i, %r] of a rank-3 array selects 2 dimensions.
func.func @slice_rank(%A: !vrir.array<f64, 3, row_major>, %i: index, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.slice' op selects 2 dimensions but the result type has rank 3}}
  %s = vrir.slice %A[%i, %r] : !vrir.array<f64, 3, row_major>[index, !vrir.range] -> !vrir.array<f64, 3, strided>
  return
}

// -----

func.func @slice_view_layout(%A: !vrir.array<f64, 2, row_major>, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.slice' op is a view (no 'copy'), so its result layout must be strided}}
  %s = vrir.slice %A[%r] : !vrir.array<f64, 2, row_major>[!vrir.range] -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @slice_copy_strided(%A: !vrir.array<f64, 2, col_major>, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.slice' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %s = vrir.slice %A[%r] {copy} : !vrir.array<f64, 2, col_major>[!vrir.range] -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @store_slice_too_many_indices(%A: !vrir.array<f64, 1, row_major>, %x: f64, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.store_slice' op has 2 indices but the array operand has rank 1}}
  vrir.store_slice %x, %A[%r, %r] : f64, !vrir.array<f64, 1, row_major>[!vrir.range, !vrir.range]
  return
}

// -----

func.func @store_slice_grow(%A: !vrir.array<f64, 1, col_major>, %x: f64, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.store_slice' op index #0 has the 'grow' flag, but only element writes (vrir.store) can grow an array}}
  vrir.store_slice %x, %A[%r] flags [#vrir.index<lower|grow>] : f64, !vrir.array<f64, 1, col_major>[!vrir.range]
  return
}

// -----

func.func @store_slice_element_type(%A: !vrir.array<f64, 2, row_major>, %x: f32, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.store_slice' op value element type 'f32' differs from the array operand's element type 'f64'}}
  vrir.store_slice %x, %A[%r] : f32, !vrir.array<f64, 2, row_major>[!vrir.range]
  return
}

// -----

// A[i, r] is 1-D; a 2-D value does not fit.
func.func @store_slice_rank(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, row_major>, %i: index, %r: !vrir.range) {
  // expected-error @+1 {{'vrir.store_slice' op value has rank 2, more than the rank 1 of the slice it is assigned to}}
  vrir.store_slice %B, %A[%i, %r] : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>[index, !vrir.range]
  return
}

//===----------------------------------------------------------------------===//
// Gather / scatter
//===----------------------------------------------------------------------===//

// -----

func.func @gather_index_element_type(%A: !vrir.array<f64, 1, row_major>, %I: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.gather' op index array must have i32 or i64 elements, got 'f64'}}
  %B = vrir.gather %A[%I] : !vrir.array<f64, 1, row_major>[!vrir.array<f64, 1, row_major>] -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @gather_axis(%A: !vrir.array<f64, 2, row_major>, %I: !vrir.array<i64, 1, row_major>) {
  // expected-error @+1 {{'vrir.gather' op axis 2 is out of range for the array operand of rank 2}}
  %B = vrir.gather %A[%I] {axis = 2 : i64} : !vrir.array<f64, 2, row_major>[!vrir.array<i64, 1, row_major>] -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @gather_axis_negative(%A: !vrir.array<f64, 2, row_major>, %I: !vrir.array<i64, 1, row_major>) {
  // expected-error @+1 {{'vrir.gather' op axis -1 is out of range for the array operand of rank 2}}
  %B = vrir.gather %A[%I] {axis = -1 : i64} : !vrir.array<f64, 2, row_major>[!vrir.array<i64, 1, row_major>] -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @gather_grow(%A: !vrir.array<f64, 1, row_major>, %I: !vrir.array<i32, 1, row_major>) {
  // expected-error @+1 {{'vrir.gather' op 'grow' is not allowed on a gather}}
  %B = vrir.gather %A[%I] flags <lower|grow> : !vrir.array<f64, 1, row_major>[!vrir.array<i32, 1, row_major>] -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @gather_element_type(%A: !vrir.array<f64, 1, row_major>, %I: !vrir.array<i32, 1, row_major>) {
  // expected-error @+1 {{'vrir.gather' op result element type 'f32' differs from the array operand's element type 'f64'}}
  %B = vrir.gather %A[%I] : !vrir.array<f64, 1, row_major>[!vrir.array<i32, 1, row_major>] -> !vrir.array<f32, 1, row_major>
  return
}

// -----

func.func @gather_rank(%A: !vrir.array<f64, 2, row_major>, %I: !vrir.array<i64, 2, row_major>) {
  // expected-error @+1 {{'vrir.gather' op result must have rank 3 (array rank - 1 + index array rank), got 2}}
  %B = vrir.gather %A[%I] : !vrir.array<f64, 2, row_major>[!vrir.array<i64, 2, row_major>] -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @gather_strided(%A: !vrir.array<f64, 1, row_major>, %I: !vrir.array<i64, 1, row_major>) {
  // expected-error @+1 {{'vrir.gather' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %B = vrir.gather %A[%I] : !vrir.array<f64, 1, row_major>[!vrir.array<i64, 1, row_major>] -> !vrir.array<f64, 1, strided>
  return
}

// -----

func.func @scatter_index_element_type(%A: !vrir.array<f64, 1, row_major>, %I: !vrir.array<i1, 1, row_major>, %x: f64) {
  // expected-error @+1 {{'vrir.scatter' op index array must have i32 or i64 elements, got 'i1'}}
  vrir.scatter %x, %A[%I] : f64, !vrir.array<f64, 1, row_major>[!vrir.array<i1, 1, row_major>]
  return
}

// -----

func.func @scatter_axis(%A: !vrir.array<f64, 1, row_major>, %I: !vrir.array<i64, 1, row_major>, %x: f64) {
  // expected-error @+1 {{'vrir.scatter' op axis 1 is out of range for the array operand of rank 1}}
  vrir.scatter %x, %A[%I] {axis = 1 : i64} : f64, !vrir.array<f64, 1, row_major>[!vrir.array<i64, 1, row_major>]
  return
}

// -----

func.func @scatter_grow(%A: !vrir.array<f64, 1, col_major>, %I: !vrir.array<i64, 1, row_major>, %x: f64) {
  // expected-error @+1 {{'vrir.scatter' op 'grow' is not allowed on a scatter}}
  vrir.scatter %x, %A[%I] flags <grow> : f64, !vrir.array<f64, 1, col_major>[!vrir.array<i64, 1, row_major>]
  return
}

// -----

func.func @scatter_element_type(%A: !vrir.array<f64, 1, row_major>, %I: !vrir.array<i64, 1, row_major>, %x: i64) {
  // expected-error @+1 {{'vrir.scatter' op value element type 'i64' differs from the array operand's element type 'f64'}}
  vrir.scatter %x, %A[%I] : i64, !vrir.array<f64, 1, row_major>[!vrir.array<i64, 1, row_major>]
  return
}

// -----

func.func @scatter_rank(%A: !vrir.array<f64, 1, row_major>, %I: !vrir.array<i64, 1, row_major>, %B: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.scatter' op value has rank 2, more than the rank 1 of the selection it is assigned to}}
  vrir.scatter %B, %A[%I] : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major>[!vrir.array<i64, 1, row_major>]
  return
}

//===----------------------------------------------------------------------===//
// Element-wise operations
//===----------------------------------------------------------------------===//

// -----

func.func @unary_scalar_to_array(%x: f64) {
  // expected-error @+1 {{'vrir.unary' op has only scalar operands, so its result must be a scalar, got '!vrir.array<f64, 1, row_major>'}}
  %y = vrir.unary neg %x : f64 -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @unary_array_to_scalar(%A: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.unary' op has an array operand, so its result must be an array, got 'f64'}}
  %y = vrir.unary neg %A : !vrir.array<f64, 1, row_major> -> f64
  return
}

// -----

func.func @unary_rank(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.unary' op result has rank 1 but the operands broadcast to rank 2}}
  %y = vrir.unary neg %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

// Element-wise ops on arrays create a new, contiguous array.
func.func @unary_strided(%A: !vrir.array<f64, 1, strided>) {
  // expected-error @+1 {{'vrir.unary' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %y = vrir.unary neg %A : !vrir.array<f64, 1, strided> -> !vrir.array<f64, 1, strided>
  return
}

// -----

func.func @unary_neg_bool(%x: i1) {
  // expected-error @+1 {{'vrir.unary' op 'neg' needs a numeric operand, got 'i1'}}
  %y = vrir.unary neg %x : i1 -> i1
  return
}

// -----

func.func @unary_not_float(%x: f64) {
  // expected-error @+1 {{'vrir.unary' op 'not' needs an i1 or integer operand, got 'f64'}}
  %y = vrir.unary not %x : f64 -> f64
  return
}

// -----

func.func @unary_abs_bool(%A: !vrir.array<i1, 1, row_major>) {
  // expected-error @+1 {{'vrir.unary' op 'abs' needs a numeric operand, got 'i1'}}
  %y = vrir.unary abs %A : !vrir.array<i1, 1, row_major> -> !vrir.array<i1, 1, row_major>
  return
}

// -----

func.func @unary_sqrt_int(%x: i64) {
  // expected-error @+1 {{'vrir.unary' op 'sqrt' needs a floating-point operand (cast integers first), got 'i64'}}
  %y = vrir.unary sqrt %x : i64 -> i64
  return
}

// -----

func.func @unary_exp_complex_int(%x: complex<i32>) {
  // expected-error @+1 {{'vrir.unary' op 'exp' needs a floating-point operand (cast integers first), got 'complex<i32>'}}
  %y = vrir.unary exp %x : complex<i32> -> complex<i32>
  return
}

// -----

func.func @unary_floor_complex(%x: complex<f64>) {
  // expected-error @+1 {{'vrir.unary' op 'floor' needs a real floating-point operand, got 'complex<f64>'}}
  %y = vrir.unary floor %x : complex<f64> -> complex<f64>
  return
}

// -----

func.func @unary_real_bool(%x: i1) {
  // expected-error @+1 {{'vrir.unary' op 'real' needs a numeric operand, got 'i1'}}
  %y = vrir.unary real %x : i1 -> i1
  return
}

// -----

func.func @unary_conj_bool(%x: i1) {
  // expected-error @+1 {{'vrir.unary' op 'conj' needs a numeric operand, got 'i1'}}
  %y = vrir.unary conj %x : i1 -> i1
  return
}

// -----

// abs of a complex is real.
func.func @unary_abs_complex_result(%x: complex<f64>) {
  // expected-error @+1 {{'vrir.unary' op 'abs' of 'complex<f64>' gives 'f64', but the result element type is 'complex<f64>'}}
  %y = vrir.unary abs %x : complex<f64> -> complex<f64>
  return
}

// -----

func.func @unary_sqrt_result(%A: !vrir.array<f32, 1, row_major>) {
  // expected-error @+1 {{'vrir.unary' op 'sqrt' of 'f32' gives 'f32', but the result element type is 'f64'}}
  %y = vrir.unary sqrt %A : !vrir.array<f32, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @binary_operand_elements(%x: f64, %y: f32) {
  // expected-error @+1 {{'vrir.binary' op operand element types differ: 'f64' and 'f32'; insert a vrir.cast}}
  %z = vrir.binary add %x, %y : f64, f32 -> f64
  return
}

// -----

func.func @binary_rank(%A: !vrir.array<f64, 2, row_major>, %x: f64) {
  // expected-error @+1 {{'vrir.binary' op result has rank 1 but the operands broadcast to rank 2}}
  %z = vrir.binary mul %A, %x : !vrir.array<f64, 2, row_major>, f64 -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @binary_scalar_result(%A: !vrir.array<f64, 1, row_major>, %x: f64) {
  // expected-error @+1 {{'vrir.binary' op has an array operand, so its result must be an array, got 'f64'}}
  %z = vrir.binary sub %x, %A : f64, !vrir.array<f64, 1, row_major> -> f64
  return
}

// -----

func.func @binary_strided(%A: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.binary' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %z = vrir.binary add %A, %A : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, strided>
  return
}

// -----

func.func @binary_result_element(%x: i32) {
  // expected-error @+1 {{'vrir.binary' op result element type 'i64' differs from the operand element type 'i32'}}
  %z = vrir.binary add %x, %x : i32, i32 -> i64
  return
}

// -----

func.func @binary_and_float(%x: f64) {
  // expected-error @+1 {{'vrir.binary' op 'and' needs i1 or integer operands, got 'f64'}}
  %z = vrir.binary and %x, %x : f64, f64 -> f64
  return
}

// -----

func.func @binary_rem_complex(%x: complex<f64>) {
  // expected-error @+1 {{'vrir.binary' op 'rem' needs real numeric operands, got 'complex<f64>'}}
  %z = vrir.binary rem %x, %x : complex<f64>, complex<f64> -> complex<f64>
  return
}

// -----

func.func @binary_max_bool(%x: i1) {
  // expected-error @+1 {{'vrir.binary' op 'max' needs real numeric operands, got 'i1'}}
  %z = vrir.binary max %x, %x : i1, i1 -> i1
  return
}

// -----

func.func @binary_add_bool(%A: !vrir.array<i1, 1, row_major>) {
  // expected-error @+1 {{'vrir.binary' op 'add' is arithmetic; cast i1 operands to a numeric type first}}
  %z = vrir.binary add %A, %A : !vrir.array<i1, 1, row_major>, !vrir.array<i1, 1, row_major> -> !vrir.array<i1, 1, row_major>
  return
}

// -----

func.func @cmp_operand_elements(%x: i32, %y: i64) {
  // expected-error @+1 {{'vrir.cmp' op operand element types differ: 'i32' and 'i64'; insert a vrir.cast}}
  %z = vrir.cmp lt %x, %y : i32, i64 -> i1
  return
}

// -----

func.func @cmp_array_to_scalar(%A: !vrir.array<f64, 1, row_major>, %x: f64) {
  // expected-error @+1 {{'vrir.cmp' op has an array operand, so its result must be an array, got 'i1'}}
  %z = vrir.cmp lt %A, %x : !vrir.array<f64, 1, row_major>, f64 -> i1
  return
}

// -----

func.func @cmp_result_element(%A: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.cmp' op result element type must be i1, got 'f64'}}
  %z = vrir.cmp lt %A, %A : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @cmp_strided(%A: !vrir.array<f64, 1, row_major>, %x: f64) {
  // expected-error @+1 {{'vrir.cmp' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %z = vrir.cmp ge %A, %x : !vrir.array<f64, 1, row_major>, f64 -> !vrir.array<i1, 1, strided>
  return
}

// -----

func.func @cmp_complex_order(%x: complex<f64>) {
  // expected-error @+1 {{'vrir.cmp' op complex operands are only ordered by 'eq' and 'ne'}}
  %z = vrir.cmp lt %x, %x : complex<f64>, complex<f64> -> i1
  return
}

// -----

func.func @select_condition(%c: f64, %x: f64) {
  // expected-error @+1 {{'vrir.select' op condition element type must be i1, got 'f64'}}
  %z = vrir.select %c, %x, %x : f64, f64, f64 -> f64
  return
}

// -----

func.func @select_value_elements(%c: i1, %x: f64, %y: i64) {
  // expected-error @+1 {{'vrir.select' op operand element types differ: 'f64' and 'i64'; insert a vrir.cast}}
  %z = vrir.select %c, %x, %y : i1, f64, i64 -> f64
  return
}

// -----

// The condition takes part in broadcasting.
func.func @select_broadcast(%C: !vrir.array<i1, 2, row_major>, %x: f64) {
  // expected-error @+1 {{'vrir.select' op result has rank 1 but the operands broadcast to rank 2}}
  %z = vrir.select %C, %x, %x : !vrir.array<i1, 2, row_major>, f64, f64 -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @select_strided(%C: !vrir.array<i1, 1, row_major>, %x: f64) {
  // expected-error @+1 {{'vrir.select' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %z = vrir.select %C, %x, %x : !vrir.array<i1, 1, row_major>, f64, f64 -> !vrir.array<f64, 1, strided>
  return
}

// -----

func.func @select_result_element(%c: i1, %x: f64) {
  // expected-error @+1 {{'vrir.select' op result element type 'f32' differs from the element type of the values 'f64'}}
  %z = vrir.select %c, %x, %x : i1, f64, f64 -> f32
  return
}

// -----

func.func @cast_scalar_to_array(%x: f64) {
  // expected-error @+1 {{'vrir.cast' op converts element types only: operand 'f64' and result '!vrir.array<f32, 1, row_major>' must both be scalars or both arrays of one rank}}
  %y = vrir.cast %x : f64 to !vrir.array<f32, 1, row_major>
  return
}

// -----

func.func @cast_rank(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.cast' op converts element types only}}
  %y = vrir.cast %A : !vrir.array<f64, 2, row_major> to !vrir.array<i64, 1, row_major>
  return
}

// -----

func.func @cast_strided(%A: !vrir.array<f64, 1, strided>) {
  // expected-error @+1 {{'vrir.cast' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %y = vrir.cast %A : !vrir.array<f64, 1, strided> to !vrir.array<f32, 1, strided>
  return
}

// -----

func.func @copy_element_type(%A: !vrir.array<f64, 2, strided>) {
  // expected-error @+1 {{'vrir.copy' op result '!vrir.array<f32, 2, row_major>' must have the rank and element type of the operand '!vrir.array<f64, 2, strided>'}}
  %B = vrir.copy %A : !vrir.array<f64, 2, strided> to !vrir.array<f32, 2, row_major>
  return
}

// -----

func.func @copy_rank(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.copy' op result '!vrir.array<f64, 1, row_major>' must have the rank and element type of the operand}}
  %B = vrir.copy %A : !vrir.array<f64, 2, row_major> to !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @copy_strided(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.copy' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %B = vrir.copy %A : !vrir.array<f64, 2, row_major> to !vrir.array<f64, 2, strided>
  return
}

//===----------------------------------------------------------------------===//
// Linear algebra and reductions
//===----------------------------------------------------------------------===//

// -----

func.func @cholesky_integers(%A: !vrir.array<i64, 2, row_major>) {
  // expected-error @+1 {{'vrir.cholesky' op takes f32 or f64 matrices (LAPACK), got 'i64'; insert a vrir.cast}}
  %L = vrir.cholesky %A : !vrir.array<i64, 2, row_major> -> !vrir.array<i64, 2, row_major>
  return
}

// -----

func.func @inv_complex(%A: !vrir.array<complex<f64>, 2, row_major>) {
  // expected-error @+1 {{'vrir.inv' op takes f32 or f64 matrices (LAPACK), got 'complex<f64>'}}
  %X = vrir.inv %A : !vrir.array<complex<f64>, 2, row_major> -> !vrir.array<complex<f64>, 2, row_major>
  return
}

// -----

func.func @inv_rank(%v: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.inv' op needs a matrix (rank 2), got rank 1}}
  %X = vrir.inv %v : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @cholesky_strided_result(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.cholesky' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %L = vrir.cholesky %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @cholesky_result_rank(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.cholesky' op result must be a rank-2 array of 'f64', got '!vrir.array<f32, 2, row_major>'}}
  %L = vrir.cholesky %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f32, 2, row_major>
  return
}

// -----

func.func @solve_rhs_rank(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 3, row_major>) {
  // expected-error @+1 {{'vrir.solve' op right-hand side must have rank 1 or 2, got 3}}
  %X = vrir.solve %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 3, row_major> -> !vrir.array<f64, 3, row_major>
  return
}

// -----

func.func @solve_triangle(%A: !vrir.array<f64, 2, row_major>, %b: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'triangular' [lower, upper]}}
  %x = vrir.solve %A, %b triangular diagonal : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @solve_elements(%A: !vrir.array<f64, 2, row_major>, %b: !vrir.array<f32, 1, row_major>) {
  // expected-error @+1 {{'vrir.solve' op operand element types differ: 'f64' and 'f32'; insert a vrir.cast}}
  %x = vrir.solve %A, %b : !vrir.array<f64, 2, row_major>, !vrir.array<f32, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @solve_result_rank(%A: !vrir.array<f64, 2, row_major>, %b: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.solve' op result must be a rank-1 array of 'f64', got '!vrir.array<f64, 2, row_major>'}}
  %x = vrir.solve %A, %b : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @slogdet_result(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.slogdet' op result type 'f32' differs from the element type 'f64'}}
  %s, %l = vrir.slogdet %A : !vrir.array<f64, 2, row_major> -> f64, f32
  return
}

// -----

func.func @det_result(%A: !vrir.array<f32, 2, row_major>) {
  // expected-error @+1 {{'vrir.det' op result type 'f64' differs from the element type 'f32'}}
  %d = vrir.det %A : !vrir.array<f32, 2, row_major> -> f64
  return
}

// -----

func.func @matmul_rank(%A: !vrir.array<f64, 2, row_major>, %v: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.matmul' op operand #1 must have rank 2, got 1}}
  %C = vrir.matmul %A, %v : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @matmul_elements(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f32, 2, row_major>) {
  // expected-error @+1 {{'vrir.matmul' op operand element types differ: 'f64' and 'f32'; insert a vrir.cast}}
  %C = vrir.matmul %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f32, 2, row_major> -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @matmul_bool(%A: !vrir.array<i1, 2, row_major>) {
  // expected-error @+1 {{'vrir.matmul' op needs numeric operands, got 'i1'}}
  %C = vrir.matmul %A, %A : !vrir.array<i1, 2, row_major>, !vrir.array<i1, 2, row_major> -> !vrir.array<i1, 2, row_major>
  return
}

// -----

func.func @matmul_result(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.matmul' op result must be a rank-2 array of 'f64', got '!vrir.array<f64, 1, row_major>'}}
  %C = vrir.matmul %A, %A : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @matmul_strided(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.matmul' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %C = vrir.matmul %A, %A : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @matvec_rank(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.matvec' op operand #1 must have rank 1, got 2}}
  %y = vrir.matvec %A, %A : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @matvec_matrix_rank(%v: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.matvec' op operand #0 must have rank 2, got 1}}
  %y = vrir.matvec %v, %v : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @matvec_result(%A: !vrir.array<f32, 2, row_major>, %v: !vrir.array<f32, 1, row_major>) {
  // expected-error @+1 {{'vrir.matvec' op result must be a rank-1 array of 'f32', got '!vrir.array<f64, 1, row_major>'}}
  %y = vrir.matvec %A, %v : !vrir.array<f32, 2, row_major>, !vrir.array<f32, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @transpose_element(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.transpose' op result '!vrir.array<i64, 2, row_major>' must have the rank and element type of the operand '!vrir.array<f64, 2, row_major>'}}
  %B = vrir.transpose %A : !vrir.array<f64, 2, row_major> to !vrir.array<i64, 2, row_major>
  return
}

// -----

func.func @transpose_strided(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.transpose' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %B = vrir.transpose %A : !vrir.array<f64, 2, row_major> to !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @reduce_bool(%A: !vrir.array<i1, 1, row_major>) {
  // expected-error @+1 {{'vrir.reduce' op 'sum' of i1 elements; cast to a numeric type first}}
  %s = vrir.reduce sum %A : !vrir.array<i1, 1, row_major> -> i1
  return
}

// -----

func.func @reduce_min_complex(%A: !vrir.array<complex<f64>, 1, row_major>) {
  // expected-error @+1 {{'vrir.reduce' op 'min' is not defined on complex elements}}
  %s = vrir.reduce min %A : !vrir.array<complex<f64>, 1, row_major> -> complex<f64>
  return
}

// -----

func.func @reduce_result_element(%A: !vrir.array<i32, 2, row_major>) {
  // expected-error @+1 {{'vrir.reduce' op result element type 'i64' differs from the operand element type 'i32'}}
  %s = vrir.reduce sum %A : !vrir.array<i32, 2, row_major> -> i64
  return
}

// -----

func.func @reduce_axis_rank1(%A: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.reduce' op axis 1 is out of range for the operand of rank 1}}
  %s = vrir.reduce sum %A axis 1 : !vrir.array<f64, 1, row_major> -> f64
  return
}

// -----

func.func @reduce_axis_rank2(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.reduce' op axis 2 is out of range for the operand of rank 2}}
  %s = vrir.reduce prod %A axis 2 : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @reduce_all_to_array(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.reduce' op reduces to a scalar, but the result type is '!vrir.array<f64, 1, row_major>'}}
  %s = vrir.reduce max %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @reduce_axis_result_rank(%A: !vrir.array<f64, 3, col_major>) {
  // expected-error @+1 {{'vrir.reduce' op reducing axis 1 of a rank-3 array gives a rank-2 array, but the result type is '!vrir.array<f64, 1, row_major>'}}
  %s = vrir.reduce sum %A axis 1 : !vrir.array<f64, 3, col_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @reduce_axis_strided(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.reduce' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %s = vrir.reduce sum %A axis 0 : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, strided>
  return
}

// -----

// Constant indices wider than 64 bits are left to run time, without crashing.
func.func @huge_constant_index(%A: !vrir.array<f64, 1, row_major>) {
  %c = arith.constant 18446744073709551615 : i128
  // expected-error @+1 {{'vrir.load' op operand #1 must be variadic of index, i32 or i64, but got 'i128'}}
  %x = vrir.load %A[%c] : !vrir.array<f64, 1, row_major>[i128]
  return
}

// -----

func.func @bool_index(%A: !vrir.array<f64, 1, row_major>, %c: i1) {
  // expected-error @+1 {{'vrir.load' op operand #1 must be variadic of index, i32 or i64, but got 'i1'}}
  %x = vrir.load %A[%c] : !vrir.array<f64, 1, row_major>[i1]
  return
}

// -----

func.func @map_argument_count(%A: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.map' op body has 2 arguments but the op has 1 inputs}}
  %r = vrir.map %A : (!vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  ^bb0(%a: f64, %b: f64):
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @map_argument_type(%A: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.map' op body argument #0 has type 'f32' but input #0 has elements of type 'f64'}}
  %r = vrir.map %A : (!vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  ^bb0(%a: f32):
    %e = arith.extf %a : f32 to f64
    vrir.yield %e : f64
  }
  return
}

// -----

func.func @map_yield_type(%A: !vrir.array<f64, 1, row_major>) {
  %r = vrir.map %A : (!vrir.array<f64, 1, row_major>) -> !vrir.array<i64, 1, row_major> {
  ^bb0(%a: f64):
    // expected-error @+1 {{'vrir.yield' op in a 'vrir.map' yields one 'i64' (the result's element type)}}
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @map_reduce_to_array(%A: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.map' op reduce(sum) gives a scalar, but the result type is '!vrir.array<f64, 1, row_major>'}}
  %r = vrir.map %A reduce(sum) : (!vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  ^bb0(%a: f64):
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @map_reduce_scalars(%x: f64) {
  // expected-error @+1 {{'vrir.map' op reduce(sum) needs an array input}}
  %r = vrir.map %x reduce(sum) : (f64) -> f64 {
  ^bb0(%a: f64):
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @map_reduce_bool(%A: !vrir.array<i1, 1, row_major>) {
  // expected-error @+1 {{'vrir.map' op reduce(sum) of i1 elements}}
  %r = vrir.map %A reduce(sum) : (!vrir.array<i1, 1, row_major>) -> i1 {
  ^bb0(%a: i1):
    vrir.yield %a : i1
  }
  return
}

// -----

func.func @map_reduce_complex_min(%A: !vrir.array<complex<f64>, 1, row_major>) {
  // expected-error @+1 {{'vrir.map' op reduce(min) is not defined on complex elements}}
  %r = vrir.map %A reduce(min) : (!vrir.array<complex<f64>, 1, row_major>) -> complex<f64> {
  ^bb0(%a: complex<f64>):
    vrir.yield %a : complex<f64>
  }
  return
}

// -----

func.func @map_reduce_yield_type(%A: !vrir.array<f64, 1, row_major>) {
  %r = vrir.map %A reduce(sum) : (!vrir.array<f64, 1, row_major>) -> f32 {
  ^bb0(%a: f64):
    // expected-error @+1 {{'vrir.yield' op in a 'vrir.map' yields one 'f32' (the result's element type)}}
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @store_map_scalars(%A: !vrir.array<f64, 1, row_major>, %x: f64) {
  // expected-error @+1 {{'vrir.store_map' op needs an array input (a scalar is assigned by 'vrir.store_slice')}}
  vrir.store_map %x into %A[] : (f64) -> !vrir.array<f64, 1, row_major> {
  ^bb0(%a: f64):
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @store_map_rank(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, row_major>, %i: index) {
  // expected-error @+1 {{'vrir.store_map' op input #0 has rank 2, more than the rank 1 of the slice it is assigned to}}
  vrir.store_map %B into %A[%i] : (!vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 2, row_major>[index] {
  ^bb0(%a: f64):
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @store_map_yield(%A: !vrir.array<f64, 1, row_major>, %B: !vrir.array<i64, 1, row_major>) {
  vrir.store_map %B into %A[] : (!vrir.array<i64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  ^bb0(%a: i64):
    // expected-error @+1 {{'vrir.yield' op in a 'vrir.store_map' yields one 'f64' (the array's element type)}}
    vrir.yield %a : i64
  }
  return
}

// -----

func.func @store_map_body(%A: !vrir.array<f64, 1, row_major>, %B: !vrir.array<f64, 1, row_major>, %v: !vrir.var<f64>) {
  // expected-error @+1 {{'vrir.store_map' op body may only hold side-effect free scalar ops, found 'vrir.write'}}
  vrir.store_map %B into %A[] : (!vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  ^bb0(%a: f64):
    vrir.write %a, %v : !vrir.var<f64>
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @map_rank(%A: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.map' op result has rank 2 but the operands broadcast to rank 1}}
  %r = vrir.map %A : (!vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 2, row_major> {
  ^bb0(%a: f64):
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @map_side_effect(%A: !vrir.array<f64, 1, row_major>, %v: !vrir.var<f64>) {
  // expected-error @+1 {{'vrir.map' op body may only hold side-effect free scalar ops, found 'vrir.write'}}
  %r = vrir.map %A : (!vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  ^bb0(%a: f64):
    vrir.write %a, %v : !vrir.var<f64>
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @map_array_in_body(%A: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.map' op body computes on scalars, but 'vrir.dim' takes or returns an array}}
  %r = vrir.map %A : (!vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  ^bb0(%a: f64):
    %n = vrir.dim %A, 0 : !vrir.array<f64, 1, row_major>
    vrir.yield %a : f64
  }
  return
}

// -----

func.func @map_scalar_result(%x: f64) {
  // expected-error @+1 {{'vrir.map' op without 'reduce' returns an array, got 'f64'}}
  %r = "vrir.map"(%x) ({
  ^bb0(%a: f64):
    vrir.yield %a : f64
  }) : (f64) -> f64
  return
}

// -----

// Views: vrir.permute, vrir.expand_dims, vrir.reshape.

func.func @permute_too_short(%A: !vrir.array<f64, 2, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.permute' op permutation has 1 entries for an array operand of rank 2; give one per dimension}}
  %r = vrir.permute %A [0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @permute_out_of_range(%A: !vrir.array<f64, 2, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.permute' op permutation entry #1 is 2, not a dimension of the array operand of rank 2}}
  %r = vrir.permute %A [0, 2] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @permute_repeated(%A: !vrir.array<f64, 2, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.permute' op permutation names dimension 1 twice; it must name each dimension once}}
  %r = vrir.permute %A [1, 1] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @permute_rank(%A: !vrir.array<f64, 2, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.permute' op result has rank 3 but the array operand has rank 2}}
  %r = vrir.permute %A [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 3, strided>
  return
}

// -----

func.func @permute_element_type(%A: !vrir.array<f64, 2, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.permute' op result element type 'f32' differs from the array operand's element type 'f64'}}
  %r = vrir.permute %A [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f32, 2, col_major>
  return
}

// -----

func.func @permute_layout_col_major(%A: !vrir.array<f64, 2, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.permute' op result layout must be col_major (a row_major matrix read by columns), got strided}}
  %r = vrir.permute %A [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @permute_layout_strided(%A: !vrir.array<f64, 2, col_major>, %n: index) {
  // expected-error @+1 {{'vrir.permute' op result layout must be strided (a permuted view has arbitrary strides), got row_major}}
  %r = vrir.permute %A [1, 0] : !vrir.array<f64, 2, col_major> -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @expand_dims_rank(%A: !vrir.array<f64, 1, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.expand_dims' op result has rank 2 but inserting 2 dimensions into the array operand of rank 1 gives rank 3}}
  %r = vrir.expand_dims %A [0, 1] : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @expand_dims_out_of_range(%A: !vrir.array<f64, 1, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.expand_dims' op position #0 is 2, not a dimension of the result of rank 2}}
  %r = vrir.expand_dims %A [2] : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @expand_dims_order(%A: !vrir.array<f64, 1, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.expand_dims' op positions must be strictly increasing, but 0 follows 2}}
  %r = vrir.expand_dims %A [2, 0] : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 3, row_major>
  return
}

// -----

func.func @expand_dims_element_type(%A: !vrir.array<f64, 1, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.expand_dims' op result element type 'i64' differs from the array operand's element type 'f64'}}
  %r = vrir.expand_dims %A [0] : !vrir.array<f64, 1, row_major> -> !vrir.array<i64, 2, row_major>
  return
}

// -----

func.func @expand_dims_layout(%A: !vrir.array<f64, 1, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.expand_dims' op result layout must be row_major (dimensions of size 1 keep the operand's layout), got strided}}
  %r = vrir.expand_dims %A [0] : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 2, strided>
  return
}

// -----

// Complex part views (vrir.part_view, vrir.memref_part_view).

func.func @part_view_of_real(%A: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.part_view' op needs a complex array operand, got elements of 'f64' (the parts of a real array are the array and zeros)}}
  %r = vrir.part_view real %A : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, strided>
  return
}

// -----

func.func @part_view_element_type(%Z: !vrir.array<complex<f64>, 1, row_major>) {
  // expected-error @+1 {{'vrir.part_view' op result element type 'f32' must be 'f64', the component type of 'complex<f64>'}}
  %r = vrir.part_view imag %Z : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<f32, 1, strided>
  return
}

// -----

func.func @part_view_rank(%Z: !vrir.array<complex<f64>, 1, row_major>) {
  // expected-error @+1 {{'vrir.part_view' op result has rank 2 but the array operand has rank 1}}
  %r = vrir.part_view real %Z : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @part_view_layout(%Z: !vrir.array<complex<f64>, 1, row_major>) {
  // expected-error @+1 {{'vrir.part_view' op result layout must be strided (one part of each element, two components apart), got row_major}}
  %r = vrir.part_view real %Z : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @part_view_unknown_part(%Z: !vrir.array<complex<f64>, 1, row_major>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'part' [real, imag]}}
  %r = vrir.part_view phase %Z : !vrir.array<complex<f64>, 1, row_major> -> !vrir.array<f64, 1, strided>
  return
}

// -----

func.func @memref_part_view_element_type(%m: memref<?xcomplex<f64>>) {
  // expected-error @+1 {{'vrir.memref_part_view' op result element type 'f32' must be 'f64', the component type of 'complex<f64>'}}
  %r = vrir.memref_part_view real %m : memref<?xcomplex<f64>> -> memref<?xf32, strided<[?], offset: ?>>
  return
}

// -----

func.func @memref_part_view_shape(%m: memref<?xcomplex<f64>>) {
  // expected-error @+1 {{'vrir.memref_part_view' op result shape must be the source's}}
  %r = vrir.memref_part_view real %m : memref<?xcomplex<f64>> -> memref<4xf64, strided<[?], offset: ?>>
  return
}

// -----

func.func @memref_part_view_layout(%m: memref<?xcomplex<f64>>) {
  // expected-error @+1 {{'vrir.memref_part_view' op result layout must be strided with dynamic offset and strides, got 'memref<?xf64>'}}
  %r = vrir.memref_part_view real %m : memref<?xcomplex<f64>> -> memref<?xf64>
  return
}

// -----

func.func @memref_part_view_of_real(%m: memref<?xf64>) {
  // expected-error @+1 {{'vrir.memref_part_view' op operand #0 must be memref of complex-type values}}
  %r = vrir.memref_part_view real %m : memref<?xf64> -> memref<?xf64, strided<[?], offset: ?>>
  return
}

// -----

func.func @reshape_sizes(%A: !vrir.array<f64, 1, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.reshape' op has 1 sizes for a result of rank 2; give one size per result dimension}}
  %r = vrir.reshape %A(%n) : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @reshape_element_type(%A: !vrir.array<f64, 1, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.reshape' op result element type 'f32' differs from the array operand's element type 'f64'}}
  %r = vrir.reshape %A(%n, %n) : !vrir.array<f64, 1, row_major> -> !vrir.array<f32, 2, row_major>
  return
}

// -----

func.func @reshape_row_major_layout(%A: !vrir.array<f64, 1, row_major>, %n: index) {
  // expected-error @+1 {{'vrir.reshape' op result layout must be row_major (a row_major array is reshaped as a view), got strided}}
  %r = vrir.reshape %A(%n, %n) : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 2, strided>
  return
}

// -----

func.func @reshape_strided_layout(%A: !vrir.array<f64, 2, col_major>, %n: index) {
  // expected-error @+1 {{'vrir.reshape' op result layout must be strided (the result of reshaping a non-row_major array is a view or a copy, decided at run time), got row_major}}
  %r = vrir.reshape %A(%n) : !vrir.array<f64, 2, col_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @eigh_values_rank(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.eigh' op result must be a rank-1 array of 'f64', got '!vrir.array<f64, 2, row_major>'}}
  %w = vrir.eigh %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @eigh_vectors_element(%A: !vrir.array<f32, 2, row_major>) {
  // expected-error @+1 {{'vrir.eigh' op result must be a rank-2 array of 'f32', got '!vrir.array<f64, 2, col_major>'}}
  %w, %V = vrir.eigh %A : !vrir.array<f32, 2, row_major> -> !vrir.array<f32, 1, row_major>, !vrir.array<f64, 2, col_major>
  return
}

// -----

func.func @eigh_vector_operand(%a: !vrir.array<f64, 1, row_major>) {
  // expected-error @+1 {{'vrir.eigh' op needs a matrix (rank 2), got rank 1}}
  %w = vrir.eigh %a : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @svd_two_results(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.svd' op has the singular values as its one result, or U, the singular values and Vh as three; got 2 results}}
  %U, %s = vrir.svd %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @svd_full_values_only(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.svd' op full_matrices needs the U and Vh results}}
  %s = vrir.svd %A full_matrices : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
  return
}

// -----

func.func @svd_values_rank(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.svd' op result must be a rank-1 array of 'f64', got '!vrir.array<f64, 2, row_major>'}}
  %U, %s, %Vh = vrir.svd %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @svd_strided_factor(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.svd' op creates a new array, so its result layout must be row_major or col_major, not strided}}
  %U, %s, %Vh = vrir.svd %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, strided>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 2, row_major>
  return
}


// -----

func.func @qr_three_results(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.qr' op has R as its one result, or Q and R as two; got 3 results}}
  %Q, %R, %X = vrir.qr %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @qr_complete_r_only(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.qr' op complete needs the Q result}}
  %R = vrir.qr %A complete : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
  return
}

// -----

func.func @qr_vector_result(%A: !vrir.array<f64, 2, row_major>) {
  // expected-error @+1 {{'vrir.qr' op result must be a rank-2 array of 'f64', got '!vrir.array<f64, 1, row_major>'}}
  %R = vrir.qr %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
  return
}
