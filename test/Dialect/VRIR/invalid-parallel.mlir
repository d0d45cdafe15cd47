// RUN: vr-opt %s -split-input-file -verify-diagnostics
//
// Verifier errors of parallel loops, atomics and accelerated sections
// (vrir.pfor, vrir.atomic_cas, vrir.atomic_rmw, vrir.gpu_section,
// vrir.yield).

//===----------------------------------------------------------------------===//
// vrir.pfor: induction variables
//===----------------------------------------------------------------------===//

func.func @pfor_ivs_vs_domain(%d: !vrir.domain<2>) {
  // expected-error @+1 {{'vrir.pfor' op iterates over a 2-dimensional '!vrir.domain<2>' but has 1 induction variables; give one per dimension}}
  vrir.pfor (%i) in %d : !vrir.domain<2> {
  }
  return
}

// -----

// A range is a one-dimensional iteration space.
func.func @pfor_ivs_vs_range(%r: !vrir.range) {
  // expected-error @+1 {{'vrir.pfor' op iterates over a 1-dimensional '!vrir.range' but has 2 induction variables; give one per dimension}}
  vrir.pfor (%i, %j) in %r : !vrir.range {
  }
  return
}

// -----

// Induction variables are always index; only the generic form can say
// otherwise.
func.func @pfor_iv_type(%r: !vrir.range) {
  // expected-error @+1 {{'vrir.pfor' op induction variables must have index type, got 'i64'}}
  "vrir.pfor"(%r) <{operandSegmentSizes = array<i32: 1, 0, 0>}> ({
  ^bb0(%i: i64):
    "vrir.yield"() : () -> ()
  }) : (!vrir.range) -> ()
  return
}

// -----

func.func @pfor_domain_type(%i: index) {
  // expected-error @+1 {{'vrir.pfor' op operand #0 must be domain or range, but got 'index'}}
  vrir.pfor (%j) in %i : index {
  }
  return
}

//===----------------------------------------------------------------------===//
// vrir.pfor: shared values
//===----------------------------------------------------------------------===//

// -----

// Rebinding a shared variable.
func.func @pfor_rebind_shared_var(%r: !vrir.range, %v: !vrir.var<f64>, %x: f64) {
  vrir.pfor (%i) in %r : !vrir.range shared(%v : !vrir.var<f64>) {
    // expected-error @+1 {{'vrir.write' op rebinds a variable that the enclosing 'vrir.pfor' lists as shared; shared values can be written by index but not rebound}}
    vrir.write %x, %v : !vrir.var<f64>
  }
  return
}

// -----

func.func @pfor_rebind_shared_array_var(%r: !vrir.range, %v: !vrir.var<!vrir.array<f64, 1, row_major>>, %n: index) {
  vrir.pfor (%i) in %r : !vrir.range shared(%v : !vrir.var<!vrir.array<f64, 1, row_major>>) {
    %B = vrir.zeros(%n) : !vrir.array<f64, 1, row_major>
    // expected-error @+1 {{'vrir.write' op rebinds a variable that the enclosing 'vrir.pfor' lists as shared}}
    vrir.write %B, %v : !vrir.var<!vrir.array<f64, 1, row_major>>
  }
  return
}

// -----

// Writing an outer array that is not shared.
func.func @pfor_store_not_shared(%r: !vrir.range, %A: !vrir.array<f64, 1, row_major>, %x: f64) {
  vrir.pfor (%i) in %r : !vrir.range {
    // expected-error @+1 {{'vrir.store' op writes an array defined outside the enclosing 'vrir.pfor' that is not in its 'shared' list}}
    vrir.store %x, %A[%i] : !vrir.array<f64, 1, row_major>[index]
  }
  return
}

// -----

