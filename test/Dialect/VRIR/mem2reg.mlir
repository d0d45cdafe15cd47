// RUN: vr-opt %s -mem2reg | FileCheck %s

// Variables of a frontend without SSA (the thesis's symbol table) are
// promotable slots: upstream mem2reg builds SSA through control flow.

// CHECK-LABEL: func.func @max_loop
// CHECK-NOT: vrir.alloca
// CHECK-NOT: vrir.read
// CHECK-NOT: vrir.write
// CHECK: cf.cond_br
// CHECK: ^bb{{.*}}(%{{.*}}: f64
func.func @max_loop(%A: !vrir.array<f64, 1, row_major>, %n: index) -> f64 {
  %best = vrir.alloca "best" : !vrir.var<f64>
  %i = vrir.alloca "i" : !vrir.var<index>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = vrir.load %A[%c0] : !vrir.array<f64, 1, row_major>[index]
  vrir.write %first, %best : !vrir.var<f64>
  vrir.write %c1, %i : !vrir.var<index>
  cf.br ^header
^header:
  %iv = vrir.read %i : !vrir.var<index>
  %more = arith.cmpi slt, %iv, %n : index
  cf.cond_br %more, ^body, ^exit
^body:
  %x = vrir.load %A[%iv] : !vrir.array<f64, 1, row_major>[index]
  %b = vrir.read %best : !vrir.var<f64>
  %m = arith.maximumf %x, %b : f64
  vrir.write %m, %best : !vrir.var<f64>
  %next = arith.addi %iv, %c1 : index
  vrir.write %next, %i : !vrir.var<index>
  cf.br ^header
^exit:
  %r = vrir.read %best : !vrir.var<f64>
  return %r : f64
}

// An array variable rebound in a branch.
// CHECK-LABEL: func.func @array_variable
// CHECK-NOT: vrir.alloca
// CHECK: ^bb{{.*}}(%{{.*}}: !vrir.array<f64, 1, row_major>)
func.func @array_variable(%c: i1, %n: index) -> !vrir.array<f64, 1, row_major> {
  %a = vrir.alloca "a" : !vrir.var<!vrir.array<f64, 1, row_major>>
  cf.cond_br %c, ^zeros, ^ones
^zeros:
  %z = vrir.zeros(%n) : !vrir.array<f64, 1, row_major>
  vrir.write %z, %a : !vrir.var<!vrir.array<f64, 1, row_major>>
  cf.br ^join
^ones:
  %o = vrir.ones(%n) : !vrir.array<f64, 1, row_major>
  vrir.write %o, %a : !vrir.var<!vrir.array<f64, 1, row_major>>
  cf.br ^join
^join:
  %r = vrir.read %a : !vrir.var<!vrir.array<f64, 1, row_major>>
  return %r : !vrir.array<f64, 1, row_major>
}
