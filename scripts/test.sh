#!/usr/bin/env bash
# Sets up (packages, .venv, build/), builds everything and runs every test:
# lit + FileCheck (test/), GoogleTest (unittests/), through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --build build
ctest --test-dir build --output-on-failure
