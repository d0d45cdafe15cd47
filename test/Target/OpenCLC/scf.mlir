// RUN: vr-translate --gpu-to-opencl-c %s | FileCheck %s
// RUN: vr-translate --gpu-to-opencl-c %s | %opencl-c-check

// Region results are variables declared before the construct and assigned
// at its terminator.

gpu.module @scf {
  // scf.for: the iteration arguments and the results share one variable;
  // yields that permute them go through temporaries.
  // CHECK-LABEL: __kernel void loops(long a0, long a1, long a2, double a3,
  // CHECK-NEXT:                      __global long *vrir_error) {
  gpu.func @loops(%lb: index, %ub: index, %step: index, %x: f64) kernel {
    // CHECK-NEXT: double v0 = 0.0;
    // CHECK-NEXT: double v1 = a3;
    // CHECK-NEXT: double v2 = v0;
    // CHECK-NEXT: long v3 = a0;
    // CHECK-NEXT: for (long v4 = a0; v4 < a1; v4 += a2) {
    // CHECK-NEXT:   double v5 = v1 + v2;
    // CHECK-NEXT:   long v6 = (long)((ulong)v3 + (ulong)v4);
    // CHECK-NEXT:   double v7 = v2;
    // CHECK-NEXT:   double v8 = v1;
    // CHECK-NEXT:   v1 = v7;
    // CHECK-NEXT:   v2 = v8;
    // CHECK-NEXT:   v3 = v6;
    // CHECK-NEXT: }
    // CHECK-NEXT: double v9 = v1 * v2;
    %zero = arith.constant 0.0 : f64
    %r:3 = scf.for %i = %lb to %ub step %step iter_args(%a = %x, %b = %zero, %k = %lb) -> (f64, f64, index) {
      %s = arith.addf %a, %b : f64
      %kk = arith.addi %k, %i : index
      scf.yield %b, %a, %kk : f64, f64, index
    }
    %p = arith.mulf %r#0, %r#1 : f64
    // Unsigned comparison, i32 counter, no results, nested.
    // CHECK-NEXT: int v10 = 0;
    // CHECK-NEXT: int v11 = 10;
    // CHECK-NEXT: int v12 = 1;
    // CHECK-NEXT: for (int v13 = v10; (uint)v13 < (uint)v11; v13 += v12) {
    // CHECK-NEXT:   for (long v14 = a0; v14 < a1; v14 += a2) {
    // CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    // CHECK-NEXT:   }
    // CHECK-NEXT: }
    // CHECK-NEXT: }
    %c0 = arith.constant 0 : i32
    %c10 = arith.constant 10 : i32
    %c1 = arith.constant 1 : i32
    scf.for unsigned %j = %c0 to %c10 step %c1 : i32 {
      scf.for %i = %lb to %ub step %step {
        gpu.barrier
      }
    }
    gpu.return
  }

  // CHECK-LABEL: __kernel void branches(uchar a0_, double a1, long a2,
  // CHECK-NEXT:                         __global long *vrir_error) {
  gpu.func @branches(%c: i1, %x: f64, %n: index) kernel {
    // CHECK-NEXT: bool a0 = a0_ != 0;
    // CHECK-NEXT: double v0;
    // CHECK-NEXT: long v1;
    // CHECK-NEXT: if (a0) {
    // CHECK-NEXT:   double v2 = a1 + a1;
    // CHECK-NEXT:   v0 = v2;
    // CHECK-NEXT:   v1 = a2;
    // CHECK-NEXT: } else {
    // CHECK-NEXT:   long v3 = 7L;
    // CHECK-NEXT:   v0 = a1;
    // CHECK-NEXT:   v1 = v3;
    // CHECK-NEXT: }
    %r:2 = scf.if %c -> (f64, index) {
      %d = arith.addf %x, %x : f64
      scf.yield %d, %n : f64, index
    } else {
      %seven = arith.constant 7 : index
      scf.yield %x, %seven : f64, index
    }
    // An if without else.
    // CHECK-NEXT: if (a0) {
    // CHECK-NEXT:   barrier(
    // CHECK-NEXT: }
    // CHECK-NEXT: long v4 = 1L;
    scf.if %c {
      gpu.barrier
    }
    // scf.index_switch.
    // CHECK-NEXT: double [[SW:v[0-9]+]];
    // CHECK-NEXT: switch (a2) {
    // CHECK-NEXT: case 0L: {
    // CHECK-NEXT:   [[SW]] = a1;
    // CHECK-NEXT:   break;
    // CHECK-NEXT: }
    // CHECK-NEXT: case 5L: {
    // CHECK-NEXT:   double [[N:v[0-9]+]] = -a1;
    // CHECK-NEXT:   [[SW]] = [[N]];
    // CHECK-NEXT:   break;
    // CHECK-NEXT: }
    // CHECK-NEXT: default: {
    // CHECK-NEXT:   [[SW]] = v0;
    // CHECK-NEXT:   break;
    // CHECK-NEXT: }
    // CHECK-NEXT: }
    %u = arith.constant 1 : index
    %sw = scf.index_switch %n -> f64
    case 0 {
      scf.yield %x : f64
    }
    case 5 {
      %neg = arith.negf %x : f64
      scf.yield %neg : f64
    }
    default {
      scf.yield %r#0 : f64
    }
    // scf.execute_region with one block.
    // CHECK-NEXT: long [[E:v[0-9]+]];
    // CHECK-NEXT: {
    // CHECK-NEXT:   long [[T:v[0-9]+]] = (long)((ulong)a2 + (ulong)a2);
    // CHECK-NEXT:   [[E]] = [[T]];
    // CHECK-NEXT: }
    %e = scf.execute_region -> index {
      %t = arith.addi %n, %n : index
      scf.yield %t : index
    }
    gpu.return
  }

  // scf.while: before-arguments are variables, the condition's arguments
  // go to the results, which the after region reads.
  // CHECK-LABEL: __kernel void whiles(
  gpu.func @whiles(%n: index, %x: f64) kernel {
    // CHECK-NEXT: long v0 = 0L;
    // CHECK-NEXT: long v1 = 1L;
    // CHECK-NEXT: long v2 = v0;
    // CHECK-NEXT: double v3 = a1;
    // CHECK-NEXT: long v4;
    // CHECK-NEXT: double v5;
    // CHECK-NEXT: while (1) {
    // CHECK-NEXT:   bool v6 = v2 < a0;
    // CHECK-NEXT:   v4 = v2;
    // CHECK-NEXT:   v5 = v3;
    // CHECK-NEXT:   if (!v6)
    // CHECK-NEXT:     break;
    // CHECK-NEXT:   long v7 = (long)((ulong)v4 + (ulong)v1);
    // CHECK-NEXT:   double v8 = v5 * v5;
    // CHECK-NEXT:   v2 = v7;
    // CHECK-NEXT:   v3 = v8;
    // CHECK-NEXT: }
    // CHECK-NEXT: double v9 = v5 + v5;
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r:2 = scf.while (%i = %c0, %v = %x) : (index, f64) -> (index, f64) {
      %cond = arith.cmpi slt, %i, %n : index
      scf.condition(%cond) %i, %v : index, f64
    } do {
    ^bb0(%i: index, %v: f64):
      %next = arith.addi %i, %c1 : index
      %sq = arith.mulf %v, %v : f64
      scf.yield %next, %sq : index, f64
    }
    %use = arith.addf %r#1, %r#1 : f64
    gpu.return
  }

  // Many loop-carried values (a matrix-product kernel's block of sums):
  // each is declared from its initial value's name, which must survive the
  // growth of the emitter's table of names.
  // CHECK-LABEL: __kernel void many_carried(
  // CHECK-COUNT-64: double v{{[0-9]+}} = a1;
  // CHECK-NEXT: for (
  gpu.func @many_carried(%n: index, %x: f64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r:64 = scf.for %i = %c0 to %n step %c1 iter_args(%s0 = %x, %s1 = %x, %s2 = %x, %s3 = %x, %s4 = %x, %s5 = %x, %s6 = %x, %s7 = %x, %s8 = %x, %s9 = %x, %s10 = %x, %s11 = %x, %s12 = %x, %s13 = %x, %s14 = %x, %s15 = %x, %s16 = %x, %s17 = %x, %s18 = %x, %s19 = %x, %s20 = %x, %s21 = %x, %s22 = %x, %s23 = %x, %s24 = %x, %s25 = %x, %s26 = %x, %s27 = %x, %s28 = %x, %s29 = %x, %s30 = %x, %s31 = %x, %s32 = %x, %s33 = %x, %s34 = %x, %s35 = %x, %s36 = %x, %s37 = %x, %s38 = %x, %s39 = %x, %s40 = %x, %s41 = %x, %s42 = %x, %s43 = %x, %s44 = %x, %s45 = %x, %s46 = %x, %s47 = %x, %s48 = %x, %s49 = %x, %s50 = %x, %s51 = %x, %s52 = %x, %s53 = %x, %s54 = %x, %s55 = %x, %s56 = %x, %s57 = %x, %s58 = %x, %s59 = %x, %s60 = %x, %s61 = %x, %s62 = %x, %s63 = %x) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
      scf.yield %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7, %s8, %s9, %s10, %s11, %s12, %s13, %s14, %s15, %s16, %s17, %s18, %s19, %s20, %s21, %s22, %s23, %s24, %s25, %s26, %s27, %s28, %s29, %s30, %s31, %s32, %s33, %s34, %s35, %s36, %s37, %s38, %s39, %s40, %s41, %s42, %s43, %s44, %s45, %s46, %s47, %s48, %s49, %s50, %s51, %s52, %s53, %s54, %s55, %s56, %s57, %s58, %s59, %s60, %s61, %s62, %s63 : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64
    }
    gpu.return
  }
}
