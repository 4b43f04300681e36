#!/usr/bin/env bash
# Runs every test of Attention Lab, installing and building what is needed first:
#   1 native   the Catch2 tests (build/native), the whole binary in one process
#   2 wasm     the same Catch2 tests compiled to WebAssembly, in one Node process (build/web),
#              beside the relaxed-SIMD build's kernel tests in another
#   3 node     Node tests of the ES module, the CLI, the shipped .wasm, the desktop app (xvfb)
#   4 asan     the native Catch2 tests under AddressSanitizer + UBSan (build/asan, clang), one process
#   5 fuzz     each libFuzzer target of tests/fuzz (build/asan): its corpus, then a fixed
#              number of runs from a fixed seed (deterministic; a crash or a broken
#              invariant fails it, one test per target)
#   6 browser  end-to-end tests of the page in headless Chromium (playwright-core), right after
#              the builds; 1 to 5 and 7 run beside it in a lane of their own at the lowest priority
#   7 python   pytest (tests/python): the Python package's wheel, built right after the web
#              build (build/python/dist), installed into a fresh virtual environment and used
# The last line is "N passed, N failed" over all suites, a Catch2 suite counted by its test
# cases, pytest's by its tests; the exit code is 0 only if nothing failed. Screenshots land in build/test-artifacts/. Before it, one line gives the
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
# A Catch2 binary's log ends with "All tests passed (A assertions in N test cases)" or
# "test cases: N | P passed | F failed"; a crash before it leaves neither. (One process per
# binary: ctest's one process per test case started Node 287 times for the wasm suite, and
# split the names holding ';' into halves that matched no test and passed.)
count_catch2() {
  local log=$1 line
  line=$(grep -E '^All tests passed \([0-9]+ assertions? in [0-9]+ test cases?\)|^test cases: ' "$log" | tail -1)
  if [[ $line =~ ^All\ tests\ passed.*\ in\ ([0-9]+)\ test ]]; then
    passed=$((passed + BASH_REMATCH[1]))
  elif [[ $line =~ ([0-9]+)\ failed ]]; then
    # Catch2 pads the columns ("test cases:  12 |  11 passed |  1 failed"), and leaves out
    # "passed" when every case failed.
    failed=$((failed + BASH_REMATCH[1]))
    [[ $line =~ ([0-9]+)\ passed ]] && passed=$((passed + BASH_REMATCH[1]))
  else
    echo "no Catch2 summary in $log"; failed=$((failed + 1))
  fi
}
# run_catch2 LOG COMMAND...: runs a Catch2 binary (reports only failures, then the summary).
run_catch2() {
  local log=$1; shift
  "$@" --use-colour no >"$log" 2>&1
  grep -E -B2 -A12 'FAILED|SIGSEGV|ERROR' "$log" | head -n 200
  tail -n 2 "$log"
}
count_node() {
  local log=$1 p f
  p=$(grep -E '^# pass [0-9]+' "$log" | tail -1 | awk '{print $3}')
  f=$(grep -E '^# fail [0-9]+' "$log" | tail -1 | awk '{print $3}')
  if [ -z "$p" ] || [ -z "$f" ]; then failed=$((failed + 1)); return; fi
  passed=$((passed + p))
  failed=$((failed + f))
}
# pytest's summary line, "==== 2 failed, 22 passed, 1 error in 19.64s ====": errors count as
# failures; a log without one (pytest did not get that far), or one that ran no test, is one failure.
count_pytest() {
  local log=$1 line
  line=$(grep -E '^=+ .* in [0-9.]+s( \([0-9:]+\))? =+$' "$log" 2>/dev/null | tail -1)
  if [[ ! $line =~ [0-9]+\ (passed|failed|errors?) ]]; then
    echo "no pytest summary in $log"; failed=$((failed + 1)); return
  fi
  [[ $line =~ ([0-9]+)\ passed ]] && passed=$((passed + BASH_REMATCH[1]))
  [[ $line =~ ([0-9]+)\ failed ]] && failed=$((failed + BASH_REMATCH[1]))
  [[ $line =~ ([0-9]+)\ errors? ]] && failed=$((failed + BASH_REMATCH[1]))
  return 0
}

