#!/usr/bin/env bash
# Sets up and builds VRIR, then walks through the dialect with vr-opt on the
# thesis's example programs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --build build --target vr-opt >/dev/null
VROPT=build/bin/vr-opt
EX=test/Dialect/VRIR/examples

step() { printf '\n=== %s\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "Thesis figure 4.2 (myfunc) with symbol-table variables, promoted to SSA by mem2reg" \
  $VROPT $EX/fig4_2_myfunc.mlir -mem2reg -canonicalize
step "Thesis figure 6.5: stencil inlined into foo, then canonicalized" \
  $VROPT $EX/fig6_5_stencil.mlir -inline -canonicalize
step "Thesis figure 9.2: 2-D stencil, pfor inside a gpu_section (verified, generic form)" \
  $VROPT $EX/fig9_2_stencil_gpu.mlir -mlir-print-op-generic
printf '\n=== The verifier rejects a pfor that rebinds a shared variable (thesis 4.5.1):\n'
cat > build/demo-illegal.mlir <<'MLIR'
func.func @illegal(%a: !vrir.array<f64, 1, row_major>, %n: index) {
  %b = vrir.alloca "b" : !vrir.var<!vrir.array<f64, 1, row_major>>
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%a, %b : !vrir.array<f64, 1, row_major>, !vrir.var<!vrir.array<f64, 1, row_major>>) {
    %s = vrir.slice %a[%r] : !vrir.array<f64, 1, row_major>[!vrir.range] -> !vrir.array<f64, 1, strided>
    %t = vrir.copy %s : !vrir.array<f64, 1, strided> to !vrir.array<f64, 1, row_major>
    vrir.write %t, %b : !vrir.var<!vrir.array<f64, 1, row_major>>
  }
  return
}
MLIR
if $VROPT build/demo-illegal.mlir >/dev/null; then
  echo "unexpected: the illegal program verified" >&2; exit 1
fi
printf '\nDone. Code generation (vr-run, CPU and GPU backends) is not built yet: see README.md.\n'
