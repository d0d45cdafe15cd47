// RUN: vr-opt %s | vr-opt | FileCheck %s
// RUN: vr-opt %s -mlir-print-op-generic | vr-opt | FileCheck %s
// RUN: vr-opt %s -emit-bytecode | vr-opt | FileCheck %s

// One round trip of every VRIR op, in custom form, through the generic form,
// and through bytecode.

!m = !vrir.array<f64, 2, row_major>
!v = !vrir.array<f64, 1, row_major>
!s = !vrir.array<f64, 1, strided>
!iv = !vrir.array<i64, 1, row_major>

// CHECK-LABEL: func.func @variables
func.func @variables(%a: i32, %b: i32) -> i32 {
  // CHECK: %[[C:.*]] = vrir.alloca "c" : !vrir.var<i32>
  %c = vrir.alloca "c" : !vrir.var<i32>
  // CHECK: %[[T:.*]] = vrir.alloca : !vrir.var<!vrir.array<f64, 1, row_major>>
  %t = vrir.alloca : !vrir.var<!vrir.array<f64, 1, row_major>>
  %s = arith.addi %a, %b : i32
  // CHECK: vrir.write %{{.*}}, %[[C]] : !vrir.var<i32>
  vrir.write %s, %c : !vrir.var<i32>
  // CHECK: vrir.read %[[C]] : !vrir.var<i32>
  %r = vrir.read %c : !vrir.var<i32>
  return %r : i32
}

// CHECK-LABEL: func.func @ranges
func.func @ranges(%n: index) -> !vrir.domain<2> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // CHECK: vrir.range %{{.*}} to %{{.*}}{{$}}
  %r = vrir.range %c0 to %n
  // CHECK: vrir.range %{{.*}} to %{{.*}} step %{{.*}}
  %q = vrir.range %c0 to %n step %c2
  // CHECK: vrir.domain %{{.*}}, %{{.*}} : !vrir.domain<2>
  %d = vrir.domain %r, %q : !vrir.domain<2>
  return %d : !vrir.domain<2>
}

// CHECK-LABEL: func.func @allocation
func.func @allocation(%m: index, %n: index) -> (index, index) {
  // CHECK: vrir.zeros(%{{.*}}, %{{.*}}) : !vrir.array<f64, 2, row_major>
  %a = vrir.zeros(%m, %n) : !m
  // CHECK: vrir.ones(%{{.*}}) : !vrir.array<i32, 1, col_major>
  %b = vrir.ones(%m) : !vrir.array<i32, 1, col_major>
  // CHECK: vrir.empty() : !vrir.array<complex<f32>, 0, row_major>
  %c = vrir.empty() : !vrir.array<complex<f32>, 0, row_major>
  // CHECK: vrir.dim %{{.*}}, 1 : !vrir.array<f64, 2, row_major>
  %d = vrir.dim %a, 1 : !m
  // CHECK: vrir.numel %{{.*}} : !vrir.array<f64, 2, row_major>
  %e = vrir.numel %a : !m
  return %d, %e : index, index
}

