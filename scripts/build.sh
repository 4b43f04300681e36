#!/usr/bin/env bash
# Builds Attention Lab: `scripts/build.sh native`, `scripts/build.sh web`, or both (no argument);
# `scripts/build.sh wheel` the web build and then the Python package's wheel.
# Configures a build folder only the first time; later runs are incremental.
# `web-app` and `native-app` are the run command's: a folder they configure first builds the
# lab without the Catch2 tests (ATTNLAB_TESTS=OFF, so Catch2 need not be installed); `web` and
# `native` turn the tests on in it again.
#   build/native/   attnlab (desktop), attnlab-cli, attnlab_tests
#   build/web/      attnlab_tests.js (Catch2 under Node); build/web/dist/ the static site
#   build/asan/     (`asan`) attnlab_tests and the libFuzzer targets fuzz_* under
#                   AddressSanitizer + UBSan, built with Debian's clang; no GUI (the CLI
#                   builds there on request: cmake --build build/asan --target attnlab-cli)
#   build/python/   (`wheel`) dist/attnlab-VERSION-py3-none-any.whl, the Python package with
#                   the figure page and the site's licences (Debian's python3-build)
# CMakePresets.json configures the same three folders with the same settings for IDEs and
# `cmake --preset NAME` (tests/node/cmake_presets.test.mjs compares the two).
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

# configure DIR TESTS CMAKE_ARGS...: configures DIR the first time; TESTS is ON (the tests'
# builds: turned on in a folder configured without them) or AS-IS (the run command's: OFF in a
# new folder, and whatever an existing folder has).
configure() {
  local dir=$1 tests=$2; shift 2
  if [ ! -f "$dir/build.ninja" ]; then
    [ "$tests" = AS-IS ] && tests=OFF
    "$@" -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTNLAB_TESTS="$tests" "${launcher[@]}"
  elif [ "$tests" = ON ] && grep -q '^ATTNLAB_TESTS:BOOL=OFF' "$dir/CMakeCache.txt"; then
    cmake -S . -B "$dir" -DATTNLAB_TESTS=ON
  fi
}

build_native() {
  configure build/native "$1" cmake
  cmake --build build/native -j "$jobs"
}

build_web() {
  # Node 20 rejects emcmake's default test emulator; the wasm tests run under this one.
  configure build/web "$1" emcmake cmake "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch"
  cmake --build build/web -j "$jobs"
}

# The sanitizer folder (cmake/targets/sanitize.cmake): the core, the app state, the tests,
# the CLI and the fuzz targets with -fsanitize=address,undefined at -O1, built by clang
# (libFuzzer). The GUI is not built there.
build_asan() {
  if [ ! -f build/asan/build.ninja ]; then
    CC=clang CXX=clang++ cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DATTNLAB_SANITIZE=ON "${launcher[@]}"
  fi
  cmake --build build/asan -j "$jobs" --target attnlab_fuzzers attnlab_tests
}

# The Python package's wheel, after the web build, which copies the figure page and the site's
# licences into python/attnlab/static/. python/ is staged with the repository's LICENSE
# (setuptools takes no file from outside its project folder) and built by Debian's python3 and
# python3-build without isolation: nothing is fetched.
build_wheel() {
  local stage=build/python/src
  rm -rf build/python
  mkdir -p "$stage"
  cp -r python/pyproject.toml python/README.md python/attnlab LICENSE "$stage/"
  find "$stage" -name __pycache__ -prune -exec rm -rf {} +
  if ! /usr/bin/python3 -m build --wheel --no-isolation --outdir build/python/dist "$stage" >build/python/build.log 2>&1; then
    tail -n 30 build/python/build.log
    echo "the wheel did not build (log: build/python/build.log)" >&2
    return 1
  fi
  local wheel
  wheel=$(ls build/python/dist/*.whl)
  echo "wheel: $wheel ($(stat -c %s "$wheel") bytes)"
}

case "${1:-all}" in
  native) build_native ON ;;
  web) build_web ON ;;
  native-app) build_native AS-IS ;;
  web-app) build_web AS-IS ;;
  wheel) build_web ON; build_wheel ;;
  asan) build_asan ;;
  all) build_native ON; build_web ON ;;
  *) echo "usage: scripts/build.sh [native|web|native-app|web-app|asan|wheel]" >&2; exit 2 ;;
esac
