#!/usr/bin/env bash
# The benchmark of Attention Lab's kernels (issues 10 and 23): native, WebAssembly in Node and
# in headless Chromium, each beside its peers in the same run, the knob-to-picture latency of
# the lab, then docs/PERFORMANCE.md.
#   scripts/bench.sh [--rounds N]   (default 15 rounds; the suites take about 3 minutes, the
#                                    first builds 15-40 more)
# Not part of scripts/test.sh. Installs what it needs, idempotently:
#   apt   what scripts/setup.sh installs, plus libbenchmark-dev (Google Benchmark)
#   npm   the peers in bench/ (npm ci --ignore-scripts: onnxruntime-node's install script
#         downloads extra binaries; its CPU library is in the package)
# Builds in build/bench-native, build/bench-web (BENCH_NATIVE_DIR / BENCH_WEB_DIR move
# them) and build/bench-before (the latency table's 'before' site, below); runs at raised
# priority when root, to keep other processes' noise out.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export NODE_PATH=/usr/share/nodejs
native_dir=${BENCH_NATIVE_DIR:-build/bench-native}
web_dir=${BENCH_WEB_DIR:-build/bench-web}
rounds=15
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: scripts/bench.sh [--rounds N]" >&2; exit 2 ;;
  esac
done

bash scripts/setup.sh
if ! dpkg-query -W -f='${Status}' libbenchmark-dev 2>/dev/null | grep -q 'install ok installed'; then
  echo "[bench] installing libbenchmark-dev"
  if [ "$(id -u)" -eq 0 ]; then apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libbenchmark-dev
  else sudo apt-get update -qq; sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libbenchmark-dev; fi
fi
# The peers: installed from bench/package-lock.json, again whenever the lock changes.
stamp=bench/node_modules/.attnlab-lock
if [ ! -f "$stamp" ] || ! cmp -s bench/package-lock.json "$stamp"; then
  echo "[bench] npm ci in bench/"
  (cd bench && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  cp bench/package-lock.json "$stamp"
fi

if [ ! -f "$native_dir/build.ninja" ]; then
  cmake -S . -B "$native_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$native_dir" -j2 --target attnlab_bench attnlab_bench_eigen_avx2 attnlab_bench_eigen_avx512 attnlab-cli
if [ ! -f "$web_dir/build.ninja" ]; then
  emcmake cmake -S . -B "$web_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch"
fi
# site-raw/ holds the math module under its own name; dist/ (target site) is the lab the
# latency suite opens.
cmake --build "$web_dir" -j2 --target attnlab-core-wasm attnlab-core-wasm-relaxed web_static attnlab-bench-ceiling attnlab-bench-ceiling-relaxed site

# The "before" column of the knob-to-picture table: the lab at BENCH_LATENCY_BEFORE_REV
# (default 4b8da67, the commit issue 23 started from; 'none' leaves the column out),
# exported by git archive into build/bench-before/<rev> and its site built there once
# (about 15 minutes the first time, then cached). BENCH_LATENCY_BEFORE=DIST takes a site
# built elsewhere instead.
before=()
before_rev=${BENCH_LATENCY_BEFORE_REV:-4b8da67}
if [ -n "${BENCH_LATENCY_BEFORE:-}" ]; then
  before=(--latency-before "$BENCH_LATENCY_BEFORE")
elif [ "$before_rev" != none ]; then
  before_src="build/bench-before/$before_rev"
  if [ ! -f "$before_src/CMakeLists.txt" ]; then
    if ! git cat-file -e "$before_rev^{commit}" 2>/dev/null; then
      echo "scripts/bench.sh: commit $before_rev (the knob-to-picture 'before') is not in this clone;" \
        "fetch the history (git fetch --unshallow) or set BENCH_LATENCY_BEFORE_REV=none" >&2
      exit 2
    fi
    echo "[bench] exporting $before_rev into $before_src (the knob-to-picture 'before')"
    rm -rf "$before_src.partial"
    mkdir -p "$before_src.partial"
    git archive "$before_rev" | tar -x -C "$before_src.partial"
    mv "$before_src.partial" "$before_src"
  fi
  ln -sfn "$top/build-deps" "$before_src/build-deps"  # the ImGui and zlib sources setup.sh unpacked
  if [ ! -f "$before_src/build/web/build.ninja" ]; then
    emcmake cmake -S "$before_src" -B "$before_src/build/web" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch"
  fi
  cmake --build "$before_src/build/web" -j2 --target site
  before=(--latency-before "$before_src/build/web/dist" --latency-before-label "commit $before_rev")
fi

nice_cmd=()
if [ "$(id -u)" -eq 0 ]; then nice_cmd=(nice -n -10); fi
"${nice_cmd[@]}" node bench/run.mjs --native "$native_dir" --web "$web_dir" --rounds "$rounds" "${before[@]}"