// CHECK-LABEL: func.func @element_access
func.func @element_access(%A: !m, %i: index, %j: i64, %x: f64) -> f64 {
  // CHECK: vrir.load %{{.*}}[%{{.*}}, %{{.*}}] : !vrir.array<f64, 2, row_major>[index, i64]
  %a = vrir.load %A[%i, %j] : !m[index, i64]
  // CHECK: flags [#vrir.index<lower|upper|negative>, #vrir.index<none>]
  %b = vrir.load %A[%i, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<none>] : !m[index, i64]
  // CHECK: vrir.load %{{.*}}[%{{.*}}] {flattened} : !vrir.array<f64, 2, row_major>[index]
  %c = vrir.load %A[%i] {flattened} : !m[index]
  // CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !vrir.array<f64, 2, row_major>[index, i64]{{$}}
  vrir.store %x, %A[%i, %j] : !m[index, i64]
  // CHECK: %{{.*}} = vrir.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<lower|grow>, #vrir.index<lower|upper>] : !vrir.array<f64, 2, row_major>[index, i64] -> !vrir.array<f64, 2, row_major>
  %G = vrir.store %x, %A[%i, %j] flags [#vrir.index<lower|grow>, #vrir.index<lower|upper>] : !m[index, i64] -> !m
  // CHECK: vrir.store %{{.*}}, %{{.*}}[%{{.*}}] {flattened}
  vrir.store %x, %A[%i] {flattened} : !m[index]
  %s = arith.addf %a, %b : f64
  %t = arith.addf %s, %c : f64
  return %t : f64
}

// CHECK-LABEL: func.func @zero_rank
func.func @zero_rank(%A: !vrir.array<i1, 0, row_major>) -> i1 {
  // CHECK: vrir.load %{{.*}}[] : !vrir.array<i1, 0, row_major>{{$}}
  %a = vrir.load %A[] : !vrir.array<i1, 0, row_major>
  return %a : i1
}

// CHECK-LABEL: func.func @slicing
func.func @slicing(%A: !m, %i: index, %r: !vrir.range, %v: !v, %idx: !iv) {
  // CHECK: vrir.slice %{{.*}}[%{{.*}}, %{{.*}}] : !vrir.array<f64, 2, row_major>[index, !vrir.range] -> !vrir.array<f64, 1, strided>
  %row = vrir.slice %A[%i, %r] : !m[index, !vrir.range] -> !s
  // CHECK: vrir.slice %{{.*}}[%{{.*}}] : !vrir.array<f64, 2, row_major>[index] -> !vrir.array<f64, 1, strided>
  %implicit = vrir.slice %A[%i] : !m[index] -> !s
  // CHECK: vrir.slice %{{.*}}[%{{.*}}, %{{.*}}] {copy} : {{.*}} -> !vrir.array<f64, 2, col_major>
  %copy = vrir.slice %A[%r, %r] {copy} : !m[!vrir.range, !vrir.range] -> !vrir.array<f64, 2, col_major>
  // CHECK: vrir.store_slice %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !vrir.array<f64, 1, row_major>, !vrir.array<f64, 2, row_major>[index, !vrir.range]
  vrir.store_slice %v, %A[%i, %r] : !v, !m[index, !vrir.range]
  %zero = arith.constant 0.0 : f64
  // CHECK: vrir.store_slice %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<none>, #vrir.index<none>] : f64
  vrir.store_slice %zero, %A[%r, %r] flags [#vrir.index<none>, #vrir.index<none>] : f64, !m[!vrir.range, !vrir.range]
  // CHECK: vrir.gather %{{.*}}[%{{.*}}] {axis = 1 : i64} : !vrir.array<f64, 2, row_major>[!vrir.array<i64, 1, row_major>] -> !vrir.array<f64, 2, row_major>
  %g = vrir.gather %A[%idx] {axis = 1 : i64} : !m[!iv] -> !m
  // CHECK: vrir.gather %{{.*}}[%{{.*}}] flags <lower|upper|negative> : !vrir.array<f64, 1, row_major>
  %h = vrir.gather %v[%idx] flags <lower|upper|negative> : !v[!iv] -> !v
  // CHECK: vrir.scatter %{{.*}}, %{{.*}}[%{{.*}}] : f64, !vrir.array<f64, 1, row_major>[!vrir.array<i64, 1, row_major>]
  vrir.scatter %zero, %v[%idx] : f64, !v[!iv]
  // CHECK: vrir.scatter %{{.*}}, %{{.*}}[%{{.*}}] : !vrir.array<f64, 1, strided>, !vrir.array<f64, 1, row_major>[!vrir.array<i64, 1, row_major>]
  vrir.scatter %row, %v[%idx] : !s, !v[!iv]
  return
}

// CHECK-LABEL: func.func @views
func.func @views(%A: !m, %v: !v, %s: !s, %T: !vrir.array<i64, 3, col_major>, %n: index,
                 %Z: !vrir.array<complex<f64>, 2, row_major>, %z: !vrir.array<complex<f32>, 1, strided>) {
  // CHECK: vrir.permute %{{.*}} [1, 0] : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
  %0 = vrir.permute %A [1, 0] : !m -> !vrir.array<f64, 2, col_major>
  // CHECK: vrir.permute %{{.*}} [2, 0, 1] : !vrir.array<i64, 3, col_major> -> !vrir.array<i64, 3, strided>
  %1 = vrir.permute %T [2, 0, 1] : !vrir.array<i64, 3, col_major> -> !vrir.array<i64, 3, strided>
  // CHECK: vrir.part_view real %{{.*}} : !vrir.array<complex<f64>, 2, row_major> -> !vrir.array<f64, 2, strided>
  %re = vrir.part_view real %Z : !vrir.array<complex<f64>, 2, row_major> -> !vrir.array<f64, 2, strided>
  // CHECK: vrir.part_view imag %{{.*}} : !vrir.array<complex<f32>, 1, strided> -> !vrir.array<f32, 1, strided>
  %im = vrir.part_view imag %z : !vrir.array<complex<f32>, 1, strided> -> !vrir.array<f32, 1, strided>
  // CHECK: vrir.expand_dims %{{.*}} [0, 2] : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 3, row_major>
  %2 = vrir.expand_dims %v [0, 2] : !v -> !vrir.array<f64, 3, row_major>
  // CHECK: vrir.expand_dims %{{.*}} [1] : !vrir.array<f64, 1, strided> -> !vrir.array<f64, 2, strided>
  %3 = vrir.expand_dims %s [1] : !s -> !vrir.array<f64, 2, strided>
  // CHECK: vrir.reshape %{{.*}}(%{{.*}}, %{{.*}}) : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
  %c-1 = arith.constant -1 : index
  %4 = vrir.reshape %A(%n, %c-1) : !m -> !m
  // CHECK: vrir.reshape %{{.*}}(%{{.*}}) : !vrir.array<f64, 1, strided> -> !vrir.array<f64, 1, strided>
  %5 = vrir.reshape %s(%n) : !s -> !s
  return
}

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%A: !m, %B: !m, %v: !v, %x: f64, %z: complex<f64>) {
  // CHECK: vrir.unary sqrt %{{.*}} : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
  %0 = vrir.unary sqrt %A : !m -> !m
  // CHECK: vrir.unary abs %{{.*}} : complex<f64> -> f64
  %1 = vrir.unary abs %z : complex<f64> -> f64
  // CHECK: vrir.unary real %{{.*}} : complex<f64> -> f64
  %2 = vrir.unary real %z : complex<f64> -> f64
  // CHECK: vrir.binary add %{{.*}}, %{{.*}} : !vrir.array<f64, 2, row_major>, f64 -> !vrir.array<f64, 2, row_major>
  %3 = vrir.binary add %A, %x : !m, f64 -> !m
  // CHECK: vrir.binary mul %{{.*}}, %{{.*}} : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 2, col_major>
  %4 = vrir.binary mul %A, %v : !m, !v -> !vrir.array<f64, 2, col_major>
  // CHECK: vrir.binary pow %{{.*}}, %{{.*}} : f64, f64 -> f64
  %5 = vrir.binary pow %x, %x : f64, f64 -> f64
  // CHECK: vrir.cmp lt %{{.*}}, %{{.*}} : {{.*}} -> !vrir.array<i1, 2, row_major>
  %6 = vrir.cmp lt %A, %B : !m, !m -> !vrir.array<i1, 2, row_major>
  // CHECK: vrir.select %{{.*}}, %{{.*}}, %{{.*}} : !vrir.array<i1, 2, row_major>, !vrir.array<f64, 2, row_major>, f64 -> !vrir.array<f64, 2, row_major>
  %7 = vrir.select %6, %A, %x : !vrir.array<i1, 2, row_major>, !m, f64 -> !m
  // CHECK: vrir.binary and %{{.*}}, %{{.*}} : !vrir.array<i1, 2, row_major>, i1
  %t = arith.constant true
  %8 = vrir.binary and %6, %t : !vrir.array<i1, 2, row_major>, i1 -> !vrir.array<i1, 2, row_major>
  // CHECK: vrir.unary not %{{.*}} : !vrir.array<i1, 2, row_major>
  %9 = vrir.unary not %8 : !vrir.array<i1, 2, row_major> -> !vrir.array<i1, 2, row_major>
  // CHECK: vrir.cast %{{.*}} : !vrir.array<f64, 2, row_major> to !vrir.array<i32, 2, row_major>
  %10 = vrir.cast %A : !m to !vrir.array<i32, 2, row_major>
  // CHECK: vrir.cast %{{.*}} : f64 to complex<f64>
  %11 = vrir.cast %x : f64 to complex<f64>
  // CHECK: vrir.copy %{{.*}} : !vrir.array<f64, 2, row_major> to !vrir.array<f64, 2, col_major>
  %12 = vrir.copy %A : !m to !vrir.array<f64, 2, col_major>
  return
}

// CHECK-LABEL: func.func @lapack
func.func @lapack(%A: !m, %B: !vrir.array<f32, 2, strided>, %v: !s) -> f64 {
  // CHECK: vrir.cholesky %{{.*}} : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
  %0 = vrir.cholesky %A : !m -> !vrir.array<f64, 2, col_major>
  // CHECK: vrir.inv %{{.*}} : !vrir.array<f32, 2, strided> -> !vrir.array<f32, 2, row_major>
  %1 = vrir.inv %B : !vrir.array<f32, 2, strided> -> !vrir.array<f32, 2, row_major>
  // CHECK: vrir.solve %{{.*}}, %{{.*}} : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, strided> -> !vrir.array<f64, 1, row_major>
  %2 = vrir.solve %A, %v : !m, !s -> !v
  // CHECK: vrir.solve %{{.*}}, %{{.*}} : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>
  %3 = vrir.solve %A, %A : !m, !m -> !vrir.array<f64, 2, col_major>
  // CHECK: vrir.solve %{{.*}}, %{{.*}} triangular lower : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, strided> -> !vrir.array<f64, 1, row_major>
  %t = vrir.solve %A, %v triangular lower : !m, !s -> !v
  // CHECK: vrir.solve %{{.*}}, %{{.*}} triangular upper :
  %u = vrir.solve %A, %v triangular upper : !m, !s -> !v
  // CHECK: vrir.det %{{.*}} : !vrir.array<f64, 2, row_major> -> f64
  %4 = vrir.det %A : !m -> f64
  // CHECK: vrir.slogdet %{{.*}} : !vrir.array<f32, 2, strided> -> f32, f32
  %sign, %logabsdet = vrir.slogdet %B : !vrir.array<f32, 2, strided> -> f32, f32
  // CHECK: vrir.eigh %{{.*}} : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>, !vrir.array<f64, 2, col_major>
  %5:2 = vrir.eigh %A : !m -> !v, !vrir.array<f64, 2, col_major>
  // CHECK: vrir.eigh %{{.*}} : !vrir.array<f32, 2, strided> -> !vrir.array<f32, 1, row_major>{{$}}
  %6 = vrir.eigh %B : !vrir.array<f32, 2, strided> -> !vrir.array<f32, 1, row_major>
  // CHECK: vrir.svd %{{.*}} full_matrices : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>, !vrir.array<f64, 1, row_major>, !vrir.array<f64, 2, row_major>
  %7:3 = vrir.svd %A full_matrices : !m -> !vrir.array<f64, 2, col_major>, !v, !m
  // CHECK: vrir.svd %{{.*}} : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>{{$}}
  %8 = vrir.svd %A : !m -> !v
  // CHECK: vrir.qr %{{.*}} complete : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, col_major>, !vrir.array<f64, 2, row_major>
  %9:2 = vrir.qr %A complete : !m -> !vrir.array<f64, 2, col_major>, !m
  // CHECK: vrir.qr %{{.*}} : !vrir.array<f32, 2, strided> -> !vrir.array<f32, 2, row_major>{{$}}
  %10 = vrir.qr %B : !vrir.array<f32, 2, strided> -> !vrir.array<f32, 2, row_major>
  return %4 : f64
}

// CHECK-LABEL: func.func @linear_algebra
func.func @linear_algebra(%A: !m, %B: !vrir.array<f64, 2, col_major>, %v: !s) -> f64 {
  // CHECK: vrir.matmul %{{.*}}, %{{.*}} : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, col_major> -> !vrir.array<f64, 2, row_major>
  %0 = vrir.matmul %A, %B : !m, !vrir.array<f64, 2, col_major> -> !m
  // CHECK: vrir.matvec %{{.*}}, %{{.*}} : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, strided> -> !vrir.array<f64, 1, row_major>
  %1 = vrir.matvec %A, %v : !m, !s -> !v
  // CHECK: vrir.transpose %{{.*}} : !vrir.array<f64, 2, row_major> to !vrir.array<f64, 2, row_major>
  %2 = vrir.transpose %A : !m to !m
  // CHECK: vrir.reduce sum %{{.*}} : !vrir.array<f64, 2, row_major> -> f64
  %3 = vrir.reduce sum %A : !m -> f64
  // CHECK: vrir.reduce max %{{.*}} axis 1 : !vrir.array<f64, 2, col_major> -> !vrir.array<f64, 1, row_major>
  %4 = vrir.reduce max %B axis 1 : !vrir.array<f64, 2, col_major> -> !v
  // CHECK: vrir.reduce prod %{{.*}} axis 0 : !vrir.array<f64, 1, strided> -> f64
  %5 = vrir.reduce prod %v axis 0 : !s -> f64
  // CHECK: vrir.reduce min
  %6 = vrir.reduce min %v : !s -> f64
  %7 = arith.addf %3, %5 : f64
  %8 = arith.addf %6, %7 : f64
  return %8 : f64
}

// CHECK-LABEL: func.func @parallel
func.func @parallel(%A: !m, %B: !m, %hist: !vrir.array<i64, 1, row_major>, %n: index) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  %d = vrir.domain %r, %r : !vrir.domain<2>
  // CHECK: vrir.pfor (%[[I:.*]], %[[J:.*]]) in %{{.*}} : !vrir.domain<2> shared(%{{.*}}, %{{.*}}, %{{.*}} : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major>, !vrir.array<i64, 1, row_major>) {
  vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%A, %B, %hist : !m, !m, !vrir.array<i64, 1, row_major>) {
    // CHECK: vrir.load %{{.*}}[%[[I]], %[[J]]]
    %x = vrir.load %B[%i, %j] : !m[index, index]
    vrir.store %x, %A[%i, %j] : !m[index, index]
    %one = arith.constant 1 : i64
    // CHECK: vrir.atomic_rmw add %{{.*}}[%[[I]]], %{{.*}} : !vrir.array<i64, 1, row_major>[index]
    %old = vrir.atomic_rmw add %hist[%i], %one : !vrir.array<i64, 1, row_major>[index]
    // CHECK: vrir.atomic_cas %{{.*}}[%[[J]]], %{{.*}}, %{{.*}} : !vrir.array<i64, 1, row_major>[index]
    %prev = vrir.atomic_cas %hist[%j], %old, %one : !vrir.array<i64, 1, row_major>[index]
    // A nested pfor over a range, no shared list.
    // CHECK: vrir.pfor (%{{.*}}) in %{{.*}} : !vrir.range {
    vrir.pfor (%k) in %r : !vrir.range {
      %t = arith.constant 0.0 : f64
    }
  }
  // CHECK: vrir.gpu_section {
  vrir.gpu_section {
    vrir.pfor (%i) in %r : !vrir.range shared(%A : !m) {
      %x = vrir.load %A[%i, %i] : !m[index, index]
      %y = arith.mulf %x, %x : f64
      vrir.store %y, %A[%i, %i] : !m[index, index]
    }
  }
  // CHECK: %{{.*}}:2 = vrir.gpu_section -> (f64, !vrir.array<f64, 2, row_major>) {
  %s:2 = vrir.gpu_section -> (f64, !m) {
    %t = vrir.reduce sum %A : !m -> f64
    %u = vrir.binary add %A, %B : !m, !m -> !m
    // CHECK: vrir.yield %{{.*}}, %{{.*}} : f64, !vrir.array<f64, 2, row_major>
    vrir.yield %t, %u : f64, !m
  }
  return
}

