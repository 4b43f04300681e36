// attnlab-core.mjs under plain Node: the same numbers as the native build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { distDir, nativeDir } from '../support/paths.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();
const cli = path.join(nativeDir, 'attnlab-cli');

function flat(rows) { return rows.flat(); }
function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++)
    assert.ok(Math.abs(actual[i] - expected[i]) <= tol, `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
}

test('worked example: the module and the native CLI give the same numbers', () => {
  const native = JSON.parse(execFileSync(cli, ['example'], { encoding: 'utf8' }));
  const r = core.attention({
    q: new Float32Array([1, 2, 2, 1]), k: new Float32Array([2, 1, 1, 2]), v: new Float32Array([3, 0, 0, 3]),
    nq: 2, nk: 2, dk: 2, dv: 2,
  });
  assertClose(r.scores, flat(native.scores), 1e-6, 'scores');
  assertClose(r.weights, flat(native.weights), 1e-6, 'weights');
  assertClose(r.output, flat(native.output), 1e-6, 'output');
  // And the tutorial's rounded figures.
  assertClose(r.scores, [2.828, 3.536, 3.536, 2.828], 1e-3, 'scaled scores');
  assertClose(r.weights, [0.330, 0.670, 0.670, 0.330], 1e-3, 'weights');
  assertClose(r.output, [0.99, 2.01, 2.01, 0.99], 1e-2, 'output');
});

test('causal and custom scale follow PyTorch conventions', () => {
  const q = core.randomNormal({ seed: 3, rows: 4, cols: 8 });
  const k = core.randomNormal({ seed: 4, rows: 4, cols: 8 });
  const v = core.randomNormal({ seed: 5, rows: 4, cols: 2 });
  const r = core.attention({ q, k, v, nq: 4, nk: 4, dk: 8, dv: 2, causal: true, scale: 0.5 });
  assert.equal(r.scale, 0.5);
  for (let i = 0; i < 4; i++) {
    let sum = 0;
    for (let j = 0; j < 4; j++) {
      if (j > i) {
        assert.equal(r.weights[i * 4 + j], 0);
        assert.equal(r.scores[i * 4 + j], -Infinity);
      }
      sum += r.weights[i * 4 + j];
    }
    assert.ok(Math.abs(sum - 1) < 1e-6);
  }
  let dot = 0;
  for (let c = 0; c < 8; c++) dot += q[8 + c] * k[c];
  assert.ok(Math.abs(r.scores[4] - 0.5 * dot) < 1e-5);
});

test('the same seed draws the same inputs in the browser build and the desktop build', () => {
  for (const seed of [0, 1, 42, 2 ** 40 + 7]) {
    const native = flat(JSON.parse(execFileSync(cli, ['random', '--seed', String(seed), '--rows', '16', '--cols', '32'], { encoding: 'utf8' })));
    const web = core.randomNormal({ seed, rows: 16, cols: 32 });
    assertClose(web, native, 1e-6, `seed ${seed}`);
  }
});

test('bad arguments throw a clear error and nothing is computed', () => {
  const ok = { q: new Float32Array(4), k: new Float32Array(4), v: new Float32Array(4), nq: 2, nk: 2, dk: 2, dv: 2 };
  assert.throws(() => core.attention({ ...ok, q: new Float32Array(3) }), /q must hold 4 numbers, got 3/);
  assert.throws(() => core.attention({ ...ok, q: [1, 2, 3, 4] }), /q must be a Float32Array/);
  assert.throws(() => core.attention({ ...ok, nq: 0 }), /nq must be a whole number/);
  assert.throws(() => core.attention({ ...ok, scale: NaN }), /scale must be a finite number/);
  assert.throws(() => core.attention({ ...ok, k: new Float32Array([1, NaN, 0, 0]) }), /k contains NaN or Inf/);
  // The module still works afterwards.
  assert.equal(core.attention(ok).weights.length, 4);
});
