// The WebAssembly benchmark in Chromium: the suite of wasm-suite.mjs on the page's main
// thread, then 32k-token streaming attention in a worker on a fresh math instance, and the
// 32k-token overview likewise (overview-page.mjs).
// bench/run.mjs calls window.runBenchmark() and reads what it returns.
import * as ort from '/ort/ort.wasm.min.mjs';
import createAttnlabCore from '/core/attnlab-core.mjs';
import { createAttentionWorker } from '/core/attnlab-core-offthread.mjs';
import { buildRuns } from '/core/builds.mjs';
import createCeiling from '/ceiling/attnlab-bench-ceiling.mjs';
import { lcgFiller, overview32k } from './overview-page.mjs';
import { SHAPES, fusedModelKey, modelKey, runSuite } from './wasm-suite.mjs';

const logElement = document.getElementById('log');
const log = (line) => {
  logElement.textContent += line + '\n';
  console.log(line);
};

async function streaming32k() {
  const n = 32768, d = 64;
  const next = lcgFiller(7), fill = () => next(n * d);
  const worker = createAttentionWorker({ url: '/core/attnlab-core-worker.mjs' });
  const q = fill(), k = fill(), v = fill();
  // A small call first, so the worker's instance is compiled and warm; memory is read after
  // the big call (the instance's high-water mark).
  await worker.attention({ q: q.subarray(0, 512 * d), k: k.subarray(0, 512 * d), v: v.subarray(0, 512 * d), nq: 512, nk: 512, dk: d, dv: d });
  const r = await worker.attention({ q, k, v, nq: n, nk: n, dk: d, dv: d });
  worker.terminate();
  return { n, d, ms: r.milliseconds, wasmMemoryBytes: r.wasmMemoryBytes, isa: r.isa };
}

window.runBenchmark = async ({ rounds }) => {
  const tf = window.tf;
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = '/ort/';
  tf.wasm.setWasmPaths('/tfjs-wasm/');
  await tf.setBackend('wasm');
  await tf.ready();
  const core = await createAttnlabCore();
  // Where the engine runs relaxed SIMD, the relaxed-SIMD build too (an extra row), and the
  // relaxed_madd ceiling beside the multiply-add one.
  const coreRelaxed = buildRuns('relaxed') ? await createAttnlabCore({ build: 'relaxed' }) : null;
  const ceilingModule = await createCeiling();
  const ceiling = { multiplyAdd: (n) => ceilingModule._ceiling_multiply_add(n) };
  let fusedCeiling = null;
  if (coreRelaxed) {
    const { default: createCeilingRelaxed } = await import('/ceiling/attnlab-bench-ceiling-relaxed.mjs');
    const relaxedModule = await createCeilingRelaxed();
    fusedCeiling = { multiplyAdd: (n) => relaxedModule._ceiling_multiply_add(n) };
  }
  const models = {};
  for (const s of SHAPES)
    for (const key of [modelKey(s), fusedModelKey(s)]) {
      const response = await fetch(`/models/${key}.onnx`);
      if (response.ok) models[key] = new Uint8Array(await response.arrayBuffer());
    }
  const suite = await runSuite({ core, coreRelaxed, ceiling, fusedCeiling, ort, tf, models, rounds, log });
  const streaming = await streaming32k();
  log(`32k streaming in a worker: ${(streaming.ms / 1000).toFixed(2)} s, wasm memory ${(streaming.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB`);
  const overview = await overview32k();
  log(`32k overview in a worker: ${(overview.ms / 1000).toFixed(2)} s, wasm memory ${(overview.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB`);
  return { ...suite, streaming, overview, build: core.build, kernels: core.kernelInfo(), relaxedKernels: coreRelaxed?.kernelInfo() ?? null, tfBackend: tf.getBackend(), userAgent: navigator.userAgent,
    crossOriginIsolated: self.crossOriginIsolated };
};
