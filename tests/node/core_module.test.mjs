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

test('tokenize: CJK by character, words and punctuation, byte offsets', () => {
  const cat = core.tokenize('猫追老鼠');
  assert.deepEqual(cat.map((t) => t.text), ['猫', '追', '老', '鼠']);
  assert.ok(cat.every((t) => t.kind === 'cjk'));
  const mixed = core.tokenize('GPT-4很强，好！');
  assert.deepEqual(mixed.map((t) => t.text), ['GPT', '-', '4', '很', '强', '，', '好', '！']);
  assert.deepEqual(mixed.map((t) => t.kind), ['word', 'punctuation', 'number', 'cjk', 'cjk', 'punctuation', 'cjk', 'punctuation']);
  const bytes = Buffer.from('GPT-4很强，好！');
  for (const t of mixed) assert.equal(bytes.subarray(t.start, t.end).toString(), t.text);
  assert.deepEqual(core.tokenize('👨‍👩‍👧 🇨🇳🇺🇸').map((t) => t.kind), ['emoji', 'emoji', 'emoji']);
  assert.throws(() => core.tokenize(42), /text must be a string/);
});

test('softmax: float16 naive overflows where stable does not; float32 holds', () => {
  const row = new Float32Array([12, 10, 11]);
  const stable16 = core.softmax(row, { precision: 'float16' });
  const naive16 = core.softmax(row, { precision: 'float16', stable: false });
  const naive32 = core.softmax(row, { stable: false });
  assert.equal(stable16.overflow, false);
  assert.equal(naive16.overflow, true);
  assert.equal(naive16.nan, true);
  assert.equal(naive32.overflow, false);
  const e = [Math.exp(2), 1, Math.exp(1)], s = e[0] + e[1] + e[2];
  for (let j = 0; j < 3; j++) {
    assert.ok(Math.abs(naive32.weights[j] - e[j] / s) < 1e-6);
    assert.ok(Math.abs(stable16.weights[j] - e[j] / s) < 2e-3);
  }
  const masked = core.softmax([-Infinity, -Infinity]);
  assert.equal(masked.fullyMasked, true);
  assert.deepEqual(Array.from(masked.weights), [0, 0]);
});

test('multiHeadAttention equals per-head attention written out in JS', () => {
  const nq = 5, d = 8, heads = 2, dk = d / heads;
  const x = core.randomNormal({ seed: 1, rows: nq, cols: d });
  const [wq, wk, wv, wo] = [2, 3, 4, 5].map((seed) => core.randomNormal({ seed, rows: d, cols: d }).map((v) => v / Math.sqrt(d)));
  const r = core.multiHeadAttention({ x, wq, wk, wv, wo, nq, dModel: d, heads, causal: true });
  assert.equal(r.weights.length, heads);
  const matmul = (a, b, n, m, p) => {
    const out = new Float64Array(n * p);
    for (let i = 0; i < n; i++) for (let j = 0; j < p; j++) { let s = 0; for (let c = 0; c < m; c++) s += a[i * m + c] * b[c * p + j]; out[i * p + j] = s; }
    return out;
  };
  const q = matmul(x, wq, nq, d, d), k = matmul(x, wk, nq, d, d), v = matmul(x, wv, nq, d, d);
  const concat = new Float64Array(nq * d);
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < nq; i++) {
      const s = [];
      for (let j = 0; j <= i; j++) { let dot = 0; for (let c = 0; c < dk; c++) dot += q[i * d + h * dk + c] * k[j * d + h * dk + c]; s.push(dot / Math.sqrt(dk)); }
      const m = Math.max(...s), e = s.map((z) => Math.exp(z - m)), sum = e.reduce((a, b) => a + b, 0);
      for (let j = 0; j < nq; j++) {
        const w = j <= i ? e[j] / sum : 0;
        assert.ok(Math.abs(r.weights[h][i * nq + j] - w) < 1e-5, `head ${h} weight (${i},${j})`);
        for (let c = 0; c < dk; c++) concat[i * d + h * dk + c] += w * v[j * d + h * dk + c];
      }
    }
  }
  const out = matmul(concat, wo, nq, d, d);
  for (let i = 0; i < nq * d; i++) assert.ok(Math.abs(r.output[i] - out[i]) < 1e-5, `output ${i}`);
  assert.throws(() => core.multiHeadAttention({ x, wq, wk, wv, wo, nq, dModel: d, heads: 3 }), /not divisible by 3 heads/);
});
