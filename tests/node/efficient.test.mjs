// Efficient attention from JS (efficientAttention, costChart) and from the CLI (variant,
// cost-chart): the same numbers on both builds, exact limits, display consistency, and
// refusals of bad input. Speed is not asserted here (docs/EFFICIENT.md has the benchmark).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distDir, nativeDir } from '../support/paths.mjs';
import { cli, cliRunner } from '../support/cli.mjs';
import { readNpy, writeNpy as writeNpyFile } from '../support/npy.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-efficient-'));
const VARIANTS = ['window', 'strided', 'blocksparse', 'linear', 'performer', 'linformer'];

const writeNpy = (name, shape, values) => writeNpyFile(path.join(dir, name), shape, values);

const { cliRun, expectRefusal, expectUsageError } = cliRunner(dir);

function maxAbsDiff(a, b) {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

// Inputs shared by the tests: n = 48 tokens, d_k = 16, d_v = 6, entries N(0, 1) * 0.5.
const n = 48, dk = 16, dv = 6;
const scaled = (a, s) => a.map((x) => x * s);
const q = scaled(core.randomNormal({ seed: 11, rows: n, cols: dk }), 0.5);
const k = scaled(core.randomNormal({ seed: 12, rows: n, cols: dk }), 0.5);
const v = core.randomNormal({ seed: 13, rows: n, cols: dv });
const files = { q: writeNpy('q.npy', [n, dk], q), k: writeNpy('k.npy', [n, dk], k), v: writeNpy('v.npy', [n, dv], v) };
const exact = core.attention({ q, k, v, nq: n, nk: n, dk, dv }).output;

test('every variant: the wasm module and the native CLI give the same output and error', () => {
  for (const variant of VARIANTS)
    for (const causal of [false, true]) {
      if (variant === 'linformer' && causal) continue;
      const settings = { window: 5, stride: 3, block: 8, features: 32, rank: 12, seed: 4 };
      const web = core.efficientAttention({ variant, q, k, v, n, dk, dv, causal, ...settings });
      const args = ['variant', '--kind', variant, '--q', files.q, '--k', files.k, '--v', files.v,
        ...Object.entries(settings).flatMap(([name, value]) => [`--${name}`, String(value)])];
      if (causal) args.push('--causal');
      const r = cliRun(args);
      assert.equal(r.status, 0, r.stderr);
      const printed = JSON.parse(r.stdout);
      const native = readNpy(path.join(r.out, 'output.npy'));
      assert.deepEqual(native.shape, [n, dv]);
      assert.ok(maxAbsDiff(web.output, native.data) < 1e-4, `${variant} causal=${causal}: outputs differ by ${maxAbsDiff(web.output, native.data)}`);
      assert.ok(Math.abs(web.relativeError - printed.relativeError) < 1e-4 * Math.max(1, printed.relativeError),
        `${variant}: error ${web.relativeError} vs ${printed.relativeError}`);
      assert.ok(web.relativeError > 1e-3, `${variant} with these settings is an approximation`);
      assert.equal(web.cost.multiplyAdds, printed.multiplyAdds);
      assert.equal(printed.kind, variant);
    }
});

test('the relative error is ||output - exact||_F / ||exact||_F against attention()', () => {
  const r = core.efficientAttention({ variant: 'strided', q, k, v, n, dk, dv, stride: 4 });
  let diff = 0, ref = 0;
  for (let i = 0; i < exact.length; i++) {
    diff += (r.output[i] - exact[i]) ** 2;
    ref += exact[i] ** 2;
  }
  assert.ok(Math.abs(r.relativeError - Math.sqrt(diff / ref)) < 1e-5 * r.relativeError, `${r.relativeError} vs ${Math.sqrt(diff / ref)}`);
});

test('limits that equal exact attention: window >= n, linformer with identity projections', () => {
  for (const window of [n, n + 1, 1000]) {
    const r = core.efficientAttention({ variant: 'window', q, k, v, n, dk, dv, window });
    assert.ok(r.relativeError < 1e-5, `window ${window}: ${r.relativeError}`);
    assert.ok(maxAbsDiff(r.output, exact) < 1e-5);
  }
  const lin = core.efficientAttention({ variant: 'linformer', q, k, v, n, dk, dv, projection: 'identity' });
  assert.ok(lin.relativeError < 1e-5, `linformer identity: ${lin.relativeError}`);
  const r = cliRun(['variant', '--kind', 'linformer', '--projection', 'identity', '--q', files.q, '--k', files.k, '--v', files.v]);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(JSON.parse(r.stdout).relativeError < 1e-5);
});

test('display: pattern, documented non-zeros, weights that reproduce the output', () => {
  const stride = 5;
  const r = core.efficientAttention({ variant: 'strided', q, k, v, n, dk, dv, stride, display: true });
  const { pattern, weights, exactWeights, weightError, nonzeros } = r.display;
  for (let i = 0; i < n; i++) {
    // documented: ceil((n - (i mod s)) / s) keys in row i
    assert.equal(nonzeros[i], Math.ceil((n - (i % stride)) / stride), `row ${i}`);
    for (let j = 0; j < n; j++) {
      assert.equal(pattern[i * n + j], (i - j) % stride === 0 ? 1 : 0);
      if (!pattern[i * n + j]) assert.equal(weights[i * n + j], 0);
      assert.ok(Math.abs(weightError[i * n + j] - (weights[i * n + j] - exactWeights[i * n + j])) < 1e-6);
    }
  }
  for (const variant of ['performer', 'linformer', 'linear']) {
    const d = core.efficientAttention({ variant, q, k, v, n, dk, dv, display: true });
    // output = weights v: the implied matrix is the one the algorithm applies
    for (let i = 0; i < n; i++)
      for (let c = 0; c < dv; c++) {
        let sum = 0;
        for (let j = 0; j < n; j++) sum += d.display.weights[i * n + j] * v[j * dv + c];
        assert.ok(Math.abs(sum - d.output[i * dv + c]) < 1e-4, `${variant} [${i},${c}] ${sum} vs ${d.output[i * dv + c]}`);
      }
  }
  // The CLI writes the same display matrices.
  const c = cliRun(['variant', '--kind', 'strided', '--stride', String(stride), '--display', '--q', files.q, '--k', files.k, '--v', files.v]);
  assert.equal(c.status, 0, c.stderr);
  assert.deepEqual(fs.readdirSync(c.out).sort(), ['exact_weights.npy', 'output.npy', 'pattern.npy', 'weight_error.npy', 'weights.npy']);
  assert.deepEqual(Array.from(readNpy(path.join(c.out, 'pattern.npy')).data), Array.from(pattern));
  assert.ok(maxAbsDiff(readNpy(path.join(c.out, 'weights.npy')).data, weights) < 1e-5);
});

test('efficientAttention refuses bad arguments with a TypeError or RangeError naming them', () => {
  const base = { variant: 'window', q, k, v, n, dk, dv };
  const cases = [
    [{ variant: undefined }, TypeError, /variant/],
    [{ variant: 'sparse' }, RangeError, /variant must be one of/],
    [{ n: 0 }, RangeError, /^n must be/],
    [{ q: Array.from(q) }, TypeError, /^q must be a Float32Array/],
    [{ v: v.subarray(1) }, RangeError, /^v must hold 288/],
    [{ window: 0 }, RangeError, /^window must be/],
    [{ window: 2.5 }, RangeError, /^window must be/],
    [{ variant: 'performer', features: -1 }, RangeError, /^features must be/],
    [{ seed: -1 }, RangeError, /^seed/],
    [{ causal: 'yes' }, TypeError, /^causal/],
    [{ projection: 'learned' }, RangeError, /^projection/],
    [{ variant: 'linformer', causal: true }, RangeError, /no causal form/],
    [{ variant: 'linformer', projection: 'identity', rank: 4 }, RangeError, /rank = n = 48/],
  ];
  for (const [change, type, pattern] of cases)
    assert.throws(() => core.efficientAttention({ ...base, ...change }), (e) => e instanceof type && pattern.test(e.message),
      JSON.stringify(Object.keys(change)));
  const bad = Float32Array.from(q);
  bad[3] = NaN;
  assert.throws(() => core.efficientAttention({ ...base, q: bad }), /q contains NaN or Inf/);
});

test('costChart measures every variant at every n with the formulas for that n', () => {
  const chart = core.costChart({ variants: ['exact', 'window', 'linear'], ns: [32, 64, 128], dk: 8, dv: 8,
    window: 4, minSeconds: 0.0005, measurements: 1, fitMinN: 64 });
  assert.deepEqual(chart.series.map((s) => s.variant), ['exact', 'window', 'linear']);
  assert.equal(chart.fitMinN, 64);
  for (const s of chart.series) {
    assert.deepEqual(Array.from(s.n), [32, 64, 128]);
    assert.ok(Array.from(s.seconds).every((t) => t > 0), `${s.variant}: ${s.seconds}`);
    assert.equal(s.fitPoints, 2);
    assert.equal(typeof s.slope, 'number');
  }
  const [ex, win, lin] = chart.series;
  assert.deepEqual(Array.from(ex.multiplyAdds), [32, 64, 128].map((m) => m * m * 16));
  // n(2w+1) - w(w+1) pairs, each d_k + d_v multiply-adds
  assert.deepEqual(Array.from(win.multiplyAdds), [32, 64, 128].map((m) => (m * 9 - 20) * 16));
  assert.deepEqual(Array.from(lin.multiplyAdds), [32, 64, 128].map((m) => 2 * m * 8 * 9));
  assert.equal(win.pairsFormula, 'n(2w+1) - w(w+1)');
  assert.throws(() => core.costChart({ variants: ['quadratic'] }), RangeError);
  assert.throws(() => core.costChart({ ns: [64, 0] }), /ns\[1\] must be/);
  assert.throws(() => core.costChart({ minSeconds: -1 }), /minSeconds/);
  assert.throws(() => core.costChart({ variants: ['linformer'], causal: true, ns: [64] }), /no causal form/);
});

test('attnlab-cli cost-chart prints the table and slopes (and JSON)', () => {
  const args = ['cost-chart', '--ns', '32,64,128', '--kinds', 'exact,window', '--dk', '8', '--dv', '8', '--window', '4',
    '--min-ms', '0.5', '--measurements', '1', '--fit-min-n', '64'];
  const table = spawnSync(cli, args, { encoding: 'utf8' });
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^\s+n\s+exact\s+window/m);
  assert.match(table.stdout, /^\s+slope\s+-?\d+\.\d+\s+-?\d+\.\d+\s+\(log-log fit over n >= 64\)/m);
  const json = JSON.parse(spawnSync(cli, [...args, '--json'], { encoding: 'utf8' }).stdout);
  assert.deepEqual(json.series.map((s) => s.kind), ['exact', 'window']);
  assert.deepEqual(json.series[1].samples.map((p) => p.multiplyAdds), [32, 64, 128].map((m) => (m * 9 - 20) * 16));
  assert.ok(json.series.every((s) => s.samples.every((p) => p.seconds > 0) && s.fitPoints === 2));
});

