// The WebAssembly benchmark under Node (no --no-experimental-fetch: with it onnxruntime-web
// would load a slower build). Run by bench/run.mjs:
//   node --experimental-wasm-relaxed-simd bench/wasm-node.mjs DIST_DIR CEILING_DIR OUT.json
// The flag only lets the extra row of our relaxed-SIMD build (loaded by name) and its ceiling
// run; the main row is the build a plain Node picks (the same without the flag), and the peers
// use no relaxed-SIMD instruction.
// DIST_DIR holds attnlab-core.mjs (ours), CEILING_DIR attnlab-bench-ceiling.{mjs,wasm}.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-web';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { SHAPES, fusedModelKey, makeInputs, modelKey, runSuite } from './wasm-suite.mjs';
import { multiHeadFusedModel, multiHeadModel, singleHeadFusedModel, singleHeadModel } from './onnx-models.mjs';

const [distDir, ceilingDir, outFile] = process.argv.slice(2);
const { default: createAttnlabCore } = await import(path.resolve(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();
const { buildRuns } = await import(path.resolve(distDir, 'builds.mjs'));
const coreRelaxed = buildRuns('relaxed') ? await createAttnlabCore({ build: 'relaxed' }) : null;
async function loadCeiling(name) {
  const { default: create } = await import(path.resolve(ceilingDir, `${name}.mjs`));
  const m = await create({ wasmBinary: fs.readFileSync(path.resolve(ceilingDir, `${name}.wasm`)) });
  return { multiplyAdd: (n) => m._ceiling_multiply_add(n) };
}
const ceiling = await loadCeiling('attnlab-bench-ceiling');
const fusedCeiling = coreRelaxed ? await loadCeiling('attnlab-bench-ceiling-relaxed') : null;

ort.env.wasm.numThreads = 1;
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
setWasmPaths(path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist') + '/');
await tf.setBackend('wasm');
await tf.ready();

const models = {};
for (const s of SHAPES) {
  models[modelKey(s)] = s.kind === 'single' ? singleHeadModel(s.n, s.d) : multiHeadModel(s.n, s.dModel, s.heads, makeInputs(s));
  models[fusedModelKey(s)] = s.kind === 'single' ? singleHeadFusedModel(s.n, s.d) : multiHeadFusedModel(s.n, s.dModel, s.heads, makeInputs(s));
}
const rounds = Number(process.env.ROUNDS ?? 7);
const result = await runSuite({ core, coreRelaxed, ceiling, fusedCeiling, ort, tf, models, rounds, log: (line) => console.log(`[node] ${line}`) });
fs.writeFileSync(outFile, JSON.stringify({ ...result, build: core.build, kernels: core.kernelInfo(), relaxedKernels: coreRelaxed?.kernelInfo() ?? null, node: process.version, tfBackend: tf.getBackend() }, null, 1));
