// RUN: vr-opt %s -convert-vrir-to-memref -split-input-file -verify-diagnostics

// The complex dialect has no integer complex arithmetic: the pass fails
// with a diagnostic.

func.func @binary_integer_complex(%A: !vrir.array<complex<i32>, 1, row_major>) -> !vrir.array<complex<i32>, 1, row_major> {
  // expected-error @+2 {{'vrir.binary' op integer complex arithmetic is not supported by the CPU lowering}}
  // expected-error @+1 {{failed to legalize operation 'vrir.binary'}}
  %B = vrir.binary add %A, %A : !vrir.array<complex<i32>, 1, row_major>, !vrir.array<complex<i32>, 1, row_major> -> !vrir.array<complex<i32>, 1, row_major>
  return %B : !vrir.array<complex<i32>, 1, row_major>
}

// -----

func.func @unary_integer_complex(%x: complex<i64>) -> i64 {
  // expected-error @+2 {{'vrir.unary' op integer complex arithmetic is not supported by the CPU lowering}}
  // expected-error @+1 {{failed to legalize operation 'vrir.unary'}}
  %r = vrir.unary real %x : complex<i64> -> i64
  return %r : i64
}

// -----

func.func @cast_to_integer_complex(%x: i32) -> complex<i32> {
  // expected-error @+2 {{'vrir.cast' op integer complex arithmetic is not supported by the CPU lowering}}
  // expected-error @+1 {{failed to legalize operation 'vrir.cast'}}
  %r = vrir.cast %x : i32 to complex<i32>
  return %r : complex<i32>
}

// -----

func.func @cmp_integer_complex(%x: complex<i32>, %y: complex<i32>) -> i1 {
  // expected-error @+2 {{'vrir.cmp' op integer complex arithmetic is not supported by the CPU lowering}}
  // expected-error @+1 {{failed to legalize operation 'vrir.cmp'}}
  %r = vrir.cmp eq %x, %y : complex<i32>, complex<i32> -> i1
  return %r : i1
}

// -----

func.func @reduce_integer_complex(%A: !vrir.array<complex<i32>, 2, row_major>) -> complex<i32> {
  // expected-error @+2 {{'vrir.reduce' op integer complex arithmetic is not supported by the CPU lowering}}
  // expected-error @+1 {{failed to legalize operation 'vrir.reduce'}}
  %r = vrir.reduce sum %A : !vrir.array<complex<i32>, 2, row_major> -> complex<i32>
  return %r : complex<i32>
}