# The sanitizer folder builds from the start at the lowest priority, on what the other steps
# leave of the two cores (the links of the native and web builds, which use one core, and the
# node suite, which runs one file at a time); its tests run in the lane beside the browser suite.
echo "== build asan in the background (clang: AddressSanitizer + UBSan, libFuzzer; log: $logs/asan-build.log)"
asan_status="$logs/asan-build.status"  # its exit status, once it is done
rm -f "$asan_status"
(nice -n 19 bash scripts/build.sh asan >"$logs/asan-build.log" 2>&1; echo $? >"$asan_status") &
asan_build=$!

# The Catch2 suites of the two builds run in the lane below, beside the browser suite, which
# needs only the web build and so starts as soon as it is done.
echo "== build native"
native_built=0
if bash scripts/build.sh native; then native_built=1; else echo "native build failed"; failed=$((failed + 1)); fi
lap native

echo "== build web"
web_built=0
if bash scripts/build.sh web; then web_built=1; else echo "web build failed"; failed=$((failed + 1)); fi
lap web

# The Python package's wheel, from the figure page the web build just wrote (about 4 s; its
# tests run in the lane below). scripts/build.sh prints its path and size.
wheel_built=0
if [ "$web_built" = 1 ]; then
  echo "== build the Python wheel"
  if bash scripts/build.sh wheel; then wheel_built=1; else echo "wheel build failed"; failed=$((failed + 1)); fi
fi
lap wheel

# The rest runs in two lanes. The browser suite keeps both cores only about three quarters of
# its time (it waits on pages, frames and timers), so the lane of the Catch2 suites, the node
# suite, the sanitizer build's remainder, its tests and the fuzz targets runs beside it at the
# lowest priority, on what the browser leaves. Each lane writes its own logs; the counts are
# added once both are done.
lane_log="$logs/background-lane.log"
(
  renice -n 19 -p "$BASHPID" >/dev/null  # the lane and everything it starts
  lane_started=$SECONDS
  if [ "$native_built" = 1 ]; then
    echo "== 1 native Catch2 tests"
    run_catch2 "$logs/native.log" build/native/attnlab_tests
  fi
  if [ "$web_built" = 1 ]; then
    echo "== 2 wasm Catch2 tests (Node)"
    # The two binaries side by side; the relaxed-SIMD one runs its kernels' tests ("[kernels]",
    # cmake/targets/site.cmake) where the engine has relaxed SIMD.
    run_catch2 "$logs/wasm-relaxed.log" node --experimental-wasm-relaxed-simd --no-experimental-fetch \
      build/web/attnlab_tests_relaxed.js "[kernels]" &
    relaxed=$!
    run_catch2 "$logs/wasm.log" node --no-experimental-fetch build/web/attnlab_tests.js
    wait "$relaxed"  # that job only: a bare wait would wait for the sanitizer build too, and forget its status
  fi
  echo "catch2 $((SECONDS - lane_started))s"
  echo "== 3 node tests (ES module, CLI, shipped wasm, desktop app)"
  node --test --test-reporter=tap tests/node/*.test.mjs tests/desktop/*.test.mjs >"$logs/node.log" 2>&1
  echo "node $((SECONDS - lane_started))s"
  if [ "$wheel_built" = 1 ]; then
    echo "== 7 python tests (pytest: the wheel installed into a fresh venv)"
    /usr/bin/python3 -m pytest -p no:cacheprovider -rfE tests/python >"$logs/python.log" 2>&1
    grep -E '^(FAILED|ERROR) ' "$logs/python.log"
    tail -n 1 "$logs/python.log"
    echo "python $((SECONDS - lane_started))s"
  fi
  # Its status file, or its end without one (killed): then it failed.
  while [ ! -s "$asan_status" ] && kill -0 "$asan_build" 2>/dev/null; do sleep 1; done
  if [ "$(cat "$asan_status" 2>/dev/null)" = 0 ]; then
    echo "asan-build $((SECONDS - lane_started))s"
    echo "== 4 native Catch2 tests under AddressSanitizer + UBSan, beside 5"
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 run_catch2 "$logs/asan.log" build/asan/attnlab_tests &
    asan_tests=$!
    echo "== 5 fuzz targets, deterministic (scripts/fuzz.sh fuzzes longer)"
    fuzz_runs=${ATTNLAB_FUZZ_RUNS:-2000}
    for dir in tests/fuzz/corpus/*/; do
      t=$(basename "$dir")
      # New inputs go to a scratch folder (listed first), never into the committed corpus.
      rm -rf "build/fuzz-run/$t" && mkdir -p "build/fuzz-run/$t"
      if "build/asan/fuzz_$t" -runs="$fuzz_runs" -seed=1 -timeout=60 -artifact_prefix="build/fuzz-run/$t-" \
          "build/fuzz-run/$t" "$dir" >"$logs/fuzz-$t.log" 2>&1; then
        echo "fuzz $t: ok ($(grep -Eo '^Done [0-9]+ runs' "$logs/fuzz-$t.log" | grep -Eo '[0-9]+') runs)"
      else
        echo "fuzz $t: FAILED"; tail -n 40 "$logs/fuzz-$t.log"
      fi
    done
    wait "$asan_tests"
    echo "asan+fuzz $((SECONDS - lane_started))s"
  else
    echo "asan build failed:"; tail -n 40 "$logs/asan-build.log"
  fi
) >"$lane_log" 2>&1 &
lane=$!

