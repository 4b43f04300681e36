#!/usr/bin/env bash
# Installs what Attention Lab needs on a Debian 12 machine, as root, for one purpose:
#   scripts/setup.sh web        build and serve the web app (scripts/run.sh)
#   scripts/setup.sh desktop    build and run the desktop app (scripts/run.sh --desktop)
#   scripts/setup.sh [test]     everything: both builds and every test suite (scripts/test.sh)
#   scripts/setup.sh lm         train the language model (scripts/train-lm.sh): the native build
#                               and Debian's fortune files (fortunes, fortunes-min, fortunes-zh)
#   scripts/setup.sh --list PURPOSE   prints that purpose's Debian packages and exits
#   scripts/setup.sh --size PURPOSE   prints what apt would download for it on this machine
#       (package, bytes) and the total, installing nothing; ATTNLAB_APT_STATUS=FILE asks as
#       for a machine whose dpkg status file is FILE (a fresh image's, say)
# Idempotent: each step checks first and does nothing when its result is already there.
# What it installs:
#   apt   web: cmake, Ninja, ccache, the Emscripten toolchain, Eigen, nlohmann-json, stb,
#           fast_float, zlib's notice, the UI and CJK fonts and HarfBuzz's hb-subset (their subsets)
#         desktop: cmake, Ninja, ccache, g++, Eigen, GLFW, nlohmann-json, zlib, stb, fast_float,
#           the UI and CJK fonts
#         test: both, plus Catch2 v2, clang with its sanitizer and libFuzzer runtimes
#           (build/asan), wabt, Chromium, Xvfb, ImageMagick, Debian's torch/numpy (reference numbers),
#           Jupyter's nbconvert and ipykernel; for python/attnlab's wheel and its tests: venv,
#           setuptools, wheel, build (python3 -m build --no-isolation), pytest and mypy
#   src   Dear ImGui 1.86 (every purpose) and zlib 1.2.13 (web, test) from Debian's source
#         packages, unpacked into build-deps/ (git-ignored), with copies of the header-only
#         stb_image_write.h and fast_float (libstb-dev, libfast-float-dev) beside them
#   npm   (test) the root package.json's devDependencies: playwright-core (drives Debian's
#         Chromium; never downloads a browser) and typescript (checks the published types)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
deps="$top/build-deps"

log() { printf '[setup] %s\n' "$*"; }
sudo_if() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# fetch_source PKG DIR: downloads the source package PKG into DIR. A mirror may list a version
# it does not hold (a security suite's source index without its files), so when the default
# version fails every version that `apt-cache showsrc` lists is tried, newest first.
fetch_source() {
  local pkg=$1 dir=$2 v
  chown _apt "$dir" 2>/dev/null || true   # lets apt download as _apt, without its warning
  if (cd "$dir" && apt-get source -qq --download-only "$pkg" >/dev/null 2>&1); then return 0; fi
  log "  $pkg: the default source version did not download; trying each listed version"
  for v in $(apt-cache showsrc "$pkg" | sed -n 's/^Version: //p' | sort -u | sort -r -V); do
    rm -f "$dir"/*
    if (cd "$dir" && apt-get source -qq --download-only "$pkg=$v" >/dev/null 2>&1); then
      log "  $pkg: downloaded version $v"
      return 0
    fi
  done
  log "could not download the source package $pkg in any version the apt sources list"
  return 1
}

# ---- what each purpose installs ------------------------------------------------------
# Both builds: configuring, Eigen, the header-only libraries and the source packages' tools.
build_pkgs=(cmake ninja-build pkg-config ccache dpkg-dev
  libeigen3-dev nlohmann-json3-dev libstb-dev libfast-float-dev fonts-wqy-microhei fonts-dejavu-core)
# The web app: Emscripten, HarfBuzz's font subsetter, Python (the font's character list, scripts/
# cjk_charset.py), and zlib1g-dev for the notice the site ships.
web_pkgs=("${build_pkgs[@]}" emscripten binaryen libharfbuzz-bin python3 zlib1g-dev)
desktop_pkgs=("${build_pkgs[@]}" g++ libglfw3-dev zlib1g-dev)
# The tests: the Catch2 suites, the sanitizer folder, the shipped .wasm's inspection, the
# browser and desktop screenshots, the PyTorch reference, Jupyter's nbconvert with the Python
# kernel (the notebook test), and python/attnlab's wheel (setuptools, wheel, build) and its
# pytest suite, which installs the wheel into a venv and checks its type hints with mypy.
test_pkgs=("${web_pkgs[@]}" g++ libglfw3-dev catch2 clang libclang-rt-dev wabt
  chromium xvfb xauth imagemagick python3-numpy python3-torch jupyter-nbconvert python3-ipykernel
  python3-venv python3-setuptools python3-wheel python3-build python3-pytest mypy)
# Training the shipped language model: the native build and the text it learns from.
lm_pkgs=("${desktop_pkgs[@]}" fortunes fortunes-min fortunes-zh)

mode=install
case "${1:-}" in --list) mode=list; shift ;; --size) mode=size; shift ;; esac
purpose=${1:-test}
case "$purpose" in
  web) apt_pkgs=("${web_pkgs[@]}") ;;
  desktop) apt_pkgs=("${desktop_pkgs[@]}") ;;
  test) apt_pkgs=("${test_pkgs[@]}") ;;
  lm) apt_pkgs=("${lm_pkgs[@]}") ;;
  *) echo "setup.sh: unknown purpose '$purpose' (web, desktop, test or lm)" >&2; exit 2 ;;
esac
if [ $mode = list ]; then printf '%s\n' "${apt_pkgs[@]}" | sort -u; exit 0; fi
if [ $mode = size ]; then
  # --print-uris lists what is not installed and not in the archive cache: an empty cache of
  # its own, so packages downloaded before are counted too.
  cache=$(mktemp -d); mkdir -p "$cache/partial"
  opts=(-o "Dir::Cache::archives=$cache/" -o Debug::NoLocking=1)
  [ -n "${ATTNLAB_APT_STATUS:-}" ] && opts+=(-o "Dir::State::status=$ATTNLAB_APT_STATUS")
  apt-get "${opts[@]}" --print-uris -qq install --no-install-recommends "${apt_pkgs[@]}" |
    awk '{ sub(/_.*/, "", $2); printf "%-40s %12d\n", $2, $3; n++; total += $3 }
         END { printf "%d packages, %.1f MB to download\n", n, total / 1e6 }'
  rm -rf "$cache"
  exit 0
