// RUN: vr-opt %s -vrir-return-argument-views -split-input-file | FileCheck %s

// An entry point returning a clone of a view of its argument returns the
// view (cast back to the clone's type).
// CHECK-LABEL: func.func @tail(
// CHECK-SAME:    %[[A:.*]]: memref<?xf64>
// CHECK:         %[[V:.*]] = memref.subview %[[A]]
// CHECK-NOT:     bufferization.clone
// CHECK:         %[[C:.*]] = memref.cast %[[V]] : memref<?xf64, strided<[1], offset: 1>> to memref<?xf64, strided<[?], offset: ?>>
// CHECK:         return %[[C]]
func.func @tail(%A: memref<?xf64>, %n: index) -> memref<?xf64, strided<[?], offset: ?>> {
  %v = memref.subview %A[1] [%n] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: 1>>
  %c = bufferization.clone %v : memref<?xf64, strided<[1], offset: 1>> to memref<?xf64, strided<[?], offset: ?>>
  return %c : memref<?xf64, strided<[?], offset: ?>>
}

// -----

// Through a chain of views and casts, the argument itself, and one result
// of several.
// CHECK-LABEL: func.func @transposed(
// CHECK-NOT:     bufferization.clone
// CHECK:         return %{{.*}}, %{{.*}}, %{{.*}} : memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64>, f64
func.func @transposed(%A: memref<?x?xf64>, %x: f64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64>, f64) {
  %t = memref.transpose %A (i, j) -> (j, i) : memref<?x?xf64> to memref<?x?xf64, strided<[1, ?]>>
  %c = memref.cast %t : memref<?x?xf64, strided<[1, ?]>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %r = bufferization.clone %c : memref<?x?xf64, strided<[?, ?], offset: ?>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %s = bufferization.clone %A : memref<?x?xf64> to memref<?x?xf64>
  return %r, %s, %x : memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64>, f64
}

// -----

// Clones that stay: of a local allocation, of a value chosen at run time,
// with another use.
// CHECK-LABEL: func.func @local(
// CHECK:         bufferization.clone
func.func @local(%n: index) -> memref<?xf64> {
  %a = memref.alloc(%n) : memref<?xf64>
  %c = bufferization.clone %a : memref<?xf64> to memref<?xf64>
  memref.dealloc %a : memref<?xf64>
  return %c : memref<?xf64>
}
// CHECK-LABEL: func.func @chosen(
// CHECK:         bufferization.clone
func.func @chosen(%A: memref<?xf64>, %B: memref<?xf64>, %which: i1) -> memref<?xf64> {
  %s = arith.select %which, %A, %B : memref<?xf64>
  %c = bufferization.clone %s : memref<?xf64> to memref<?xf64>
  return %c : memref<?xf64>
}
// CHECK-LABEL: func.func @used_twice(
// CHECK:         %[[C:.*]] = bufferization.clone
// CHECK:         memref.store %{{.*}}, %[[C]]
func.func @used_twice(%A: memref<?xf64>, %x: f64) -> memref<?xf64> {
  %c = bufferization.clone %A : memref<?xf64> to memref<?xf64>
  %i = arith.constant 0 : index
  memref.store %x, %c[%i] : memref<?xf64>
  return %c : memref<?xf64>
}

// -----

// Not entry points: a private function, and a public one called in the
// module (its caller deallocates what it returns).
// CHECK-LABEL: func.func private @helper(
// CHECK:         bufferization.clone
func.func private @helper(%A: memref<?xf64>) -> memref<?xf64> {
  %c = bufferization.clone %A : memref<?xf64> to memref<?xf64>
  return %c : memref<?xf64>
}
// CHECK-LABEL: func.func @called(
// CHECK:         bufferization.clone
func.func @called(%A: memref<?xf64>) -> memref<?xf64> {
  %c = bufferization.clone %A : memref<?xf64> to memref<?xf64>
  return %c : memref<?xf64>
}
// CHECK-LABEL: func.func @caller(
func.func @caller(%A: memref<?xf64>) {
  %r = func.call @called(%A) : (memref<?xf64>) -> memref<?xf64>
  %h = func.call @helper(%A) : (memref<?xf64>) -> memref<?xf64>
  memref.dealloc %r : memref<?xf64>
  memref.dealloc %h : memref<?xf64>
  return
}
