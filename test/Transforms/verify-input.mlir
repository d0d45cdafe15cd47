// RUN: vr-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: vr-opt %s -split-input-file -verify-diagnostics -vrir-verify-input | FileCheck %s

// vr-opt verifies its input through vrir-verify-input (a pass run ahead of
// the pipeline): upstream linalg.matmul's verifier reads past the end of an
// input indexing map without results, which the pass reports first.

// CHECK-LABEL: func.func @valid
// CHECK: linalg.matmul indexing_maps
func.func @valid(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
  return
}

// -----

func.func @empty_lhs_map(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  // expected-error @+1 {{'linalg.matmul' op expects indexing map #0 (of an input) to have at least one result}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> ()>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
  return
}

// -----

func.func @empty_rhs_map(%A: tensor<4x4xf64>, %B: tensor<4x4xf64>, %C: tensor<4x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{'linalg.matmul' op expects indexing map #1 (of an input) to have at least one result}}
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                      affine_map<(d0, d1, d2) -> ()>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%A, %B : tensor<4x4xf64>, tensor<4x4xf64>) outs(%C : tensor<4x4xf64>) -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

// The output's map is the upstream verifier's to judge (it does not crash).
func.func @empty_output_map(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  // expected-error @+1 {{'linalg.matmul' op expected operand #2 rank (2) to match the result rank of indexing_map (0)}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> ()>]
      ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
  return
}

// -----

// Everything else the verifier says as usual.
func.func @wrong_type(%x: f32) -> f64 {
  // expected-error @+1 {{type of return operand 0 ('f32') doesn't match function result type ('f64')}}
  return %x : f32
}

// -----

func.func @dominance() -> i32 {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %a = arith.addi %b, %b : i32
  // expected-note @+1 {{operand defined here}}
  %b = arith.constant 1 : i32
  return %a : i32
}
