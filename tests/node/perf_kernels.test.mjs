// The SIMD kernels as shipped (issue 10), checked by what the binaries contain and do:
//   1 the shipped .wasm keeps function names, and each hot kernel holds f32x4 arithmetic
//   2 the native binaries use AVX2/AVX-512 only inside the kernels chosen at run time, and
//     run on the baseline path when ATTNLAB_KERNEL_ISA=baseline caps the choice
//   3 the JS API: attention({returnWeights: false}) streams, attention({into}) writes the
//     caller's arrays, multiHeadAttentionOutput, and multiHeadLayer, which packs the weights once
// Speed is measured by scripts/bench.sh, never here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { distDir, distFile, nativeDir } from '../support/paths.mjs';
import { wasmFunctions } from '../support/wasm.mjs';

// ---- 1 the shipped .wasm ----------------------------------------------------------------

const HOT_KERNELS = [
  // name in attn::kernels::simd128, and the f32x4 operations it must contain
  ['gemm_micro_kernel', ['f32x4.mul', 'f32x4.add']],  // the register tile of every product
  ['softmax_rows', ['f32x4.sub', 'f32x4.mul', 'f32x4.add']],  // the trace path's softmax with vector exp
  ['attention_block', ['f32x4.mul', 'f32x4.add', 'f32x4.sub']],  // streaming: both products + online softmax
  ['exp_values', ['f32x4.mul', 'f32x4.add']],              // the vectorised exp alone
  ['tanh_values', ['f32x4.mul', 'f32x4.add', 'f32x4.div']],  // the vectorised tanh alone
  ['additive_scores', ['f32x4.mul', 'f32x4.add', 'f32x4.div']],  // additive scoring: a divide per pair
];

test('the shipped .wasm names each hot kernel, and each holds f32x4 arithmetic', () => {
  const file = distFile('attnlab-core-wasm.wasm');
  const functions = wasmFunctions(file);
  for (const [kernel, ops] of HOT_KERNELS) {
    const matches = [...functions.keys()].filter((n) => n.startsWith(`attn::kernels::simd128::${kernel}(`));
    assert.equal(matches.length, 1, `no single function attn::kernels::simd128::${kernel} in ${file} (name section missing?)`);
    const body = functions.get(matches[0]);
    for (const op of ops) {
      const count = body.filter((l) => l.includes(` ${op}`)).length;
      assert.ok(count > 0, `${kernel} has no ${op}`);
    }
    const simd = body.filter((l) => /\bf32x4\./.test(l)).length;
    assert.ok(simd >= 8, `${kernel} has only ${simd} f32x4 instructions`);
  }
  // gemm (Q K^T, weights V, the projections) does its arithmetic in the micro-kernel.
  const gemm = functions.get([...functions.keys()].find((n) => n.startsWith('attn::kernels::simd128::gemm(')));
  assert.ok(gemm && gemm.some((l) => /call \d+ <attn::kernels::simd128::gemm_micro_kernel\(/.test(l)), 'gemm does not call the micro-kernel');
  // The register tile: MR x NR / 4 = 10 multiply-adds per rank-1 step (one step per loop
  // trip), then 10 multiplies by alpha and, when accumulating, 10 additions of C.
  const micro = functions.get([...functions.keys()].find((n) => n.startsWith('attn::kernels::simd128::gemm_micro_kernel(')));
  assert.ok(micro.filter((l) => l.includes(' f32x4.add')).length >= 20, 'the micro-kernel lost its register tile');
  assert.ok(micro.filter((l) => l.includes(' f32x4.mul')).length >= 20, 'the micro-kernel lost its register tile');
  // A name section costs bytes: keep the module small. The budget was 600 KiB until the
  // module took the language model's trainer on a text (createLanguageModelTrainer), which
  // added 52 KB after the bindings went to -Os and the trainer's notes dropped printf
  // (568,681 -> 621,054 bytes); it is 640 KiB since.
  const bytes = fs.statSync(file).size;
  assert.ok(bytes < 640 * 1024, `attnlab-core-wasm.wasm is ${bytes} bytes`);
});

// ---- 2 native: run-time dispatch, baseline x86-64 -----------------------------------------

const cli = path.join(nativeDir, 'attnlab-cli');

function kernelsReport(env) {
  return JSON.parse(execFileSync(cli, ['kernels'], { encoding: 'utf8', env: { ...process.env, ...env } }));
}

test('ATTNLAB_KERNEL_ISA=baseline runs the SSE2 kernels, and every available set agrees with the oracle', () => {
  const forced = kernelsReport({ ATTNLAB_KERNEL_ISA: 'baseline' });
  assert.equal(forced.active, 'sse2');
  assert.equal(forced.requested, 'baseline');
  assert.equal(forced.lanes, 4);
  assert.equal(forced.available[0], 'sse2');
  for (const [isa, diff] of Object.entries(forced.check)) assert.ok(diff < 1e-5, `${isa} differs from the oracle by ${diff}`);

  // Unforced, the widest set the CPU reports (/proc/cpuinfo) is chosen.
  const flags = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)[1].split(/\s+/);
  const expected = ['sse2'];
  if (flags.includes('avx2') && flags.includes('fma')) expected.push('avx2');
  if (flags.includes('avx512f') && flags.includes('fma')) expected.push('avx512');
  const free = kernelsReport({ ATTNLAB_KERNEL_ISA: '' });
  assert.deepEqual(free.available, expected);
  assert.equal(free.active, expected.at(-1));
});

