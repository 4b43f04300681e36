// attnlab-core.mjs: Attention Lab's math as an ES module, for browsers and for Node 20.
//
//   import createAttnlabCore from './attnlab-core.mjs';
//   const core = await createAttnlabCore();
//   const {scores, weights, output} = core.attention({q, k, v, nq, nk, dk, dv});
//
// attention({q, k, v, nq, nk, dk, dv, causal = false, scale = 1/sqrt(dk)})
//   q: Float32Array (nq*dk), k: (nk*dk), v: (nk*dv), all row-major.
//   causal: query i sees keys j <= i (top-left aligned, as PyTorch's is_causal).
//   scale: the multiplier applied to Q K^T (PyTorch's `scale`).
//   Returns {scores, weights, output, scale}: scores after scaling and masking
//   (masked entries are -Infinity), weights (nq*nk), output (nq*dv), the scale used.
//   positional: {kind: 'rope', base = 10000, pairing = 'half' | 'interleaved'} turns q and k
//   at positions 0..nq-1 and 0..nk-1 before the scores (RoPE); {kind: 'alibi', slope} adds
//   -slope*|i - j| after the scaling (-slope*(i - j) with causal; ALiBi needs the weights'
//   path). An unknown argument, kind or key is an error.
//   returnWeights: false computes the output alone by streaming attention (online softmax
//   over tiles, memory O(n*d), nothing of size nq*nk) and returns {output} only: the path
//   for long inputs (n = 32768 fits in a fresh instance under 64 MiB); with weights,
//   nq*nk is capped at 2^24.
//   into: {scores, weights, output}, any of them: Float32Arrays of the caller's, of the
//   lengths above, that the call writes and returns instead of fresh arrays (returnWeights:
//   false writes output only). A page that calls again and again saves the fresh arrays:
//   in Chromium a fresh n x n array costs more than the copy into it (its memory is new
//   to the process, page by page). They are written only when the call succeeds.
//   Throws a TypeError / RangeError naming the argument on bad input.
// createAttnlabCore({build}) loads that build instead of the one the engine's probe picks
//   ('simd' or 'scalar'): 'relaxed' is the SIMD build with relaxed SIMD's fused multiply-adds,
//   faster in Node 20 with --experimental-wasm-relaxed-simd, not in Chromium 156 (builds.mjs);
//   a build the engine cannot run is a RangeError.
// randomNormal({seed, rows, cols}) -> Float32Array of N(0, 1) draws from the project's
//   generator: the same numbers the desktop build draws for that seed; rows*cols <= 2^26.
// tokenize(text) -> [{text, start, end, kind}]: words and punctuation for alphabetic
//   scripts, one token per CJK character, one per emoji sequence; start/end are UTF-8 byte
//   offsets; kind is "word", "number", "punctuation", "cjk", "emoji" or "other".
// softmax(row, {stable = true, precision = 'float32' | 'float16'}) ->
//   {weights, overflow, nan, fullyMasked}: float16 simulates half precision, rounding
//   every operation; the naive form (stable: false) shows where exp() overflows.
// multiHeadAttention({x, wq, wk, wv, wo, nq, dModel, heads, causal}) ->
//   {output: Float32Array (nq*dModel), weights: [Float32Array (nq*nq) per head]}.
//   Self-attention over x (nq, dModel); projections are applied as x W (row vectors), each
//   W (dModel, dModel) row-major; head h uses columns [h*dk, (h+1)*dk) of the projections.
//   nq*nq*heads is capped at 2^24 (multiHeadAttentionOutput streams, without the weights).
// choices() -> {efficientKind: [{name, variant, causal, parameter}], positional: [{name,
//   encoding, inside, evenDk}], ropePairing: [{name}], scoreFunction: [{name, qk}], theme:
//   [{name}]}: the core's tables of the lab's choices, a row per value with its public name
//   and its properties (efficientKind: variant, one of efficientAttention's variants; causal,
//   has a causal form; parameter, the argument it reads or null. positional, the lab's scene
//   setting: encoding, adds the sinusoidal encoding to x; inside, acts inside attention;
//   evenDk, needs an even d_k. scoreFunction: qk, computed from q and k alone. theme: the
//   app's colour themes). The checks of this module, the declarations' unions and the
//   embed's theme check are made from them.
// overviewBegin({q, k, nq, nk, dk, block, pool, causal, scale}) -> a job that pools the weights
//   of up to 32768 tokens over blocks in a streaming pass, step by step, and gives any region's
//   exact weights (attnlab-core-overview.mjs).
import { checkFloat32, intoOption, refused } from './attnlab-core-checks.mjs';
import efficientApi from './attnlab-core-efficient.mjs';
import kernelsApi from './attnlab-core-kernels.mjs';
import lmApi from './attnlab-core-lm.mjs';
import modernApi, { positionalOption } from './attnlab-core-modern.mjs';
import overviewApi from './attnlab-core-overview.mjs';
import statisticsApi from './attnlab-core-statistics.mjs';
import trainApi from './attnlab-core-train.mjs';
import { BUILDS, buildRuns, chooseBuild } from './builds.mjs';

