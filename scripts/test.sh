#!/usr/bin/env bash
# Sets up (packages, .venv, build/), builds everything and runs every test:
# lit + FileCheck (test/), GoogleTest (unittests/) and pytest (python/),
# through ctest; then the same tests on a build of VRIR's own code with
# AddressSanitizer and UndefinedBehaviorSanitizer (build-san/,
# scripts/sanitize.sh), and every fuzz target for 60 seconds
# (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --build build
ctest --test-dir build --output-on-failure
bash scripts/sanitize.sh
bash scripts/fuzz.sh 60
