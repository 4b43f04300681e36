// The WebAssembly benchmark, shared by Node (bench/wasm-node.mjs) and Chromium
// (bench/page.mjs): every implementation on every shape, alternating, one thread, f32.
//
//   runSuite({core, coreRelaxed, ceiling, fusedCeiling, ort, tf, models, shapes, rounds, log})
//       -> {rows, ceiling, fusedCeiling, fused}
//     core     attnlab-core.mjs instance (ours), the build the engine's probe picks
//     coreRelaxed  where the engine runs relaxed SIMD: the relaxed-SIMD build (loaded by name
//              only), as an extra row
//     ceiling  {multiplyAdd(iterations)}: the tight f32x4 loop (12 chains x 4 lanes x 2 flops)
//     fusedCeiling  the same loop of f32x4.relaxed_madd, where the engine runs relaxed SIMD
//     ort      onnxruntime-web (wasm backend, numThreads = 1), models: name -> ONNX bytes:
//              modelKey(s) the plain graph, fusedModelKey(s) the one with the fused attention
//              operator (bench/onnx-models.mjs; if absent or refused, that row is left out and
//              fused.error says why; otherwise fused.maxAbsDiff: shape name -> max abs
//              difference of its output from the plain graph's)
//     tf       @tensorflow/tfjs-core with the wasm backend set, single-threaded
// Timing: each implementation is warmed up (V8 compiles wasm with its fast tier only after
// some calls), then every round times each one on every shape once, in a rotating order,
// as a batch of calls lasting >= 5 ms (Chromium rounds performance.now() to 0.1 ms); every
// call reads its result back. The median over rounds is reported.
export const SHAPES = [
  { kind: 'single', n: 128, d: 64 }, { kind: 'single', n: 512, d: 64 }, { kind: 'single', n: 2048, d: 64 },
  { kind: 'multi', n: 128, dModel: 256, heads: 8 }, { kind: 'multi', n: 512, dModel: 256, heads: 8 },
];

export function shapeName(s) {
  return s.kind === 'single' ? `single head n=${s.n} d=${s.d}` : `multi-head n=${s.n} dModel=${s.dModel} h=${s.heads}`;
}

// Multiply-adds x 2 of the shape (softmax not counted): the GFLOP/s every row uses.
export function shapeFlops(s) {
  if (s.kind === 'single') return 4 * s.n * s.n * s.d;
  return 2 * 4 * s.n * s.dModel * s.dModel + 4 * s.n * s.n * s.dModel;
}

// Deterministic inputs in [-1, 1), the same for every implementation.
export function makeInputs(s) {
  let state = 2024 + s.n;
  const fill = (len, scale = 1) => {
    const a = new Float32Array(len);
    for (let i = 0; i < len; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      a[i] = (state / 2 ** 31 - 1) * scale;
    }
    return a;
  };
  if (s.kind === 'single') return { q: fill(s.n * s.d), k: fill(s.n * s.d), v: fill(s.n * s.d) };
  const w = 1 / Math.sqrt(s.dModel);
  return { x: fill(s.n * s.dModel), wq: fill(s.dModel ** 2, w), wk: fill(s.dModel ** 2, w), wv: fill(s.dModel ** 2, w), wo: fill(s.dModel ** 2, w) };
}

export const TRACE = 'attnlab trace (all stages kept)';
export const TRACE_INTO = "attnlab trace into the caller's arrays (all stages kept)";

export function modelKey(s) {
  return s.kind === 'single' ? `single-${s.n}-${s.d}` : `multi-${s.n}-${s.dModel}-${s.heads}`;
}

export function fusedModelKey(s) {
  return `${modelKey(s)}-fused`;
}

// The inputs of an ONNX Runtime session and the name of its output. The fused graphs take
// 3-D tensors of batch 1 (the same arrays; only the shapes differ).
function ortFeeds(ort, s, x, fused) {
  const lead = fused ? [1] : [];
  const feeds = s.kind === 'single'
    ? { Q: new ort.Tensor('float32', x.q, [...lead, s.n, s.d]), K: new ort.Tensor('float32', x.k, [...lead, s.n, s.d]), V: new ort.Tensor('float32', x.v, [...lead, s.n, s.d]) }
    : { X: new ort.Tensor('float32', x.x, [...lead, s.n, s.dModel]) };
  return { feeds, out: s.kind === 'single' ? 'O' : 'Y' };
}

// Each implementation: name -> (shape, inputs) -> async () => a number read from the result.
export const RELAXED = 'attnlab relaxed-SIMD build, by name (streaming)';
export const LAYER = 'attnlab multiHeadLayer (weights packed once, streaming)';

