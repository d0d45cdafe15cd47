// RUN: vr-opt %s | vr-opt | FileCheck %s
// RUN: vr-opt %s -inline | FileCheck %s --check-prefix=INLINE

// vrir.dispatch: a call of an outlined region through its specialization
// dispatcher, naming the critical shape and value operands.

!m = !vrir.array<f64, 2, row_major>
!iv = !vrir.array<i64, 1, row_major>

func.func private @f_region0(%A: !m, %B: !m, %n: index, %idx: !iv) -> f64 {
  %c0 = arith.constant 0 : index
  %x = vrir.load %A[%c0, %n] : !m[index, index]
  return %x : f64
}

// CHECK-LABEL: func.func @f
// CHECK:         %[[R:.*]] = vrir.dispatch @f_region0(%arg0, %arg1, %arg2, %arg3) shapes [0, 1, 3] values [2, 3] : (!vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>, index, !vrir.array<i64, 1, row_major>) -> f64
// CHECK:         return %[[R]]
// The inliner leaves dispatches alone: the callee is meant to be
// specialised at run time.
// INLINE-LABEL: func.func @f
// INLINE:         vrir.dispatch @f_region0
func.func @f(%A: !m, %B: !m, %n: index, %idx: !iv) -> f64 {
  %r = vrir.dispatch @f_region0(%A, %B, %n, %idx) shapes [0, 1, 3] values [2, 3]
      : (!m, !m, index, !iv) -> f64
  return %r : f64
}

// CHECK-LABEL: func.func @no_critical
// CHECK:         vrir.dispatch @g_region0() shapes [] values [] : () -> ()
func.func private @g_region0() {
  return
}
func.func @no_critical() {
  vrir.dispatch @g_region0() shapes [] values [] : () -> ()
  return
}
