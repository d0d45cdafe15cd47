// RUN: vr-opt %s -split-input-file -vrir-bounds-check-elim | FileCheck %s

// Checks are flag bits: `none` means the lowering emits no check. Without
// `flags` an index is checked at both bounds.

!v = !vrir.array<f64, 1, row_major>
!m = !vrir.array<f64, 2, row_major>

// A loop over the array's own extent: both checks go.
// CHECK-LABEL: func.func @loop_over_dim
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
func.func @loop_over_dim(%A: !v) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = vrir.dim %A, 0 : !v
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %x = vrir.load %A[%i] : !v[index]
    %t = arith.addf %acc, %x : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// NumPy's flags, i64 counters through index_cast, a stencil: A[i-1], A[i+1]
// for 1 <= i < n-1. The negative wrap-around goes with the lower check.
// CHECK-LABEL: func.func @stencil
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
func.func @stencil(%A: !v) -> !v {
  %c1 = arith.constant 1 : i64
  %d = vrir.dim %A, 0 : !v
  %B = vrir.zeros(%d) : !v
  %n = arith.index_cast %d : index to i64
  %last = arith.subi %n, %c1 : i64
  scf.for %i = %c1 to %last step %c1 : i64 {
    %im = arith.subi %i, %c1 : i64
    %ip = arith.addi %i, %c1 : i64
    %l = vrir.load %A[%im] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %r = vrir.load %A[%ip] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %s = arith.addf %l, %r : f64
    vrir.store %s, %B[%i] flags [#vrir.index<lower|upper|negative>] : !v[i64]
  }
  return %B : !v
}

// `for i in range(n + 1)`: the last iteration is out of bounds.
// CHECK-LABEL: func.func @off_by_one
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
func.func @off_by_one(%A: !v) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = vrir.dim %A, 0 : !v
  %n1 = arith.addi %n, %c1 : index
  %s = scf.for %i = %c0 to %n1 step %c1 iter_args(%acc = %zero) -> f64 {
    %x = vrir.load %A[%i] : !v[index]
    %t = arith.addf %acc, %x : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// A bound that is an argument says nothing about the array.
// CHECK-LABEL: func.func @argument_bound
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
func.func @argument_bound(%A: !v, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %x = vrir.load %A[%i] : !v[index]
    %t = arith.addf %acc, %x : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// A loop over the extent of another array.
// CHECK-LABEL: func.func @other_array
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
func.func @other_array(%A: !v, %B: !v) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  %n = vrir.dim %B, 0 : !v
  scf.for %i = %c0 to %n step %c1 {
    vrir.store %x, %A[%i] : !v[index]
  }
  return
}

// Subscript `i + k` with an argument `k`: it may be negative, too large, or
// wrap around; both checks stay.
// CHECK-LABEL: func.func @symbol_offset
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<lower|upper|negative>]
func.func @symbol_offset(%A: !v, %k: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %d = vrir.dim %A, 0 : !v
  %n = arith.index_cast %d : index to i64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 : i64 {
    %j = arith.addi %i, %k : i64
    %x = vrir.load %A[%j] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %t = arith.addf %acc, %x : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// `range(n - k)` indexing `i + k` is in bounds only if nothing wraps
// around; with `k` a full-range i64 that is not known, so the checks stay.
// CHECK-LABEL: func.func @symbol_shifted_range
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<lower|upper|negative>]
func.func @symbol_shifted_range(%A: !v, %k: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %d = vrir.dim %A, 0 : !v
  %n = arith.index_cast %d : index to i64
  %hi = arith.subi %n, %k : i64
  %s = scf.for %i = %c0 to %hi step %c1 iter_args(%acc = %zero) -> f64 : i64 {
    %j = arith.addi %i, %k : i64
    %x = vrir.load %A[%j] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %t = arith.addf %acc, %x : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// Lower triangle: j <= i < n. Going one past the diagonal overruns on the
// last row.
// CHECK-LABEL: func.func @triangular
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
func.func @triangular(%x: !v) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %n = vrir.dim %x, 0 : !v
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %a = scf.for %j = %c0 to %i1 step %c1 iter_args(%a0 = %acc) -> f64 {
      %v = vrir.load %x[%j] : !v[index]
      %t = arith.addf %a0, %v : f64
      scf.yield %t : f64
    }
    %b = scf.for %j = %c0 to %i2 step %c1 iter_args(%b0 = %a) -> f64 {
      %v = vrir.load %x[%j] : !v[index]
      %t = arith.addf %b0, %v : f64
      scf.yield %t : f64
    }
    scf.yield %b : f64
  }
  return %s : f64
}

// Square allocations: the sizes are the allocation's operands, and dim 1
// of a transpose is dim 0 of its operand.
// CHECK-LABEL: func.func @allocation_sizes
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<none>, #vrir.index<none>]
// CHECK: vrir.load %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<none>, #vrir.index<none>]
func.func @allocation_sizes(%n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  %A = vrir.zeros(%n, %n) : !m
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %i step %c1 {
      vrir.store %x, %A[%i, %j] : !m[index, index]
    }
  }
  %T = vrir.transpose %A : !m to !m
  %m = vrir.dim %T, 1 : !m
  %r = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %x) -> f64 {
    %v = vrir.load %T[%c0, %i] : !m[index, index]
    scf.yield %v : f64
  }
  return %r : f64
}