// Sharing another array does not help.
func.func @pfor_store_other_shared(%r: !vrir.range, %A: !vrir.array<f64, 1, row_major>, %B: !vrir.array<f64, 1, row_major>) {
  vrir.pfor (%i) in %r : !vrir.range shared(%B : !vrir.array<f64, 1, row_major>) {
    %x = vrir.load %B[%i] : !vrir.array<f64, 1, row_major>[index]
    // expected-error @+1 {{'vrir.store' op writes an array defined outside the enclosing 'vrir.pfor' that is not in its 'shared' list}}
    vrir.store %x, %A[%i] : !vrir.array<f64, 1, row_major>[index]
  }
  return
}

// -----

// A view of an outer array, taken inside the loop, writes the outer array.
func.func @pfor_store_through_view(%r: !vrir.range, %A: !vrir.array<f64, 2, row_major>, %x: f64) {
  vrir.pfor (%i) in %r : !vrir.range {
    %row = vrir.slice %A[%i] : !vrir.array<f64, 2, row_major>[index] -> !vrir.array<f64, 1, strided>
    // expected-error @+1 {{'vrir.store' op writes an array defined outside the enclosing 'vrir.pfor' that is not in its 'shared' list}}
    vrir.store %x, %row[%i] : !vrir.array<f64, 1, strided>[index]
  }
  return
}

// -----

// A view taken outside the loop writes the outer array too.
func.func @pfor_store_through_outer_view(%r: !vrir.range, %A: !vrir.array<f64, 2, row_major>, %i0: index, %x: f64) {
  %row = vrir.slice %A[%i0] : !vrir.array<f64, 2, row_major>[index] -> !vrir.array<f64, 1, strided>
  vrir.pfor (%i) in %r : !vrir.range {
    // expected-error @+1 {{'vrir.store_slice' op writes an array defined outside the enclosing 'vrir.pfor' that is not in its 'shared' list}}
    vrir.store_slice %x, %row[%r] : f64, !vrir.array<f64, 1, strided>[!vrir.range]
  }
  return
}

// -----

// An array read from an outer variable belongs to the variable.
func.func @pfor_store_through_read(%r: !vrir.range, %v: !vrir.var<!vrir.array<f64, 1, row_major>>, %x: f64) {
  vrir.pfor (%i) in %r : !vrir.range {
    %A = vrir.read %v : !vrir.var<!vrir.array<f64, 1, row_major>>
    // expected-error @+1 {{'vrir.store' op writes an array defined outside the enclosing 'vrir.pfor' that is not in its 'shared' list}}
    vrir.store %x, %A[%i] : !vrir.array<f64, 1, row_major>[index]
  }
  return
}

// -----

func.func @pfor_scatter_not_shared(%r: !vrir.range, %A: !vrir.array<f64, 1, row_major>, %I: !vrir.array<i64, 1, row_major>, %x: f64) {
  vrir.pfor (%i) in %r : !vrir.range shared(%I : !vrir.array<i64, 1, row_major>) {
    // expected-error @+1 {{'vrir.scatter' op writes an array defined outside the enclosing 'vrir.pfor' that is not in its 'shared' list}}
    vrir.scatter %x, %A[%I] : f64, !vrir.array<f64, 1, row_major>[!vrir.array<i64, 1, row_major>]
  }
  return
}

// -----

func.func @pfor_atomic_not_shared(%r: !vrir.range, %H: !vrir.array<i64, 1, row_major>, %one: i64) {
  vrir.pfor (%i) in %r : !vrir.range {
    // expected-error @+1 {{'vrir.atomic_rmw' op writes an array defined outside the enclosing 'vrir.pfor' that is not in its 'shared' list}}
    %old = vrir.atomic_rmw add %H[%i], %one : !vrir.array<i64, 1, row_major>[index]
  }
  return
}

// -----

// Nested loop: the inner loop sharing an array does not make the outer one
// share it.
func.func @pfor_nested_not_shared(%r: !vrir.range, %A: !vrir.array<f64, 2, row_major>, %x: f64) {
  // expected-error @+3 {{'vrir.store' op writes an array defined outside the enclosing 'vrir.pfor' that is not in its 'shared' list}}
  vrir.pfor (%i) in %r : !vrir.range {
    vrir.pfor (%j) in %r : !vrir.range shared(%A : !vrir.array<f64, 2, row_major>) {
      vrir.store %x, %A[%i, %j] : !vrir.array<f64, 2, row_major>[index, index]
    }
  }
  return
}

