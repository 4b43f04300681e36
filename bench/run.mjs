// The benchmark behind scripts/bench.sh: runs every suite, then writes docs/PERFORMANCE.md.
//   node bench/run.mjs --native DIR --web DIR [--rounds N] [--out docs/PERFORMANCE.md]
//
//   1 native    Google Benchmark (attnlab_bench: our kernels per instruction set, the trace
//               path, Eigen, the plain-loop reference, the ceilings; attnlab_bench_eigen_<isa>:
//               Eigen built for wider sets) alternating round by round with ONNX Runtime
//               (onnxruntime-node, 1 thread) on the same shapes, in this process
//   2 Node      bench/wasm-node.mjs in plain node: ours, ONNX Runtime Web (the plain graph,
//               and as an extra row the graph with its fused attention operator), TensorFlow.js
//               wasm, the f32x4 ceiling, alternating (bench/wasm-suite.mjs)
//   3 Chromium  the same suite in headless Chromium (Debian's, via playwright-core), then
//               n = 32,768 streaming attention and the 32k-token overview (overview-page.mjs),
//               each in a Web Worker on a fresh instance
//   4 latency   the knob-to-picture time of the full lab in headless Chromium
//               (bench/latency.mjs); with --latency-before DIST also that of another build
//               of the site (an earlier commit's), measured the same way just before, named
//               in the report by --latency-before-label TEXT or else by DIST's checkout's commit
// Every figure is a median; ratios compare implementations measured in the same run.
//   --only node|chromium   that suite alone, its rows printed and no report written (for a
//                          quick look while working; the report needs every suite)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ortNode from 'onnxruntime-node';
import { FUSED_OPERATOR, multiHeadFusedModel, multiHeadModel, singleHeadFusedModel, singleHeadModel } from './onnx-models.mjs';
import { LAYER, SHAPES, RELAXED, TRACE, TRACE_INTO, fusedModelKey, makeInputs, modelKey, shapeFlops, shapeName } from './wasm-suite.mjs';
import { latencySuite } from './latency.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const nativeDir = path.resolve(option('--native', 'build/bench-native'));
const webDir = path.resolve(option('--web', 'build/bench-web'));
const rounds = Number(option('--rounds', '15'));
const outFile = path.resolve(option('--out', path.join(root, 'docs', 'PERFORMANCE.md')));
const latencyBefore = option('--latency-before', '') ? path.resolve(option('--latency-before', '')) : '';
const latencyBeforeLabel = option('--latency-before-label', '');
const only = option('--only', '');
if (only && !['node', 'chromium'].includes(only)) {
  console.error(`bench/run.mjs: --only takes node or chromium, not '${only}'`);
  process.exit(2);
}
const log = (line) => console.log(line);

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

// The q-quantile of a, linear between the two nearest ranks.
function quantile(a, q) {
  const s = [...a].sort((x, y) => x - y);
  const at = (s.length - 1) * q, lo = Math.floor(at), hi = Math.ceil(at);
  return s[lo] + (s[hi] - s[lo]) * (at - lo);
}

// slow's time as a multiple of fast's: the median over rounds of slow's time ÷ fast's in the
// same round, with the quartiles of those per-round ratios. Pairing by round cancels load
// that drifts over the run (on a shared machine two medians can come from different minutes);
// the quartiles show how far one round's verdict moves.
function ratioOf(slow, fast) {
  const a = slow.perRoundMs, b = fast.perRoundMs;
  if (!a?.length || a.length !== b?.length) throw new Error(`${slow.impl} and ${fast.impl} (${slow.shape}) have no rounds to pair`);
  const r = a.map((x, i) => x / b[i]);
  return { ratio: median(r), q1: quantile(r, 0.25), q3: quantile(r, 0.75) };
}
const spread = ({ q1, q3 }) => `${q1.toFixed(2)}–${q3.toFixed(2)}`;

const cpuFlags = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)[1].trim().split(/\s+/);
const cpuModel = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:(.*)$/m)?.[1] ?? 'unknown').trim();

// ---- 1 native ----------------------------------------------------------------------------

// Google Benchmark names -> (impl, shape key)
const NATIVE_SHAPES = { 'single-n128-d64': 0, 'single-n512-d64': 1, 'single-n2048-d64': 2, 'multi-n128-dm256-h8': 3, 'multi-n512-dm256-h8': 4 };

