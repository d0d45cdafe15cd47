#!/usr/bin/env bash
# Runs VRIR's libFuzzer targets (fuzz/) for SECONDS each (default 60):
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
# TARGET is parse, sexpr, pipeline, arguments or python (the Python
# frontend's differential fuzzer); default all. Every target runs from a
# fixed random seed, VRIR_FUZZ_SEED (default 1): from the same corpus, a
# run tries the first inputs of a longer run with that seed, so a clean
# checkout (CI) tries the same inputs every time instead of failing by
# luck on a bug it did not bring. Hunt with other seeds (VRIR_FUZZ_SEED=0:
# libFuzzer picks one) and longer runs. The C++ targets are built in
# build-san/ (AddressSanitizer + UndefinedBehaviorSanitizer, see
# scripts/sanitize.sh). Each starts from the checked-in seeds (fuzz/corpus/)
# and its own growing corpus (build-san/fuzz/corpus/TARGET). A crash, leak,
# sanitizer report or hang fails the script and leaves the reproducer in
# build-san/fuzz/crashes/TARGET/; rerun it with
#   build-san/bin/vrir-fuzz-TARGET FILE
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
seed=${VRIR_FUZZ_SEED:-1}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(parse sexpr pipeline arguments python)

need_build=0
for target in "${targets[@]}"; do
  [ "$target" != python ] && need_build=1
done
if [ $need_build -eq 1 ]; then
  bash scripts/sanitize.sh --build-only
fi

# The sanitizer runtime's path and the ASan options (CMakeLists.txt).
[ $need_build -eq 1 ] && source build-san/sanitizer.env
declare -A dict=([parse]=fuzz/mlir.dict [pipeline]=fuzz/mlir.dict
                 [sexpr]=fuzz/sexpr.dict [arguments]=)
# Runs one target; its summary line goes to build-san/fuzz/TARGET.summary.
fuzz_target() {
  local target=$1
  local line
  if [ "$target" = python ]; then
    # The Python frontend: random programs compiled by @vrir.jit and
    # compared with CPython/NumPy, for SECONDS from a fixed seed.
    if .venv/bin/python python/tests/fuzz/fuzz_python_frontend.py \
        --seconds "$seconds" --seed "$seed" --count 1000000 --strict --mode gen \
        --out build-san/fuzz/python > build-san/fuzz/python.log 2>&1; then
      line="python: passed ($(tail -1 build-san/fuzz/python.log))"
    else
      line="python: FAILED (see build-san/fuzz/python.log)"
      tail -40 build-san/fuzz/python.log
    fi
    echo "$line" > build-san/fuzz/python.summary
    return
  fi
  local binary=build-san/bin/vrir-fuzz-$target
  local corpus=build-san/fuzz/corpus/$target
  local crashes=build-san/fuzz/crashes/$target
  local log=build-san/fuzz/$target.log
  mkdir -p "$corpus" "$crashes"
  local args=(-max_total_time="$seconds" -seed="$seed" -timeout=30 -rss_limit_mb=4096
              -print_final_stats=1 -artifact_prefix="$crashes/")
  [ -n "${dict[$target]}" ] && args+=(-dict="${dict[$target]}")
  local result
  # The fuzzers link the shared sanitizer runtime, which must load first.
  if LD_PRELOAD="$VRIR_SANITIZER_PRELOAD" \
     ASAN_OPTIONS="detect_leaks=1:$VRIR_ASAN_OPTIONS" \
     UBSAN_OPTIONS=print_stacktrace=1 \
     "$binary" "${args[@]}" "$corpus" "fuzz/corpus/$target" > "$log" 2>&1; then
    result=passed
  else
    result="FAILED (see $log; reproducer in $crashes/)"
    tail -40 "$log"
  fi
  local runs cov total percent
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
  # Edges instrumented in the target (VRIR's code it links, and the runtime)
  total=$(sed -n 's/^INFO: Loaded [0-9]* modules *(\([0-9]*\) inline 8-bit counters).*/\1/p' "$log" | head -1)
  percent=$(awk -v c="${cov:-0}" -v t="${total:-0}" 'BEGIN { if (t > 0) printf "%.1f", 100 * c / t; else print "?" }')
  echo "$target: ${runs:-0} executions, ${cov:-?} of ${total:-?} edges covered (${percent}%), $(ls "$corpus" | wc -l) corpus inputs, $result" \
    > "build-san/fuzz/$target.summary"
}

for target in "${targets[@]}"; do
  if [ "$target" != python ] && [ ! -x "build-san/bin/vrir-fuzz-$target" ]; then
    echo "fuzz: unknown target '$target'" >&2
    exit 2
  fi
done
# One target per core at a time.
mkdir -p build-san/fuzz
rm -f build-san/fuzz/*.summary
cores=$(nproc)
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do
    wait -n || true
  done
  echo "fuzz: $target for ${seconds}s"
  fuzz_target "$target" &
done
wait

status=0
echo "fuzz summary (${seconds}s each):"
for target in "${targets[@]}"; do
  line=$(cat "build-san/fuzz/$target.summary" 2>/dev/null || echo "$target: FAILED (no summary)")
  echo "  $line"
  case $line in *FAILED*) status=1 ;; esac
done
exit $status