// -----

// Growth reallocates the array, which rebinds it.
func.func @pfor_grow_shared(%r: !vrir.range, %A: !vrir.array<f64, 1, col_major>, %x: f64) {
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<f64, 1, col_major>) {
    // expected-error @+1 {{'vrir.store' op may grow an array defined outside the enclosing 'vrir.pfor'; growth would rebind it}}
    %G = vrir.store %x, %A[%i] flags [#vrir.index<lower|grow>] : !vrir.array<f64, 1, col_major>[index] -> !vrir.array<f64, 1, col_major>
  }
  return
}

// -----

func.func @pfor_grow_shared_var(%r: !vrir.range, %v: !vrir.var<!vrir.array<f64, 1, col_major>>, %x: f64) {
  vrir.pfor (%i) in %r : !vrir.range shared(%v : !vrir.var<!vrir.array<f64, 1, col_major>>) {
    %A = vrir.read %v : !vrir.var<!vrir.array<f64, 1, col_major>>
    // expected-error @+1 {{'vrir.store' op may grow an array defined outside the enclosing 'vrir.pfor'; growth would rebind it}}
    %G = vrir.store %x, %A[%i] flags [#vrir.index<grow>] : !vrir.array<f64, 1, col_major>[index] -> !vrir.array<f64, 1, col_major>
  }
  return
}

//===----------------------------------------------------------------------===//
// vrir.pfor: no early exit
//===----------------------------------------------------------------------===//

// -----

// A branch in the loop body itself needs a second block, which a parallel
// loop body cannot have (it cannot be left early).
func.func @pfor_cf_br(%r: !vrir.range) {
  // expected-error @+1 {{'vrir.pfor' op expects region #0 to have 0 or 1 blocks}}
  vrir.pfor (%i) in %r : !vrir.range {
    cf.br ^bb1
  ^bb1:
    vrir.yield
  }
  return
}

// -----

func.func @pfor_cf_cond_br(%r: !vrir.range, %c: i1) {
  // expected-error @+1 {{'vrir.pfor' op expects region #0 to have 0 or 1 blocks}}
  vrir.pfor (%i) in %r : !vrir.range {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    vrir.yield
  ^bb2:
    vrir.yield
  }
  return
}

// -----

// Only the generic form can build a body without a block.
func.func @pfor_empty_body(%r: !vrir.range) {
  // expected-error @+1 {{'vrir.pfor' op body must have exactly one block}}
  "vrir.pfor"(%r) <{operandSegmentSizes = array<i32: 1, 0, 0>}> ({
  }) : (!vrir.range) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

// -----

func.func @atomic_rmw_outside_pfor(%H: !vrir.array<i64, 1, row_major>, %i: index, %one: i64) {
  // expected-error @+1 {{'vrir.atomic_rmw' op must be nested inside a 'vrir.pfor': atomics order the iterations of a parallel loop}}
  %old = vrir.atomic_rmw add %H[%i], %one : !vrir.array<i64, 1, row_major>[index]
  return
}

// -----

func.func @atomic_cas_outside_pfor(%A: !vrir.array<i32, 1, row_major>, %i: index, %e: i32, %d: i32) {
  // expected-error @+1 {{'vrir.atomic_cas' op must be nested inside a 'vrir.pfor'}}
  %old = vrir.atomic_cas %A[%i], %e, %d : !vrir.array<i32, 1, row_major>[index]
  return
}

// -----

// A GPU section is not a parallel loop.
func.func @atomic_in_gpu_section(%H: !vrir.array<f32, 1, row_major>, %i: index, %x: f32) {
  vrir.gpu_section {
    // expected-error @+1 {{'vrir.atomic_rmw' op must be nested inside a 'vrir.pfor'}}
    %old = vrir.atomic_rmw max %H[%i], %x : !vrir.array<f32, 1, row_major>[index]
  }
  return
}

// -----

func.func @atomic_rmw_index_count(%r: !vrir.range, %H: !vrir.array<i64, 2, row_major>, %one: i64) {
  vrir.pfor (%i) in %r : !vrir.range shared(%H : !vrir.array<i64, 2, row_major>) {
    // expected-error @+1 {{'vrir.atomic_rmw' op has 1 indices for an array of rank 2; give one index per dimension}}
    %old = vrir.atomic_rmw add %H[%i], %one : !vrir.array<i64, 2, row_major>[index]
  }
  return
}

// -----

func.func @atomic_cas_index_count(%r: !vrir.range, %A: !vrir.array<i32, 1, row_major>, %e: i32, %d: i32) {
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<i32, 1, row_major>) {
    // expected-error @+1 {{'vrir.atomic_cas' op has 2 indices for an array of rank 1; give one index per dimension}}
    %old = vrir.atomic_cas %A[%i, %i], %e, %d : !vrir.array<i32, 1, row_major>[index, index]
  }
  return
}

// -----

func.func @atomic_rmw_and_float(%r: !vrir.range, %A: !vrir.array<f32, 1, row_major>, %x: f32) {
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<f32, 1, row_major>) {
    // expected-error @+1 {{'vrir.atomic_rmw' op 'and' needs integer elements, got 'f32'}}
    %old = vrir.atomic_rmw and %A[%i], %x : !vrir.array<f32, 1, row_major>[index]
  }
  return
}

