#!/usr/bin/env bash
# Builds VRIR's own code with AddressSanitizer and UndefinedBehaviorSanitizer
# in build-san/ (LLVM, MLIR and the system libraries stay uninstrumented;
# the fuzz targets of fuzz/ are built there too) and runs the tests under
# them: the GoogleTest suites, the lit suite (LeakSanitizer checks every
# vr-run, vr-opt and vr-translate at exit) and the Python tests (Python
# preloads the sanitizer runtime; leaks are not checked there).
#   bash scripts/sanitize.sh [--build-only]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

if [ ! -f build-san/build.ninja ]; then
  echo "sanitize: configuring build-san/"
  cmake -S . -B build-san -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm \
    -DVRIR_PYTHON="$PWD/.venv/bin/python" \
    -DVRIR_SANITIZE=address,undefined -DVRIR_ENABLE_FUZZERS=ON \
    >/dev/null
fi
cmake --build build-san --target all vrir-fuzzers
[ "${1:-}" = --build-only ] && exit 0

# Every report is an error; LeakSanitizer runs at each tool's exit (leaks
# inside third-party drivers are suppressed: scripts/lsan.supp). The other
# options are the build's (CMakeLists.txt explains them).
source build-san/sanitizer.env
export ASAN_OPTIONS=detect_leaks=1:$VRIR_ASAN_OPTIONS
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-san --output-on-failure