function implementations({ core, coreRelaxed, ort, tf, sessions, fusedSessions }) {
  const impls = {};
  const streaming = (c) => (s, x) => s.kind === 'single'
    ? () => c.attention({ q: x.q, k: x.k, v: x.v, nq: s.n, nk: s.n, dk: s.d, dv: s.d, returnWeights: false }).output[7]
    : () => c.multiHeadAttentionOutput({ ...x, nq: s.n, dModel: s.dModel, heads: s.heads }).output[7];
  impls['attnlab SIMD (streaming)'] = streaming(core);
  // Not a peer: the build a caller gets by asking for it, to show what relaxed SIMD gives here.
  if (coreRelaxed) impls[RELAXED] = streaming(coreRelaxed);
  // Multi-head with the weights given once, as the ONNX Runtime sessions hold theirs: the
  // layer is made before the timing, each call passes x alone.
  impls[LAYER] = (s, x) => {
    if (s.kind === 'single') return null;
    const layer = core.multiHeadLayer({ wq: x.wq, wk: x.wk, wv: x.wv, wo: x.wo, dModel: s.dModel, heads: s.heads });
    return () => layer.output({ x: x.x, nq: s.n }).output[7];
  };
  // The public call with its weights: the scores, weights and output come back as fresh arrays.
  impls[TRACE] = (s, x) => s.kind === 'single'
    ? () => core.attention({ q: x.q, k: x.k, v: x.v, nq: s.n, nk: s.n, dk: s.d, dv: s.d }).output[7]
    : () => core.multiHeadAttention({ ...x, nq: s.n, dModel: s.dModel, heads: s.heads }).output[7];
  // The same call writing into three arrays the caller made once (`into`), as a page that
  // redraws on every change would: the same math and the same copies out of the module, minus
  // fresh n x n arrays (in Chromium their new memory costs more than the copy into it).
  impls[TRACE_INTO] = (s, x) => {
    if (s.kind !== 'single') return null;
    const into = { scores: new Float32Array(s.n * s.n), weights: new Float32Array(s.n * s.n), output: new Float32Array(s.n * s.d) };
    return () => core.attention({ q: x.q, k: x.k, v: x.v, nq: s.n, nk: s.n, dk: s.d, dv: s.d, into }).output[7];
  };
  if (ort) {
    impls['ONNX Runtime Web'] = (s, x) => {
      const session = sessions.get(modelKey(s));
      const { feeds, out } = ortFeeds(ort, s, x, false);
      return async () => (await session.run(feeds))[out].data[7];
    };
  }
  if (ort && fusedSessions) {
    // An extra row: the same math with the attention core as ONNX Runtime's fused operator.
    impls['ONNX Runtime Web (fused attention)'] = (s, x) => {
      const session = fusedSessions.get(modelKey(s));
      const { feeds, out } = ortFeeds(ort, s, x, true);
      return async () => (await session.run(feeds))[out].data[7];
    };
  }
  if (tf) {
    impls['TensorFlow.js wasm'] = (s, x) => {
      if (s.kind === 'single') {
        const q = tf.tensor2d(x.q, [s.n, s.d]), k = tf.tensor2d(x.k, [s.n, s.d]), v = tf.tensor2d(x.v, [s.n, s.d]);
        const scale = tf.scalar(1 / Math.sqrt(s.d));
        // XNNPACK's fast path is the plain 2-D product: K is transposed first (inside the call).
        return () => tf.tidy(() => tf.matMul(tf.softmax(tf.mul(tf.matMul(q, tf.transpose(k)), scale)), v)).dataSync()[7];
      }
      const dk = s.dModel / s.heads;
      const xt = tf.tensor2d(x.x, [s.n, s.dModel]);
      const [wq, wk, wv, wo] = [x.wq, x.wk, x.wv, x.wo].map((w) => tf.tensor2d(w, [s.dModel, s.dModel]));
      const scale = tf.scalar(1 / Math.sqrt(dk));
      return () => tf.tidy(() => {
        const q = tf.matMul(xt, wq), kT = tf.transpose(tf.matMul(xt, wk)), v = tf.matMul(xt, wv);
        const heads = [];
        for (let h = 0; h < s.heads; h++) {
          const qh = tf.slice(q, [0, h * dk], [s.n, dk]), khT = tf.slice(kT, [h * dk, 0], [dk, s.n]);
          const vh = tf.slice(v, [0, h * dk], [s.n, dk]);
          heads.push(tf.matMul(tf.softmax(tf.mul(tf.matMul(qh, khT), scale)), vh));
        }
        return tf.matMul(tf.concat(heads, 1), wo);
      }).dataSync()[7];
    };
  }
  return impls;
}

