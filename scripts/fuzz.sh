#!/usr/bin/env bash
# Fuzzes the parsers for longer than the test command does (libFuzzer, tests/fuzz/):
#   scripts/fuzz.sh                  every target, 600 seconds each, one after another
#   scripts/fuzz.sh TARGET [SECONDS] one target (state_json, npy, model_file, tokenizer, ...)
#   scripts/fuzz.sh all SECONDS      every target, SECONDS each
# Builds build/asan first (scripts/build.sh asan). The corpus grows outside the repository,
# in $ATTNLAB_FUZZ_CORPUS/TARGET (default ~/.cache/attnlab-fuzz/TARGET), seeded from
# tests/fuzz/corpus/TARGET; crashing inputs land in build/fuzz-artifacts/. Each run ends
# with the target's executions ("stat::number_of_executed_units") and exits non-zero on a
# crash. A crash becomes a regression test: copy the input into tests/fuzz/corpus/TARGET/
# (the test command replays that folder) or into a Catch2 test, then fix the parser.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
target=${1:-all}
seconds=${2:-600}
corpus_root=${ATTNLAB_FUZZ_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/attnlab-fuzz}

bash scripts/build.sh asan >/dev/null
if [ "$target" = all ]; then
  targets=$(ls tests/fuzz/corpus)
else
  [ -x "build/asan/fuzz_$target" ] || { echo "no fuzz target '$target' (see cmake/targets/sanitize.cmake)" >&2; exit 2; }
  targets=$target
fi

mkdir -p build/fuzz-artifacts
status=0
for t in $targets; do
  mkdir -p "$corpus_root/$t"
  echo "== fuzz $t for ${seconds}s (corpus $corpus_root/$t)"
  rc=0
  "build/asan/fuzz_$t" -max_total_time="$seconds" -print_final_stats=1 -timeout=20 \
    -artifact_prefix="build/fuzz-artifacts/$t-" "$corpus_root/$t" "tests/fuzz/corpus/$t" \
    >"build/fuzz-artifacts/$t.log" 2>&1 || rc=$?
  grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|Done [0-9]+ runs|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' "build/fuzz-artifacts/$t.log" || true
  if [ $rc -ne 0 ]; then echo "fuzz $t: CRASH (see build/fuzz-artifacts/$t.log)"; status=1; fi
done
exit $status
