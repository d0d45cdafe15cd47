// RUN: vr-opt %s -split-input-file -inline | FileCheck %s --check-prefix=INLINE
// RUN: vr-opt %s -split-input-file -loop-invariant-code-motion | FileCheck %s --check-prefix=LICM
// RUN: vr-opt %s -split-input-file -cse | FileCheck %s --check-prefix=CSE

!m = !vrir.array<f64, 2, row_major>

// The inliner interface: VRIR ops inline into their callers.
// INLINE-LABEL: func.func @caller
// INLINE-NOT: call @stencil_point
// INLINE: vrir.pfor
// INLINE: vrir.load
// INLINE: vrir.store
func.func private @stencil_point(%A: !m, %B: !m, %i: index, %j: index) {
  %x = vrir.load %A[%i, %j] : !m[index, index]
  %y = arith.mulf %x, %x : f64
  vrir.store %y, %B[%i, %j] : !m[index, index]
  return
}
func.func @caller(%A: !m, %B: !m, %n: index) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  %d = vrir.domain %r, %r : !vrir.domain<2>
  vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%A, %B : !m, !m) {
    func.call @stencil_point(%A, %B, %i, %j) : (!m, !m, index, index) -> ()
  }
  return
}

// -----

// A callee with branches cannot go into a pfor body (a single block); it
// inlines where its caller has room for blocks.
// INLINE-LABEL: func.func @branchy_caller
// INLINE: vrir.pfor
// INLINE-NEXT: func.call @branchy
// INLINE: cf.cond_br
// INLINE-NOT: func.call @branchy
func.func private @branchy(%A: !vrir.array<f64, 1, row_major>, %i: index, %x: f64) {
  %z = arith.constant 0.0 : f64
  %neg = arith.cmpf olt, %x, %z : f64
  cf.cond_br %neg, ^skip, ^write
^write:
  vrir.store %x, %A[%i] : !vrir.array<f64, 1, row_major>[index]
  cf.br ^skip
^skip:
  return
}
func.func @branchy_caller(%A: !vrir.array<f64, 1, row_major>, %n: index, %x: f64) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<f64, 1, row_major>) {
    func.call @branchy(%A, %i, %x) : (!vrir.array<f64, 1, row_major>, index, f64) -> ()
  }
  func.call @branchy(%A, %c0, %x) : (!vrir.array<f64, 1, row_major>, index, f64) -> ()
  return
}

// -----

!m = !vrir.array<f64, 2, row_major>

// The loop-like interface: invariant pure code leaves a pfor.
// LICM-LABEL: func.func @hoist
// LICM: arith.mulf
// LICM: vrir.pfor
// LICM-NOT: arith.mulf
// LICM: vrir.store
func.func @hoist(%A: !vrir.array<f64, 1, row_major>, %x: f64, %n: index) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%A : !vrir.array<f64, 1, row_major>) {
    %y = arith.mulf %x, %x : f64
    vrir.store %y, %A[%i] : !vrir.array<f64, 1, row_major>[index]
  }
  return
}

// -----

!m = !vrir.array<f64, 2, row_major>

// Side effects: two loads of one element with no write between are one;
// an allocation is never merged with another.
// CSE-LABEL: func.func @effects
// CSE: vrir.load
// CSE-NOT: vrir.load
// CSE: vrir.zeros
// CSE: vrir.zeros
func.func @effects(%A: !m, %i: index, %n: index) -> (f64, !m, !m) {
  %x = vrir.load %A[%i, %i] : !m[index, index]
  %y = vrir.load %A[%i, %i] : !m[index, index]
  %s = arith.addf %x, %y : f64
  %Z1 = vrir.zeros(%n, %n) : !m
  %Z2 = vrir.zeros(%n, %n) : !m
  return %s, %Z1, %Z2 : f64, !m, !m
}
