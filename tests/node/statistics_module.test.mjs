// The data behind the scaling lab's figures, and attention rollout against attnlab-cli's, from
// attnlab-core.mjs under Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distDir, nativeDir } from '../support/paths.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();

test('dotProductVariance at d_k = 64 (100k samples): about 64 unscaled, about 1 scaled', () => {
  const raw = core.dotProductVariance({ dk: 64, samples: 100000, seed: 7 });
  const scaled = core.dotProductVariance({ dk: 64, samples: 100000, seed: 7, scaled: true });
  console.log(`# Var(q.k) = ${raw.toFixed(3)}, Var(q.k/8) = ${scaled.toFixed(4)}`);
  assert.ok(Math.abs(raw / 64 - 1) < 0.05, `Var(q.k) = ${raw}`);
  assert.ok(Math.abs(scaled - 1) < 0.05, `Var(q.k/sqrt(64)) = ${scaled}`);
});

test('dotProductHistogram counts every sample, centred at 0', () => {
  const h = core.dotProductHistogram({ dk: 16, samples: 20000, seed: 3, bins: 20 });
  assert.equal(h.counts.reduce((a, b) => a + b, 0), 20000);
  assert.equal(h.lo, -16);
  assert.equal(h.hi, 16);
  const middle = h.counts[9] + h.counts[10];
  assert.ok(middle > h.counts[0] + h.counts[19]);
});

test('saturationCurve: unscaled weights saturate and the Jacobian norm falls; scaled stays level', () => {
  const dks = [4, 64, 512];
  const raw = core.saturationCurve({ dks, rows: 128, seed: 5 });
  const scaled = core.saturationCurve({ dks, scaled: true, rows: 128, seed: 5 });
  assert.ok(raw[2].maxWeight > 0.85);
  assert.ok(raw[0].jacobianNorm > raw[2].jacobianNorm * 2);
  assert.ok(Math.abs(scaled[0].jacobianNorm - scaled[2].jacobianNorm) < 0.05);
  assert.throws(() => core.saturationCurve({ dks: [] }), /dks must be an array/);
});

test('softmaxPrecision: a row that overflows only in float16', () => {
  const row = [11.5, 3, -2];
  assert.equal(core.softmaxPrecision({ row, precision: 'float16', stable: false }).overflow, true);
  assert.equal(core.softmaxPrecision({ row, precision: 'float16' }).overflow, false);
  assert.equal(core.softmaxPrecision({ row, stable: false }).overflow, false);
  assert.throws(() => core.softmaxPrecision({ row, precision: 'float64' }), /precision must be/);
});

test('rollout: the math module gives attnlab-cli rollout\'s figures, and refuses what does not fit', () => {
  // Three layers of two heads on 16 tokens: rows of a softmax over LCG scores.
  const [L, H, n] = [3, 2, 16];
  const weights = new Float32Array(L * H * n * n);
  let x = 12345;
  for (let r = 0; r < L * H * n; r++) {
    const row = [];
    for (let j = 0; j < n; j++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      row.push(Math.exp(3 * (x / 2 ** 32)));
    }
    const sum = row.reduce((a, b) => a + b, 0);
    row.forEach((v, j) => { weights[r * n + j] = v / sum; });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-rollout-'));
  try {
    const header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${L}, ${H}, ${n}, ${n}), }`;
    const padded = header + ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
    const pre = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, padded.length & 0xff, padded.length >> 8]);
    fs.writeFileSync(path.join(dir, 'w.npy'), Buffer.concat([pre, Buffer.from(padded, 'latin1'), Buffer.from(weights.buffer)]));
    for (const [pool, residual] of [['mean', 0.5], ['max', 0.25], ['mean', 0]]) {
      const out = path.join(dir, `r-${pool}-${residual}.npy`);
      execFileSync(path.join(nativeDir, 'attnlab-cli'), ['rollout', '--in', path.join(dir, 'w.npy'), '--heads', pool,
        '--residual', String(residual), '--out', out]);
      const bytes = fs.readFileSync(out);
      const cli = new Float32Array(bytes.buffer.slice(bytes.byteOffset + bytes.length - L * n * n * 4, bytes.byteOffset + bytes.length));
      const mine = core.rollout({ weights, layers: L, heads: H, n, pool, residual });
      assert.equal(mine.length, L * n * n);
      let worst = 0;
      for (let i = 0; i < mine.length; i++) worst = Math.max(worst, Math.abs(mine[i] - cli[i]));
      assert.ok(worst <= 1e-6, `${pool} ${residual}: module and CLI differ by ${worst}`);
      // Every row of every layer sums to 1.
      for (let r = 0; r < L * n; r++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += mine[r * n + j];
        assert.ok(Math.abs(s - 1) < 1e-5, `row ${r} sums to ${s}`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.throws(() => core.rollout({ weights, layers: L, heads: H, n: 15 }), /RangeError: weights has 1536 floats; layers \* heads \* n \* n is 1350/);
  assert.throws(() => core.rollout({ weights, layers: L, heads: H, n, pool: 'median' }), /pool must be 'mean' or 'max'/);
  assert.throws(() => core.rollout({ weights, layers: L, heads: H, n, residual: 2 }), /RangeError: residual/);
  assert.throws(() => core.rollout({ weights: [1], layers: 1, heads: 1, n: 1 }), /TypeError: weights must be a Float32Array/);
});
