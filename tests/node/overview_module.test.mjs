// The overview of long attention from attnlab-core.mjs under Node (overviewBegin, its job in
// steps, regions), against the weights computed here in plain JavaScript (double precision):
// the pooled blocks, the key totals, the row statistics and a region within 1e-6; and its
// refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { distDir } from '../support/paths.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();

// A fixed pseudo-random float32 array (LCG), values in [-2, 2).
function lcg(n, seed) {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; ++i) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32) * 4 - 2;
  }
  return out;
}

// softmax(q k^T * scale, masked) in doubles: rows of nk weights, and each row's max and lse.
function exactWeights(q, k, nq, nk, dk, scale, causal) {
  const w = new Float64Array(nq * nk), rowMax = [], rowLse = [];
  for (let i = 0; i < nq; ++i) {
    const len = causal ? Math.min(nk, i + 1) : nk;
    const s = [];
    for (let j = 0; j < len; ++j) {
      let dot = 0;
      for (let c = 0; c < dk; ++c) dot += q[i * dk + c] * k[j * dk + c];
      s.push(dot * scale);
    }
    const m = Math.max(...s);
    const l = s.reduce((a, x) => a + Math.exp(x - m), 0);
    for (let j = 0; j < len; ++j) w[i * nk + j] = Math.exp(s[j] - m) / l;
    rowMax.push(m);
    rowLse.push(m + Math.log(l));
  }
  return { w, rowMax, rowLse };
}

function pool(w, nq, nk, b, max) {
  const rows = Math.ceil(nq / b), cols = Math.ceil(nk / b), out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; ++r)
    for (let c = 0; c < cols; ++c) {
      let sum = 0, mx = 0, cells = 0;
      for (let i = r * b; i < Math.min(nq, (r + 1) * b); ++i)
        for (let j = c * b; j < Math.min(nk, (c + 1) * b); ++j, ++cells) {
          sum += w[i * nk + j];
          mx = Math.max(mx, w[i * nk + j]);
        }
      out[r * cols + c] = max ? mx : sum / cells;
    }
  return out;
}

function maxDifference(a, b) {
  assert.equal(a.length, b.length);
  let d = 0;
  for (let i = 0; i < a.length; ++i) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

test('overviewBegin: pooled blocks, key totals and row statistics equal a JS exact computation within 1e-6', () => {
  const nq = 70, nk = 90, dk = 16, block = 8;  // 8 divides neither side
  const q = lcg(nq * dk, 1), k = lcg(nk * dk, 2);
  for (const causal of [false, true])
    for (const poolName of ['mean', 'max']) {
      const job = core.overviewBegin({ q, k, nq, nk, dk, block, pool: poolName, causal });
      assert.equal(job.rows, 9);
      assert.equal(job.cols, 12);
      assert.throws(() => job.result(), /not finished/);
      let last = 0, report;
      do {
        report = job.step(9);  // in pieces
        assert.ok(report.progress >= last);
        last = report.progress;
      } while (!report.done);
      assert.equal(report.rowsDone, nq);
      assert.equal(report.progress, 1);
      const r = job.result();
      const exact = exactWeights(q, k, nq, nk, dk, 1 / Math.sqrt(dk), causal);
      const pooledDiff = maxDifference(r.pooled, pool(exact.w, nq, nk, block, poolName === 'max'));
      const totals = new Float64Array(nk);
      for (let i = 0; i < nq; ++i) for (let j = 0; j < nk; ++j) totals[j] += exact.w[i * nk + j];
      const totalsDiff = maxDifference(r.keyTotals, totals);
      console.log(`# causal ${causal}, ${poolName}: pooled ${pooledDiff.toExponential(2)}, key totals ${totalsDiff.toExponential(2)}`);
      assert.ok(pooledDiff <= 1e-6, `pooled differ by ${pooledDiff}`);
      assert.ok(totalsDiff <= 1e-6, `key totals differ by ${totalsDiff}`);
      assert.ok(r.rowLse instanceof Float64Array);
      assert.ok(maxDifference(r.rowMax, exact.rowMax) <= 1e-5);
      assert.ok(maxDifference(r.rowLse, exact.rowLse) <= 1e-5);
      // A region across the diagonal: the exact weights' slice.
      const region = job.region({ q0: 10, q1: 50, k0: 20, k1: 90 });
      assert.equal(region.rows, 40);
      assert.equal(region.cols, 70);
      const slice = new Float64Array(40 * 70);
      for (let i = 0; i < 40; ++i) for (let j = 0; j < 70; ++j) slice[i * 70 + j] = exact.w[(10 + i) * nk + 20 + j];
      assert.ok(maxDifference(region.weights, slice) <= 1e-6);
      job.dispose();
      job.dispose();  // a second call does nothing
      assert.throws(() => job.step(1), /disposed/);
    }
});

test('overviewBegin: a given scale, and refusals that name the argument', () => {
  const q = lcg(8, 3), k = lcg(8, 4);
  const job = core.overviewBegin({ q, k, nq: 4, nk: 4, dk: 2, block: 4, scale: 0.5 });
  assert.equal(job.scale, 0.5);
  job.step(100);
  assert.equal(job.result().pooled.length, 1);
  assert.ok(Math.abs(job.result().pooled[0] - 0.25) < 1e-7);  // each row sums to 1: the mean is 1/4
  assert.throws(() => job.region({ q0: 0, q1: 5, k0: 0, k1: 4 }), /query rows \[0, 5\) must lie within 0 to 4/);
  assert.throws(() => job.region({ q0: 0, q1: 1, k0: 0, k1: 1, x: 1 }), TypeError);
  job.dispose();
  assert.throws(() => core.overviewBegin({ q, k, nq: 4, nk: 4, dk: 2, pool: 'sum' }), /pool must be 'mean' or 'max'/);
  assert.throws(() => core.overviewBegin({ q: [1], k, nq: 1, nk: 4, dk: 2 }), TypeError);
  assert.throws(() => core.overviewBegin({ q, k, nq: 4, nk: 4, dk: 2, blocks: 2 }), /unknown argument 'blocks'/);
  assert.throws(() => core.overviewBegin({ q, k, nq: 4, nk: 4, dk: 3 }), /q must hold 12 numbers, got 8/);
  assert.throws(() => core.overviewBegin({ q, k, nq: 32769, nk: 4, dk: 2 }), /nq must be a whole number from 1 to 32768/);
  assert.throws(() => core.overviewBegin({ q, k, nq: 4, nk: 4, dk: 2, block: 0 }), /block must be a whole number from 1/);
  const nan = q.slice();
  nan[3] = NaN;
  assert.throws(() => core.overviewBegin({ q: nan, k, nq: 4, nk: 4, dk: 2 }), /q contains NaN or Inf/);
  assert.throws(() => core.overviewBegin({ q, k, nq: 4, nk: 4, dk: 2, scale: Infinity }), /scale must be a finite number/);
});
