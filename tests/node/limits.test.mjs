// The compute API's and the CLI's caps (README "Limits"): over the cap, a clear error
// before anything large is allocated, never an out-of-memory abort.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distDir } from '../support/paths.mjs';
import { cliRunner } from '../support/cli.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-limits-'));
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

test('attnlab-cli sdpa: the batch counts toward the 2^26 cap on weights', () => {
  // 17 batch entries of 2048 x 2048: each under the per-entry cap, together 71,303,168
  // weights (a 285 MB scores.npy plus a 285 MB weights.npy) over 2^26.
  const q = zerosNpy('q17.npy', [17, 2048, 1]);
  expectRefusal(['sdpa', '--q', q, '--k', q, '--v', q], /batch x n_q x n_k = 71303168 is over the cap of 2\^26 weights/);
  const small = zerosNpy('q2.npy', [2, 3, 1]);
  assert.equal(cliRun(['sdpa', '--q', small, '--k', small, '--v', small]).status, 0);
});
