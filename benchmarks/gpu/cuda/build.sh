#!/bin/sh
# Builds the CUDA peers: benchmarks/gpu/build/peers (static cudart; cuBLAS
# is loaded at run time with dlopen, so nothing else is linked).
#   sh benchmarks/gpu/cuda/build.sh [NVCC]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../build"
nvcc=${1:-${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}}
mkdir -p "$out"
"$nvcc" -O3 -arch=sm_90 -cudart static -std=c++17 -Xcompiler -Wall \
    -o "$out/peers" "$here/peers.cu" -ldl
echo "built $out/peers"