echo "== 6 browser tests (headless Chromium), beside the lane of 1 to 5 (log: $lane_log)"
# One Chromium for the whole suite: each file connects to it for its browser contexts instead
# of launching its own (tests/support/browser.mjs; a file that needs other arguments still
# launches one). It stops when its standard input, this script's pipe, closes.
coproc CHROMIUM { exec node tests/support/chromium_server.mjs 2>"$logs/chromium-server.log"; }
chromium_pid=$CHROMIUM_PID
if read -r -t 60 -u "${CHROMIUM[0]}" chromium_ws && [[ $chromium_ws == ws://* ]]; then
  export ATTNLAB_CHROMIUM_WS=$chromium_ws
else
  echo "note: the shared Chromium did not start (log: $logs/chromium-server.log); each file launches its own"
fi
node --test --test-reporter=tap --test-concurrency=1 tests/browser/*.test.mjs 2>&1 | tee "$logs/browser.log"
count_node "$logs/browser.log"
kill "$chromium_pid" 2>/dev/null; wait "$chromium_pid" 2>/dev/null
unset ATTNLAB_CHROMIUM_WS
lap browser

wait "$lane"
lap lane-after-browser
cat "$lane_log"
# The lane's counts: the Catch2 suites of the builds, the node suite, the sanitizer tests, one
# test per fuzz target.
[ "$native_built" = 1 ] && count_catch2 "$logs/native.log"
if [ "$web_built" = 1 ]; then count_catch2 "$logs/wasm.log"; count_catch2 "$logs/wasm-relaxed.log"; fi
count_node "$logs/node.log"
[ "$wheel_built" = 1 ] && count_pytest "$logs/python.log"
if [ -f build/asan/attnlab_tests ] && grep -q '^asan-build ' "$lane_log"; then
  count_catch2 "$logs/asan.log"
  # One test per fuzz target (a corpus folder each): one the lane did not report ok failed.
  fuzz_targets=$(find tests/fuzz/corpus -mindepth 1 -maxdepth 1 -type d | wc -l)
  fuzz_ok=$(grep -c '^fuzz .*: ok' "$lane_log")
  passed=$((passed + fuzz_ok))
  failed=$((failed + fuzz_targets - fuzz_ok))
else
  failed=$((failed + 1))
fi
timings="$timings (lane: $(grep -Eo '^(catch2|node|python|asan-build|asan\+fuzz) [0-9]+s' "$lane_log" | tr '\n' ' ' | sed 's/ $//'))"

echo "seconds per step (builds included):$timings, total $SECONDS s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