// -----

func.func @atomic_rmw_xor_double(%r: !vrir.range, %A: !vrir.array<f64, 1, row_major>, %x: f64) {
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<f64, 1, row_major>) {
    // expected-error @+1 {{'vrir.atomic_rmw' op 'xor' needs integer elements, got 'f64'}}
    %old = vrir.atomic_rmw xor %A[%i], %x : !vrir.array<f64, 1, row_major>[index]
  }
  return
}

// -----

// 32- and 64-bit elements only: no compare-and-swap on i1.
func.func @atomic_cas_i1(%r: !vrir.range, %A: !vrir.array<i1, 1, row_major>, %e: i1, %d: i1) {
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<i1, 1, row_major>) {
    // expected-error @+1 {{'vrir.atomic_cas' op operand #2 must be 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float, but got 'i1'}}
    %old = vrir.atomic_cas %A[%i], %e, %d : !vrir.array<i1, 1, row_major>[index]
  }
  return
}

// -----

func.func @atomic_rmw_complex(%r: !vrir.range, %A: !vrir.array<complex<f32>, 1, row_major>, %x: complex<f32>) {
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<complex<f32>, 1, row_major>) {
    // expected-error @+1 {{'vrir.atomic_rmw' op operand #2 must be 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float, but got 'complex<f32>'}}
    %old = vrir.atomic_rmw add %A[%i], %x : !vrir.array<complex<f32>, 1, row_major>[index]
  }
  return
}

//===----------------------------------------------------------------------===//
// vrir.gpu_section
//===----------------------------------------------------------------------===//

// -----

func.func @gpu_section_nested() {
  vrir.gpu_section {
    // expected-error @+1 {{'vrir.gpu_section' op cannot be nested inside another 'vrir.gpu_section'}}
    vrir.gpu_section {
    }
  }
  return
}

// -----

func.func @gpu_section_nested_in_pfor(%r: !vrir.range) {
  vrir.gpu_section {
    vrir.pfor (%i) in %r : !vrir.range {
      // expected-error @+1 {{'vrir.gpu_section' op cannot be nested inside another 'vrir.gpu_section'}}
      vrir.gpu_section {
      }
    }
  }
  return
}

// -----

func.func private @callee(f64) -> f64

