#!/usr/bin/env bash
# Runs Attention Lab. Installs what running needs (scripts/setup.sh web, or desktop), builds
# the lab incrementally (without the tests, unless the build folder has them already), then:
#   scripts/run.sh                 serves the web app on http://127.0.0.1:8080 (prints the URL)
#   scripts/run.sh --port N        another port
#   scripts/run.sh --desktop [ARGS...]   the desktop app instead (ARGS go to attnlab)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
port=8080
desktop=0
desktop_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --desktop) desktop=1; shift; desktop_args=("$@"); break ;;
    --port)
      [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "run.sh: --port needs a number" >&2; exit 2; }
      port=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

if [ $desktop -eq 1 ]; then
  bash "$top/scripts/setup.sh" desktop
  bash "$top/scripts/build.sh" native-app
  exec "$top/build/native/attnlab" "${desktop_args[@]}"
fi
bash "$top/scripts/setup.sh" web
bash "$top/scripts/build.sh" web-app
exec node "$top/scripts/serve.mjs" --port "$port"
