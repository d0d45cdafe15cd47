// GPU benchmark kernels (benchmarks/gpu/README.md): each function runs its
// kernel `steps` times in a host scf.for around a vrir.gpu_section, so the
// arrays stay on the device between steps (they are uploaded at the first
// launch of a call and downloaded when it returns). benchmarks/gpu/run.py
// times each entry with two step counts and takes the difference.
//
// Loads and stores are `flags [#vrir.index<none>, ...]` (no bounds checks,
// like the CUDA peers in cuda/peers.cu), except in `triad_checked`.

!v = !vrir.array<f64, 1, row_major>
!m = !vrir.array<f64, 2, row_major>
!cm32 = !vrir.array<f32, 2, col_major>
!m32 = !vrir.array<f32, 2, row_major>

module {
  // STREAM triad: a[i] = b[i] + s * c[i], one kernel per step.
  func.func @triad(%a: !v, %b: !v, %c: !v, %s: f64, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %a, 0 : !v
    %r = vrir.range %c0 to %n
    scf.for %t = %c0 to %steps step %c1 {
      vrir.gpu_section {
        vrir.pfor (%i) in %r : !vrir.range shared(%a : !v) {
          %x = vrir.load %b[%i] flags [#vrir.index<none>] : !v[index]
          %y = vrir.load %c[%i] flags [#vrir.index<none>] : !v[index]
          %p = arith.mulf %s, %y : f64
          %q = arith.addf %x, %p : f64
          vrir.store %q, %a[%i] flags [#vrir.index<none>] : !v[index]
        }
      }
    }
    return
  }

  // The same with VRIR's default bounds checks on every access.
  func.func @triad_checked(%a: !v, %b: !v, %c: !v, %s: f64, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %a, 0 : !v
    %r = vrir.range %c0 to %n
    scf.for %t = %c0 to %steps step %c1 {
      vrir.gpu_section {
        vrir.pfor (%i) in %r : !vrir.range shared(%a : !v) {
          %x = vrir.load %b[%i] : !v[index]
          %y = vrir.load %c[%i] : !v[index]
          %p = arith.mulf %s, %y : f64
          %q = arith.addf %x, %p : f64
          vrir.store %q, %a[%i] : !v[index]
        }
      }
    }
    return
  }

  // PolyBench jacobi-2d: one step is two 5-point sweeps on the interior,
  // A -> B then B -> A (two kernels per step).
  func.func @jacobi2d(%A: !m, %B: !m, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %fifth = arith.constant 0.2 : f64
    %n = vrir.dim %A, 0 : !m
    %n1 = arith.subi %n, %c1 : index
    %r = vrir.range %c1 to %n1
    %d = vrir.domain %r, %r : !vrir.domain<2>
    scf.for %t = %c0 to %steps step %c1 {
      vrir.gpu_section {
        vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%B : !m) {
          %im = arith.subi %i, %c1 : index
          %ip = arith.addi %i, %c1 : index
          %jm = arith.subi %j, %c1 : index
          %jp = arith.addi %j, %c1 : index
          %a0 = vrir.load %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %a1 = vrir.load %A[%i, %jm] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %a2 = vrir.load %A[%i, %jp] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %a3 = vrir.load %A[%ip, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %a4 = vrir.load %A[%im, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %s1 = arith.addf %a0, %a1 : f64
          %s2 = arith.addf %s1, %a2 : f64
          %s3 = arith.addf %s2, %a3 : f64
          %s4 = arith.addf %s3, %a4 : f64
          %v = arith.mulf %s4, %fifth : f64
          vrir.store %v, %B[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        }
        vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%A : !m) {
          %im = arith.subi %i, %c1 : index
          %ip = arith.addi %i, %c1 : index
          %jm = arith.subi %j, %c1 : index
          %jp = arith.addi %j, %c1 : index
          %a0 = vrir.load %B[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %a1 = vrir.load %B[%i, %jm] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %a2 = vrir.load %B[%i, %jp] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %a3 = vrir.load %B[%ip, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %a4 = vrir.load %B[%im, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
          %s1 = arith.addf %a0, %a1 : f64
          %s2 = arith.addf %s1, %a2 : f64
          %s3 = arith.addf %s2, %a3 : f64
          %s4 = arith.addf %s3, %a4 : f64
          %v = arith.mulf %s4, %fifth : f64
          vrir.store %v, %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        }
      }
    }
    return
  }

  // Whole-array sum in a section (a two-level reduction tree of kernels);
  // the host adds each step's result to a scalar, which it returns
  // (= steps * sum(x)), so no step can be dropped.
  func.func @sum(%x: !v, %steps: index) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %total = scf.for %t = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (f64) {
      %s = vrir.gpu_section -> (f64) {
        %r = vrir.reduce sum %x : !v -> f64
        vrir.yield %r : f64
      }
      %next = arith.addf %acc, %s : f64
      scf.yield %next : f64
    }
    return %total : f64
  }

  // C = A @ B with vrir.matmul in a section (VRIR's tiled matrix-product
  // kernel: tiles of A and B in work-group memory, a block of sums per
  // work-item; vr-run --gpu-matmul-tiling changes its shape). Each step
  // makes a new product, which replaces the previous one; the last is
  // returned.
  func.func @matmul(%A: !m, %B: !m, %steps: index) -> !m {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !m
    %m = vrir.dim %B, 1 : !m
    %C0 = vrir.zeros(%n, %m) : !m
    %C = scf.for %t = %c0 to %steps step %c1 iter_args(%prev = %C0) -> (!m) {
      %p = vrir.gpu_section -> (!m) {
        %q = vrir.matmul %A, %B : !m, !m -> !m
        vrir.yield %q : !m
      }
      scf.yield %p : !m
    }
    return %C : !m
  }

  // SGEMM: the same in single precision.
  func.func @sgemm(%A: !m32, %B: !m32, %steps: index) -> !m32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !m32
    %m = vrir.dim %B, 1 : !m32
    %C0 = vrir.zeros(%n, %m) : !m32
    %C = scf.for %t = %c0 to %steps step %c1 iter_args(%prev = %C0) -> (!m32) {
      %p = vrir.gpu_section -> (!m32) {
        %q = vrir.matmul %A, %B : !m32, !m32 -> !m32
        vrir.yield %q : !m32
      }
      scf.yield %p : !m32
    }
    return %C : !m32
  }

  // C = A @ B written as loops: a pfor over the elements of C, each a
  // serial dot product (what a programmer writes without vrir.matmul).
  func.func @matmul_loops(%A: !m, %B: !m, %C: !m, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %n = vrir.dim %C, 0 : !m
    %m = vrir.dim %C, 1 : !m
    %kk = vrir.dim %A, 1 : !m
    %ri = vrir.range %c0 to %n
    %rj = vrir.range %c0 to %m
    %d = vrir.domain %ri, %rj : !vrir.domain<2>
    scf.for %t = %c0 to %steps step %c1 {
      vrir.gpu_section {
        vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%C : !m) {
          %dot = scf.for %k = %c0 to %kk step %c1 iter_args(%acc = %zero) -> (f64) {
            %a = vrir.load %A[%i, %k] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
            %b = vrir.load %B[%k, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
            %p = arith.mulf %a, %b : f64
            %s = arith.addf %acc, %p : f64
            scf.yield %s : f64
          }
          vrir.store %dot, %C[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !m[index, index]
        }
      }
    }
    return
  }

  // Column-major f32: B = alpha * A on a Fortran-order matrix (the kernel
  // must put the first index on x for coalesced accesses).
  func.func @scale_cm(%A: !cm32, %B: !cm32, %alpha: f32, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = vrir.dim %A, 0 : !cm32
    %n = vrir.dim %A, 1 : !cm32
    %rm = vrir.range %c0 to %m
    %rn = vrir.range %c0 to %n
    %d = vrir.domain %rm, %rn : !vrir.domain<2>
    scf.for %t = %c0 to %steps step %c1 {
      vrir.gpu_section {
        vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%B : !cm32) {
          %a = vrir.load %A[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !cm32[index, index]
          %b = arith.mulf %a, %alpha : f32
          vrir.store %b, %B[%i, %j] flags [#vrir.index<none>, #vrir.index<none>] : !cm32[index, index]
        }
      }
    }
    return
  }
}