// CHECK-LABEL: func.func @pfor_reductions
func.func @pfor_reductions(%A: !m, %n: index) -> (f64, i64, f32, i32) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  %d = vrir.domain %r, %r : !vrir.domain<2>
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1 : i64
  %big = arith.constant 1.0e30 : f32
  %low = arith.constant 0 : i32
  // CHECK: %{{.*}}:4 = vrir.pfor (%[[I:.*]], %[[J:.*]]) in %{{.*}} : !vrir.domain<2> shared(%{{.*}} : !vrir.array<f64, 2, row_major>) reduce(sum %{{.*}} : f64, prod %{{.*}} : i64, min %{{.*}} : f32, max %{{.*}} : i32) {
  %s:4 = vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%A : !m) reduce(sum %zero : f64, prod %one : i64, min %big : f32, max %low : i32) {
    %x = vrir.load %A[%i, %j] : !m[index, index]
    %k = arith.index_cast %i : index to i64
    %f = arith.truncf %x : f64 to f32
    %w = arith.index_cast %j : index to i32
    // CHECK: vrir.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f64, i64, f32, i32
    vrir.yield %x, %k, %f, %w : f64, i64, f32, i32
  }
  return %s#0, %s#1, %s#2, %s#3 : f64, i64, f32, i32
}