// Steps: i in {0, 3, 6, 9} for range(0, 11, 3) on 10 elements (the lattice
// proves it); i + 1 for even i < n reaches n when n is odd.
// CHECK-LABEL: func.func @strided
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
func.func @strided(%B: !v) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %x = arith.constant 1.0 : f64
  %A = vrir.zeros(%c10) : !v
  scf.for %i = %c0 to %c11 step %c3 {
    vrir.store %x, %A[%i] : !v[index]
  }
  %n = vrir.dim %B, 0 : !v
  scf.for %i = %c0 to %n step %c2 {
    %i1 = arith.addi %i, %c1 : index
    vrir.store %x, %B[%i1] : !v[index]
  }
  return
}

// Conditions of enclosing ifs are facts; their negation holds in the else
// branch.
// CHECK-LABEL: func.func @guarded
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
func.func @guarded(%A: !v, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %d = vrir.dim %A, 0 : !v
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %inside = arith.cmpi slt, %i, %d : index
    %v = scf.if %inside -> f64 {
      %x = vrir.load %A[%i] : !v[index]
      scf.yield %x : f64
    } else {
      %x = vrir.load %A[%i] : !v[index]
      scf.yield %x : f64
    }
    %t = arith.addf %acc, %v : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// Parallel loops over ranges, in both directions; range(n, -1, -1) starts
// one past the end.
// CHECK-LABEL: func.func @pfor_ranges
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
func.func @pfor_ranges(%A: !v) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm1 = arith.constant -1 : index
  %x = arith.constant 1.0 : f64
  %n = vrir.dim %A, 0 : !v
  %nm1 = arith.subi %n, %c1 : index
  %up = vrir.range %c0 to %n
  vrir.pfor (%i) in %up : !vrir.range shared(%A : !v) {
    vrir.store %x, %A[%i] : !v[index]
  }
  %down = vrir.range %nm1 to %cm1 step %cm1
  vrir.pfor (%i) in %down : !vrir.range shared(%A : !v) {
    vrir.store %x, %A[%i] : !v[index]
  }
  %past = vrir.range %n to %cm1 step %cm1
  vrir.pfor (%i) in %past : !vrir.range shared(%A : !v) {
    vrir.store %x, %A[%i] : !v[index]
  }
  return
}

