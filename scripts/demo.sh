#!/usr/bin/env bash
# Sets up and builds VRIR, then compiles and runs VRIR programs on the CPU
# and on each GPU backend present: the thesis's examples and a few kernels,
# compared with NumPy.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# everything the tour uses, the Python bridge (libVRIRCompiler) included
cmake --build build >/dev/null
VROPT=build/bin/vr-opt
VRRUN=build/bin/vr-run
PY=.venv/bin/python
EX=test/Dialect/VRIR/examples
IN=test/Integration/CPU/Inputs
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

step() { printf '\n=== %s\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "Thesis figure 4.2 (myfunc): symbol-table variables, promoted to SSA" \
  $VROPT $EX/fig4_2_myfunc.mlir -mem2reg -canonicalize
step "...compiled and run on the CPU" \
  $VRRUN $EX/fig4_2_myfunc.mlir --entry myfunc --arg a=20 --arg b=22
step "Thesis figure 4.5: a parallel loop with shared arrays (OpenMP)" \
  $VRRUN $EX/fig4_5_pfor_shared.mlir --entry fig4_5
step "Thesis figure 4.4: MATLAB growth on write (A = zeros(2); A(3,2) = 1)" \
  $VRRUN $IN/matlab.mlir --entry fig4_4

$PY - "$WORK" <<'PYTHON'
import sys, numpy as np
rng = np.random.default_rng(0)
np.save(sys.argv[1] + "/A.npy", rng.random((512, 512)))
PYTHON
step "2-D Jacobi, 50 sweeps on 512x512, pfor loops (compile and run times)" \
  $VRRUN $IN/kernels.mlir --entry jacobi2d --arg A=$WORK/A.npy \
    --arg B=$WORK/A.npy --arg steps=50 --out A=$WORK/out.npy --time
$PY - "$WORK" <<'PYTHON'
import sys, numpy as np
A = np.load(sys.argv[1] + "/A.npy"); B = A.copy()
for _ in range(50):
    B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[:-2, 1:-1] + A[2:, 1:-1]
                           + A[1:-1, :-2] + A[1:-1, 2:])
    A[1:-1, 1:-1] = B[1:-1, 1:-1]
got = np.load(sys.argv[1] + "/out.npy")
print("matches NumPy:", np.allclose(got, A), " max |diff| =", abs(got - A).max())
PYTHON
step "The same with region specialization: the loop nest compiled again for 512x512 (-stats: the region's counters)" \
  $VRRUN $IN/kernels.mlir --entry jacobi2d --arg A=$WORK/A.npy \
    --arg B=$WORK/A.npy --arg steps=50 --out A=$WORK/out2.npy --time \
    --specialize -stats
$PY - "$WORK" <<'PYTHON'
import sys, numpy as np
same = np.array_equal(np.load(sys.argv[1] + "/out.npy"), np.load(sys.argv[1] + "/out2.npy"))
print("same result as the generic code:", same)
PYTHON

# GPU sections: the same Jacobi sweeps in a vrir.gpu_section, their loops
# compiled to kernels for each GPU backend this machine has (PoCL gives
# OpenCL on the CPU, Mesa lavapipe Vulkan), checked against NumPy.
for backend in opencl:0 vulkan:1; do
  target=${backend%%:*}
  device=$($PY - "${backend##*:}" <<'PYTHON'
import ctypes, sys
ctypes.CDLL("build/lib/libvrir_runtime.so", mode=ctypes.RTLD_GLOBAL)
gpu = ctypes.CDLL("build/lib/libvrir_gpu_runtime.so")
gpu.vrir_gpu_available.argtypes = [ctypes.c_int64]
gpu.vrir_gpu_device_name.argtypes = [ctypes.c_int64]
gpu.vrir_gpu_device_name.restype = ctypes.c_char_p
if gpu.vrir_gpu_available(int(sys.argv[1])):
    print(gpu.vrir_gpu_device_name(int(sys.argv[1])).decode())
PYTHON
)
  if [ -z "$device" ] || ! $VRRUN --help | grep -- "--target=" | grep -q "$target"; then
    printf '\n=== GPU target %s: not available on this machine, skipped\n' "$target"
    continue
  fi
  step "2-D Jacobi in a GPU section, 50 sweeps on 512x512, as $target kernels on $device" \
    $VRRUN test/Integration/GPU/Inputs/kernels.mlir --entry jacobi2d \
      --arg A=$WORK/A.npy --arg B=$WORK/A.npy --arg steps=50 \
      --out A=$WORK/gpu-$target.npy --target=$target --time
  $PY - "$WORK" "$target" <<'PYTHON'
import sys, numpy as np
cpu = np.load(sys.argv[1] + "/out.npy")
gpu = np.load(sys.argv[1] + "/gpu-" + sys.argv[2] + ".npy")
print("matches the CPU run (and so NumPy):", np.allclose(gpu, cpu, rtol=1e-12))
PYTHON
done

step "Thesis figure 4.2 as the textual VRIR of appendix A, imported and run" \
  sh -c "build/bin/vr-translate --import-vrir-sexpr test/Integration/CPU/sexpr/Inputs/figure-4-2.vrir > $WORK/f42.mlir && $VRRUN $WORK/f42.mlir --entry myfunc --arg a=1 --arg b=2"

printf '\n=== Python: @vrir.jit on a NumPy function\n'
cat > $WORK/smooth.py <<'PYTHON'
import time
import numpy as np
import vrir

@vrir.jit
def smooth(x):
    y = np.empty_like(x)
    for i in vrir.prange(1, len(x) - 1):
        y[i] = (x[i - 1] + x[i] + x[i + 1]) / 3.0
    y[0] = x[0]
    y[-1] = x[-1]
    return y

x = np.random.default_rng(0).random(2_000_000)
start = time.perf_counter(); y = smooth(x); first = time.perf_counter() - start
start = time.perf_counter(); y = smooth(x); again = time.perf_counter() - start
expected = np.concatenate([x[:1], (x[:-2] + x[1:-1] + x[2:]) / 3.0, x[-1:]])
print(f"first call (compiles) {first * 1e3:.0f} ms, next call {again * 1e3:.2f} ms,",
      "matches NumPy:", np.allclose(y, expected))
PYTHON
VRIR_CACHE_DIR=$WORK/cache $PY $WORK/smooth.py

printf '\n=== Python examples (python/examples/), each checked against NumPy\n'
for example in stencil2d jacobi2d julia nbody; do
  VRIR_CACHE_DIR=$WORK/cache $PY python/examples/$example.py
done
step "NumPy vs Numba vs @vrir.jit on three examples (benchmarks/python)" \
  $PY benchmarks/python/run.py --only jacobi2d,julia,lu --repeat 3 --scale 0.5

printf '\n=== An out-of-bounds access is reported with the array, dimension, index, extent and place:\n'
$VRRUN $IN/kernels.mlir --entry get --arg A=arange:10 --arg i=10 || true

printf '\n=== The verifier rejects a pfor that rebinds a shared variable (thesis 4.5.1):\n'
$VROPT $EX/fig4_6_pfor_shared_illegal.mlir 2>&1 >/dev/null | head -3 || true

printf '\nDone.\n'
