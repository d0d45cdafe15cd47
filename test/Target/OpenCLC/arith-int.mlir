// RUN: vr-translate --gpu-to-opencl-c %s | FileCheck %s
// RUN: vr-translate --gpu-to-opencl-c %s | %opencl-c-check

// Integer arithmetic wraps (32/64-bit through the unsigned type), unsigned
// operations go through the unsigned C type, i1 is bool with true = -1 when
// signed. Floor/ceil divisions are helpers, emitted once per type.

// CHECK-LABEL: // gpu.module @ints
// CHECK-NOT: cl_khr_fp64
// CHECK-NOT: atomics
// CHECK: static inline long vrirh_floordivsi_long(long a, long b) {
// CHECK-NEXT:   long q = (long)(a / b);
// CHECK-NEXT:   if (a % b != 0 && ((a < 0) != (b < 0)))
// CHECK-NEXT:     q = (long)(q - 1);
// CHECK-NEXT:   return q;
// CHECK-NEXT: }
// CHECK: static inline long vrirh_ceildivsi_long(long a, long b) {
// CHECK:   if (a % b != 0 && ((a < 0) == (b < 0)))
// CHECK-NEXT:     q = (long)(q + 1);
// CHECK: static inline long vrirh_ceildivui_long(long a, long b) {
// CHECK-NEXT:   ulong ua = (ulong)a, ub = (ulong)b;
// CHECK-NEXT:   return ua == 0 ? (long)0 : (long)((ua - 1) / ub + 1);
// CHECK: static inline char vrirh_floordivsi_char(char a, char b) {
// CHECK-NOT: vrirh_floordivsi_long