test('attnlab-cli variant and cost-chart refuse bad input: one line, nothing written, exit 2 for the command line', () => {
  const common = ['--q', files.q, '--k', files.k, '--v', files.v];
  expectUsageError(['variant', '--kind', 'sparse', ...common], /--kind must be window, strided, blocksparse, linear, performer or linformer, got 'sparse'/);
  expectUsageError(['variant', '--kind', 'exact', ...common], /--kind must be/);
  expectUsageError(['variant', '--kind', 'window', '--window', '0', ...common], /--window needs a whole number from 1/);
  expectUsageError(['variant', '--kind', 'performer', '--features', 'many', ...common], /--features needs a whole number/);
  expectRefusal(['variant', '--kind', 'linformer', '--causal', ...common], /linformer has no causal form/);
  expectRefusal(['variant', '--kind', 'linformer', '--projection', 'identity', '--rank', '7', ...common], /identity projections need rank = n = 48/);
  expectUsageError(['variant', '--kind', 'linear', '--projection', 'pca', ...common], /--projection must be random or identity/);
  expectUsageError(['variant', '--kind', 'window', '--seed', '-3', ...common], /--seed needs a whole number/);
  expectRefusal(['variant', '--kind', 'window', '--q', files.q, '--k', files.v, '--v', files.v], /v\.npy: shape \(48, 6\) must equal Q's \(n, d_k\) = \(48, 16\)/);
  expectRefusal(['variant', '--kind', 'window', '--q', files.q, '--k', files.k, '--v', writeNpy('v5.npy', [5, 6], Array(30).fill(0))], /v5\.npy: has 5 rows, Q has n = 48/);
  expectRefusal(['variant', '--kind', 'window', '--q', writeNpy('q3.npy', [2, 3, 4], Array(24).fill(0)), '--k', files.k, '--v', files.v], /q3\.npy: Q must have 2 dimensions/);
  expectRefusal(['variant', '--kind', 'window', '--q', path.join(dir, 'missing.npy'), '--k', files.k, '--v', files.v], /missing\.npy: cannot open/);
  expectRefusal(['variant', '--kind', 'window', '--q', writeNpy('nan.npy', [48, 16], Array(768).fill(NaN)), '--k', files.k, '--v', files.v], /nan\.npy contains NaN or Inf at index 0/);
  expectUsageError(['variant', '--kind', 'window', '--q', files.q, '--k', files.k], /variant needs --v/);

  const chart = (extra, code = 2) => {
    const r = spawnSync(cli, ['cost-chart', ...extra], { encoding: 'utf8' });
    assert.equal(r.status, code, `cost-chart ${extra.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    return r.stderr;
  };
  assert.match(chart(['--ns', '64,x']), /--ns needs a comma-separated list/);
  assert.match(chart(['--kinds', 'exact,dense']), /--kinds: unknown kind 'dense'/);
  assert.match(chart(['--min-ms', '-4']), /--min-ms needs a number of milliseconds/);
  assert.match(chart(['--kinds', 'linformer', '--causal', '--ns', '64'], 1), /linformer at n = 64: linformer has no causal form/);
});

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));