// Every function of the binary that uses a VEX/EVEX instruction (AVX and up: mnemonics
// starting with v, or ymm/zmm/mask registers).
function wideFunctions(binary) {
  const listing = execFileSync('objdump', ['-d', '--no-show-raw-insn', '-C', binary], { maxBuffer: 1 << 30, encoding: 'utf8' });
  const wide = new Set();
  let name = null;
  for (const line of listing.split('\n')) {
    const header = line.match(/^[0-9a-f]+ <(.*)>:$/);
    if (header) name = header[1];
    else if (name && /\t(v[a-z0-9]+)\s|%[yz]mm\d|%k[0-7]\b/.test(line)) wide.add(name);
  }
  return [...wide];
}

for (const binary of ['attnlab-cli', 'attnlab']) {
  test(`${binary}: AVX2/AVX-512 instructions appear only in the run-time-dispatched kernels`, () => {
    const file = path.join(nativeDir, binary);
    assert.ok(fs.existsSync(file), `${file} was not built`);
    const wide = wideFunctions(file);
    // The kernels are there (the dispatch has something to choose) ...
    assert.ok(wide.some((n) => n.startsWith('attn::kernels::avx512::attention_block(')), 'no AVX-512 attention kernel');
    assert.ok(wide.some((n) => n.startsWith('attn::kernels::avx2::attention_block(')), 'no AVX2 attention kernel');
    // ... and nothing else needs more than baseline x86-64.
    const outside = wide.filter((n) => !/^attn::kernels::(avx2|avx512)::/.test(n));
    assert.deepEqual(outside, [], `wide instructions outside the dispatched kernels: ${outside.slice(0, 5).join('; ')}`);
  });
}

// ---- 3 the JS API -----------------------------------------------------------------------

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();

