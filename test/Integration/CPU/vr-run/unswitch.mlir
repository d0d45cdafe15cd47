// LLVM's O3 non-trivial loop unswitching is off by default (VRIR's loops
// test many loop-invariant conditions: bounds-check versions, overlap
// tests; unswitching each doubles the loop for little speed, and cost
// 40% of the compile time of the stencil benchmarks). A user's
// --unswitch-threshold turns it back on.
// RUN: rm -rf %t && mkdir -p %t/default %t/unswitched
// RUN: vr-run %s --entry f --arg A=ones:4 --arg B=zeros:4 --arg c=1 --dump-ir %t/default
// RUN: FileCheck %s --check-prefix=DEFAULT < %t/default/optimized.ll
// RUN: vr-run %s --entry f --arg A=ones:4 --arg B=zeros:4 --arg c=1 --dump-ir %t/unswitched --unswitch-threshold=50
// RUN: FileCheck %s --check-prefix=UNSWITCHED < %t/unswitched/optimized.ll

// DEFAULT-LABEL: define {{.*}} @f(
// DEFAULT-NOT: .us:
// DEFAULT: ret void
// UNSWITCHED-LABEL: define {{.*}} @f(
// UNSWITCHED: .us:

!v = !vrir.array<f64, 1, row_major>
func.func @f(%A: !v, %B: !v, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = vrir.dim %A, 0 : !v
  scf.for %i = %c0 to %n step %c1 {
    %x = vrir.load %A[%i] flags [#vrir.index<none>] : !v[index]
    scf.if %c {
      %y = math.sqrt %x : f64
      vrir.store %y, %A[%i] flags [#vrir.index<none>] : !v[index]
    } else {
      vrir.store %x, %B[%i] flags [#vrir.index<none>] : !v[index]
    }
  }
  return
}
