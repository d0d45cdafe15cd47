#!/bin/sh
# Runs the VRIR CPU benchmarks from a bundle directory made by
# `run.py bundle` (needs no MLIR, no compiler, no Python).
#   ./run.sh [-r REPS] [-k KERNEL,...] [-s KERNEL=N] [-t KERNEL=STEPS]
# Set OMP_NUM_THREADS for the parallel variants, e.g.
#   for t in 1 2 4 8 16; do OMP_NUM_THREADS=$t ./run.sh; done
here=$(cd "$(dirname "$0")" && pwd)
# RUNPATH $ORIGIN finds the bundled libraries already; this is a fallback.
LD_LIBRARY_PATH="$here${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  exec "$here/vrir-bench" -d "$here" "$@"
