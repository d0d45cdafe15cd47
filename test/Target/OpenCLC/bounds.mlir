// RUN: vr-translate --gpu-to-opencl-c %s | FileCheck %s
// Each gpu.module is its own program:
// RUN: vr-translate --gpu-to-opencl-c %s | sed '/gpu.module @second/,$d' | %opencl-c-check
// RUN: vr-translate --gpu-to-opencl-c %s | sed -n '/gpu.module @second/,$p' | %opencl-c-check

// Bounds-check failures inside kernels call vrirh_report with the site's
// number: its position in the deduplicated list of site texts, shared by all
// the gpu.modules of the input and printed at the end.

// CHECK-LABEL: // gpu.module @first
// CHECK: #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
// CHECK-NOT: extended
// CHECK: static void vrirh_report(__global long *err, long site, long dim, long index,
// CHECK-NEXT:                         long extent) {
// CHECK-NEXT:   if (atom_cmpxchg((volatile __global long *)err, 0L, 1L) == 0L) {
// CHECK-NEXT:     err[1] = site;
// CHECK-NEXT:     err[2] = dim;
// CHECK-NEXT:     err[3] = index;
// CHECK-NEXT:     err[4] = extent;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT: vrirh_report(__global
// CHECK-LABEL: __kernel void gather(
// CHECK-NOT: addressof
// CHECK: if (v{{[0-9]+}}) {
// CHECK-NEXT:   long [[I:v[0-9]+]] = a2;
// CHECK-NEXT:   double v{{[0-9]+}} = a1[[[I]]];
// CHECK: } else {
// CHECK-NEXT:   long [[DIM:v[0-9]+]] = 0L;
// CHECK-NEXT:   vrirh_report(vrir_error, 0, [[DIM]], a2, a3);
// CHECK-NEXT: }
// CHECK: vrirh_report(vrir_error, 1, [[DIM2:v[0-9]+]], a2, a3);
// CHECK-LABEL: __kernel void again(
// CHECK: vrirh_report(vrir_error, 1, v{{[0-9]+}}, a0, a0);
// CHECK-LABEL: // gpu.module @second
// CHECK: __kernel void other(
// CHECK: vrirh_report(vrir_error, 2, v{{[0-9]+}}, a0, a0);
// CHECK: vrirh_report(vrir_error, 0, v{{[0-9]+}}, a0, a0);
// CHECK: // sites:
// CHECK-NEXT: //   0: "array 'b' (dimension 1) at prog.py:3:8"
// CHECK-NEXT: //   1: "array argument #0 at prog.py:4:2"
// CHECK-NEXT: //   2: "x\0A\22y\22"
// CHECK-NOT: //

module attributes {gpu.container_module} {
  gpu.module @first {
    llvm.mlir.global internal constant @site_b("array 'b' (dimension 1) at prog.py:3:8\00") {addr_space = 0 : i32}
    llvm.mlir.global internal constant @site_a("array argument #0 at prog.py:4:2\00") {addr_space = 0 : i32}
    llvm.func @vrir_rt_parallel_bounds_error(!llvm.ptr, i64, i64, i64)
    gpu.func @gather(%a: memref<?xf64>, %b: memref<?xf64> {vrir.readonly}, %i: i64, %n: i64) kernel {
      %c0 = arith.constant 0 : i64
      %ok = arith.cmpi ult, %i, %n : i64
      scf.if %ok {
        %ii = arith.index_cast %i : i64 to index
        %x = memref.load %b[%ii] : memref<?xf64>
        memref.store %x, %a[%ii] : memref<?xf64>
      } else {
        %site = llvm.mlir.addressof @site_b : !llvm.ptr
        %dim = arith.constant 0 : i64
        llvm.call @vrir_rt_parallel_bounds_error(%site, %dim, %i, %n) : (!llvm.ptr, i64, i64, i64) -> ()
      }
      %site2 = llvm.mlir.addressof @site_a : !llvm.ptr
      %dim2 = llvm.mlir.constant(0 : i64) : i64
      llvm.call @vrir_rt_parallel_bounds_error(%site2, %dim2, %i, %n) : (!llvm.ptr, i64, i64, i64) -> ()
      gpu.return
    }
    gpu.func @again(%i: i64) kernel {
      %site = llvm.mlir.addressof @site_a : !llvm.ptr
      %dim = arith.constant 2 : i64
      llvm.call @vrir_rt_parallel_bounds_error(%site, %dim, %i, %i) : (!llvm.ptr, i64, i64, i64) -> ()
      gpu.return
    }
  }
  gpu.module @second {
    llvm.mlir.global internal constant @s("x\0A\22y\22\00") {addr_space = 0 : i32}
    llvm.mlir.global internal constant @t("array 'b' (dimension 1) at prog.py:3:8\00") {addr_space = 0 : i32}
    llvm.func @vrir_rt_parallel_bounds_error(!llvm.ptr, i64, i64, i64)
    gpu.func @other(%i: i64) kernel {
      %site = llvm.mlir.addressof @s : !llvm.ptr
      %site2 = llvm.mlir.addressof @t : !llvm.ptr
      %dim = arith.constant 0 : i64
      llvm.call @vrir_rt_parallel_bounds_error(%site, %dim, %i, %i) : (!llvm.ptr, i64, i64, i64) -> ()
      llvm.call @vrir_rt_parallel_bounds_error(%site2, %dim, %i, %i) : (!llvm.ptr, i64, i64, i64) -> ()
      gpu.return
    }
  }
  func.func @host() {
    return
  }
}
