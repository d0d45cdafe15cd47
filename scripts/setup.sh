#!/usr/bin/env bash
# Installs what VRIR needs on Debian 12 (system packages through apt-get,
# Python packages into ./.venv) and configures the build in ./build.
# Idempotent and quiet when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  cmake ninja-build ccache g++ python3-venv python3-dev
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 libclang-rt-22-dev
  libomp-22-dev libopenblas-dev
  libvulkan-dev mesa-vulkan-drivers
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
  spirv-tools libgtest-dev valgrind
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Python: a project-local virtual environment with pinned versions.
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  python3 -m venv .venv
fi
if ! .venv/bin/python -c "import sys; sys.exit(0)" 2>/dev/null; then
  rm -rf .venv && python3 -m venv .venv
fi
stamp=.venv/.requirements-installed
if [ ! -f "$stamp" ] || ! cmp -s requirements.txt "$stamp"; then
  echo "setup: installing Python packages"
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
  cp requirements.txt "$stamp"
fi
# The Python frontend, editable (pinned dependencies in python/pyproject.toml).
if ! .venv/bin/python -c "import vrir" 2>/dev/null; then
  echo "setup: installing the vrir Python package"
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ./python
fi

# Configure once; later runs only rebuild.
if [ ! -f build/build.ninja ]; then
  echo "setup: configuring build/"
  cmake -S . -B build -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm \
    -DVRIR_PYTHON="$PWD/.venv/bin/python" \
    >/dev/null
fi