func.func @gpu_section_func_constant() {
  vrir.gpu_section {
    // expected-error @+1 {{'func.constant' op creates a function value inside a 'vrir.gpu_section'; function values must be fixed before the section starts}}
    %f = func.constant @callee : (f64) -> f64
  }
  return
}

// -----

func.func private @callee(f64) -> f64

func.func @gpu_section_write_function(%v: !vrir.var<(f64) -> f64>) {
  %f = func.constant @callee : (f64) -> f64
  vrir.gpu_section {
    // expected-error @+1 {{'vrir.write' op rebinds a function-valued variable inside a 'vrir.gpu_section'}}
    vrir.write %f, %v : !vrir.var<(f64) -> f64>
  }
  return
}

// -----

// GPU kernels cannot allocate.
func.func @gpu_section_pfor_zeros(%r: !vrir.range, %n: index) {
  vrir.gpu_section {
    vrir.pfor (%i) in %r : !vrir.range {
      // expected-error @+1 {{'vrir.zeros' op allocates an array inside a 'vrir.pfor' of a 'vrir.gpu_section'; GPU kernels cannot allocate}}
      %B = vrir.zeros(%n) : !vrir.array<f64, 1, row_major>
    }
  }
  return
}

// -----

// An array-valued element-wise op allocates its result.
func.func @gpu_section_pfor_binary(%r: !vrir.range, %A: !vrir.array<f64, 1, row_major>) {
  vrir.gpu_section {
    vrir.pfor (%i) in %r : !vrir.range {
      // expected-error @+1 {{'vrir.binary' op allocates an array inside a 'vrir.pfor' of a 'vrir.gpu_section'; GPU kernels cannot allocate}}
      %B = vrir.binary add %A, %A : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
    }
  }
  return
}

// -----

func.func @gpu_section_pfor_slice_copy(%r: !vrir.range, %A: !vrir.array<f64, 2, row_major>) {
  vrir.gpu_section {
    vrir.pfor (%i) in %r : !vrir.range {
      // expected-error @+1 {{'vrir.slice' op allocates an array inside a 'vrir.pfor' of a 'vrir.gpu_section'; GPU kernels cannot allocate}}
      %row = vrir.slice %A[%i] {copy} : !vrir.array<f64, 2, row_major>[index] -> !vrir.array<f64, 1, row_major>
    }
  }
  return
}

// -----

func.func @gpu_section_yield_count(%x: f64) {
  %s = vrir.gpu_section -> (f64) {
    // expected-error @+1 {{'vrir.yield' op yields types () but the enclosing 'vrir.gpu_section' returns ('f64')}}
    vrir.yield
  }
  return
}

// -----

func.func @gpu_section_yield_type(%x: f64, %y: i64) {
  %s, %t = vrir.gpu_section -> (f64, f64) {
    // expected-error @+1 {{'vrir.yield' op yields types ('f64', 'i64') but the enclosing 'vrir.gpu_section' returns ('f64', 'f64')}}
    vrir.yield %x, %y : f64, i64
  }
  return
}

// -----

func.func @pfor_yield_values(%r: !vrir.range, %x: f64) {
  vrir.pfor (%i) in %r : !vrir.range {
    // expected-error @+1 {{'vrir.yield' op yields ('f64') but the enclosing 'vrir.pfor' reduces (): one contribution per reduction}}
    vrir.yield %x : f64
  }
  return
}

// -----

func.func @pfor_reduction_yields_wrong_type(%r: !vrir.range, %x: f64) -> i64 {
  %c0 = arith.constant 0 : i64
  %s = vrir.pfor (%i) in %r : !vrir.range reduce(sum %c0 : i64) {
    // expected-error @+1 {{'vrir.yield' op yields ('f64') but the enclosing 'vrir.pfor' reduces ('i64'): one contribution per reduction}}
    vrir.yield %x : f64
  }
  return %s : i64
}

// -----

func.func @pfor_reduction_of_bool(%r: !vrir.range, %b: i1) -> i1 {
  // expected-error @+1 {{'vrir.pfor' op reduction #0 is over 'i1'; reductions combine integer or float scalars}}
  %s = vrir.pfor (%i) in %r : !vrir.range reduce(max %b : i1) {
    vrir.yield %b : i1
  }
  return %s : i1
}

