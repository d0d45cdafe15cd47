// Reduction: the sum of a 1-D f64 array into a scalar, as a serial loop
// carrying the running sum (scf.for iter_args). Additions in index order,
// like the C peer without -ffast-math, so neither may reassociate.
!v = !vrir.array<f64, 1, row_major>
module {
  func.func @sum(%x: !v) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %n = vrir.dim %x, 0 : !v
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
      %a = vrir.load %x[%i] flags [#vrir.index<none>] : !v[index]
      %t = arith.addf %acc, %a : f64
      scf.yield %t : f64
    }
    return %s : f64
  }
}
