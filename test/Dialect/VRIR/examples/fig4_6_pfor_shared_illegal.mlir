// RUN: vr-opt %s -verify-diagnostics

// Thesis figure 4.6: an ILLEGAL use of shared variables (pseudo-Python);
// the verifier rejects it.
//
//   a = zeros(10)
//   b = zeros(10)
//   #a,b are shared variables
//   for i in PAR(range(10), shared=[a,b]):
//       #assignment to shared variable b is illegal
//       b = a[0:i]
//
// b is a variable (a vrir.alloca slot) because it is rebound. It holds both
// a fresh array and a NumPy view a[0:i], so its type is the strided layout;
// zeros(10) enters it through a whole-array view (a slice with no indices).

module attributes {vrir.index_base = 0 : i64, vrir.range_exclusive = true} {
  func.func @fig4_6() {
    %c0 = arith.constant 0 : index
    %c10 = arith.constant 10 : index
    %a = vrir.zeros(%c10) : !vrir.array<f64, 1, row_major>
    %z = vrir.zeros(%c10) : !vrir.array<f64, 1, row_major>
    %zv = vrir.slice %z[] : !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, strided>
    %b = vrir.alloca "b" : !vrir.var<!vrir.array<f64, 1, strided>>
    vrir.write %zv, %b : !vrir.var<!vrir.array<f64, 1, strided>>
    %r = vrir.range %c0 to %c10
    vrir.pfor (%i) in %r : !vrir.range
        shared(%a, %b : !vrir.array<f64, 1, row_major>, !vrir.var<!vrir.array<f64, 1, strided>>) {
      %ri = vrir.range %c0 to %i
      %s = vrir.slice %a[%ri] : !vrir.array<f64, 1, row_major>[!vrir.range] -> !vrir.array<f64, 1, strided>
      // expected-error @+1 {{rebinds a variable that the enclosing 'vrir.pfor' lists as shared}}
      vrir.write %s, %b : !vrir.var<!vrir.array<f64, 1, strided>>
    }
    return
  }
}