function maxDiff(a, b) {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

test('attention({returnWeights: false}) streams: the same output, and only the output', () => {
  assert.equal(core.kernelInfo().isa, 'simd128');
  for (const [nq, nk, dk, dv, causal] of [[1, 1, 1, 1, false], [37, 53, 24, 16, true], [300, 200, 64, 64, false], [129, 129, 32, 5, true]]) {
    const q = core.randomNormal({ seed: nq, rows: nq, cols: dk });
    const k = core.randomNormal({ seed: nk + 1, rows: nk, cols: dk });
    const v = core.randomNormal({ seed: dv + 2, rows: nk, cols: dv });
    const full = core.attention({ q, k, v, nq, nk, dk, dv, causal, scale: 0.3 });
    const streamed = core.attention({ q, k, v, nq, nk, dk, dv, causal, scale: 0.3, returnWeights: false });
    assert.deepEqual(Object.keys(streamed), ['output']);
    assert.ok(streamed.output instanceof Float32Array);
    const d = maxDiff(streamed.output, full.output);
    assert.ok(d < 2e-5, `nq ${nq} nk ${nk}: streamed output differs by ${d}`);
  }
});

test('attention: bad returnWeights and oversized weight matrices are refused with a clear error', () => {
  const x = new Float32Array(4);
  assert.throws(() => core.attention({ q: x, k: x, v: x, nq: 2, nk: 2, dk: 2, dv: 2, returnWeights: 'no' }),
    (e) => e instanceof TypeError && /returnWeights/.test(e.message));
  const n = 5000, big = new Float32Array(n);
  assert.throws(() => core.attention({ q: big, k: big, v: big, nq: n, nk: n, dk: 1, dv: 1 }),
    (e) => e instanceof RangeError && /returnWeights: false/.test(e.message));
  // The same size without weights runs.
  const r = core.attention({ q: big, k: big, v: big, nq: n, nk: n, dk: 1, dv: 1, returnWeights: false });
  assert.equal(r.output.length, n);
  assert.throws(() => core.attention({ q: x, k: x, v: new Float32Array(3), nq: 2, nk: 2, dk: 2, dv: 2, returnWeights: false }),
    (e) => e instanceof RangeError && /\bv\b/.test(e.message));
  const nan = new Float32Array([1, NaN, 0, 0]);
  assert.throws(() => core.attention({ q: nan, k: x, v: x, nq: 2, nk: 2, dk: 2, dv: 2, returnWeights: false }),
    (e) => e instanceof RangeError && /q contains NaN/.test(e.message));
});

test('attention({into}) writes the same floats into the caller\'s arrays and returns them', () => {
  const [nq, nk, dk, dv] = [37, 53, 24, 16];
  const q = core.randomNormal({ seed: 5, rows: nq, cols: dk });
  const k = core.randomNormal({ seed: 6, rows: nk, cols: dk });
  const v = core.randomNormal({ seed: 7, rows: nk, cols: dv });
  const args = { q, k, v, nq, nk, dk, dv, causal: true };
  const fresh = core.attention(args);
  const into = { scores: new Float32Array(nq * nk).fill(7), weights: new Float32Array(nq * nk).fill(7), output: new Float32Array(nq * dv).fill(7) };
  for (let call = 0; call < 2; call++) {  // the second call overwrites the first in place
    const r = core.attention({ ...args, into });
    assert.equal(r.scores, into.scores);
    assert.equal(r.weights, into.weights);
    assert.equal(r.output, into.output);
    assert.deepEqual([...r.scores], [...fresh.scores]);
    assert.deepEqual([...r.weights], [...fresh.weights]);
    assert.deepEqual([...r.output], [...fresh.output]);
    assert.equal(r.scale, fresh.scale);
  }
  assert.equal(into.scores[1], -Infinity, 'causal: key 1 is masked for query 0');
  // Some of them: the others come back fresh. Views into a larger buffer are written in place.
  const buffer = new Float32Array(nq * dv + 8).fill(9);
  const view = buffer.subarray(4, 4 + nq * dv);
  const some = core.attention({ ...args, into: { output: view } });
  assert.equal(some.output, view);
  assert.notEqual(some.weights, into.weights);
  assert.deepEqual([...some.weights], [...fresh.weights]);
  assert.deepEqual([...buffer.subarray(0, 4), ...buffer.subarray(4 + nq * dv)], new Array(8).fill(9), 'written outside the view');
  // The streaming path writes output only.
  const streamed = core.attention({ ...args, returnWeights: false });
  const out = new Float32Array(nq * dv);
  assert.equal(core.attention({ ...args, returnWeights: false, into: { output: out } }).output, out);
  assert.deepEqual([...out], [...streamed.output]);
});

test('attention({into}) refuses wrong arrays by name and leaves them untouched when the call fails', () => {
  const [nq, nk, dk, dv] = [3, 4, 2, 5];
  const q = new Float32Array(nq * dk).fill(0.5), k = new Float32Array(nk * dk).fill(0.25), v = new Float32Array(nk * dv).fill(1);
  const args = { q, k, v, nq, nk, dk, dv };
  const refuse = (into, Kind, pattern, extra = {}) =>
    assert.throws(() => core.attention({ ...args, ...extra, into }), (e) => e instanceof Kind && pattern.test(e.message), JSON.stringify(Object.keys(into ?? {})));
  refuse({ weights: new Float32Array(nq * nk + 1) }, RangeError, /into\.weights has 13 floats; this call writes 12/);
  refuse({ output: new Float64Array(nq * dv) }, TypeError, /into\.output must be a Float32Array/);
  refuse({ attention: new Float32Array(12) }, TypeError, /unknown key 'attention' of into \(attention writes scores, weights, output\)/);
  refuse({ weights: new Float32Array(12) }, TypeError, /unknown key 'weights' of into \(attention with returnWeights: false writes output\)/, { returnWeights: false });
  refuse([new Float32Array(12)], TypeError, /into of attention must be an object/);
  const shared = new Float32Array(24);
  refuse({ scores: shared.subarray(0, 12), weights: shared.subarray(6, 18) }, RangeError, /into\.weights and into\.scores share memory/);
  // Side by side in one buffer is fine.
  const r = core.attention({ ...args, into: { scores: shared.subarray(0, 12), weights: shared.subarray(12, 24) } });
  assert.deepEqual([...r.weights], new Array(12).fill(0.25));
  // A call the module refuses writes nothing.
  const kept = { output: new Float32Array(nq * dv).fill(3) };
  assert.throws(() => core.attention({ ...args, q: new Float32Array([NaN, 0, 0, 0, 0, 0]), into: kept }), (e) => e instanceof RangeError && /q contains NaN/.test(e.message));
  assert.deepEqual([...kept.output], new Array(nq * dv).fill(3));
});

test('multiHeadAttentionOutput equals multiHeadAttention output; bad input is refused', () => {
  for (const [nq, dModel, heads, causal] of [[9, 16, 2, false], [70, 64, 8, true]]) {
    const x = core.randomNormal({ seed: 1, rows: nq, cols: dModel });
    const w = (s) => core.randomNormal({ seed: s, rows: dModel, cols: dModel }).map((e) => e / Math.sqrt(dModel));
    const args = { x, wq: w(2), wk: w(3), wv: w(4), wo: w(5), nq, dModel, heads, causal };
    const full = core.multiHeadAttention(args);
    const fast = core.multiHeadAttentionOutput(args);
    assert.deepEqual(Object.keys(fast), ['output']);
    const d = maxDiff(fast.output, full.output);
    assert.ok(d < 3e-5, `nq ${nq}: output differs by ${d}`);
  }
  const x = new Float32Array(12), w = new Float32Array(36);
  assert.throws(() => core.multiHeadAttentionOutput({ x, wq: w, wk: w, wv: w, wo: w, nq: 2, dModel: 6, heads: 4 }),
    (e) => e instanceof RangeError && /heads/.test(e.message));
  assert.throws(() => core.multiHeadAttentionOutput({ x, wq: w, wk: w, wv: [1], wo: w, nq: 2, dModel: 6, heads: 2 }),
    (e) => e instanceof TypeError && /wv/.test(e.message));
  assert.throws(() => core.multiHeadAttentionOutput({ x, wq: w, wk: w, wv: w, wo: w, nq: 2, dModel: 6, heads: 2, causal: 1 }),
    (e) => e instanceof TypeError && /causal/.test(e.message));
  assert.throws(() => core.multiHeadAttentionOutput({ x, wq: w, wk: w, wv: w, wo: w, nq: 2, dModel: 6, heads: 2, head: 1 }),
    (e) => e instanceof TypeError && /unknown argument 'head' of multiHeadAttentionOutput/.test(e.message));
});

test('multiHeadAttentionOutput and layer.output write into.output, the caller\'s array, and return it', () => {
  const [nq, dModel, heads] = [11, 16, 4];
  const x = core.randomNormal({ seed: 1, rows: nq, cols: dModel });
  const w = (s) => core.randomNormal({ seed: s, rows: dModel, cols: dModel }).map((e) => e / 4);
  const weights = { wq: w(2), wk: w(3), wv: w(4), wo: w(5) };
  const want = core.multiHeadAttentionOutput({ x, ...weights, nq, dModel, heads }).output;
  const out = new Float32Array(nq * dModel).fill(7);
  assert.equal(core.multiHeadAttentionOutput({ x, ...weights, nq, dModel, heads, into: { output: out } }).output, out);
  assert.deepEqual(out, want);
  const layer = core.multiHeadLayer({ ...weights, dModel, heads });
  out.fill(7);
  assert.equal(layer.output({ x, nq, into: { output: out } }).output, out);
  assert.deepEqual(out, want);
  assert.throws(() => layer.output({ x, nq, into: { output: new Float32Array(nq * dModel - 1) } }),
    (e) => e instanceof RangeError && /into\.output has 175 floats; this call writes 176/.test(e.message));
  assert.throws(() => core.multiHeadAttentionOutput({ x, ...weights, nq, dModel, heads, into: { weights: out } }),
    (e) => e instanceof TypeError && /unknown key 'weights' of into \(multiHeadAttentionOutput writes output\)/.test(e.message));
  // Refused by the module (a NaN in x): the caller's array keeps what it held.
  out.fill(7);
  const bad = x.slice();
  bad[3] = NaN;
  assert.throws(() => layer.output({ x: bad, nq, into: { output: out } }), (e) => e instanceof RangeError && /x contains NaN/.test(e.message));
  assert.ok(out.every((e) => e === 7));
  layer.dispose();
});

test('multiHeadLayer gives the floats of multiHeadAttentionOutput, call after call, until disposed', () => {
  for (const [nq, dModel, heads, causal] of [[9, 16, 2, false], [70, 64, 8, true], [130, 256, 8, false]]) {
    const w = (s) => core.randomNormal({ seed: s, rows: dModel, cols: dModel }).map((e) => e / Math.sqrt(dModel));
    const weights = { wq: w(2), wk: w(3), wv: w(4), wo: w(5) };
    const layer = core.multiHeadLayer({ ...weights, dModel, heads });
    assert.equal(layer.dModel, dModel);
    assert.equal(layer.heads, heads);
    // Packed copies: changing the caller's arrays afterwards changes nothing.
    const kept = { ...weights };
    weights.wq = weights.wq.slice();
    kept.wq.fill(0);
    for (const seed of [6, 7]) {
      const x = core.randomNormal({ seed, rows: nq, cols: dModel });
      const want = core.multiHeadAttentionOutput({ x, ...weights, nq, dModel, heads, causal }).output;
      const got = layer.output({ x, nq, causal });
      assert.deepEqual(Object.keys(got), ['output']);
      assert.equal(got.output.length, nq * dModel);
      assert.deepEqual(got.output, want, `nq ${nq} seed ${seed}`);
      assert.ok(got.output.some((e) => e !== 0));
      // The caller owns the result: the next call does not overwrite it.
      const copy = got.output.slice();
      layer.output({ x: core.randomNormal({ seed: 99, rows: nq, cols: dModel }), nq, causal });
      assert.deepEqual(got.output, copy);
    }
    layer.dispose();
    layer.dispose();  // twice is harmless
    assert.throws(() => layer.output({ x: new Float32Array(nq * dModel), nq }), /disposed/);
  }
});

test('multiHeadLayer refuses bad weights and bad inputs, and the layer keeps working', () => {
  const w = new Float32Array(36).fill(0.1);
  const x = new Float32Array(12).fill(1);
  assert.throws(() => core.multiHeadLayer({ wq: w, wk: w, wv: w, wo: w, dModel: 6, heads: 4 }),
    (e) => e instanceof RangeError && /heads/.test(e.message));
  assert.throws(() => core.multiHeadLayer({ wq: w, wk: w, wv: [1], wo: w, dModel: 6, heads: 2 }),
    (e) => e instanceof TypeError && /wv/.test(e.message));
  assert.throws(() => core.multiHeadLayer({ wq: w, wk: w, wv: new Float32Array(35), wo: w, dModel: 6, heads: 2 }),
    (e) => e instanceof RangeError && /wv must hold 36 numbers, got 35/.test(e.message));
  const nan = w.slice();
  nan[7] = NaN;
  assert.throws(() => core.multiHeadLayer({ wq: w, wk: w, wv: w, wo: nan, dModel: 6, heads: 2 }),
    (e) => e instanceof RangeError && /NaN/.test(e.message));
  assert.throws(() => core.multiHeadLayer({ wq: w, wk: w, wv: w, wo: w, dModel: 6, heads: 2, bias: 1 }),
    (e) => e instanceof TypeError && /unknown argument 'bias'/.test(e.message));
  const layer = core.multiHeadLayer({ wq: w, wk: w, wv: w, wo: w, dModel: 6, heads: 2 });
  const good = layer.output({ x, nq: 2 }).output;
  assert.throws(() => layer.output({ x, nq: 3 }), (e) => e instanceof RangeError && /x must hold 18 numbers, got 12/.test(e.message));
  assert.throws(() => layer.output({ x: [1, 2], nq: 2 }), (e) => e instanceof TypeError && /\bx\b/.test(e.message));
  assert.throws(() => layer.output({ x, nq: 2, causal: 'yes' }), (e) => e instanceof TypeError && /causal/.test(e.message));
  assert.throws(() => layer.output({ x, nq: 2, heads: 2 }), (e) => e instanceof TypeError && /unknown argument 'heads'/.test(e.message));
  const bad = x.slice();
  bad[3] = Infinity;
  assert.throws(() => layer.output({ x: bad, nq: 2 }), (e) => e instanceof RangeError && /x contains NaN or Inf/.test(e.message));
  assert.deepEqual(layer.output({ x, nq: 2 }).output, good);
  assert.deepEqual(good, core.multiHeadAttentionOutput({ x, wq: w, wk: w, wv: w, wo: w, nq: 2, dModel: 6, heads: 2 }).output);
  layer.dispose();
});
