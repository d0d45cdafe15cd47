// RUN: vr-opt %s -convert-vrir-to-memref=gpu-sections=true -split-input-file -verify-diagnostics

// LAPACK runs on the host: a LAPACK op cannot stay in a GPU section whose
// loops become kernels.

func.func @inv_in_gpu_section(%A: !vrir.array<f64, 2, row_major>) -> f64 {
  %d = vrir.gpu_section -> (f64) {
    // expected-error @+2 {{'vrir.inv' op calls LAPACK on the host and cannot run in a vrir.gpu_section; compute it before or after the section}}
    // expected-error @+1 {{failed to legalize operation 'vrir.inv'}}
    %X = vrir.inv %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
    %c0 = arith.constant 0 : index
    %x = vrir.load %X[%c0, %c0] : !vrir.array<f64, 2, row_major>[index, index]
    vrir.yield %x : f64
  }
  return %d : f64
}

// -----

func.func @svd_in_gpu_section(%A: !vrir.array<f64, 2, row_major>) -> f64 {
  %d = vrir.gpu_section -> (f64) {
    // expected-error @+2 {{'vrir.svd' op calls LAPACK on the host and cannot run in a vrir.gpu_section; compute it before or after the section}}
    // expected-error @+1 {{failed to legalize operation 'vrir.svd'}}
    %s = vrir.svd %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
    %c0 = arith.constant 0 : index
    %x = vrir.load %s[%c0] : !vrir.array<f64, 1, row_major>[index]
    vrir.yield %x : f64
  }
  return %d : f64
}

// -----

func.func @eigh_in_gpu_section(%A: !vrir.array<f64, 2, row_major>) -> f64 {
  %d = vrir.gpu_section -> (f64) {
    // expected-error @+2 {{'vrir.eigh' op calls LAPACK on the host and cannot run in a vrir.gpu_section; compute it before or after the section}}
    // expected-error @+1 {{failed to legalize operation 'vrir.eigh'}}
    %w = vrir.eigh %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
    %c0 = arith.constant 0 : index
    %x = vrir.load %w[%c0] : !vrir.array<f64, 1, row_major>[index]
    vrir.yield %x : f64
  }
  return %d : f64
}

// -----

func.func @qr_in_gpu_section(%A: !vrir.array<f64, 2, row_major>) -> f64 {
  %d = vrir.gpu_section -> (f64) {
    // expected-error @+2 {{'vrir.qr' op calls LAPACK on the host and cannot run in a vrir.gpu_section; compute it before or after the section}}
    // expected-error @+1 {{failed to legalize operation 'vrir.qr'}}
    %R = vrir.qr %A : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
    %c0 = arith.constant 0 : index
    %x = vrir.load %R[%c0, %c0] : !vrir.array<f64, 2, row_major>[index, index]
    vrir.yield %x : f64
  }
  return %d : f64
}
