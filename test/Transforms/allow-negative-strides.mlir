// RUN: vr-opt %s -finalize-memref-to-llvm -convert-func-to-llvm \
// RUN:   -vrir-allow-negative-strides -reconcile-unrealized-casts | FileCheck %s
// RUN: vr-opt %s -finalize-memref-to-llvm -convert-func-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN:   | FileCheck %s --check-prefix=UPSTREAM

// memref-to-LLVM computes the address of A[i] as (base + offset) + i *
// stride with `nuw` on the product and the second GEP: wrong for the
// negative strides of reversed views. The pass leaves `inbounds` and `nsw`.

// CHECK-LABEL: llvm.func @load
// CHECK:         %[[AT:.*]] = llvm.mul %{{.*}}, %{{.*}} overflow<nsw> : i64
// CHECK:         llvm.getelementptr inbounds %{{.*}}[%[[AT]]]
// CHECK-NOT:     nuw
// UPSTREAM-LABEL: llvm.func @load
// UPSTREAM:        llvm.mul %{{.*}}, %{{.*}} overflow<nsw, nuw> : i64
// UPSTREAM:        llvm.getelementptr inbounds|nuw
func.func @load(%A: memref<?xf64, strided<[?], offset: ?>>, %i: index) -> f64 {
  %v = memref.load %A[%i] : memref<?xf64, strided<[?], offset: ?>>
  return %v : f64
}
