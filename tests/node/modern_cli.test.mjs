// attnlab-cli's RoPE, ALiBi, grouped-query attention and FlashAttention against oracles
// written from the papers' formulas (tests/python/modern_reference.py, numpy and torch under
// Debian's /usr/bin/python3): every difference within 1e-5.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nativeDir, root } from '../support/paths.mjs';

const cli = path.join(nativeDir, 'attnlab-cli');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-modern-'));
const lines = execFileSync('/usr/bin/python3', [path.join(root, 'tests/python/modern_reference.py'), cli, work],
  { encoding: 'utf8', maxBuffer: 1 << 26 }).trim().split('\n');
const results = lines.map((l) => JSON.parse(l));

test('the oracles ran every case', () => {
  assert.equal(results.length, 12 + 4 + 6 + 9);
});

for (const r of results) {
  test(`papers' formulas: ${r.name}`, () => {
    assert.ok(r.checked > 0, 'nothing was compared');
    assert.ok(r.max_abs_diff <= 1e-5, `max |attnlab - oracle| = ${r.max_abs_diff}: ${r.detail}`);
  });
}

test('bad input gets one line and exit code 2: odd d_k with RoPE, kvHeads not dividing heads, a tile of 0, a non-finite base or slope', () => {
  const save = (name, shape) => {
    execFileSync('/usr/bin/python3', ['-c', `import numpy as np; np.save(${JSON.stringify(path.join(work, name))}, np.ones(${JSON.stringify(shape)}, np.float32))`]);
    return path.join(work, name);
  };
  const odd = save('odd.npy', [4, 5]), q4 = save('q4.npy', [4, 6, 8]), kv3 = save('kv3.npy', [3, 6, 8]), m = save('m.npy', [6, 8]);
  const cases = [
    [['sdpa', '--q', odd, '--k', odd, '--v', odd, '--rope', '10000', '--out', path.join(work, 'x')], /RoPE needs an even d_k \(it turns pairs of entries\), got 5/],
    [['sdpa', '--q', m, '--k', m, '--v', m, '--rope', 'inf', '--out', path.join(work, 'x')], /--rope needs the base, a finite number > 0/],
    [['sdpa', '--q', m, '--k', m, '--v', m, '--alibi-slope', 'nan', '--out', path.join(work, 'x')], /--alibi-slope needs a finite number/],
    [['sdpa', '--q', m, '--k', m, '--v', m, '--rope', '100', '--alibi-slope', '1', '--out', path.join(work, 'x')], /--rope and --alibi-slope exclude each other/],
    [['gqa', '--q', q4, '--k', kv3, '--v', kv3, '--out', path.join(work, 'x')], /kvHeads = 3 must divide heads = 4/],
    [['flash', '--q', m, '--k', m, '--v', m, '--block-q', '0', '--out', path.join(work, 'x')], /--block-q needs a whole number >= 1/],
  ];
  for (const [args, message] of cases) {
    const r = spawnSync(cli, args, { encoding: 'utf8' });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.ok(!fs.existsSync(path.join(work, 'x')), 'a refused run writes nothing');
  }
});

test.after?.(() => fs.rmSync(work, { recursive: true, force: true }));
