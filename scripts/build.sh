#!/usr/bin/env bash
# Builds Attention Lab: `scripts/build.sh native`, `scripts/build.sh web`, or both (no argument).
# Configures a build folder only the first time; later runs are incremental.
#   build/native/   attnlab (desktop), attnlab-cli, attnlab_tests
#   build/web/      attnlab_tests.js (Catch2 under Node); build/web/dist/ the static site
#   build/asan/     (`asan`) attnlab_tests, attnlab-cli and the libFuzzer targets fuzz_*
#                   under AddressSanitizer + UBSan, built with Debian's clang; no GUI
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# Debian's Emscripten needs Node to find Debian's JS modules (acorn) at -O1 and above.
export NODE_PATH=/usr/share/nodejs
jobs=$(nproc)
# ccache (scripts/setup.sh installs it) keeps compiled objects across build folders and
# clones; paths under the checkout are made relative so a clone elsewhere hits the cache.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

build_native() {
  if [ ! -f build/native/build.ninja ]; then
    cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}"
  fi
  cmake --build build/native -j "$jobs"
}

build_web() {
  if [ ! -f build/web/build.ninja ]; then
    # Node 20 rejects emcmake's default test emulator; the wasm tests run under this one.
    emcmake cmake -S . -B build/web -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
      "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch"
  fi
  cmake --build build/web -j "$jobs"
}

# The sanitizer folder (cmake/targets/sanitize.cmake): the core, the app state, the tests,
# the CLI and the fuzz targets with -fsanitize=address,undefined at -O1, built by clang
# (libFuzzer). The GUI is not built there.
build_asan() {
  if [ ! -f build/asan/build.ninja ]; then
    CC=clang CXX=clang++ cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DATTNLAB_SANITIZE=ON "${launcher[@]}"
  fi
  cmake --build build/asan -j "$jobs" --target attnlab_fuzzers attnlab_tests attnlab-cli
}

case "${1:-all}" in
  native) build_native ;;
  web) build_web ;;
  asan) build_asan ;;
  all) build_native; build_web ;;
  *) echo "usage: scripts/build.sh [native|web|asan]" >&2; exit 2 ;;
esac