// CHECK-LABEL: __kernel void ints(long a0, long a1, int a2, int a3, char a4, char a5, short a6,
// CHECK-NEXT:                     __global long *vrir_error) {
gpu.module @ints {
  gpu.func @ints(%x: index, %y: index, %p: i32, %q: i32, %b: i8, %c: i8, %s: i16) kernel {
    // CHECK-NEXT: long v0 = (long)((ulong)a0 + (ulong)a1);
    // CHECK-NEXT: long v1 = (long)((ulong)a0 - (ulong)a1);
    // CHECK-NEXT: long v2 = (long)((ulong)a0 * (ulong)a1);
    // CHECK-NEXT: long v3 = a0 / a1;
    // CHECK-NEXT: long v4 = (long)((ulong)a0 / (ulong)a1);
    // CHECK-NEXT: long v5 = a0 % a1;
    // CHECK-NEXT: long v6 = (long)((ulong)a0 % (ulong)a1);
    // CHECK-NEXT: long v7 = vrirh_floordivsi_long(a0, a1);
    // CHECK-NEXT: long v8 = vrirh_ceildivsi_long(a0, a1);
    // CHECK-NEXT: long v9 = vrirh_ceildivui_long(a0, a1);
    // CHECK-NEXT: long v10 = vrirh_floordivsi_long(a1, a0);
    %0 = arith.addi %x, %y : index
    %1 = arith.subi %x, %y : index
    %2 = arith.muli %x, %y : index
    %3 = arith.divsi %x, %y : index
    %4 = arith.divui %x, %y : index
    %5 = arith.remsi %x, %y : index
    %6 = arith.remui %x, %y : index
    %7 = arith.floordivsi %x, %y : index
    %8 = arith.ceildivsi %x, %y : index
    %9 = arith.ceildivui %x, %y : index
    %10 = arith.floordivsi %y, %x : index
    // CHECK-NEXT: int v11 = a2 & a3;
    // CHECK-NEXT: int v12 = a2 | a3;
    // CHECK-NEXT: int v13 = a2 ^ a3;
    // CHECK-NEXT: int v14 = (int)((uint)a2 << (uint)a3);
    // CHECK-NEXT: int v15 = a2 >> (uint)a3;
    // CHECK-NEXT: int v16 = (int)((uint)a2 >> (uint)a3);
    // CHECK-NEXT: int v17 = min(a2, a3);
    // CHECK-NEXT: int v18 = max(a2, a3);
    // CHECK-NEXT: int v19 = (int)min((uint)a2, (uint)a3);
    // CHECK-NEXT: int v20 = (int)max((uint)a2, (uint)a3);
    %11 = arith.andi %p, %q : i32
    %12 = arith.ori %p, %q : i32
    %13 = arith.xori %p, %q : i32
    %14 = arith.shli %p, %q : i32
    %15 = arith.shrsi %p, %q : i32
    %16 = arith.shrui %p, %q : i32
    %17 = arith.minsi %p, %q : i32
    %18 = arith.maxsi %p, %q : i32
    %19 = arith.minui %p, %q : i32
    %20 = arith.maxui %p, %q : i32
    // char and short are promoted to int, where nothing overflows.
    // CHECK-NEXT: char v21 = (char)(a4 + a5);
    // CHECK-NEXT: char v22 = (char)(a4 * a5);
    // CHECK-NEXT: char v23 = (char)((uchar)a4 / (uchar)a5);
    // CHECK-NEXT: char v24 = vrirh_floordivsi_char(a4, a5);
    // CHECK-NEXT: short v25 = (short)(a6 - a6);
    %21 = arith.addi %b, %c : i8
    %22 = arith.muli %b, %c : i8
    %23 = arith.divui %b, %c : i8
    %24 = arith.floordivsi %b, %c : i8
    %25 = arith.subi %s, %s : i16
    // CHECK-NEXT: bool v26 = a0 == a1;
    // CHECK-NEXT: bool v27 = a0 != a1;
    // CHECK-NEXT: bool v28 = a0 < a1;
    // CHECK-NEXT: bool v29 = a0 <= a1;
    // CHECK-NEXT: bool v30 = a0 > a1;
    // CHECK-NEXT: bool v31 = a0 >= a1;
    // CHECK-NEXT: bool v32 = (ulong)a0 < (ulong)a1;
    // CHECK-NEXT: bool v33 = (ulong)a0 <= (ulong)a1;
    // CHECK-NEXT: bool v34 = (ulong)a0 > (ulong)a1;
    // CHECK-NEXT: bool v35 = (ulong)a0 >= (ulong)a1;
    %26 = arith.cmpi eq, %x, %y : index
    %27 = arith.cmpi ne, %x, %y : index
    %28 = arith.cmpi slt, %x, %y : index
    %29 = arith.cmpi sle, %x, %y : index
    %30 = arith.cmpi sgt, %x, %y : index
    %31 = arith.cmpi sge, %x, %y : index
    %32 = arith.cmpi ult, %x, %y : index
    %33 = arith.cmpi ule, %x, %y : index
    %34 = arith.cmpi ugt, %x, %y : index
    %35 = arith.cmpi uge, %x, %y : index
    // i1: add is xor, signed comparisons see true as -1.
    // CHECK-NEXT: bool v36 = v26 ^ v28;
    // CHECK-NEXT: bool v37 = v26 & v28;
    // CHECK-NEXT: bool v38 = v26 | v28;
    // CHECK-NEXT: bool v39 = v26 | v28;
    // CHECK-NEXT: bool v40 = (-(int)v26) < (-(int)v28);
    // CHECK-NEXT: bool v41 = (uchar)v26 < (uchar)v28;
    // CHECK-NEXT: long v42 = v36 ? a0 : a1;
    %36 = arith.addi %26, %28 : i1
    %37 = arith.muli %26, %28 : i1
    %38 = arith.ori %26, %28 : i1
    %39 = arith.minsi %26, %28 : i1
    %40 = arith.cmpi slt, %26, %28 : i1
    %41 = arith.cmpi ult, %26, %28 : i1
    %42 = arith.select %36, %x, %y : index
    // Constants, including the most negative ones.
    // CHECK-NEXT: long v43 = (-9223372036854775807L - 1L);
    // CHECK-NEXT: int v44 = (-2147483647 - 1);
    // CHECK-NEXT: int v45 = -7;
    // CHECK-NEXT: long v46 = 42L;
    // CHECK-NEXT: char v47 = (char)-1;
    // CHECK-NEXT: short v48 = (short)300;
    // CHECK-NEXT: bool v49 = true;
    // CHECK-NEXT: bool v50 = false;
    // CHECK-NEXT: long v51 = 9223372036854775807L;
    %43 = arith.constant -9223372036854775808 : i64
    %44 = arith.constant -2147483648 : i32
    %45 = arith.constant -7 : i32
    %46 = arith.constant 42 : index
    %47 = arith.constant 255 : i8
    %48 = arith.constant 300 : i16
    %49 = arith.constant true
    %50 = arith.constant false
    %51 = arith.constant 9223372036854775807 : i64
    // Integer casts: sign/zero extension, truncation (to i1: the low bit).
    // CHECK-NEXT: int v52 = (int)a0;
    // CHECK-NEXT: long v53 = (long)a2;
    // CHECK-NEXT: long v54 = (long)(uint)a2;
    // CHECK-NEXT: long v55 = (long)(uchar)a4;
    // CHECK-NEXT: long v56 = (long)a4;
    // CHECK-NEXT: short v57 = (short)a2;
    // CHECK-NEXT: bool v58 = (a2 & 1) != 0;
    // CHECK-NEXT: int v59 = (int)-(int)v49;
    // CHECK-NEXT: int v60 = (int)v49;
    // CHECK-NEXT: long v61 = a0;
    %52 = arith.index_cast %x : index to i32
    %53 = arith.index_cast %p : i32 to index
    %54 = arith.index_castui %p : i32 to index
    %55 = arith.extui %b : i8 to i64
    %56 = arith.extsi %b : i8 to i64
    %57 = arith.trunci %p : i32 to i16
    %58 = arith.trunci %p : i32 to i1
    %59 = arith.extsi %49 : i1 to i32
    %60 = arith.extui %49 : i1 to i32
    %61 = arith.index_cast %x : index to i64
    // CHECK-NEXT: }
    gpu.return
  }
}