function runGoogleBenchmark(binary, samples) {
  const out = execFileSync(binary, ['--benchmark_format=json', '--benchmark_min_time=0.05'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  for (const b of JSON.parse(out).benchmarks) {
    const scale = { ns: 1e-6, us: 1e-3, ms: 1 }[b.time_unit];
    const ms = b.real_time * scale;
    const parts = b.name.split('/');
    if (parts[0] === 'ceiling') {
      (samples.ceiling[parts[1]] ??= []).push(b.GFLOPs / 1e9 * (b.cpu_time / b.real_time));
      continue;
    }
    const shape = parts.at(-1);
    const impl = parts.slice(0, -1).join('/');
    ((samples.rows[impl] ??= {})[shape] ??= []).push(ms);
  }
}

async function ortNodeSessions() {
  const sessions = {};
  for (const s of SHAPES) {
    const bytes = s.kind === 'single' ? singleHeadModel(s.n, s.d) : multiHeadModel(s.n, s.dModel, s.heads, makeInputs(s));
    sessions[modelKey(s)] = await ortNode.InferenceSession.create(bytes, {
      executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  }
  return sessions;
}

async function timeOrtNode(session, s, warm) {
  const x = makeInputs(s);
  const feeds = s.kind === 'single'
    ? { Q: new ortNode.Tensor('float32', x.q, [s.n, s.d]), K: new ortNode.Tensor('float32', x.k, [s.n, s.d]), V: new ortNode.Tensor('float32', x.v, [s.n, s.d]) }
    : { X: new ortNode.Tensor('float32', x.x, [s.n, s.dModel]) };
  const out = s.kind === 'single' ? 'O' : 'Y';
  if (warm) for (let i = 0; i < 10; i++) await session.run(feeds);
  const batchMs = [];
  for (let rep = 0; rep < 3; rep++) {
    let calls = 0, sink = 0;
    const start = performance.now();
    do {
      sink += (await session.run(feeds))[out].data[7];
      calls++;
    } while (performance.now() - start < 5);
    if (!Number.isFinite(sink)) throw new Error('onnxruntime-node gave a non-finite result');
    batchMs.push((performance.now() - start) / calls);
  }
  return median(batchMs);
}

async function nativeSuite() {
  const samples = { rows: {}, ceiling: {} };
  const sessions = await ortNodeSessions();
  const eigenWide = [];
  if (cpuFlags.includes('avx2') && cpuFlags.includes('fma')) eigenWide.push('avx2');
  if (cpuFlags.includes('avx512f') && cpuFlags.includes('fma')) eigenWide.push('avx512');
  for (let r = 0; r < rounds; r++) {
    log(`[native] round ${r + 1}/${rounds}`);
    const steps = [
      () => runGoogleBenchmark(path.join(nativeDir, 'attnlab_bench'), samples),
      ...eigenWide.map((isa) => () => runGoogleBenchmark(path.join(nativeDir, `attnlab_bench_eigen_${isa}`), samples)),
      async () => {
        for (const s of SHAPES) {
          const key = NATIVE_KEYS[modelKey(s)];
          ((samples.rows['onnxruntime-node'] ??= {})[key] ??= []).push(await timeOrtNode(sessions[modelKey(s)], s, r === 0));
        }
      },
    ];
    // Alternate: each round starts with a different step.
    for (let i = 0; i < steps.length; i++) await steps[(i + r) % steps.length]();
  }
  const rows = [];
  for (const [impl, byShape] of Object.entries(samples.rows))
    for (const [key, ms] of Object.entries(byShape)) {
      const s = SHAPES[NATIVE_SHAPES[key]];
      rows.push({ shape: shapeName(s), kind: s.kind, n: s.n, impl, ms: median(ms), gflops: shapeFlops(s) / median(ms) / 1e6, perRoundMs: ms });
    }
  const ceiling = Object.fromEntries(Object.entries(samples.ceiling).map(([isa, g]) => [isa, median(g)]));
  return { rows, ceiling, ortVersion: ortNodeVersion() };
}

const NATIVE_KEYS = { 'single-128-64': 'single-n128-d64', 'single-512-64': 'single-n512-d64', 'single-2048-64': 'single-n2048-d64',
  'multi-128-256-8': 'multi-n128-dm256-h8', 'multi-512-256-8': 'multi-n512-dm256-h8' };

function ortNodeVersion() {
  return JSON.parse(fs.readFileSync(path.join(benchDir, 'node_modules', 'onnxruntime-node', 'package.json'), 'utf8')).version;
}

// ---- 2 Node ------------------------------------------------------------------------------

function nodeSuite() {
  const out = path.join(webDir, 'bench-node.json');
  const r = spawnSync('node', ['--experimental-wasm-relaxed-simd', path.join(benchDir, 'wasm-node.mjs'), path.join(webDir, 'site-raw'), path.join(webDir, 'bench'), out],
    { stdio: 'inherit', cwd: benchDir, env: { ...process.env, ROUNDS: String(rounds) } });
  if (r.status !== 0) throw new Error('the Node suite failed');
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

// ---- 3 Chromium --------------------------------------------------------------------------

async function chromiumSuite() {
  const { onBenchPage } = await import('./chromium.mjs');
  // A site of symlinks: the math module, the ceiling, the peers' browser builds, the page.
  const site = path.join(webDir, 'bench-site');
  fs.rmSync(site, { recursive: true, force: true });
  fs.mkdirSync(path.join(site, 'models'), { recursive: true });
  const links = {
    core: path.join(webDir, 'site-raw'), ceiling: path.join(webDir, 'bench'),
    ort: path.join(benchDir, 'node_modules', 'onnxruntime-web', 'dist'),
    'tfjs-core': path.join(benchDir, 'node_modules', '@tensorflow', 'tfjs-core', 'dist'),
    'tfjs-wasm': path.join(benchDir, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist'),
    'page.html': path.join(benchDir, 'page.html'), 'page.mjs': path.join(benchDir, 'page.mjs'),
    'wasm-suite.mjs': path.join(benchDir, 'wasm-suite.mjs'), 'overview-page.mjs': path.join(benchDir, 'overview-page.mjs'),
  };
  for (const [name, target] of Object.entries(links)) fs.symlinkSync(target, path.join(site, name));
  for (const s of SHAPES) {
    fs.writeFileSync(path.join(site, 'models', `${modelKey(s)}.onnx`),
      s.kind === 'single' ? singleHeadModel(s.n, s.d) : multiHeadModel(s.n, s.dModel, s.heads, makeInputs(s)));
    fs.writeFileSync(path.join(site, 'models', `${fusedModelKey(s)}.onnx`),
      s.kind === 'single' ? singleHeadFusedModel(s.n, s.d) : multiHeadFusedModel(s.n, s.dModel, s.heads, makeInputs(s)));
  }
  return onBenchPage({ site, pagePath: 'page.html', log }, async (page, context) => {
    await page.waitForFunction(() => typeof window.runBenchmark === 'function');
    const result = await page.evaluate((r) => window.runBenchmark({ rounds: r }), rounds);
    result.chromiumVersion = context.browser()?.version() ?? execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim();
    return result;
  });
}

// ---- the report --------------------------------------------------------------------------

// The 32k-token overview's row (bench/overview-page.mjs; `node bench/overview.mjs` runs it alone).
function overviewNote(o) {
  if (!o) return '';
  return `
The overview of n = 32,768 tokens, d_k = 64 (block-pooled weights, ${o.rows} × ${o.cols} blocks of ${o.block}, each key's
total and each row's statistics by one streaming pass; \`overviewBegin\`) in headless Chromium, in a Web Worker on a
fresh instance, reporting progress ${o.progressReports} times: **${(o.ms / 1000).toFixed(2)} s** (${(2 * o.n ** 2 * o.d / o.ms / 1e6).toFixed(1)} GFLOP/s
of Q·Kᵀ, besides n² exponentials), wasm memory after the pass **${(o.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB**; then a
1024 × 1024 region's exact weights in ${o.regionMs.toFixed(1)} ms (round trip to the worker).`;
}

const PEERS = {
  native: ['onnxruntime-node', 'eigen/sse2', 'eigen/avx2', 'eigen/avx512', 'reference', 'attnlab-trace'],
  wasm: ['ONNX Runtime Web', 'ONNX Runtime Web (fused attention)', 'TensorFlow.js wasm', TRACE, TRACE_INTO, LAYER, RELAXED],
};

// What the fused-attention row is, or why a run has none (result.fused of bench/wasm-suite.mjs).
function fusedNote(node, chromium) {
  const heads = SHAPES.find((s) => s.kind === 'multi')?.heads ?? 'h';
  const runs = [['Node', node], ['Chromium', chromium]];
  const ran = runs.filter(([, r]) => r?.fused?.maxAbsDiff).map(([where, r]) => [where, Math.max(...Object.values(r.fused.maxAbsDiff))]);
  const refused = runs.filter(([, r]) => !r?.fused?.maxAbsDiff);
  const lines = [];
  if (ran.length) {
    const agreement = ran.every(([, d]) => d === 0)
      ? `Its output is bit for bit the plain graph's on the suite's inputs (${ran.map(([where]) => where).join(' and ')})`
      : `Its output differs from the plain graph's by at most ${ran.map(([where, d]) => `${d.toExponential(1)} (${where})`).join(' and ')} on the suite's inputs`;
    lines.push('The row ONNX Runtime Web (fused attention) is the same math with the attention core as one operator, ' +
      "`MultiHeadAttention` from ONNX Runtime's contrib domain `com.microsoft` (not a standard ONNX operator), " +
      'on the same wasm backend and thread: one head as MultiHeadAttention(Q, K, V) on (1, n, d) with num_heads = 1 and ' +
      `scale 1/√d; multi-head as the plain graph's three projection MatMuls, MultiHeadAttention with num_heads = ${heads} ` +
      `and scale 1/√d_k, then the W^O MatMul. ${agreement}. The acceptance ratios stay against the plain graph (the row ONNX Runtime Web).`);
  }
  for (const [where, r] of refused)
    lines.push(`ONNX Runtime Web's wasm backend ran no fused attention operator in ${where} (${FUSED_OPERATOR} was tried), ` +
      `so that table has no such row; ONNX Runtime said: ${r?.fused?.error ? `"${r.fused.error.replace(/\.$/, '')}"` : 'nothing (not tried in this run)'}.`);
  return lines.join('\n\n');
}

// What the relaxed-SIMD row is, and how it compares with the build the engine picks.
function relaxedNote(where, result) {
  const rows = SHAPES.map((s) => {
    const name = shapeName(s);
    const mine = result.rows.find((r) => r.shape === name && r.impl === 'attnlab SIMD (streaming)');
    const relaxed = result.rows.find((r) => r.shape === name && r.impl === RELAXED);
    return mine && relaxed ? `${ratioOf(mine, relaxed).ratio.toFixed(2)}× (${name})` : null;
  }).filter(Boolean);
  if (!rows.length) return `\n${where} ran no relaxed-SIMD row (the engine does not validate relaxed SIMD).\n`;
  return `\nThe row ${RELAXED} is the math module's relaxed-SIMD build, which a caller gets with
\`createAttnlabCore({build: 'relaxed'})\` and never by default: its kernels' multiply-adds are f32x4.relaxed_madd
(one fused multiply-add where the CPU has FMA), register tile ${result.relaxedKernels.tileRows}×${result.relaxedKernels.tileCols}. Its speed-up over the build ${where} picks
(the bold row): ${rows.join(', ')}.${where === 'Node' ? ' (This Node runs it because the suite passes --experimental-wasm-relaxed-simd.)' : ''}\n`;
}

function table(rows, ours, peers, ceiling, ceilingName) {
  const lines = [];
  const present = peers.filter((p) => rows.some((r) => r.impl === p));
  lines.push(`| shape | implementation | median ms | GFLOP/s | of the ${ceilingName} ceiling | ours ÷ it (speed-up) | middle half of the rounds |`);
  lines.push('|---|---|---:|---:|---:|---:|---:|');
  for (const s of SHAPES) {
    const name = shapeName(s);
    const mine = rows.find((r) => r.shape === name && r.impl === ours);
    if (!mine) continue;
    const shapeRows = [mine, ...present.map((p) => rows.find((r) => r.shape === name && r.impl === p)).filter(Boolean)];
    for (const r of shapeRows) {
      const paired = r === mine ? null : ratioOf(r, mine);
      const ratio = paired ? `**${paired.ratio.toFixed(2)}×**` : '—';
      lines.push(`| ${name} | ${r.impl === ours ? `**${r.impl}**` : r.impl} | ${r.ms.toFixed(3)} | ${r.gflops.toFixed(1)} | ${(100 * r.gflops / ceiling).toFixed(0)} % | ${ratio} | ${paired ? spread(paired) : '—'} |`);
    }
  }
  return lines.join('\n');
}

// ours ÷ peer against the target. With `ceiling` (the f32x4 multiply-add loop's GFLOP/s in
// the same run), a miss also says what share of that ceiling the target asks of us, beside
// the peer's own share: the bound of a kernel that multiplies and adds in separate steps.
function acceptance(rows, ours, peer, label, shapesWanted, target, ceiling = null) {
  return shapesWanted.map((shape) => {
    const mine = rows.find((r) => r.shape === shape && r.impl === ours);
    const theirs = rows.find((r) => r.shape === shape && r.impl === peer);
    if (!mine || !theirs) return `| ${shape} | ${label} | — | ≥ ${target}× | not measured |`;
    const paired = ratioOf(theirs, mine), ratio = paired.ratio;
    const share = (gflops) => `${(100 * gflops / ceiling).toFixed(0)} %`;
    const bound = ceiling ? `: ${target}× needs ${share(mine.gflops * target / ratio)} of the f32x4 ceiling (we ran at ${share(mine.gflops)}, the peer at ${share(theirs.gflops)})` : '';
    const verdict = ratio >= target ? 'met' : `missed by ${((1 - ratio / target) * 100).toFixed(0)} %${bound}`;
    return `| ${shape} | ${label} | ${ratio.toFixed(2)}× (${spread(paired)}) | ≥ ${target}× | ${verdict} |`;
  });
}

// Streaming's share of the f32x4 ceiling: per round, streaming's GFLOP/s in that round ÷ the
// ceiling measured at the end of the same round; the median and quartiles of those shares.
// Paired by round as the ratios are: on a shared host the kernels (loads, many instructions a
// cycle) lose more than the ceiling loop (registers only) when a neighbour is busy, and a
// share taken from two medians could mix a quiet minute with a busy one.
function ceilingShare(result, label, shape, target) {
  const mine = result.rows.find((r) => r.shape === shape && r.impl === 'attnlab SIMD (streaming)');
  if (!mine) return `| ${shape} | ${label} | — | ≥ ${target} % | not measured |`;
  const perRound = result.ceilingPerRound;
  if (perRound?.length !== mine.perRoundMs.length) throw new Error(`${label}: no ceiling for every round`);
  const shares = mine.perRoundMs.map((ms, i) => (100 * mine.gflops * mine.ms) / ms / perRound[i]);
  const share = median(shares);
  const range = `${quantile(shares, 0.25).toFixed(0)}–${quantile(shares, 0.75).toFixed(0)}`;
  return `| ${shape} | ${label} | ${share.toFixed(0)} % (${range}) | ≥ ${target} % | ${share >= target ? 'met' : `missed by ${(target - share).toFixed(0)} points`} |`;
}

// The trace path (every stage kept) against streaming: at most `target` times its time. It is
// measured as the public call writing into the caller's arrays: the stages the panels draw,
// plus copying them out of the module (the panels read them in place). The note gives the
// same call returning fresh arrays, from the same run.
function traceRatio(rows, label, shape, target) {
  const fast = rows.find((r) => r.shape === shape && r.impl === 'attnlab SIMD (streaming)');
  const into = rows.find((r) => r.shape === shape && r.impl === TRACE_INTO);
  const fresh = rows.find((r) => r.shape === shape && r.impl === TRACE);
  if (!fast || !into) return `| ${shape} | ${label} | — | ≤ ${target}× | not measured |`;
  const paired = ratioOf(into, fast), ratio = paired.ratio;
  const status = ratio <= target ? 'met' : `missed by ${((ratio / target - 1) * 100).toFixed(0)} %`;
  const note = fresh ? `; returning fresh arrays instead ${ratioOf(fresh, fast).ratio.toFixed(2)}×` : '';
  return `| ${shape} | ${label} | ${ratio.toFixed(2)}× (${spread(paired)}) | ≤ ${target}× | ${status}${note} |`;
}

const fmt = (x) => (x === null || x === undefined ? '—' : x.toFixed(1));

// The table of one latency scene: latency[key] (rows: temperature changes; scoreRows: a
// switch to the additive score), beside the same rows of the "before" build.
function latencySection(latency, before, key = 'rows') {
  const lines = ['| n | heads | end to end (ms) | frame CPU | compute | upload | ui | draw |' +
    (before ? ' before: end to end | before: compute (setState) |' : ''), '|---:|---:|---:|---:|---:|---:|---:|---:|' + (before ? '---:|---:|' : '')];
  for (const r of latency[key] ?? []) {
    const b = before?.[key]?.find((x) => x.n === r.n);
    lines.push(`| ${r.n} | ${r.heads} | ${fmt(r.endToEndMs)} | ${fmt(r.frameMs)} | ${fmt(r.computeMs)} | ${fmt(r.uploadMs)} | ${fmt(r.uiMs)} | ${fmt(r.drawMs)} |` +
      (before ? ` ${fmt(b?.endToEndMs)} | ${fmt(b?.setStateSyncMs)} |` : ''));
  }
  return lines.join('\n');
}

function report({ native, node, chromium, latency, latencyBeforeResult, commands, started, seconds }) {
  const activeIsa = native.rows.find((r) => r.impl.startsWith('attnlab/avx512')) ? 'avx512'
    : native.rows.find((r) => r.impl.startsWith('attnlab/avx2')) ? 'avx2' : 'sse2';
  const nativeOurs = `attnlab/${activeIsa}`;
  // Multi-head rows of the kernels are named by the active set only.
  const single = (n) => `single head n=${n} d=64`;
  const multi = (n) => `multi-head n=${n} dModel=256 h=8`;
  const wasmOurs = 'attnlab SIMD (streaming)';
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  return `# Performance

Generated by \`scripts/bench.sh\` on ${started} (${Math.round(seconds / 60)} min); do not edit by hand.
One thread, float32, every figure a median over ${rounds} rounds in which the implementations
alternate. GFLOP/s count the two products only (4·n²·d for one head; plus 8·n·d_model² of
projections for multi-head), the same count for every implementation. "ours ÷ it" is the
peer's time divided by ours in the same round, the median over rounds: above 1 we are faster.
Beside it, the middle half of those per-round ratios (their quartiles): how far one round's
verdict moves on this shared machine.

## Machine

| | |
|---|---|
| CPU | ${cpuModel}, ${os.cpus().length} cores; ${['avx2', 'fma', 'avx512f'].filter((f) => cpuFlags.includes(f)).join(', ')} |
| load average when written | ${load} (a shared machine: wall-clock medians, peers alternated in the same run) |
| Node | ${process.version} |
| Chromium | ${chromium.chromiumVersion ?? 'not run'} (headless) |
| peers | onnxruntime-web ${peerVersion('onnxruntime-web')}, onnxruntime-node ${native.ortVersion}, @tensorflow/tfjs-backend-wasm ${peerVersion('@tensorflow/tfjs-backend-wasm')} (backend: ${node.tfBackend}) |
| our kernels | native: ${activeIsa} chosen at run time (the binary is built for baseline x86-64); WebAssembly: ${node.kernels.isa} (Node), ${chromium.kernels?.isa ?? '—'} (Chromium), register tile ${node.kernels.tileRows}×${node.kernels.tileCols}${node.relaxedKernels ? `; the relaxed-SIMD build (by name only) ${node.relaxedKernels.tileRows}×${node.relaxedKernels.tileCols}` : ''} |

## Acceptance

| shape | against | ours ÷ it | target | |
|---|---|---:|---:|---|
${[
  ...acceptance(node.rows, wasmOurs, 'ONNX Runtime Web', 'ONNX Runtime Web (Node)', SHAPES.map(shapeName), 1.4, node.ceiling),
  ...acceptance(chromium.rows, wasmOurs, 'ONNX Runtime Web', 'ONNX Runtime Web (Chromium)', [single(512), single(2048)], 1.3, chromium.ceiling),
  ...acceptance(chromium.rows, wasmOurs, 'ONNX Runtime Web', 'ONNX Runtime Web (Chromium)', [multi(128), multi(512)], 1.2, chromium.ceiling),
  ...acceptance(node.rows, LAYER, 'ONNX Runtime Web', 'ONNX Runtime Web (Node), by multiHeadLayer', [multi(128), multi(512)], 1.4, node.ceiling),
  ...acceptance(chromium.rows, LAYER, 'ONNX Runtime Web', 'ONNX Runtime Web (Chromium), by multiHeadLayer', [multi(128), multi(512)], 1.2, chromium.ceiling),
  ceilingShare(node, 'streaming, of the f32x4 ceiling (Node)', single(2048), 75),
  ceilingShare(chromium, 'streaming, of the f32x4 ceiling (Chromium)', single(2048), 75),
  traceRatio(node.rows, 'trace ÷ streaming (Node)', single(512), 1.5),
  traceRatio(node.rows, 'trace ÷ streaming (Node)', single(2048), 2),
  traceRatio(chromium.rows, 'trace ÷ streaming (Chromium)', single(512), 1.5),
  traceRatio(chromium.rows, 'trace ÷ streaming (Chromium)', single(2048), 2),
  (() => {
    const r = latency.rows.find((x) => x.n === 1024);
    const c = r?.computeMs;
    return `| knob to picture, n = 1024, 4 heads | compute (Chromium) | ${fmt(c)} ms | < 30 ms | ${c === null || c === undefined ? 'not measured' : c < 30 ? 'met' : `missed by ${((c / 30 - 1) * 100).toFixed(0)} %`} |`;
  })(),
  ...acceptance(native.rows, nativeOurs, 'onnxruntime-node', 'onnxruntime-node (native)', SHAPES.map(shapeName), 1.0),
].join('\n')}

Streaming attention at n = 32,768, d = 64 in headless Chromium, in a Web Worker on a fresh
instance of the math module: **${(chromium.streaming.ms / 1000).toFixed(2)} s** (${(4 * 32768 ** 2 * 64 / chromium.streaming.ms / 1e6).toFixed(1)} GFLOP/s), wasm memory after the call
**${(chromium.streaming.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB** (target: under 64 MiB).
${overviewNote(chromium.overview)}

## Knob to picture

\`lab.setState({temperature})\` on the full lab in headless Chromium (${latency.chromiumVersion}), 4 heads,
d_model 64, the pipeline panel; medians of ${rounds} changes per size (bench/latency.mjs). End to end
is the promise, which resolves after the frame that drew the change and one more, so it includes
waiting for animation frames. The split is of that frame's CPU time: compute (the results; a
temperature change rescales the kept stages), upload (matrices to textures), ui (the widgets),
draw (ImGui::Render and the GL calls, where WebGL waits for SwiftShader, a CPU rasteriser in
another process, to finish the previous frame).${latencyBeforeResult ? ` "Before" is the site built at ${latencyBeforeResult.label}, measured just before in the same run; that build has no frameTimings(), so its compute is the synchronous part of setState, where the lab computes a change.` : ''}

${latencySection(latency, latencyBeforeResult)}

A change that scores anew: \`lab.setState({score: 'additive'})\` from the dot score (each timed
switch follows an untimed one back; the first switch warms up and is not timed), which projects and scores every head again instead of
rescaling; additive scoring is v·tanh(W_q q + W_k k) for every pair of tokens.

${latencySection(latency, latencyBeforeResult, 'scoreRows')}

## WebAssembly in Node (${process.version})

Ceiling: a tight loop of independent f32x4 multiply-adds, ${node.ceiling.toFixed(1)} GFLOP/s in this run${node.fusedCeiling ? `; the
same loop as f32x4.relaxed_madd (one fused instruction per multiply-add), ${node.fusedCeiling.toFixed(1)} GFLOP/s` : ''}.
${relaxedNote('Node', node)}
${fusedNote(node, chromium)}

"${TRACE}" is the public \`attention({q, k, v, ...})\` with its weights: it returns the scaled
scores and the weights, two n×n Float32Arrays, besides the output. "${TRACE_INTO}" is the same
call with \`into: {scores, weights, output}\`, three arrays the caller made once, which it writes and
returns. The two differ only in where the results go: fresh arrays cost their new memory, which in
Chromium is faulted in page by page and costs more than the copy. The trace acceptance rows use the
second (the stages the panels draw, and their copies out of the module, which the panels skip) and
give the first beside it.

The row ${LAYER} is \`core.multiHeadLayer({wq, wk, wv, wo, dModel, heads})\`, made once before the
timing, then \`layer.output({x, nq})\` per call: the weights are copied into the module and packed for
its GEMM once, as the ONNX Runtime sessions hold theirs as initializers (and pack them for MLAS once).
multiHeadAttentionOutput, the bold row, copies and packs all four weight matrices on every call.
The acceptance table gives both against the plain graph.

${table(node.rows, wasmOurs, PEERS.wasm, node.ceiling, 'f32x4')}

## WebAssembly in headless Chromium

Ceiling: the same loop, ${chromium.ceiling.toFixed(1)} GFLOP/s in this run${chromium.fusedCeiling ? `; the same loop as
f32x4.relaxed_madd, ${chromium.fusedCeiling.toFixed(1)} GFLOP/s` : ''}.
${relaxedNote('Chromium', chromium)}
${table(chromium.rows, wasmOurs, PEERS.wasm, chromium.ceiling, 'f32x4')}

## Native (Google Benchmark; onnxruntime-node from Node, alternating with it)

Ceilings (tight multiply-add loops, FMA where the set has it): ${Object.entries(native.ceiling).map(([isa, g]) => `${isa} ${g.toFixed(1)}`).join(', ')} GFLOP/s.
The kernels' row is compared with the ceiling of their own instruction set; the other sets of
our kernels are listed for reference, each against its own ceiling.

${table(native.rows, nativeOurs, [...PEERS.native, ...['attnlab/avx2', 'attnlab/sse2'].filter((i) => i !== nativeOurs)], native.ceiling[activeIsa], activeIsa)}

Rows: **attnlab/<isa>** our SIMD kernels (streaming attention; multi-head: projections on the
GEMM kernel, every head streamed); attnlab-trace the pipeline that keeps every stage (scores,
weights, output: what the panels draw); eigen/<isa> Eigen 3.4 products and softmax built for that
set (eigen/avx2 and eigen/avx512 are separate binaries); reference the plain-loop oracle (double
sums); onnxruntime-node the ONNX graph MatMul → Mul → Softmax → MatMul (multi-head: projections,
Reshape/Transpose per head, W^O), one intra-op thread. The WebAssembly peers run the same graphs
(ONNX Runtime Web, wasm backend, one thread; the fused-attention row the graph with
${FUSED_OPERATOR} described above) or the same products written for XNNPACK's 2-D fast
path (TensorFlow.js: K transposed first, heads sliced).

## Commands

\`\`\`sh
${commands.join('\n')}
\`\`\`
`;
}

function peerVersion(name) {
  return JSON.parse(fs.readFileSync(path.join(benchDir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')).version;
}

if (only) {
  // The suites log their rows as they go; the ratios to ONNX Runtime Web follow.
  const result = only === 'node' ? nodeSuite() : await chromiumSuite();
  for (const s of SHAPES) {
    const name = shapeName(s);
    const ours = result.rows.find((r) => r.shape === name && r.impl === 'attnlab SIMD (streaming)');
    const peers = result.rows.filter((r) => r.shape === name && r !== ours);
    log(`${name}: ${peers.map((r) => { const p = ratioOf(r, ours); return `${r.impl} ${p.ratio.toFixed(2)}x (${spread(p)})`; }).join(', ')}`);
  }
  log(`ceiling ${result.ceiling.toFixed(1)} GFLOP/s${result.fusedCeiling ? `, relaxed_madd ceiling ${result.fusedCeiling.toFixed(1)}` : ''}; ` +
    `build ${result.build}, kernels ${result.kernels?.isa}`);
  log(ceilingShare(result, `streaming, of the f32x4 ceiling (${only})`, shapeName(SHAPES.find((s) => s.kind === 'single' && s.n === 2048)), 75));
  process.exit(0);
}
const started = new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
const t0 = Date.now();
log('== native (Google Benchmark and onnxruntime-node, alternating)');
const native = await nativeSuite();
log('== WebAssembly in Node');
const node = nodeSuite();
log('== WebAssembly in headless Chromium');
const chromium = await chromiumSuite();
log('== knob to picture (the lab in headless Chromium)');
let latencyBeforeResult = null;
if (latencyBefore) {
  latencyBeforeResult = await latencySuite({ distDir: latencyBefore, rounds, log });
  // Else the commit of the checkout that DIST (CHECKOUT/build/web/dist) was built from, when
  // CHECKOUT is a git checkout of its own (not an exported tree inside another one).
  const checkout = path.resolve(latencyBefore, '..', '..', '..');
  const git = (...a) => spawnSync('git', ['-C', checkout, ...a], { encoding: 'utf8' }).stdout?.trim() ?? '';
  const commit = git('rev-parse', '--show-toplevel') === checkout ? git('log', '-1', '--format=%h') : '';
  latencyBeforeResult.label = latencyBeforeLabel || (commit ? `commit ${commit}` : latencyBefore);
}
const latency = await latencySuite({ distDir: path.join(webDir, 'dist'), rounds, log });
const commands = ['scripts/bench.sh [--rounds N]   # installs what it needs, builds, runs all three suites, writes this file',
  '# build folders: build/bench-native and build/bench-web, or BENCH_NATIVE_DIR / BENCH_WEB_DIR',
  `# this file: node bench/run.mjs --native ${path.relative(root, nativeDir)} --web ${path.relative(root, webDir)} --rounds ${rounds}` +
    (latencyBefore ? ` --latency-before ${path.relative(root, latencyBefore)}` : '') +
    (latencyBeforeLabel ? ` --latency-before-label '${latencyBeforeLabel}'` : ''),
  '# the "before" column: the site at BENCH_LATENCY_BEFORE_REV (default 4b8da67, where issue 23 began; none leaves it out),',
  '# exported and built once in build/bench-before; or BENCH_LATENCY_BEFORE=DIST, a site built elsewhere'];
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, report({ native, node, chromium, latency, latencyBeforeResult, commands, started, seconds: (Date.now() - t0) / 1000 }));
fs.writeFileSync(path.join(webDir, 'bench-results.json'), JSON.stringify({ native, node, chromium, latency, latencyBeforeResult }, null, 1));
log(`wrote ${path.relative(root, outFile)}`);