// -----

func.func @pfor_reduction_of_array(%r: !vrir.range, %A: !vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  // expected-error @+1 {{'vrir.pfor' op reduction #0 is over '!vrir.array<f64, 1, row_major>'; reductions combine integer or float scalars}}
  %s = vrir.pfor (%i) in %r : !vrir.range reduce(sum %A : !vrir.array<f64, 1, row_major>) {
    vrir.yield %A : !vrir.array<f64, 1, row_major>
  }
  return %s : !vrir.array<f64, 1, row_major>
}

// -----

func.func @pfor_reduction_kind(%r: !vrir.range, %x: f64) -> f64 {
  // expected-error @+1 {{unknown reduction kind 'avg' (sum, prod, min or max)}}
  %s = vrir.pfor (%i) in %r : !vrir.range reduce(avg %x : f64) {
    vrir.yield %x : f64
  }
  return %s : f64
}

// -----

func.func @pfor_reduction_counts(%r: !vrir.range, %x: f64) -> f64 {
  // expected-error @+1 {{'vrir.pfor' op has 1 reduction initial values but 2 reduction kinds}}
  %s = "vrir.pfor"(%r, %x) <{operandSegmentSizes = array<i32: 1, 0, 1>, reductions = [0 : i32, 1 : i32]}> ({
  ^bb0(%i: index):
    "vrir.yield"(%x) : (f64) -> ()
  }) : (!vrir.range, f64) -> f64
  return %s : f64
}

// -----

// Growth allocates: not allowed in a pfor of a GPU section, even on an array
// reached through a variable private to the iteration.
func.func @gpu_pfor_grow(%r: !vrir.range, %A: !vrir.array<f64, 1, col_major>, %x: f64) {
  vrir.gpu_section {
    vrir.pfor (%i) in %r : !vrir.range {
      %v = vrir.alloca "b" : !vrir.var<!vrir.array<f64, 1, col_major>>
      vrir.write %A, %v : !vrir.var<!vrir.array<f64, 1, col_major>>
      %B = vrir.read %v : !vrir.var<!vrir.array<f64, 1, col_major>>
      // expected-error @+1 {{'vrir.store' op allocates an array inside a 'vrir.pfor' of a 'vrir.gpu_section'}}
      %G = vrir.store %x, %B[%i] flags [#vrir.index<lower|grow>] : !vrir.array<f64, 1, col_major>[index] -> !vrir.array<f64, 1, col_major>
    }
  }
  return
}

// -----

// Writing through views of an array read from a variable: the value read
// is shared, so the writes are allowed (no diagnostic); writing through a
// view of an unshared array is not.
func.func @pfor_store_through_views(%r: !vrir.range, %x: f64,
                                    %v: !vrir.var<!vrir.array<complex<f64>, 2, row_major>>,
                                    %B: !vrir.array<f64, 2, row_major>) {
  %Z = vrir.read %v : !vrir.var<!vrir.array<complex<f64>, 2, row_major>>
  vrir.pfor (%i) in %r : !vrir.range shared(%Z : !vrir.array<complex<f64>, 2, row_major>) {
    %im = vrir.part_view imag %Z : !vrir.array<complex<f64>, 2, row_major> -> !vrir.array<f64, 2, strided>
    %T = vrir.permute %im [1, 0] : !vrir.array<f64, 2, strided> -> !vrir.array<f64, 2, strided>
    vrir.store %x, %T[%i, %i] : !vrir.array<f64, 2, strided>[index, index]
    %BT = vrir.permute %B [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
    // expected-error @+1 {{'vrir.store' op writes an array defined outside the enclosing 'vrir.pfor' that is not in its 'shared' list}}
    vrir.store %x, %BT[%i, %i] : !vrir.array<f64, 2, col_major>[index, index]
  }
  return
}
