#!/usr/bin/env bash
# Runs every test of Attention Lab, installing and building what is needed first:
#   1 native   Catch2 tests via ctest (build/native)
#   2 wasm     the same Catch2 tests compiled to WebAssembly, via ctest under Node (build/web)
#   3 node     Node tests of the ES module, the CLI, the shipped .wasm, the desktop app (xvfb)
#   4 browser  end-to-end tests of the page in headless Chromium (playwright-core)
#   5 asan     the native Catch2 tests under AddressSanitizer + UBSan (build/asan, clang)
#   6 fuzz     each libFuzzer target of tests/fuzz (build/asan): its corpus, then a fixed
#              number of runs from a fixed seed (deterministic; a crash or a broken
#              invariant fails it, one test per target)
# The last line is "N passed, N failed" over all suites; the exit code is 0 only if
# nothing failed. Screenshots land in build/test-artifacts/. Before it, one line gives the
# seconds each step took (builds included), so the cost of a suite is on record.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export NODE_PATH=/usr/share/nodejs
logs="$top/build/test-logs"
passed=0
failed=0
timings=""
step_started=$SECONDS
# Ends a timed step: `lap NAME` adds "NAME Ns" to the timings line.
lap() {
  timings="$timings $1 $((SECONDS - step_started))s"
  step_started=$SECONDS
}

bash scripts/setup.sh || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$logs" build/test-artifacts
lap setup

# Adds a suite's counts from its log; a suite that produced no count is one failure.
count_ctest() {
  local log=$1 line total fails
  line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1)
  if [ -z "$line" ]; then failed=$((failed + 1)); return; fi
  fails=$(sed -E 's/.* ([0-9]+) tests? failed out of.*/\1/' <<<"$line")
  total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
  passed=$((passed + total - fails))
  failed=$((failed + fails))
}
count_node() {
  local log=$1 p f
  p=$(grep -E '^# pass [0-9]+' "$log" | tail -1 | awk '{print $3}')
  f=$(grep -E '^# fail [0-9]+' "$log" | tail -1 | awk '{print $3}')
  if [ -z "$p" ] || [ -z "$f" ]; then failed=$((failed + 1)); return; fi
  passed=$((passed + p))
  failed=$((failed + f))
}

echo "== build native"
if bash scripts/build.sh native; then
  echo "== 1 native Catch2 tests"
  ctest --test-dir build/native --output-on-failure -j "$(nproc)" 2>&1 | tee "$logs/native.log"
  count_ctest "$logs/native.log"
else
  echo "native build failed"; failed=$((failed + 1))
fi
lap native

echo "== build web"
if bash scripts/build.sh web; then
  echo "== 2 wasm Catch2 tests (Node)"
  # One Node process per test: two at a time on two cores (61 s -> 47 s here).
  ctest --test-dir build/web --output-on-failure -j "$(nproc)" 2>&1 | tee "$logs/wasm.log"
  count_ctest "$logs/wasm.log"
else
  echo "web build failed"; failed=$((failed + 1))
fi
lap web

echo "== 3 node tests (ES module, CLI, shipped wasm, desktop app)"
node --test --test-reporter=tap tests/node/*.test.mjs tests/desktop/*.test.mjs 2>&1 | tee "$logs/node.log"
count_node "$logs/node.log"
lap node

echo "== 4 browser tests (headless Chromium)"
node --test --test-reporter=tap --test-concurrency=1 tests/browser/*.test.mjs 2>&1 | tee "$logs/browser.log"
count_node "$logs/browser.log"
lap browser

echo "== build asan (clang: AddressSanitizer + UBSan, libFuzzer)"
if bash scripts/build.sh asan; then
  echo "== 5 native Catch2 tests under AddressSanitizer + UBSan"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build/asan --output-on-failure -j "$(nproc)" 2>&1 | tee "$logs/asan.log"
  count_ctest "$logs/asan.log"
  lap asan

  echo "== 6 fuzz targets, deterministic (scripts/fuzz.sh fuzzes longer)"
  fuzz_runs=${ATTNLAB_FUZZ_RUNS:-2000}
  for dir in tests/fuzz/corpus/*/; do
    t=$(basename "$dir")
    # New inputs go to a scratch folder (listed first), never into the committed corpus.
    rm -rf "build/fuzz-run/$t" && mkdir -p "build/fuzz-run/$t"
    if "build/asan/fuzz_$t" -runs="$fuzz_runs" -seed=1 -timeout=60 -artifact_prefix="build/fuzz-run/$t-" \
        "build/fuzz-run/$t" "$dir" >"$logs/fuzz-$t.log" 2>&1; then
      echo "fuzz $t: ok ($(grep -Eo '^Done [0-9]+ runs' "$logs/fuzz-$t.log" | grep -Eo '[0-9]+') runs)"
      passed=$((passed + 1))
    else
      echo "fuzz $t: FAILED"; tail -n 40 "$logs/fuzz-$t.log"; failed=$((failed + 1))
    fi
  done
else
  echo "asan build failed"; failed=$((failed + 1))
fi
lap fuzz

echo "seconds per step (builds included):$timings, total $SECONDS s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
