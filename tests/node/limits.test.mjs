// The compute API's and the CLI's caps (README "Limits"): over the cap, a clear error
// before anything large is allocated, never an out-of-memory abort.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distDir, distFile } from '../support/paths.mjs';
import { cliRunner } from '../support/cli.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-limits-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const { cliRun, expectRefusal } = cliRunner(dir);

// A float32 .npy of zeros (version 1.0, C order).
function zerosNpy(name, shape) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const pre = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 0, 0]);
  pre.writeUInt16LE(header.length, 8);
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), Buffer.alloc(4 * shape.reduce((a, b) => a * b, 1))]));
  return file;
}

test('multiHeadAttention: nq*nq*heads over 2^24 weights is a RangeError, under it it runs', () => {
  const args = (nq, heads) => {
    const dModel = heads;
    const w = new Float32Array(dModel * dModel);
    return { x: new Float32Array(nq * dModel), wq: w, wk: w, wv: w, wo: w, nq, dModel, heads };
  };
  // 4097^2 = 16,785,409 weights: over 2^24. (Over the cap it used to run on, and at
  // nq = 32768 the 4 GiB of weights could not be allocated at all.)
  assert.throws(() => core.multiHeadAttention(args(4097, 1)), (e) => e instanceof RangeError && /nq\*nq\*heads = 16785409 is over 2\^24/.test(e.message));
  assert.throws(() => core.multiHeadAttention(args(1025, 16)), (e) => e instanceof RangeError && /over 2\^24/.test(e.message));
  assert.throws(() => core.multiHeadAttention(args(32768, 2)), RangeError);
  // Under the cap it runs (zero inputs: uniform weights).
  const r = core.multiHeadAttention(args(64, 4));
  assert.equal(r.weights.length, 4);
  assert.equal(r.weights[3].length, 64 * 64);
  assert.equal(r.weights[3][5], 1 / 64);
});

test('randomNormal: rows*cols over 2^26 is a RangeError (each alone may be up to 2^20)', () => {
  // 2^20 x 2^20 draws would be 4 TiB: the allocation failed inside the wasm module, which
  // threw a bare number (a C++ exception) instead of an error that names the argument.
  assert.throws(() => core.randomNormal({ seed: 1, rows: 1 << 20, cols: 1 << 20 }), (e) => e instanceof RangeError && /rows\*cols = 1099511627776 is over 2\^26/.test(e.message));
  assert.throws(() => core.randomNormal({ seed: 1, rows: (1 << 13) + 1, cols: 1 << 13 }), RangeError);
  const r = core.randomNormal({ seed: 1, rows: 1 << 20, cols: 1 });
  assert.equal(r.length, 1 << 20);
  assert.ok(Number.isFinite(r[r.length - 1]) && r[r.length - 1] !== 0);
});

test('the raw Embind module holds to the same caps: a refused argument answers {error}, nothing is computed', async () => {
  // The caps live in the wasm bindings (src/bindings/core_limits.h), not only in the wrapper.
  const { default: factory } = await import(distFile('attnlab-core-wasm.mjs'));
  const raw = await factory({ wasmBinary: fs.readFileSync(distFile('attnlab-core-wasm.wasm')) });
  const w = new Float32Array(1);
  assert.match(raw.multiHeadAttention({ x: new Float32Array(4097), wq: w, wk: w, wv: w, wo: w, nq: 4097, dModel: 1, heads: 1, causal: false }).error,
    /^nq\*nq\*heads = 16785409 is over 2\^24 weights/);
  const n = 5000, big = new Float32Array(n);
  assert.match(raw.attention({ q: big, k: big, v: big, nq: n, nk: n, dk: 1, dv: 1, causal: false, scale: null, returnWeights: true }).error,
    /^nq\*nk = 25000000 is over 2\^24 with weights/);
  assert.match(raw.randomNormal(1, 1 << 20, 1 << 20).error, /^rows\*cols = 1099511627776 is over 2\^26 numbers/);
  assert.match(raw.attention({ q: w, k: w, v: w, nq: 1.5, nk: 1, dk: 1, dv: 1, causal: false, scale: null, returnWeights: true }).error,
    /^nq must be a whole number from 1 to 1048576, got 1.5/);
  assert.match(raw.dotProductVariance(4097, 100, 1, false).error, /^dk must be a whole number from 1 to 4096, got 4097/);
  assert.match(raw.saturationCurve([64], false, 1, 1e6, 1).error, /^keys must be a whole number from 1 to 4096/);
  const run = { task: 0, layers: 3, heads: 2, dModel: 32, dMlp: 0, batch: 16, lr: 0.003, seed: 1, scale: true, init: 0 };
  assert.match(raw.trainTask(run, 10, 10).error, /^layers must be a whole number from 1 to 2, got 3/);
  assert.match(raw.trainTask({ ...run, layers: 1 }, 2e6, 10).error, /^steps must be a whole number from 0 to 1000000/);
  const trainer = new raw.TrainerHandle();
  assert.match(trainer.reset({ ...run, layers: 1, batch: 1000 }), /^batch must be a whole number from 1 to 256, got 1000/);
  assert.equal(trainer.reset({ ...run, layers: 1 }), '');
  assert.match(trainer.step(2e6).error, /^n must be a whole number from 0 to 1000000/);
  assert.match(trainer.evaluate(0).error, /^sequences must be a whole number from 1 to 100000/);
  trainer.delete();
});

test('attnlab-cli sdpa: the batch counts toward the 2^26 cap on weights', () => {
  // 17 batch entries of 2048 x 2048: each under the per-entry cap, together 71,303,168
  // weights (a 285 MB scores.npy plus a 285 MB weights.npy) over 2^26.
  const q = zerosNpy('q17.npy', [17, 2048, 1]);
  expectRefusal(['sdpa', '--q', q, '--k', q, '--v', q], /batch x n_q x n_k = 71303168 is over the cap of 2\^26 weights/);
  const small = zerosNpy('q2.npy', [2, 3, 1]);
  assert.equal(cliRun(['sdpa', '--q', small, '--k', small, '--v', small]).status, 0);
});
