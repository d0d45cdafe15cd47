// RUN: vr-opt %s -split-input-file -vrir-test-alias-groups -verify-diagnostics -o /dev/null

!v = !vrir.array<f64, 1, row_major>
!s = !vrir.array<f64, 1, strided>

// Arguments share a group (they may alias); a view joins its array; every
// allocation and element-wise result starts its own group.
// expected-remark @below {{argument #0: group 0 (arguments)}}
// expected-remark @below {{argument #1: group 0 (arguments)}}
func.func @views_and_allocations(%A: !v, %B: !v, %n: index) -> !v {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = vrir.range %c1 to %n
  // expected-remark @below {{result #0: group 0 (arguments)}}
  %view = vrir.slice %A[%r] : !v[!vrir.range] -> !s
  // expected-remark @below {{result #0: group 1}}
  %copy = vrir.slice %A[%r] {copy} : !v[!vrir.range] -> !v
  // expected-remark @below {{result #0: group 2}}
  %Z = vrir.zeros(%n) : !v
  // expected-remark @below {{result #0: group 3}}
  %sum = vrir.binary add %Z, %copy : !v, !v -> !v
  return %sum : !v
}

// -----

!v = !vrir.array<f64, 1, row_major>

// Loop-carried arrays join what enters, what is yielded and the result;
// branch results join both branches.
// expected-remark @below {{argument #0: group 0 (arguments)}}
func.func @control_flow(%A: !v, %n: index, %c: i1) -> !v {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{result #0: group 1}}
  %Z = vrir.zeros(%n) : !v
  // Returned by the if below with %A: in the arguments' group.
  // expected-remark @below {{result #0: group 0 (arguments)}}
  %W = vrir.zeros(%n) : !v
  // expected-remark @below {{region argument #1: group 1}}
  // expected-remark @below {{result #0: group 1}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %Z) -> !v {
    // expected-remark @below {{result #0: group 1}}
    %next = vrir.unary neg %cur : !v -> !v
    scf.yield %next : !v
  }
  // expected-remark @below {{result #0: group 0 (arguments)}}
  %s = scf.if %c -> !v {
    scf.yield %A : !v
  } else {
    scf.yield %W : !v
  }
  return %s : !v
}

// -----

!v = !vrir.array<f64, 1, row_major>

func.func private @pick(!v, !v) -> !v

// Branch arguments join what is passed to them (%Z and %P); a call's
// results may be any of its array operands (%Y, %W).
// expected-remark @below {{argument #0: group 0 (arguments)}}
func.func @branches_and_calls(%A: !v, %n: index, %c: i1) -> !v {
  // expected-remark @below {{result #0: group 1}}
  %Z = vrir.zeros(%n) : !v
  // expected-remark @below {{result #0: group 1}}
  %Y = vrir.zeros(%n) : !v
  // expected-remark @below {{result #0: group 1}}
  %W = vrir.zeros(%n) : !v
  // expected-remark @below {{result #0: group 1}}
  %P = func.call @pick(%Y, %W) : (!v, !v) -> !v
  // expected-remark @below {{result #0: group 2}}
  %V = vrir.zeros(%n) : !v
  cf.cond_br %c, ^bb1(%Z : !v), ^bb1(%P : !v)
^bb1(%x: !v):
  return %x : !v
}

// -----

!z = !vrir.array<complex<f64>, 1, row_major>
!s = !vrir.array<f64, 1, strided>
!v = !vrir.array<f64, 1, row_major>

// The parts of a complex array are views of it: they join its group.
func.func @complex_parts(%n: index) -> !v {
  // expected-remark @below {{result #0: group 0}}
  %Z = vrir.zeros(%n) : !z
  // expected-remark @below {{result #0: group 0}}
  %re = vrir.part_view real %Z : !z -> !s
  // expected-remark @below {{result #0: group 0}}
  %im = vrir.part_view imag %Z : !z -> !s
  // expected-remark @below {{result #0: group 1}}
  %sum = vrir.binary add %re, %im : !s, !s -> !v
  return %sum : !v
}