// CHECK-LABEL: func.func @map
func.func @map(%A: !vrir.array<f64, 2, strided>, %v: !vrir.array<i64, 1, row_major>, %s: f64) -> !vrir.array<f64, 2, col_major> {
  // CHECK: vrir.map %{{.*}}, %{{.*}}, %{{.*}} : (!vrir.array<f64, 2, strided>, !vrir.array<i64, 1, row_major>, f64) -> !vrir.array<f64, 2, col_major> {
  // CHECK-NEXT: ^bb0(%{{.*}}: f64, %{{.*}}: i64, %{{.*}}: f64):
  %r = vrir.map %A, %v, %s : (!vrir.array<f64, 2, strided>, !vrir.array<i64, 1, row_major>, f64) -> !vrir.array<f64, 2, col_major> {
  ^bb0(%a: f64, %i: i64, %x: f64):
    %f = arith.sitofp %i : i64 to f64
    %t = vrir.binary mul %a, %f : f64, f64 -> f64
    %u = arith.addf %t, %x : f64
    // CHECK: vrir.yield %{{.*}} : f64
    vrir.yield %u : f64
  }
  return %r : !vrir.array<f64, 2, col_major>
}

// CHECK-LABEL: func.func @store_map
func.func @store_map(%A: !vrir.array<f64, 2, row_major>, %x: !vrir.array<f64, 1, strided>, %s: f64, %i: index, %r: !vrir.range) {
  // CHECK: vrir.store_map %{{.*}}, %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : (!vrir.array<f64, 1, strided>, f64) -> !vrir.array<f64, 2, row_major>[index, !vrir.range] {
  vrir.store_map %x, %s into %A[%i, %r] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : (!vrir.array<f64, 1, strided>, f64) -> !vrir.array<f64, 2, row_major>[index, !vrir.range] {
  ^bb0(%a: f64, %b: f64):
    %t = arith.mulf %a, %b : f64
    // CHECK: vrir.yield %{{.*}} : f64
    vrir.yield %t : f64
  }
  return
}

// CHECK-LABEL: func.func @map_reduce
func.func @map_reduce(%x: !vrir.array<f64, 1, strided>, %y: !vrir.array<f64, 2, row_major>) -> f64 {
  // CHECK: vrir.map %{{.*}}, %{{.*}} reduce(max) : (!vrir.array<f64, 1, strided>, !vrir.array<f64, 2, row_major>) -> f64 {
  %d = vrir.map %x, %y reduce(max) : (!vrir.array<f64, 1, strided>, !vrir.array<f64, 2, row_major>) -> f64 {
  ^bb0(%a: f64, %b: f64):
    %t = arith.mulf %a, %b : f64
    vrir.yield %t : f64
  }
  return %d : f64
}
