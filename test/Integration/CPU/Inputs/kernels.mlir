// Numerical kernels in VRIR (NumPy semantics, default bounds checks), run
// by test/Integration/CPU/kernels.py and compared with NumPy.

!m = !vrir.array<f64, 2, row_major>
!v = !vrir.array<f64, 1, row_major>
!iv = !vrir.array<i64, 1, row_major>

module {
  // One Jacobi sweep of the interior: B = 0.2 * (A + 4 neighbours), then
  // A = B on the interior; `steps` sweeps. Both loops are pfors.
  func.func @jacobi2d(%A: !m, %B: !m, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %fifth = arith.constant 0.2 : f64
    %n = vrir.dim %A, 0 : !m
    %n1 = arith.subi %n, %c1 : index
    %r = vrir.range %c1 to %n1
    %d = vrir.domain %r, %r : !vrir.domain<2>
    scf.for %t = %c0 to %steps step %c1 {
      vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%A, %B : !m, !m) {
        %im = arith.subi %i, %c1 : index
        %ip = arith.addi %i, %c1 : index
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %a0 = vrir.load %A[%i, %j] : !m[index, index]
        %a1 = vrir.load %A[%im, %j] : !m[index, index]
        %a2 = vrir.load %A[%ip, %j] : !m[index, index]
        %a3 = vrir.load %A[%i, %jm] : !m[index, index]
        %a4 = vrir.load %A[%i, %jp] : !m[index, index]
        %s1 = arith.addf %a0, %a1 : f64
        %s2 = arith.addf %s1, %a2 : f64
        %s3 = arith.addf %s2, %a3 : f64
        %s4 = arith.addf %s3, %a4 : f64
        %v = arith.mulf %s4, %fifth : f64
        vrir.store %v, %B[%i, %j] : !m[index, index]
      }
      vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%A, %B : !m, !m) {
        %b = vrir.load %B[%i, %j] : !m[index, index]
        vrir.store %b, %A[%i, %j] : !m[index, index]
      }
    }
    return
  }

  // C += A @ B as an i-k-j loop nest.
  func.func @matmul_loops(%A: !m, %B: !m, %C: !m) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !m
    %k = vrir.dim %A, 1 : !m
    %p = vrir.dim %B, 1 : !m
    scf.for %i = %c0 to %n step %c1 {
      scf.for %kk = %c0 to %k step %c1 {
        %a = vrir.load %A[%i, %kk] : !m[index, index]
        scf.for %j = %c0 to %p step %c1 {
          %b = vrir.load %B[%kk, %j] : !m[index, index]
          %c = vrir.load %C[%i, %j] : !m[index, index]
          %prod = arith.mulf %a, %b : f64
          %sum = arith.addf %c, %prod : f64
          vrir.store %sum, %C[%i, %j] : !m[index, index]
        }
      }
    }
    return
  }

  // In-place LU decomposition without pivoting (Doolittle): L below the
  // diagonal (unit diagonal implied), U on and above it.
  func.func @lu(%A: !m) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !m
    scf.for %k = %c0 to %n step %c1 {
      %pivot = vrir.load %A[%k, %k] : !m[index, index]
      %k1 = arith.addi %k, %c1 : index
      scf.for %i = %k1 to %n step %c1 {
        %aik = vrir.load %A[%i, %k] : !m[index, index]
        %l = arith.divf %aik, %pivot : f64
        vrir.store %l, %A[%i, %k] : !m[index, index]
        scf.for %j = %k1 to %n step %c1 {
          %akj = vrir.load %A[%k, %j] : !m[index, index]
          %aij = vrir.load %A[%i, %j] : !m[index, index]
          %prod = arith.mulf %l, %akj : f64
          %new = arith.subf %aij, %prod : f64
          vrir.store %new, %A[%i, %j] : !m[index, index]
        }
      }
    }
    return
  }

  // y = M @ x for M in CSR form (indptr, indices, data); rows in parallel.
  func.func @spmv(%indptr: !iv, %indices: !iv, %data: !v, %x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %np1 = vrir.dim %indptr, 0 : !iv
    %n = arith.subi %np1, %c1 : index
    %y = vrir.zeros(%n) : !v
    %rows = vrir.range %c0 to %n
    vrir.pfor (%row) in %rows : !vrir.range shared(%y : !v) {
      %row1 = arith.addi %row, %c1 : index
      %start64 = vrir.load %indptr[%row] : !iv[index]
      %stop64 = vrir.load %indptr[%row1] : !iv[index]
      %start = arith.index_cast %start64 : i64 to index
      %stop = arith.index_cast %stop64 : i64 to index
      %sum = scf.for %q = %start to %stop step %c1 iter_args(%acc = %zero) -> (f64) {
        %col = vrir.load %indices[%q] : !iv[index]
        %a = vrir.load %data[%q] : !v[index]
        %xc = vrir.load %x[%col] : !v[i64]
        %prod = arith.mulf %a, %xc : f64
        %next = arith.addf %acc, %prod : f64
        scf.yield %next : f64
      }
      vrir.store %sum, %y[%row] : !v[index]
    }
    return %y : !v
  }

  // A column-major array read with row-major loops and written back
  // transposed into a row-major result.
  func.func @transpose_loops(%A: !vrir.array<f64, 2, col_major>) -> !m {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = vrir.dim %A, 0 : !vrir.array<f64, 2, col_major>
    %n = vrir.dim %A, 1 : !vrir.array<f64, 2, col_major>
    %T = vrir.empty(%n, %m) : !m
    scf.for %i = %c0 to %m step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %a = vrir.load %A[%i, %j] : !vrir.array<f64, 2, col_major>[index, index]
        vrir.store %a, %T[%j, %i] : !m[index, index]
      }
    }
    return %T : !m
  }

  // NumPy element access: negative indices wrap, both bounds checked.
  func.func @get(%A: !v, %i: i64) -> f64 {
    %x = vrir.load %A[%i] flags [#vrir.index<lower|upper|negative>] : !v[i64]
    return %x : f64
  }

  // Histogram with atomic adds in a parallel loop.
  func.func @histogram(%values: !iv, %bins: index) -> !iv {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i64
    %n = vrir.dim %values, 0 : !iv
    %h = vrir.zeros(%bins) : !iv
    %r = vrir.range %c0 to %n
    vrir.pfor (%i) in %r : !vrir.range shared(%h : !iv) {
      %b = vrir.load %values[%i] : !iv[index]
      %old = vrir.atomic_rmw add %h[%b], %one : !iv[i64]
    }
    return %h : !iv
  }

  // The largest element, found with compare-and-swap in a parallel loop.
  func.func @max_cas(%values: !iv) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %values, 0 : !iv
    %best = vrir.empty(%c1) : !iv
    %first = vrir.load %values[%c0] : !iv[index]
    vrir.store %first, %best[%c0] : !iv[index]
    %r = vrir.range %c0 to %n
    vrir.pfor (%i) in %r : !vrir.range shared(%best : !iv) {
      %v = vrir.load %values[%i] : !iv[index]
      %init = vrir.load %best[%c0] flags [#vrir.index<none>] : !iv[index]
      %done = scf.while (%seen = %init) : (i64) -> i64 {
        %bigger = arith.cmpi sgt, %v, %seen : i64
        scf.condition(%bigger) %seen : i64
      } do {
      ^bb0(%seen: i64):
        %old = vrir.atomic_cas %best[%c0], %seen, %v : !iv[index]
        scf.yield %old : i64
      }
    }
    %result = vrir.load %best[%c0] : !iv[index]
    return %result : i64
  }
}
