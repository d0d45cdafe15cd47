// GPU sections over the kinds of code the GPU lowering must handle, run by
// test/Integration/GPU/kernels.py on the CPU (sections inline) and on each
// GPU backend, and compared with NumPy.

!m = !vrir.array<f64, 2, row_major>
!cm = !vrir.array<f64, 2, col_major>
!v = !vrir.array<f64, 1, row_major>
!s = !vrir.array<f64, 1, strided>
!iv = !vrir.array<i64, 1, row_major>
!fv = !vrir.array<f32, 1, row_major>

module {
  // Jacobi sweeps: a host loop around a section of two 2-D kernels.
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
    }
    return
  }

  // y = M @ x for M in CSR form: rows in parallel, a serial loop in each.
  func.func @spmv(%indptr: !iv, %indices: !iv, %data: !v, %x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %np1 = vrir.dim %indptr, 0 : !iv
    %n = arith.subi %np1, %c1 : index
    %y = vrir.zeros(%n) : !v
    %rows = vrir.range %c0 to %n
    vrir.gpu_section {
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
    }
    return %y : !v
  }

  // One n-body step (softened gravity): a kernel over bodies, each
  // summing the pull of all others in a serial loop, then a kernel that
  // moves every body.
  func.func @nbody_step(%pos: !m, %vel: !m, %mass: !v, %dt: f64, %eps2: f64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f64
    %n = vrir.dim %pos, 0 : !m
    %r = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %r : !vrir.range shared(%vel : !m) {
        %xi = vrir.load %pos[%i, %c0] : !m[index, index]
        %yi = vrir.load %pos[%i, %c1] : !m[index, index]
        %zi = vrir.load %pos[%i, %c2] : !m[index, index]
        %acc:3 = scf.for %j = %c0 to %n step %c1 iter_args(%ax = %zero, %ay = %zero, %az = %zero) -> (f64, f64, f64) {
          %xj = vrir.load %pos[%j, %c0] : !m[index, index]
          %yj = vrir.load %pos[%j, %c1] : !m[index, index]
          %zj = vrir.load %pos[%j, %c2] : !m[index, index]
          %mj = vrir.load %mass[%j] : !v[index]
          %dx = arith.subf %xj, %xi : f64
          %dy = arith.subf %yj, %yi : f64
          %dz = arith.subf %zj, %zi : f64
          %dx2 = arith.mulf %dx, %dx : f64
          %dy2 = arith.mulf %dy, %dy : f64
          %dz2 = arith.mulf %dz, %dz : f64
          %s1 = arith.addf %dx2, %dy2 : f64
          %s2 = arith.addf %s1, %dz2 : f64
          %d2 = arith.addf %s2, %eps2 : f64
          %d = math.sqrt %d2 : f64
          %d3 = arith.mulf %d2, %d : f64
          %f = arith.divf %mj, %d3 : f64
          %fx = arith.mulf %f, %dx : f64
          %fy = arith.mulf %f, %dy : f64
          %fz = arith.mulf %f, %dz : f64
          %nx = arith.addf %ax, %fx : f64
          %ny = arith.addf %ay, %fy : f64
          %nz = arith.addf %az, %fz : f64
          scf.yield %nx, %ny, %nz : f64, f64, f64
        }
        %vx = vrir.load %vel[%i, %c0] : !m[index, index]
        %vy = vrir.load %vel[%i, %c1] : !m[index, index]
        %vz = vrir.load %vel[%i, %c2] : !m[index, index]
        %kx = arith.mulf %acc#0, %dt : f64
        %ky = arith.mulf %acc#1, %dt : f64
        %kz = arith.mulf %acc#2, %dt : f64
        %ux = arith.addf %vx, %kx : f64
        %uy = arith.addf %vy, %ky : f64
        %uz = arith.addf %vz, %kz : f64
        vrir.store %ux, %vel[%i, %c0] : !m[index, index]
        vrir.store %uy, %vel[%i, %c1] : !m[index, index]
        vrir.store %uz, %vel[%i, %c2] : !m[index, index]
      }
      %c3 = arith.constant 3 : index
      vrir.pfor (%i) in %r : !vrir.range shared(%pos : !m) {
        scf.for %k = %c0 to %c3 step %c1 {
          %p = vrir.load %pos[%i, %k] : !m[index, index]
          %v = vrir.load %vel[%i, %k] : !m[index, index]
          %dv = arith.mulf %v, %dt : f64
          %q = arith.addf %p, %dv : f64
          vrir.store %q, %pos[%i, %k] : !m[index, index]
        }
      }
    }
    return
  }

  // Matrix products of any shape and layout: the tiled kernel (32x32 tiles)
  // at its edges, column-major operands, an empty inner dimension.
  func.func @matmul_mixed(%A: !cm, %B: !m, %C: !m, %D: !cm) -> (!m, !cm) {
    %r:2 = vrir.gpu_section -> (!m, !cm) {
      %p = vrir.matmul %A, %B : !cm, !m -> !m
      %q = vrir.matmul %C, %D : !m, !cm -> !cm
      vrir.yield %p, %q : !m, !cm
    }
    return %r#0, %r#1 : !m, !cm
  }

  // Matrix products of other element types: f32 and i32 (tiles of 16-byte
  // runs) and i16 (scalar tiles).
  func.func @matmul_types(%A: !vrir.array<f32, 2, row_major>, %B: !vrir.array<f32, 2, row_major>,
                          %C: !vrir.array<i32, 2, row_major>, %D: !vrir.array<i32, 2, row_major>,
                          %E: !vrir.array<i16, 2, row_major>, %F: !vrir.array<i16, 2, row_major>)
      -> (!vrir.array<f32, 2, row_major>, !vrir.array<i32, 2, row_major>, !vrir.array<i16, 2, row_major>) {
    %r:3 = vrir.gpu_section -> (!vrir.array<f32, 2, row_major>, !vrir.array<i32, 2, row_major>, !vrir.array<i16, 2, row_major>) {
      %p = vrir.matmul %A, %B : !vrir.array<f32, 2, row_major>, !vrir.array<f32, 2, row_major> -> !vrir.array<f32, 2, row_major>
      %q = vrir.matmul %C, %D : !vrir.array<i32, 2, row_major>, !vrir.array<i32, 2, row_major> -> !vrir.array<i32, 2, row_major>
      %t = vrir.matmul %E, %F : !vrir.array<i16, 2, row_major>, !vrir.array<i16, 2, row_major> -> !vrir.array<i16, 2, row_major>
      vrir.yield %p, %q, %t : !vrir.array<f32, 2, row_major>, !vrir.array<i32, 2, row_major>, !vrir.array<i16, 2, row_major>
    }
    return %r#0, %r#1, %r#2 : !vrir.array<f32, 2, row_major>, !vrir.array<i32, 2, row_major>, !vrir.array<i16, 2, row_major>
  }

  // Matrix-vector products: row-major (32 work-items per row, a halving
  // sum in work-group memory) and column-major (a work-item per row).
  func.func @matvec_mixed(%A: !m, %x: !v, %C: !cm, %z: !v) -> (!v, !v) {
    %r:2 = vrir.gpu_section -> (!v, !v) {
      %p = vrir.matvec %A, %x : !m, !v -> !v
      %q = vrir.matvec %C, %z : !cm, !v -> !v
      vrir.yield %p, %q : !v, !v
    }
    return %r#0, %r#1 : !v, !v
  }

  // A column-major input written transposed into a row-major result.
  func.func @transpose_loops(%A: !cm) -> !m {
    %c0 = arith.constant 0 : index
    %m = vrir.dim %A, 0 : !cm
    %n = vrir.dim %A, 1 : !cm
    %T = vrir.empty(%n, %m) : !m
    %rm = vrir.range %c0 to %m
    %rn = vrir.range %c0 to %n
    %d = vrir.domain %rm, %rn : !vrir.domain<2>
    vrir.gpu_section {
      vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%A, %T : !cm, !m) {
        %a = vrir.load %A[%i, %j] : !cm[index, index]
        vrir.store %a, %T[%j, %i] : !m[index, index]
      }
    }
    return %T : !m
  }

  // Column-major in, column-major out: x on the first dimension.
  func.func @scale_cm(%A: !cm, %alpha: f64) -> !cm {
    %c0 = arith.constant 0 : index
    %m = vrir.dim %A, 0 : !cm
    %n = vrir.dim %A, 1 : !cm
    %B = vrir.empty(%m, %n) : !cm
    %rm = vrir.range %c0 to %m
    %rn = vrir.range %c0 to %n
    %d = vrir.domain %rm, %rn : !vrir.domain<2>
    vrir.gpu_section {
      vrir.pfor (%i, %j) in %d : !vrir.domain<2> shared(%A, %B : !cm, !cm) {
        %a = vrir.load %A[%i, %j] : !cm[index, index]
        %b = arith.mulf %a, %alpha : f64
        vrir.store %b, %B[%i, %j] : !cm[index, index]
      }
    }
    return %B : !cm
  }

  // Histogram with atomic adds in a kernel; a bad value is a bounds error
  // reported from the kernel.
  func.func @histogram(%values: !iv, %bins: index) -> !iv {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i64
    %n = vrir.dim %values, 0 : !iv
    %h = vrir.zeros(%bins) : !iv
    %r = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %r : !vrir.range shared(%h : !iv) {
        %b = vrir.load %values[%i] : !iv[index]
        %old = vrir.atomic_rmw add %h[%b], %one : !iv[i64]
      }
    }
    return %h : !iv
  }

  // Floating-point atomics: a sum and a max of f64 values by atomics.
  func.func @atomic_sum_max(%x: !v) -> (f64, f64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n = vrir.dim %x, 0 : !v
    %acc = vrir.zeros(%c2) : !v
    %ninf = arith.constant 0xFFF0000000000000 : f64
    vrir.store %ninf, %acc[%c1] : !v[index]
    %r = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %r : !vrir.range shared(%acc : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %o1 = vrir.atomic_rmw add %acc[%c0], %a : !v[index]
        %o2 = vrir.atomic_rmw max %acc[%c1], %a : !v[index]
      }
    }
    %sum = vrir.load %acc[%c0] : !v[index]
    %max = vrir.load %acc[%c1] : !v[index]
    return %sum, %max : f64, f64
  }

  // The largest element, found with compare-and-swap in a kernel.
  func.func @max_cas(%values: !iv) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %values, 0 : !iv
    %best = vrir.empty(%c1) : !iv
    %first = vrir.load %values[%c0] : !iv[index]
    vrir.store %first, %best[%c0] : !iv[index]
    %r = vrir.range %c0 to %n
    vrir.gpu_section {
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
    }
    %result = vrir.load %best[%c0] : !iv[index]
    return %result : i64
  }

  // Whole-array reductions: two-level trees of kernels.
  func.func @reductions(%A: !m, %B: !vrir.array<i64, 2, col_major>) -> (f64, f64, i64, i64) {
    %r:4 = vrir.gpu_section -> (f64, f64, i64, i64) {
      %s = vrir.reduce sum %A : !m -> f64
      %m = vrir.reduce min %A : !m -> f64
      %t = vrir.reduce sum %B : !vrir.array<i64, 2, col_major> -> i64
      %u = vrir.reduce max %B : !vrir.array<i64, 2, col_major> -> i64
      vrir.yield %s, %m, %t, %u : f64, f64, i64, i64
    }
    return %r#0, %r#1, %r#2, %r#3 : f64, f64, i64, i64
  }

  // Whole-array operations in a section: element-wise with broadcasting
  // and f64 exp (on Vulkan, vrir-gpu-expand-f64-math's), a reduction,
  // matmul, matvec and a transpose.
  func.func @array_ops(%A: !m, %B: !m, %x: !v) -> (!m, f64, f64, !m, !v, !m) {
    %two = arith.constant 2.0 : f64
    %r:6 = vrir.gpu_section -> (!m, f64, f64, !m, !v, !m) {
      %e = vrir.binary mul %A, %two : !m, f64 -> !m
      %f = vrir.binary add %e, %x : !m, !v -> !m
      %g = vrir.unary exp %f : !m -> !m
      %sum = vrir.reduce sum %g : !m -> f64
      %max = vrir.reduce max %A : !m -> f64
      %p = vrir.matmul %A, %B : !m, !m -> !m
      %q = vrir.matvec %A, %x : !m, !v -> !v
      %t = vrir.transpose %A : !m to !m
      vrir.yield %g, %sum, %max, %p, %q, %t : !m, f64, f64, !m, !v, !m
    }
    return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : !m, f64, f64, !m, !v, !m
  }

  // The same without the reductions, with exp on f32 (GLSL.std.450's).
  func.func @array_ops_portable(%A: !m, %B: !m, %x: !v, %y: !fv) -> (!m, !m, !v, !m, !fv) {
    %two = arith.constant 2.0 : f64
    %r:5 = vrir.gpu_section -> (!m, !m, !v, !m, !fv) {
      %e = vrir.binary mul %A, %two : !m, f64 -> !m
      %f = vrir.binary add %e, %x : !m, !v -> !m
      %p = vrir.matmul %A, %B : !m, !m -> !m
      %q = vrir.matvec %A, %x : !m, !v -> !v
      %t = vrir.transpose %A : !m to !m
      %g = vrir.unary exp %y : !fv -> !fv
      vrir.yield %f, %p, %q, %t, %g : !m, !m, !v, !m, !fv
    }
    return %r#0, %r#1, %r#2, %r#3, %r#4 : !m, !m, !v, !m, !fv
  }

  // A negative-stride view and a strided view written in kernels: the
  // kernel sees one buffer with offsets.
  func.func @views(%x: !v) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cm1 = arith.constant -1 : index
    %n = vrir.dim %x, 0 : !v
    %last = arith.subi %n, %c1 : index
    %rev = vrir.range %last to %cm1 step %cm1
    %even = vrir.range %c0 to %n step %c2
    %r = vrir.slice %x[%rev] : !v[!vrir.range] -> !s
    %e = vrir.slice %x[%even] : !v[!vrir.range] -> !s
    %ne = vrir.dim %e, 0 : !s
    %re = vrir.range %c0 to %ne
    vrir.gpu_section {
      // x[::2] *= 10 through a strided view.
      vrir.pfor (%i) in %re : !vrir.range shared(%e : !s) {
        %a = vrir.load %e[%i] : !s[index]
        %ten = arith.constant 10.0 : f64
        %b = arith.mulf %a, %ten : f64
        vrir.store %b, %e[%i] : !s[index]
      }
      // x[::-1][i] += i through a negative-stride view.
      %rr = vrir.range %c0 to %n
      vrir.pfor (%i) in %rr : !vrir.range shared(%r : !s) {
        %a = vrir.load %r[%i] : !s[index]
        %i64 = arith.index_cast %i : index to i64
        %fi = arith.sitofp %i64 : i64 to f64
        %b = arith.addf %a, %fi : f64
        vrir.store %b, %r[%i] : !s[index]
      }
    }
    return
  }

  // f32 arithmetic and a 3-D domain.
  func.func @cube(%n: index) -> !vrir.array<f32, 3, row_major> {
    %c0 = arith.constant 0 : index
    %C = vrir.empty(%n, %n, %n) : !vrir.array<f32, 3, row_major>
    %r = vrir.range %c0 to %n
    %d = vrir.domain %r, %r, %r : !vrir.domain<3>
    vrir.gpu_section {
      vrir.pfor (%i, %j, %k) in %d : !vrir.domain<3> shared(%C : !vrir.array<f32, 3, row_major>) {
        %s1 = arith.muli %i, %n : index
        %s2 = arith.addi %s1, %j : index
        %s3 = arith.muli %s2, %n : index
        %s4 = arith.addi %s3, %k : index
        %s64 = arith.index_cast %s4 : index to i64
        %f = arith.sitofp %s64 : i64 to f32
        %half = arith.constant 0.5 : f32
        %g = arith.mulf %f, %half : f32
        vrir.store %g, %C[%i, %j, %k] : !vrir.array<f32, 3, row_major>[index, index, index]
      }
    }
    return %C : !vrir.array<f32, 3, row_major>
  }

  // Boolean and i32 arrays: one byte and four bytes per element in the
  // kernel's buffers.
  func.func @threshold(%x: !v, %t: f64) -> (!vrir.array<i1, 1, row_major>, !vrir.array<i32, 1, row_major>) {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %b = vrir.empty(%n) : !vrir.array<i1, 1, row_major>
    %k = vrir.empty(%n) : !vrir.array<i32, 1, row_major>
    %r = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %r : !vrir.range shared(%b, %k : !vrir.array<i1, 1, row_major>, !vrir.array<i32, 1, row_major>) {
        %a = vrir.load %x[%i] : !v[index]
        %above = arith.cmpf ogt, %a, %t : f64
        vrir.store %above, %b[%i] : !vrir.array<i1, 1, row_major>[index]
        %scaled = arith.mulf %a, %t : f64
        %q = arith.fptosi %scaled : f64 to i32
        %one = arith.constant 1 : i32
        %q1 = arith.select %above, %q, %one : i32
        vrir.store %q1, %k[%i] : !vrir.array<i32, 1, row_major>[index]
      }
    }
    return %b, %k : !vrir.array<i1, 1, row_major>, !vrir.array<i32, 1, row_major>
  }

  // A 0-size domain launches nothing.
  func.func @empty(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %y = vrir.zeros(%n) : !v
    %r = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %r : !vrir.range shared(%y : !v) {
        %a = vrir.load %x[%i] : !v[index]
        vrir.store %a, %y[%i] : !v[index]
      }
    }
    return %y : !v
  }

  // Thesis figure 9.2 over the whole domain: A[i+1,j] at i = m-1 is out
  // of bounds, reported from the kernel; negative indices wrap.
  func.func @stencil(%A: !m, %B: !m) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %five = arith.constant 5.0 : f64
    %m = vrir.dim %A, 0 : !m
    %n = vrir.dim %A, 1 : !m
    %lim = vrir.dim %B, 0 : !m
    vrir.gpu_section {
      %rm = vrir.range %c0 to %lim
      %rn = vrir.range %c0 to %n
      %dom = vrir.domain %rm, %rn : !vrir.domain<2>
      vrir.pfor (%i, %j) in %dom : !vrir.domain<2> shared(%A, %B : !m, !m) {
        %im1 = arith.subi %i, %c1 : index
        %ip1 = arith.addi %i, %c1 : index
        %a0 = vrir.load %A[%i, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !m[index, index]
        %a1 = vrir.load %A[%im1, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !m[index, index]
        %a2 = vrir.load %A[%ip1, %j] flags [#vrir.index<lower|upper|negative>, #vrir.index<lower|upper|negative>] : !m[index, index]
        %s1 = arith.addf %a0, %a1 : f64
        %s2 = arith.addf %s1, %a2 : f64
        %v = arith.divf %s2, %five : f64
        vrir.store %v, %B[%i, %j] : !m[index, index]
      }
    }
    return
  }

  // A reduction pfor over a 2-D domain: one kernel grid folded by a
  // reduction tree; the initial value is added on the host.
  func.func @pfor_sum(%A: !m, %s0: f64) -> f64 {
    %c0 = arith.constant 0 : index
    %m = vrir.dim %A, 0 : !m
    %n = vrir.dim %A, 1 : !m
    %rm = vrir.range %c0 to %m
    %rn = vrir.range %c0 to %n
    %d = vrir.domain %rm, %rn : !vrir.domain<2>
    %t = vrir.gpu_section -> (f64) {
      %s = vrir.pfor (%i, %j) in %d : !vrir.domain<2> reduce(sum %s0 : f64) {
        %x = vrir.load %A[%i, %j] : !m[index, index]
        %y = arith.mulf %x, %x : f64
        vrir.yield %y : f64
      }
      vrir.yield %s : f64
    }
    return %t : f64
  }

  // An integer max of x[idx[i]]: the gathered index is checked in the
  // reduction kernel.
  func.func @pfor_max_gather(%x: !iv, %idx: !iv, %m0: i64) -> i64 {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %idx, 0 : !iv
    %r = vrir.range %c0 to %n
    %t = vrir.gpu_section -> (i64) {
      %s = vrir.pfor (%i) in %r : !vrir.range reduce(max %m0 : i64) {
        %k = vrir.load %idx[%i] : !iv[index]
        %v = vrir.load %x[%k] : !iv[i64]
        vrir.yield %v : i64
      }
      vrir.yield %s : i64
    }
    return %t : i64
  }

  // 8- and 16-bit elements in a kernel (SPIR-V's 8/16-bit storage, OpenCL
  // C's char and short): x = x + x wraps in 8 bits, y += sign-extended x.
  func.func @small_integers(%x: !vrir.array<i8, 1, row_major>, %y: !vrir.array<i16, 1, row_major>) {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !vrir.array<i8, 1, row_major>
    %r = vrir.range %c0 to %n
    %d = vrir.domain %r : !vrir.domain<1>
    vrir.gpu_section {
      vrir.pfor (%i) in %d : !vrir.domain<1> shared(%x, %y : !vrir.array<i8, 1, row_major>, !vrir.array<i16, 1, row_major>) {
        %v = vrir.load %x[%i] : !vrir.array<i8, 1, row_major>[index]
        %w = vrir.load %y[%i] : !vrir.array<i16, 1, row_major>[index]
        %v2 = arith.addi %v, %v : i8
        %e = arith.extsi %v : i8 to i16
        %w2 = arith.addi %w, %e : i16
        vrir.store %v2, %x[%i] : !vrir.array<i8, 1, row_major>[index]
        vrir.store %w2, %y[%i] : !vrir.array<i16, 1, row_major>[index]
        vrir.yield
      }
      vrir.yield
    }
    return
  }
}
