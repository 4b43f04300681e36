// attnlab-core.mjs's RoPE and ALiBi (attention's `positional`), groupedQueryAttention and
// flashAttention under plain Node: the same numbers as the native CLI, the streaming path
// with RoPE equal to the weights' path, and clear errors for unknown kinds and keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distDir, nativeDir } from '../support/paths.mjs';
import { readNpy, writeNpy } from '../support/npy.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();
const cli = path.join(nativeDir, 'attnlab-cli');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-modern-js-'));
test.after?.(() => fs.rmSync(work, { recursive: true, force: true }));

const npy = (name, shape, values) => writeNpy(path.join(work, name), shape, values);
const npyData = (file) => readNpy(file).data;
const close = (a, b, tol, what) => {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= tol, `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

const n = 12, dk = 8, dv = 4;
const q = core.randomNormal({ seed: 1, rows: n, cols: dk }), k = core.randomNormal({ seed: 2, rows: n, cols: dk });
const v = core.randomNormal({ seed: 3, rows: n, cols: dv });
const base = { q, k, v, nq: n, nk: n, dk, dv };

test('RoPE and ALiBi through the module equal the native CLI; RoPE streams too', () => {
  const [qp, kp, vp] = [npy('q.npy', [n, dk], q), npy('k.npy', [n, dk], k), npy('v.npy', [n, dv], v)];
  for (const [positional, flags] of [
    [{ kind: 'rope', base: 10000 }, ['--rope', '10000']],
    [{ kind: 'rope', base: 100, pairing: 'interleaved' }, ['--rope', '100', '--rope-pairing', 'interleaved']],
    [{ kind: 'alibi', slope: 0.25 }, ['--alibi-slope', '0.25']],
  ]) {
    const out = path.join(work, `out-${flags.join('')}`);
    execFileSync(cli, ['sdpa', '--q', qp, '--k', kp, '--v', vp, '--causal', ...flags, '--out', out]);
    const r = core.attention({ ...base, causal: true, positional });
    close(r.weights, npyData(path.join(out, 'weights.npy')), 1e-6, `${positional.kind} weights`);
    close(r.output, npyData(path.join(out, 'output.npy')), 1e-6, `${positional.kind} output`);
    if (positional.kind === 'rope') close(core.attention({ ...base, causal: true, positional, returnWeights: false }).output, r.output, 1e-5, 'streamed');
  }
  assert.throws(() => core.attention({ ...base, positional: { kind: 'alibi', slope: 1 }, returnWeights: false }), /positional alibi needs returnWeights: true/);
});

test('unknown arguments, kinds and keys are errors, not ignored', () => {
  assert.throws(() => core.attention({ ...base, position: { kind: 'rope' } }), /unknown argument 'position' of attention/);
  assert.throws(() => core.attention({ ...base, positional: { kind: 'xpos' } }), /positional.kind must be 'rope' or 'alibi', got 'xpos'/);
  assert.throws(() => core.attention({ ...base, positional: { kind: 'rope', slope: 1 } }), /unknown key 'slope' in positional of kind 'rope'/);
  assert.throws(() => core.attention({ ...base, positional: { kind: 'rope', pairing: 'pairs' } }), /pairing must be 'half' or 'interleaved'/);
  assert.throws(() => core.attention({ ...base, positional: { kind: 'alibi' } }), /positional.slope must be a number/);
  assert.throws(() => core.attention({ ...base, positional: { kind: 'rope', base: Infinity } }), /the RoPE base must be a finite number > 0/);
  const odd = core.randomNormal({ seed: 4, rows: 3, cols: 5 });
  assert.throws(() => core.attention({ q: odd, k: odd, v: odd, nq: 3, nk: 3, dk: 5, dv: 5, positional: { kind: 'rope' } }), /RoPE needs an even d_k/);
  assert.throws(() => core.flashAttention({ ...base, blockQ: 0 }), /blockQ must be a whole number from 1/);
  assert.throws(() => core.flashAttention({ ...base, tile: 4 }), /unknown argument 'tile' of flashAttention/);
});

test('groupedQueryAttention: each query head equals attention() on its group\'s K and V', () => {
  const heads = 4, kvHeads = 2;
  const qh = core.randomNormal({ seed: 5, rows: heads * n, cols: dk });
  const kh = core.randomNormal({ seed: 6, rows: kvHeads * n, cols: dk }), vh = core.randomNormal({ seed: 7, rows: kvHeads * n, cols: dv });
  const r = core.groupedQueryAttention({ q: qh, k: kh, v: vh, n, dk, dv, heads, kvHeads, causal: true });
  assert.deepEqual(r.kvHeadOf, [0, 0, 1, 1]);
  for (let h = 0; h < heads; ++h) {
    const g = r.kvHeadOf[h];
    const one = core.attention({ q: qh.slice(h * n * dk, (h + 1) * n * dk), k: kh.slice(g * n * dk, (g + 1) * n * dk),
      v: vh.slice(g * n * dv, (g + 1) * n * dv), nq: n, nk: n, dk, dv, causal: true });
    close(r.weights[h], one.weights, 1e-6, `head ${h} weights`);
    close(r.output.slice(h * n * dv, (h + 1) * n * dv), one.output, 1e-6, `head ${h} output`);
  }
  assert.throws(() => core.groupedQueryAttention({ q: qh, k: kh, v: vh, n, dk, dv, heads, kvHeads: 3 }), /kvHeads = 3 must divide heads = 4/);
});

test('flashAttention: exact output, one step per computed tile pair, the last m and l of each row', () => {
  const f = core.flashAttention({ ...base, causal: true, blockQ: 5, blockK: 3 });
  const exact = core.attention({ ...base, causal: true });
  close(f.output, exact.output, 1e-5, 'output');
  // Query tiles [0,5) [5,10) [10,12), key tiles of 3: causal pairs are those with kBegin <= qEnd - 1.
  assert.equal(f.steps.length, 2 + 4 + 4);
  assert.ok(f.steps.every((s) => s.kBegin <= s.qEnd - 1));
  const last = f.steps.filter((s, i) => i + 1 === f.steps.length || f.steps[i + 1].qTile !== s.qTile);
  for (const s of last)
    for (let i = s.qBegin; i < s.qEnd; i++) {
      const row = Array.from(exact.scores.slice(i * n, (i + 1) * n)).filter(Number.isFinite);
      const m = Math.max(...row), l = row.reduce((a, x) => a + Math.exp(x - m), 0);
      assert.ok(Math.abs(s.m[i - s.qBegin] - m) < 1e-5, `m of row ${i}`);
      assert.ok(Math.abs(s.l[i - s.qBegin] / l - 1) < 1e-5, `l of row ${i}`);
    }
  assert.equal(f.workingFloats, 5 * 3 + 2 * 5);
});
