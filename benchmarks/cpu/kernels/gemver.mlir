// gemver (PolyBench): vector multiplication and matrix addition,
//   A = A + u1*v1' + u2*v2';  x = x + beta*A'*y;  x = x + z;
//   w = w + alpha*A*x
// with PolyBench's statements (x[i] and w[i] accumulated through memory).
// Serial (@gemver) and one pfor over i per stage (@gemver_pfor); bounds
// checks off.
!m = !vrir.array<f64, 2, row_major>
!v = !vrir.array<f64, 1, row_major>
#n = #vrir.index<none>
module {
  func.func @gemver(%alpha: f64, %beta: f64, %A: !m, %u1: !v, %v1: !v,
                    %u2: !v, %v2: !v, %w: !v, %x: !v, %y: !v, %z: !v) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !m
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %a = vrir.load %A[%i, %j] flags [#n, #n] : !m[index, index]
        %p = vrir.load %u1[%i] flags [#n] : !v[index]
        %q = vrir.load %v1[%j] flags [#n] : !v[index]
        %r = vrir.load %u2[%i] flags [#n] : !v[index]
        %s = vrir.load %v2[%j] flags [#n] : !v[index]
        %pq = arith.mulf %p, %q : f64
        %rs = arith.mulf %r, %s : f64
        %t = arith.addf %a, %pq : f64
        %u = arith.addf %t, %rs : f64
        vrir.store %u, %A[%i, %j] flags [#n, #n] : !m[index, index]
      }
    }
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %xi = vrir.load %x[%i] flags [#n] : !v[index]
        %a = vrir.load %A[%j, %i] flags [#n, #n] : !m[index, index]
        %yj = vrir.load %y[%j] flags [#n] : !v[index]
        %ba = arith.mulf %beta, %a : f64
        %bay = arith.mulf %ba, %yj : f64
        %t = arith.addf %xi, %bay : f64
        vrir.store %t, %x[%i] flags [#n] : !v[index]
      }
    }
    scf.for %i = %c0 to %n step %c1 {
      %xi = vrir.load %x[%i] flags [#n] : !v[index]
      %zi = vrir.load %z[%i] flags [#n] : !v[index]
      %t = arith.addf %xi, %zi : f64
      vrir.store %t, %x[%i] flags [#n] : !v[index]
    }
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %wi = vrir.load %w[%i] flags [#n] : !v[index]
        %a = vrir.load %A[%i, %j] flags [#n, #n] : !m[index, index]
        %xj = vrir.load %x[%j] flags [#n] : !v[index]
        %aa = arith.mulf %alpha, %a : f64
        %aax = arith.mulf %aa, %xj : f64
        %t = arith.addf %wi, %aax : f64
        vrir.store %t, %w[%i] flags [#n] : !v[index]
      }
    }
    return
  }

  func.func @gemver_pfor(%alpha: f64, %beta: f64, %A: !m, %u1: !v, %v1: !v,
                         %u2: !v, %v2: !v, %w: !v, %x: !v, %y: !v, %z: !v) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !m
    %rows = vrir.range %c0 to %n
    vrir.pfor (%i) in %rows : !vrir.range shared(%A, %u1, %v1, %u2, %v2 : !m, !v, !v, !v, !v) {
      scf.for %j = %c0 to %n step %c1 {
        %a = vrir.load %A[%i, %j] flags [#n, #n] : !m[index, index]
        %p = vrir.load %u1[%i] flags [#n] : !v[index]
        %q = vrir.load %v1[%j] flags [#n] : !v[index]
        %r = vrir.load %u2[%i] flags [#n] : !v[index]
        %s = vrir.load %v2[%j] flags [#n] : !v[index]
        %pq = arith.mulf %p, %q : f64
        %rs = arith.mulf %r, %s : f64
        %t = arith.addf %a, %pq : f64
        %u = arith.addf %t, %rs : f64
        vrir.store %u, %A[%i, %j] flags [#n, #n] : !m[index, index]
      }
    }
    vrir.pfor (%i) in %rows : !vrir.range shared(%A, %x, %y : !m, !v, !v) {
      scf.for %j = %c0 to %n step %c1 {
        %xi = vrir.load %x[%i] flags [#n] : !v[index]
        %a = vrir.load %A[%j, %i] flags [#n, #n] : !m[index, index]
        %yj = vrir.load %y[%j] flags [#n] : !v[index]
        %ba = arith.mulf %beta, %a : f64
        %bay = arith.mulf %ba, %yj : f64
        %t = arith.addf %xi, %bay : f64
        vrir.store %t, %x[%i] flags [#n] : !v[index]
      }
    }
    vrir.pfor (%i) in %rows : !vrir.range shared(%x, %z : !v, !v) {
      %xi = vrir.load %x[%i] flags [#n] : !v[index]
      %zi = vrir.load %z[%i] flags [#n] : !v[index]
      %t = arith.addf %xi, %zi : f64
      vrir.store %t, %x[%i] flags [#n] : !v[index]
    }
    vrir.pfor (%i) in %rows : !vrir.range shared(%A, %w, %x : !m, !v, !v) {
      scf.for %j = %c0 to %n step %c1 {
        %wi = vrir.load %w[%i] flags [#n] : !v[index]
        %a = vrir.load %A[%i, %j] flags [#n, #n] : !m[index, index]
        %xj = vrir.load %x[%j] flags [#n] : !v[index]
        %aa = arith.mulf %alpha, %a : f64
        %aax = arith.mulf %aa, %xj : f64
        %t = arith.addf %wi, %aax : f64
        vrir.store %t, %w[%i] flags [#n] : !v[index]
      }
    }
    return
  }
}
