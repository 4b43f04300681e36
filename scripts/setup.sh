#!/usr/bin/env bash
# Installs everything Attention Lab needs on a Debian 12 machine, as root.
# Idempotent: each step checks first and does nothing when its result is already there.
#   scripts/setup.sh            build + test dependencies
# What it installs:
#   apt   emscripten toolchain, clang with its sanitizer and libFuzzer runtimes (build/asan),
#         Eigen, GLFW, Catch2 v2, nlohmann-json, zlib, stb, fast_float, Chromium, Xvfb,
#         ImageMagick, wabt,
#         Debian's torch/numpy (reference numbers), a CJK font
#   src   Dear ImGui 1.86 and zlib 1.2.13 from Debian's source packages, unpacked into
#         build-deps/ (git-ignored), with copies of the header-only stb_image_write.h and
#         fast_float (libstb-dev, libfast-float-dev) beside them
#   npm   playwright-core (drives Debian's Chromium; never downloads a browser)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
deps="$top/build-deps"
mkdir -p "$deps"

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

apt_pkgs=(
  cmake ninja-build g++ pkg-config ccache
  clang libclang-rt-dev
  emscripten binaryen wabt
  libeigen3-dev libglfw3-dev catch2 nlohmann-json3-dev
  chromium xvfb xauth imagemagick
  python3-numpy python3-torch
  fonts-wqy-microhei fonttools
  zlib1g-dev libstb-dev libfast-float-dev
  dpkg-dev
)

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

if [ ${#missing[@]} -gt 0 ] || [ $need_update -eq 1 ] || [ ! -f "$deps/imgui/imgui.cpp" ] || [ ! -f "$deps/zlib/zlib.h" ]; then
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
  # Debian's copyright file, shipped in the site's licenses/ (scripts/make-site.mjs).
  cp "$tmp"/imgui-src/debian/copyright "$deps/imgui/debian-copyright" 2>/dev/null || true
  rm -rf "$tmp"
fi

# zlib 1.2.13: its C files are compiled into the WebAssembly builds (cmake/libraries.cmake);
# the desktop, the CLI and the native tests link Debian's libz (zlib1g-dev) instead.
if [ ! -f "$deps/zlib/zlib.h" ]; then
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

# npm packages (playwright-core only drives the system Chromium).
if [ ! -d "$top/node_modules/playwright-core" ]; then
  log "npm ci"
  (cd "$top" && npm ci --no-audit --no-fund --loglevel=error)
fi
log "ready"