// Median seconds per call of fn: one batch of calls lasting >= minMs.
async function batch(fn, minMs) {
  let calls = 0, sink = 0;
  const start = performance.now();
  let elapsed;
  do {
    sink += await fn();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  if (!Number.isFinite(sink)) throw new Error('a result was not finite');
  return elapsed / 1000 / calls;
}

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export async function measureCeiling(ceiling, { rounds = 7, log = () => {} } = {}) {
  const iterations = 200000;
  for (let i = 0; i < 5; i++) ceiling.multiplyAdd(iterations);
  const samples = [];
  for (let r = 0; r < rounds; r++) samples.push(await batch(() => ceiling.multiplyAdd(iterations), 10));
  const gflops = iterations * 12 * 4 * 2 / median(samples) / 1e9;
  log(`ceiling (f32x4 multiply-add loop): ${gflops.toFixed(1)} GFLOP/s`);
  return gflops;
}

// The fused graphs: a session per shape, checked against the plain graph's output on the
// suite's inputs. -> {sessions, maxAbsDiff: {shape name: max |fused - plain|}} or {error}
async function fusedSessionsChecked(ort, models, shapes, sessions, options, log) {
  const fusedSessions = new Map(), maxAbsDiff = {};
  try {
    for (const s of shapes) {
      const bytes = models[fusedModelKey(s)];
      if (!bytes) throw new Error(`no model ${fusedModelKey(s)}`);
      const session = await ort.InferenceSession.create(bytes, options);
      const x = makeInputs(s);
      const plain = ortFeeds(ort, s, x, false), fused = ortFeeds(ort, s, x, true);
      const a = (await sessions.get(modelKey(s)).run(plain.feeds))[plain.out].data;
      const b = (await session.run(fused.feeds))[fused.out].data;
      if (a.length !== b.length) throw new Error(`the fused graph gave ${b.length} values for ${shapeName(s)}, the plain one ${a.length}`);
      let diff = 0;
      for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i] - b[i]));
      if (!(diff < 1e-3)) throw new Error(`the fused graph differs from the plain one by ${diff} for ${shapeName(s)}`);
      maxAbsDiff[shapeName(s)] = diff;
      fusedSessions.set(modelKey(s), session);
    }
  } catch (e) {
    const error = String(e?.message ?? e).trim();
    log(`ONNX Runtime Web (fused attention) left out: ${error}`);
    return { error };
  }
  log(`ONNX Runtime Web (fused attention): max |fused - plain| ${Math.max(...Object.values(maxAbsDiff)).toExponential(2)}`);
  return { sessions: fusedSessions, maxAbsDiff };
}

export async function runSuite({ core, coreRelaxed = null, ceiling, fusedCeiling = null, ort, tf, models, shapes = SHAPES, rounds = 7,
  minMs = 5, log = () => {} }) {
  const sessions = new Map();
  let fused = null;
  if (ort) {
    const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all', intraOpNumThreads: 1, interOpNumThreads: 1 };
    for (const s of shapes) sessions.set(modelKey(s), await ort.InferenceSession.create(models[modelKey(s)], options));
    fused = await fusedSessionsChecked(ort, models, shapes, sessions, options, log);
  }
  const impls = implementations({ core, coreRelaxed, ort, tf, sessions, fusedSessions: fused?.sessions });
  const names = Object.keys(impls);
  const cases = shapes.map((s) => {
    const x = makeInputs(s);
    return { s, fns: names.map((name) => impls[name](s, x)), samples: names.map(() => []) };
  });
  // Warm up: at least 10 calls and 200 ms each.
  for (const { fns } of cases)
    for (const fn of fns.filter(Boolean)) {
      const start = performance.now();
      for (let i = 0; i < 10 || performance.now() - start < 200; i++) await fn();
    }
  // Rounds outermost, so a burst of load elsewhere on the machine spreads over every shape
  // and implementation instead of spoiling one of them.
  const ceilingSamples = [], fusedCeilingSamples = [];
  for (let r = 0; r < rounds; r++) {
    for (const { fns, samples } of cases)
      for (let i = 0; i < names.length; i++) {
        const j = (i + r) % names.length;
        if (fns[j]) samples[j].push(await batch(fns[j], minMs));
      }
    // The ceiling once per round too, so it sees the same machine as the kernels.
    ceilingSamples.push(await measureCeiling(ceiling, { rounds: 1 }));
    if (fusedCeiling) fusedCeilingSamples.push(await measureCeiling(fusedCeiling, { rounds: 1 }));
    log(`round ${r + 1}/${rounds} done`);
  }
  const rows = [];
  for (const { s, samples } of cases)
    for (let j = 0; j < names.length; j++) {
      if (!samples[j].length) continue;
      const seconds = median(samples[j]);
      // perRoundMs: one batch's ms per call for each round, in round order (the report pairs
      // them with ours from the same round).
      rows.push({ shape: shapeName(s), kind: s.kind, n: s.n, impl: names[j], ms: seconds * 1e3, gflops: shapeFlops(s) / seconds / 1e9,
        perRoundMs: samples[j].map((x) => x * 1e3) });
      log(`${shapeName(s).padEnd(36)} ${names[j].padEnd(36)} ${(seconds * 1e3).toFixed(3).padStart(9)} ms ${(shapeFlops(s) / seconds / 1e9).toFixed(1).padStart(6)} GFLOP/s`);
    }
  // ceilingPerRound pairs with each row's perRoundMs (ceilingShare in run.mjs).
  return { rows, ceiling: median(ceilingSamples), ceilingPerRound: ceilingSamples, fusedCeiling: fusedCeiling ? median(fusedCeilingSamples) : null,
    fused: fused && { error: fused.error, maxAbsDiff: fused.maxAbsDiff } };
}