const isNode = typeof process === 'object' && !!process.versions?.node;
const ATTENTION_ARGS = ['q', 'k', 'v', 'nq', 'nk', 'dk', 'dv', 'causal', 'scale', 'returnWeights', 'positional', 'into'];

export default async function createAttnlabCore(moduleOptions = {}) {
  const { build: asked, ...options } = moduleOptions ?? {};
  // With WebAssembly SIMD or without it (older browsers), by the same probe as the page's; or
  // the build asked for (the relaxed-SIMD one only so: builds.mjs says why).
  const build = asked ?? chooseBuild();
  if (!Object.hasOwn(BUILDS, build) || !BUILDS[build].core)
    throw new RangeError(`unknown build '${build}' (relaxed, simd or scalar)`);
  if (!buildRuns(build)) throw new RangeError(`this engine cannot run the '${build}' build`);
  const { glue, wasm: wasmName } = BUILDS[build].core;
  if (!options.wasmBinary) {
    // The bytes are read here, beside this file: Node's fetch cannot read file paths, and a
    // module worker or a page in another folder would resolve the runtime's own name wrongly.
    const url = new URL(wasmName, import.meta.url);
    if (isNode) {
      const { readFile } = await import('node:fs/promises');
      options.wasmBinary = await readFile(url);
    } else {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
      options.wasmBinary = await response.arrayBuffer();
    }
  }
  const { default: factory } = await import(new URL(glue, import.meta.url).href);
  const wasm = await factory(options);

  const ropePairings = wasm.choices().ropePairing.map((row) => row.name);
  return {
    build,  // 'relaxed', 'simd' or 'scalar': which WebAssembly build was loaded
    choices: () => wasm.choices(),
    ...efficientApi(wasm),
    ...kernelsApi(wasm),
    ...lmApi(wasm),
    ...modernApi(wasm),
    ...overviewApi(wasm),
    ...statisticsApi(wasm),
    ...trainApi(wasm),
    attention(args = {}) {
      for (const key of Object.keys(args ?? {}))
        if (!ATTENTION_ARGS.includes(key)) throw new TypeError(`unknown argument '${key}' of attention (${ATTENTION_ARGS.join(', ')})`);
      const { q, k, v, nq, nk, dk, dv, causal = false, scale, returnWeights = true } = args ?? {};
      checkFloat32('q', q); checkFloat32('k', k); checkFloat32('v', v);
      if (scale !== undefined && !Number.isFinite(scale)) throw new RangeError('scale must be a finite number');
      if (typeof returnWeights !== 'boolean') throw new TypeError('returnWeights must be true or false');
      const positional = positionalOption(args?.positional, ropePairings);
      const whole = (...n) => (n.every((x) => Number.isSafeInteger(x) && x > 0) ? n.reduce((a, b) => a * b) : null);
      const sizes = returnWeights ? { scores: whole(nq, nk), weights: whole(nq, nk), output: whole(nq, dv) } : { output: whole(nq, dv) };
      const into = intoOption(args?.into, sizes, returnWeights ? 'attention' : 'attention with returnWeights: false');
      return refused(wasm.attention({ q, k, v, nq, nk, dk, dv, causal: !!causal, scale: scale ?? null, returnWeights, positional, into }));
    },
    tokenize(text) {
      if (typeof text !== 'string') throw new TypeError('text must be a string');
      return wasm.tokenize(text).map((t) => ({ ...t, kind: t.kind.toLowerCase() }));
    },
    softmax(row, { stable = true, precision = 'float32' } = {}) {
      if (!(row instanceof Float32Array) && !Array.isArray(row)) throw new TypeError('row must be a Float32Array or an array');
      if (row.length < 1) throw new RangeError('row must not be empty');
      if (precision !== 'float32' && precision !== 'float16') throw new RangeError("precision must be 'float32' or 'float16'");
      return wasm.softmax(Float32Array.from(row), !!stable, precision === 'float16');
    },
    multiHeadAttention({ x, wq, wk, wv, wo, nq, dModel, heads, causal = false } = {}) {
      for (const [name, m] of [['x', x], ['wq', wq], ['wk', wk], ['wv', wv], ['wo', wo]]) checkFloat32(name, m);
      return refused(wasm.multiHeadAttention({ x, wq, wk, wv, wo, nq, dModel, heads, causal: !!causal }));
    },
    randomNormal({ seed, rows, cols } = {}) {
      if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError('seed must be a whole number >= 0');
      return refused(wasm.randomNormal(seed, rows, cols));
    },
  };
}
