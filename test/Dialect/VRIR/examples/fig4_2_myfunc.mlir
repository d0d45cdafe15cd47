// RUN: vr-opt %s | vr-opt | FileCheck %s
// RUN: vr-opt %s -mem2reg | FileCheck %s --check-prefix=SSA

// Thesis figure 4.1 (Python) and figure 4.2 (its VRIR S-expression):
//
//   def myfunc(a: PyInt32, b: PyInt32): PyInt32
//     c = a+b  #c is also 32-bit integer according to our type rules
//     return c
//
//   (function "myfunc"
//     (fntype (int32vtype int32vtype) (int32vtype))
//     (syntable (0 "a" int32vtype) (1 "b" int32vtype) (2 "c" int32vtype))
//     (args 0 1)
//     (body
//       (assignstmt (lhs (nameexpr 2 int32vtype))
//                   (rhs (plusexpr int32vtype (nameexpr 0 int32vtype)
//                                             (nameexpr 1 int32vtype))))
//       (returnstmt (exprs (nameexpr 2 int32vtype)))))
//
// Each entry of the symbol table is a vrir.alloca slot; the arguments are
// bound to their slots on entry, a nameexpr is a vrir.read and the
// assignment a vrir.write. The module uses NumPy semantics (the defaults).

module {
  func.func @myfunc(%arg_a: i32, %arg_b: i32) -> i32 {
    %a = vrir.alloca "a" : !vrir.var<i32>
    %b = vrir.alloca "b" : !vrir.var<i32>
    %c = vrir.alloca "c" : !vrir.var<i32>
    vrir.write %arg_a, %a : !vrir.var<i32>
    vrir.write %arg_b, %b : !vrir.var<i32>
    // c = a + b
    %0 = vrir.read %a : !vrir.var<i32>
    %1 = vrir.read %b : !vrir.var<i32>
    %2 = arith.addi %0, %1 : i32
    vrir.write %2, %c : !vrir.var<i32>
    // return c
    %3 = vrir.read %c : !vrir.var<i32>
    return %3 : i32
  }
}

// CHECK-LABEL: func.func @myfunc
// CHECK-SAME:    (%[[A:.*]]: i32, %[[B:.*]]: i32) -> i32
// CHECK:         %[[VA:.*]] = vrir.alloca "a" : !vrir.var<i32>
// CHECK:         %[[VB:.*]] = vrir.alloca "b" : !vrir.var<i32>
// CHECK:         %[[VC:.*]] = vrir.alloca "c" : !vrir.var<i32>
// CHECK:         vrir.write %[[A]], %[[VA]] : !vrir.var<i32>
// CHECK:         vrir.write %[[B]], %[[VB]] : !vrir.var<i32>
// CHECK:         %[[RA:.*]] = vrir.read %[[VA]] : !vrir.var<i32>
// CHECK:         %[[RB:.*]] = vrir.read %[[VB]] : !vrir.var<i32>
// CHECK:         %[[SUM:.*]] = arith.addi %[[RA]], %[[RB]] : i32
// CHECK:         vrir.write %[[SUM]], %[[VC]] : !vrir.var<i32>
// CHECK:         %[[RC:.*]] = vrir.read %[[VC]] : !vrir.var<i32>
// CHECK:         return %[[RC]] : i32

// After mem2reg the symbol table is gone: c is the SSA value a + b.
// SSA-LABEL: func.func @myfunc
// SSA-SAME:    (%[[A:.*]]: i32, %[[B:.*]]: i32) -> i32
// SSA-NOT:     vrir.alloca
// SSA-NOT:     vrir.write
// SSA-NOT:     vrir.read
// SSA:         %[[SUM:.*]] = arith.addi %[[A]], %[[B]] : i32
// SSA-NOT:     vrir.read
// SSA-NEXT:    return %[[SUM]] : i32
// SSA-NOT:     vrir.