// A check repeated on the same index in serial code: the store's goes (a
// failed load stops the function first). In a parallel loop a failed
// check only skips its access, so both stay.
// CHECK-LABEL: func.func @repeated
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: vrir.pfor
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] flags [#vrir.index<upper>]
func.func @repeated(%A: !v, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    %x = vrir.load %A[%i] : !v[index]
    %y = arith.addf %x, %one : f64
    vrir.store %y, %A[%i] : !v[index]
  }
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !v) {
    %x = vrir.load %A[%i] : !v[index]
    %y = arith.addf %x, %one : f64
    vrir.store %y, %A[%i] : !v[index]
  }
  return
}

// A[i - 1] with NumPy's wrap-around for 0 <= i < n: i - 1 >= -1 >= -n, so
// the lower check goes but the wrap stays (A[-1] is the last element).
// CHECK-LABEL: func.func @periodic
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<negative>]
func.func @periodic(%A: !v, %B: !v) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %d = vrir.dim %A, 0 : !v
  %n = arith.index_cast %d : index to i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %im = arith.subi %i, %c1 : i64
    %x = vrir.load %A[%im] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    vrir.store %x, %B[%i] flags [#vrir.index<lower|upper|negative>] : !v[i64]
  }
  return
}

// A subscript that may wrap around 64 bits is not looked through:
// i * 2^62 for i < n.
// CHECK-LABEL: func.func @may_overflow
// CHECK: vrir.load %{{.*}}[%{{.*}}] : !vrir.array
func.func @may_overflow(%A: !v) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 4611686018427387904 : index
  %zero = arith.constant 0.0 : f64
  %n = vrir.dim %A, 0 : !v
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %j = arith.muli %i, %big : index
    %x = vrir.load %A[%j] : !v[index]
    %t = arith.addf %acc, %x : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// Growing stores keep their growth; the lower check of a counter from 0
// goes.
// CHECK-LABEL: func.func @grow
// CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] flags [#vrir.index<grow>]
func.func @grow(%A: !v, %n: index) -> !v {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %A) -> !v {
    %g = vrir.store %x, %cur[%i] flags [#vrir.index<lower|grow>] : !v[index] -> !v
    scf.yield %g : !v
  }
  return %r : !v
}

