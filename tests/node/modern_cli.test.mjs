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
import { cliRunner } from '../support/cli.mjs';
import { writeNpy } from '../support/npy.mjs';

const cli = path.join(nativeDir, 'attnlab-cli');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-modern-'));
const lines = execFileSync('/usr/bin/python3', [path.join(root, 'tests/python/modern_reference.py'), cli, work],
  { encoding: 'utf8', maxBuffer: 1 << 26 }).trim().split('\n');
const results = lines.map((l) => JSON.parse(l));
const { expectRefusal, expectUsageError } = cliRunner(work);

test('the oracles ran every case', () => {
  assert.equal(results.length, 12 + 4 + 6 + 9);
});

for (const r of results) {
  test(`papers' formulas: ${r.name}`, () => {
    assert.ok(r.checked > 0, 'nothing was compared');
    assert.ok(r.max_abs_diff <= 1e-5, `max |attnlab - oracle| = ${r.max_abs_diff}: ${r.detail}`);
  });
}

test('bad input gets one line, exit code 1 (2 for the command line itself): odd d_k with RoPE, kvHeads not dividing heads, a tile of 0, a non-finite base or slope', () => {
  const save = (name, shape) => writeNpy(path.join(work, name), shape, new Array(shape.reduce((a, b) => a * b)).fill(1));
  const odd = save('odd.npy', [4, 5]), q4 = save('q4.npy', [4, 6, 8]), kv3 = save('kv3.npy', [3, 6, 8]), m = save('m.npy', [6, 8]);
  const cases = [
    [['sdpa', '--q', odd, '--k', odd, '--v', odd, '--rope', '10000'], /RoPE needs an even d_k \(it turns pairs of entries\), got 5/, expectRefusal],
    [['sdpa', '--q', m, '--k', m, '--v', m, '--rope', 'inf'], /--rope needs the base, a finite number > 0/, expectUsageError],
    [['sdpa', '--q', m, '--k', m, '--v', m, '--alibi-slope', 'nan'], /--alibi-slope needs a finite number/, expectUsageError],
    [['sdpa', '--q', m, '--k', m, '--v', m, '--rope', '100', '--alibi-slope', '1'], /--rope and --alibi-slope exclude each other/, expectUsageError],
    [['gqa', '--q', q4, '--k', kv3, '--v', kv3], /kvHeads = 3 must divide heads = 4/, expectRefusal],
    [['flash', '--q', m, '--k', m, '--v', m, '--block-q', '0'], /--block-q needs a whole number from 1 to \d+, got '0'/, expectUsageError],
  ];
  for (const [args, message, expect] of cases) expect(args, message);  // one line, its exit code, nothing written
});

test('kv-cache: bytes per token are 2 * G * d_k * layers * bytes per value; each n gets both step times', () => {
  for (const [heads, kv, dk, layers, bytes] of [[32, 8, 128, 32, 2], [12, 12, 64, 12, 4], [8, 1, 64, 2, 2]]) {
    const r = JSON.parse(execFileSync(cli, ['kv-cache', '--heads', `${heads}`, '--kv-heads', `${kv}`, '--dk', `${dk}`, '--layers', `${layers}`,
      '--bytes', `${bytes}`, '--n', '16,32', '--measurements', '1'], { encoding: 'utf8' }));
    assert.equal(r.bytesPerToken, 2 * kv * dk * layers * bytes);
    assert.deepEqual(r.steps.map((s) => [s.n, s.cacheBytes]), [[16, 16 * r.bytesPerToken], [32, 32 * r.bytesPerToken]]);
    for (const s of r.steps) assert.ok(s.stepSecondsWithCache > 0 && s.stepSecondsWithoutCache > 0);
    assert.equal(typeof r.slopeWithCache, 'number');
  }
  // LLaMA-2 70B's shape (64 query heads, 8 kv heads of 128, 80 layers, float16): 320 KiB per token.
  const llama = JSON.parse(execFileSync(cli, ['kv-cache', '--heads', '64', '--kv-heads', '8', '--dk', '128', '--layers', '80', '--n', '8', '--measurements', '1'], { encoding: 'utf8' }));
  assert.equal(llama.bytesPerToken, 327680);
  const bad = spawnSync(cli, ['kv-cache', '--heads', '8', '--kv-heads', '3'], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--kv-heads 3 must divide --heads 8/);
});

test.after?.(() => fs.rmSync(work, { recursive: true, force: true }));
