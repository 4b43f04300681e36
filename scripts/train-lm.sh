#!/usr/bin/env bash
# Trains the language model the lab ships (assets/fortunes-lm.attnlm) from the fortune files
# of Debian's packages fortunes, fortunes-min and fortunes-zh: a long job (about 20 minutes
# on a 2-core machine), not part of scripts/test.sh. docs/LANGUAGE-MODEL.md tells the data,
# the split, the config and what the run measured.
#   scripts/train-lm.sh            writes build/lm/fortunes-lm.attnlm and its report, then
#                                  compares the held-out figures with the shipped model's
#   scripts/train-lm.sh --ship     writes assets/fortunes-lm.attnlm and assets/fortunes-lm.report.json
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=build/lm
[ "${1:-}" = --ship ] && out=assets
bash scripts/setup.sh lm
bash scripts/build.sh native-app
mkdir -p "$out"
# The shipped model's command (the defaults of attnlab-cli lm-train are its config).
build/native/attnlab-cli lm-train --out "$out/fortunes-lm.attnlm" --report "$out/fortunes-lm.report.json" \
  --characters "$out/fortunes-lm.characters.txt"
if [ "$out" != assets ]; then
  python3 - "$out/fortunes-lm.report.json" assets/fortunes-lm.report.json <<'PY'
import json, sys
new, shipped = (json.load(open(p)) for p in sys.argv[1:3])
for lang in ("english", "chinese"):
    a, b = new["heldOut_" + lang]["model"], shipped["heldOut_" + lang]["model"]
    print(f"held-out {lang}: this run {a:.4f} bits/char, shipped {b:.4f} ({100 * (a - b) / b:+.2f}%)")
PY
fi