fi
need_zlib_src=0
[ "$purpose" != desktop ] && [ "$purpose" != lm ] && need_zlib_src=1
mkdir -p "$deps"

missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

# The deb-src entry for the source packages (imgui, zlib) is derived from the machine's own
# deb entry, so no package host is written into this repository.
src_list=/etc/apt/sources.list.d/attnlab-deb-src.sources
need_update=0
if [ ! -f "$src_list" ] && [ -f /etc/apt/sources.list.d/debian.sources ]; then
  log "adding a deb-src entry derived from /etc/apt/sources.list.d/debian.sources"
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | sudo_if tee "$src_list" >/dev/null
  need_update=1
fi

need_zlib=0
[ $need_zlib_src -eq 1 ] && [ ! -f "$deps/zlib/zlib.h" ] && need_zlib=1
if [ ${#missing[@]} -gt 0 ] || [ $need_update -eq 1 ] || [ ! -f "$deps/imgui/imgui.cpp" ] || [ $need_zlib -eq 1 ]; then
  log "apt-get update"
  sudo_if apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  log "installing: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive sudo_if apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Dear ImGui 1.86: one source tree compiled for the web and for the desktop.
if [ ! -f "$deps/imgui/imgui.cpp" ]; then
  log "fetching Dear ImGui sources (apt-get source imgui)"
  tmp=$(mktemp -d)
  fetch_source imgui "$tmp"
  (cd "$tmp" && dpkg-source -x --skip-patches imgui_*.dsc imgui-src >/dev/null)
  rm -rf "$deps/imgui"
  mkdir -p "$deps/imgui/backends"
  cp "$tmp"/imgui-src/*.cpp "$tmp"/imgui-src/*.h "$deps/imgui/"
  cp "$tmp"/imgui-src/backends/imgui_impl_glfw.* "$tmp"/imgui-src/backends/imgui_impl_opengl3.* "$deps/imgui/backends/"
  cp "$tmp"/imgui-src/backends/imgui_impl_opengl3_loader.h "$deps/imgui/backends/" 2>/dev/null || true
  cp "$tmp"/imgui-src/LICENSE.txt "$deps/imgui/" 2>/dev/null || true
  # Debian's copyright file, shipped in the site's licenses/ (cmake/steps/make-site.mjs).
  cp "$tmp"/imgui-src/debian/copyright "$deps/imgui/debian-copyright" 2>/dev/null || true
  rm -rf "$tmp"
fi

# zlib 1.2.13: its C files are compiled into the WebAssembly builds (cmake/libraries.cmake);
# the desktop, the CLI and the native tests link Debian's libz (zlib1g-dev) instead.
if [ $need_zlib -eq 1 ]; then
  log "fetching zlib sources (apt-get source zlib)"
  tmp=$(mktemp -d)
  fetch_source zlib "$tmp"
  (cd "$tmp" && dpkg-source -x zlib_*.dsc zlib-src >/dev/null)
  rm -rf "$deps/zlib"
  mkdir -p "$deps/zlib"
  cp "$tmp"/zlib-src/*.c "$tmp"/zlib-src/*.h "$deps/zlib/"
  rm -rf "$tmp"
fi

# Header-only libraries, copied out of /usr/include: em++ must never have /usr/include itself
# on its include path (its libc headers would shadow Emscripten's). Both builds use the copies.
if [ ! -f "$deps/stb/stb_image_write.h" ]; then
  log "copying stb_image_write.h (libstb-dev)"
  mkdir -p "$deps/stb"
  cp /usr/include/stb/stb_image_write.h "$deps/stb/"
fi
if [ ! -f "$deps/fast_float/fast_float/fast_float.h" ]; then
  log "copying fast_float (libfast-float-dev)"
  rm -rf "$deps/fast_float"
  mkdir -p "$deps/fast_float"
  cp -r /usr/include/fast_float "$deps/fast_float/"
fi

# npm packages for the tests, as package-lock.json pins them: playwright-core only drives the
# system Chromium; typescript checks the published package's declarations.
if [ "$purpose" = test ]; then
  for dev in $(node -e 'console.log(Object.keys(require(process.argv[1]).devDependencies).join(" "))' "$top/package.json"); do
    if [ ! -f "$top/node_modules/$dev/package.json" ]; then
      log "npm ci ($dev is missing)"
      (cd "$top" && npm ci --no-audit --no-fund --loglevel=error)
      break
    fi
  done
fi
log "ready ($purpose)"