// A window clamped to the array: range(max(i - w, 0), min(i + w + 1, n))
// with max as NumPy code writes it (a select on a comparison) and min as
// arith.minsi. Without the clamp the window overruns.
// CHECK-LABEL: func.func @clamped_window
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<lower|upper|negative>]
func.func @clamped_window(%A: !v, %w: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %d = vrir.dim %A, 0 : !v
  %n = arith.index_cast %d : index to i64
  %wpos = arith.cmpi sge, %w, %c0 : i64
  %r = scf.if %wpos -> f64 {
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 : i64 {
      %lo0 = arith.subi %i, %w : i64
      %neg = arith.cmpi slt, %lo0, %c0 : i64
      %lo = arith.select %neg, %c0, %lo0 : i64
      %hi0 = arith.addi %i, %w : i64
      %hi1 = arith.addi %hi0, %c1 : i64
      %hi = arith.minsi %hi1, %n : i64
      %t = scf.for %j = %lo to %hi step %c1 iter_args(%a = %acc) -> f64 : i64 {
        %v = vrir.load %A[%j] flags [#vrir.index<lower|upper|negative>] : !v[i64]
        %u = arith.addf %a, %v : f64
        scf.yield %u : f64
      }
      %t2 = scf.for %j = %lo0 to %hi1 step %c1 iter_args(%a = %t) -> f64 : i64 {
        %v = vrir.load %A[%j] flags [#vrir.index<lower|upper|negative>] : !v[i64]
        %u = arith.addf %a, %v : f64
        scf.yield %u : f64
      }
      scf.yield %t2 : f64
    }
    scf.yield %s : f64
  } else {
    scf.yield %zero : f64
  }
  return %r : f64
}

// A while loop's body runs with the values its condition forwarded, after
// the condition held: i < n there. (That i >= 0 needs induction over the
// loop, which the analysis does not do: the lower check stays.)
// CHECK-LABEL: func.func @while_body
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<lower>]
func.func @while_body(%A: !v, %stop: f64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %d = vrir.dim %A, 0 : !v
  %n = arith.index_cast %d : index to i64
  %r = scf.while (%i = %c0) : (i64) -> i64 {
    %more = arith.cmpi slt, %i, %n : i64
    scf.condition(%more) %i : i64
  } do {
  ^bb0(%j: i64):
    %x = vrir.load %A[%j] flags [#vrir.index<lower|upper>] : !v[i64]
    %next = arith.addi %j, %c1 : i64
    scf.yield %next : i64
  }
  return %r : i64
}

// Python's floor modulo, as the frontend writes it: x[(i + 1) % n] with n
// the extent is in bounds; modulo an argument that may be negative is not.
// CHECK-LABEL: func.func @floor_modulo
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<none>]
// CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<lower|upper|negative>]
func.func @floor_modulo(%A: !v, %k: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %d = vrir.dim %A, 0 : !v
  %n = arith.index_cast %d : index to i64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 : i64 {
    %i1 = arith.addi %i, %c1 : i64
    %r = arith.remsi %i1, %n : i64
    %nz = arith.cmpi ne, %r, %c0 : i64
    %rneg = arith.cmpi slt, %r, %c0 : i64
    %nneg = arith.cmpi slt, %n, %c0 : i64
    %differ = arith.xori %rneg, %nneg : i1
    %fix = arith.andi %nz, %differ : i1
    %up = arith.addi %r, %n : i64
    %m = arith.select %fix, %up, %r : i64
    %x = vrir.load %A[%m] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %r2 = arith.remsi %i1, %k : i64
    %nz2 = arith.cmpi ne, %r2, %c0 : i64
    %rneg2 = arith.cmpi slt, %r2, %c0 : i64
    %kneg = arith.cmpi slt, %k, %c0 : i64
    %differ2 = arith.xori %rneg2, %kneg : i1
    %fix2 = arith.andi %nz2, %differ2 : i1
    %up2 = arith.addi %r2, %k : i64
    %m2 = arith.select %fix2, %up2, %r2 : i64
    %y = vrir.load %A[%m2] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    %t = arith.addf %x, %y : f64
    %u = arith.addf %acc, %t : f64
    scf.yield %u : f64
  }
  return %s : f64
}

// -----

// MATLAB: 1-based, inclusive ranges, column-major. `for i = 1:n` over
// A(i, 1) is in bounds in its first index (the array may have no columns);
// `for i = 1:n+1` is not, and A(i - 1, 1) is not for i = 1.
!c = !vrir.array<f64, 2, col_major>
module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false} {
  // CHECK-LABEL: func.func @matlab
  // CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<none>, #vrir.index<upper>]
  // CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<upper>, #vrir.index<upper>]
  // CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<lower>, #vrir.index<upper>]
  func.func @matlab(%A: !c) {
    %c1 = arith.constant 1 : index
    %x = arith.constant 1.0 : f64
    %n = vrir.dim %A, 0 : !c
    %n1 = arith.addi %n, %c1 : index
    %r = vrir.range %c1 to %n
    vrir.pfor (%i) in %r : !vrir.range shared(%A : !c) {
      vrir.store %x, %A[%i, %c1] : !c[index, index]
    }
    %r1 = vrir.range %c1 to %n1
    vrir.pfor (%i) in %r1 : !vrir.range shared(%A : !c) {
      vrir.store %x, %A[%i, %c1] : !c[index, index]
    }
    vrir.pfor (%i) in %r : !vrir.range shared(%A : !c) {
      %im = arith.subi %i, %c1 : index
      vrir.store %x, %A[%im, %c1] : !c[index, index]
    }
    return
  }
}
