// The data behind the scaling lab's figures, from attnlab-core.mjs under Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { distDir } from '../support/paths.mjs';

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
