// attnlab-cli against PyTorch (Debian's python3-torch 1.13 under /usr/bin/python3):
// tests/python/torch_reference.py builds the inputs, runs the CLI and torch, and reports
// the largest absolute difference per case; each must be within 1e-5.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nativeDir, root } from '../support/paths.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-torch-'));
const lines = execFileSync('/usr/bin/python3', [path.join(root, 'tests/python/torch_reference.py'),
  path.join(nativeDir, 'attnlab-cli'), work], { encoding: 'utf8', maxBuffer: 1 << 24 }).trim().split('\n');
const results = lines.map((l) => JSON.parse(l));

test('the PyTorch comparison ran every case', () => {
  assert.ok(results.length >= 15, `only ${results.length} cases reported`);
});

for (const r of results) {
  test(`PyTorch agreement: ${r.name}`, () => {
    assert.notEqual(r.max_abs_diff, null, r.detail);
    assert.ok(r.checked > 0, 'nothing was compared');
    assert.ok(r.max_abs_diff <= 1e-5, `max |attnlab - torch| = ${r.max_abs_diff}: ${r.detail}`);
    console.log(`# ${r.name}: ${r.detail}`);
  });
}

test.after?.(() => fs.rmSync(work, { recursive: true, force: true }));
