// A course author's script against the published package's types: every exported function
// of 'attention-lab', 'attention-lab/core' and 'attention-lab/core/offthread', called with
// its documented arguments. tests/node/package.test.mjs compiles it with `tsc --noEmit
// --strict` in a scratch project that installed build/web/dist, and checks that a misnamed
// argument fails to compile. It is never run.
import { createLab, nextFrame, makeHandle, bridgeTouch, MESSAGE_VERSION, LabDestroyedError } from 'attention-lab';
import type { LabHandle, LabSession, LabState, LabStatePatch } from 'attention-lab';
import createAttnlabCore from 'attention-lab/core';
import type { AttnlabCore, EfficientKind, LanguageModelTrainer, Trainer } from 'attention-lab/core';
import { createAttentionWorker, createLanguageModelTrainerWorker } from 'attention-lab/core/offthread';

async function mathModule(): Promise<number> {
  const core: AttnlabCore = await createAttnlabCore();
  // The tutorial's worked example: two tokens, d_k = 2.
  const q = new Float32Array([1, 2, 2, 1]), k = new Float32Array([2, 1, 1, 2]), v = new Float32Array([3, 0, 0, 3]);
  const { scores, weights, output, scale } = core.attention({ q, k, v, nq: 2, nk: 2, dk: 2, dv: 2, causal: false });
  const streamed: Float32Array = core.attention({ q, k, v, nq: 2, nk: 2, dk: 2, dv: 2, returnWeights: false }).output;
  const rope = core.attention({ q, k, v, nq: 2, nk: 2, dk: 2, dv: 2, positional: { kind: 'rope', base: 500, pairing: 'interleaved' } });
  const alibi = core.attention({ q, k, v, nq: 2, nk: 2, dk: 2, dv: 2, positional: { kind: 'alibi', slope: 0.5 } });
  const mine = { scores: new Float32Array(4), weights: new Float32Array(4) };
  const reused: Float32Array = core.attention({ q, k, v, nq: 2, nk: 2, dk: 2, dv: 2, into: mine }).weights;
  const reusedOut: Float32Array = core.attention({ q, k, v, nq: 2, nk: 2, dk: 2, dv: 2, returnWeights: false, into: { output: new Float32Array(4) } }).output;
  const gqa = core.groupedQueryAttention({ q: new Float32Array(16), k: k, v: v, n: 2, dk: 2, dv: 2, heads: 4, kvHeads: 1, causal: true });
  const flash = core.flashAttention({ q, k, v, nq: 2, nk: 2, dk: 2, dv: 2, blockQ: 1, blockK: 1 });
  const flashM: number = flash.steps[flash.steps.length - 1].m[0] + flash.workingFloats + gqa.kvHeadOf[3] + gqa.weights.length;
  const tokens = core.tokenize('the cat sat');
  const kinds: string[] = tokens.map((t) => `${t.kind}:${t.start}-${t.end}`);
  const sm = core.softmax([1, 2, 3], { stable: false, precision: 'float16' });
  const x = core.randomNormal({ seed: 1, rows: 4, cols: 8 });
  const w = core.randomNormal({ seed: 2, rows: 8, cols: 8 });
  const mha = core.multiHeadAttention({ x, wq: w, wk: w, wv: w, wo: w, nq: 4, dModel: 8, heads: 2, causal: true });
  const mhaOut = core.multiHeadAttentionOutput({ x, wq: w, wk: w, wv: w, wo: w, nq: 4, dModel: 8, heads: 2, into: { output: new Float32Array(32) } });
  const eff = core.efficientAttention({ variant: 'window', q: x, k: x, v: x, n: 4, dk: 8, dv: 8, window: 1, display: true });
  const chart = core.costChart({ variants: ['exact', 'linear'], ns: [64, 128], dk: 16, dv: 16, measurements: 1 });
  const variance: number = core.dotProductVariance({ dk: 64, samples: 1000, scaled: true });
  const histogram = core.dotProductHistogram({ dk: 16, bins: 20, seed: 3 });
  const curve = core.saturationCurve({ dks: [4, 16, 64], scaled: false, rows: 16, keys: 8 });
  const precision = core.softmaxPrecision({ row: new Float32Array([10, 20]), precision: 'float32' });
  const rolled: Float32Array = core.rollout({ weights: new Float32Array([1, 0, 0.5, 0.5]), layers: 1, heads: 1, n: 2, pool: 'max', residual: 0 });
  const job = core.overviewBegin({ q, k, nq: 2, nk: 2, dk: 2, block: 1, pool: 'max', causal: true });
  const { progress } = job.step(64);
  const { pooled, keyTotals, rowLse } = job.result();
  const region: Float32Array = job.region({ q0: 0, q1: 2, k0: 0, k1: 1 }).weights;
  job.dispose();
  const causalKinds: EfficientKind[] = core.choices().efficientKind.filter((row) => row.causal).map((row) => row.name);
  const { isa, lanes } = core.kernelInfo();
  const bytes: number = core.wasmMemoryBytes();
  const tasks = core.trainingTasks().tasks.map((t) => t.name);
  const run = core.trainTask({ task: 'copy', steps: 10, layers: 1, heads: 1, dModel: 16, evalSequences: 10 });
  const trainer: Trainer = core.createTrainer({ task: 'induction', seed: 2, init: 'small', noScale: false });
  trainer.step(5);
  const history = trainer.history({ from: 2 });
  const evaluation = trainer.evaluate({ sequences: 20 });
  const heads = trainer.headScores().filter((h) => h.label === 'induction');
  const probe = trainer.probe();
  const file: Uint8Array = trainer.save({ optimizer: false });
  const again = core.loadTrainer(file);
  const config = again.config();
  trainer.dispose();
  again.dispose();
  const preset = core.languageModelTextPresets().find((p) => p.default)?.name ?? 'page';
  const lmTrainer: LanguageModelTrainer = core.createLanguageModelTrainer({ text: 'the cat sat on the mat\n'.repeat(200), seed: 1, preset, steps: 20 });
  const { trainBits, heldOutBits } = lmTrainer.step(10);
  const { bigramBits } = lmTrainer.evaluate();
  const learned = lmTrainer.model();
  const lmFile: Uint8Array = lmTrainer.save();
  learned.dispose();
  lmTrainer.dispose();
  return progress + pooled[0] + keyTotals[1] + rowLse[0] + region[0] + trainBits + (heldOutBits ?? 0) + bigramBits + lmFile.length + lmTrainer.info.vocab + rope.scores[0] + alibi.weights[0] + flashM + scores[0] + weights[1] + output[0] + scale + streamed[0] + reused[0] + reusedOut[0] + kinds.length + causalKinds.length + sm.weights[0] + mha.weights.length +
    mhaOut.output[0] + eff.relativeError + (eff.display?.nonzeros[0] ?? 0) + (chart.series[0].slope ?? 0) + variance +
    histogram.counts.length + curve[0].entropy + precision.weights[1] + rolled[3] + lanes + isa.length + bytes + tasks.length +
    (run.finalLoss ?? 0) + history.loss.length + evaluation.tokenAccuracy + heads.length + probe.weights.length +
    config.parameters + trainer.steps;
}

async function offThread(q: Float32Array, k: Float32Array, v: Float32Array): Promise<number> {
  const worker = createAttentionWorker({ url: new URL('./attnlab-core-worker.mjs', 'https://example.org/lab/') });
  const { output, milliseconds, wasmMemoryBytes } = await worker.attention({ q, k, v, nq: 2, nk: 2, dk: 2, dv: 2, causal: true });
  const seen = await worker.overview({ q, k, nq: 2, nk: 2, dk: 2 }, { onProgress: ({ progress }) => console.log(progress) });
  const part = await worker.region({ q0: 0, q1: 1, k0: 0, k1: 2 });
  await worker.freeOverview();
  console.log(seen.pooled[0] + seen.milliseconds + part.weights[1]);
  worker.terminate();
  const lm = createLanguageModelTrainerWorker({ onProgress: ({ step, steps, charactersPerSecond }) => console.log(step / steps, charactersPerSecond) });
  const { vocab, heldOutCharacters } = await lm.start({ text: 'the cat sat on the mat\n'.repeat(200), seed: 1 });
  lm.pause();
  lm.resume();
  const { evaluation } = await lm.run();
  const saved: Uint8Array = await lm.save();
  const { look } = await lm.look();
  const previous = 'heads' in look ? look.heads[0].previous + look.sample.text.length : look.error.length;
  lm.terminate();
  return output[0] + milliseconds + wasmMemoryBytes + vocab + heldOutCharacters + (evaluation?.heldOutBits ?? 0) + saved.length + previous;
}

async function figure(container: HTMLElement): Promise<string> {
  const lab: LabHandle = await createLab(container, {
    state: { sentence: 'the cat sat on the mat', panel: 'token', cursor: 1 },
    controls: true, tabs: false, releaseOffscreen: true, label: 'Attention of "cat"',
  });
  const state: LabState = await lab.setState({ cursor: 4 });
  // The state's keys are typed from the app's schema: nested objects for dotted keys, the
  // choices as unions of names, and a whole state is a patch too.
  const nested: LabState = await lab.setState({ lm: { tokens: 8 }, mask: { causal: true }, theme: 'light' });
  const tokensShown: number = nested.lm.tokens;
  const causal: boolean = lab.getState().mask.causal;
  const patch: LabStatePatch = lab.getState();
  const saved: LabSession = lab.session();
  const stop = lab.on('cursor', ({ cursor, token }) => console.log(cursor, token.toUpperCase()));
  lab.on('change', (link) => console.log(link.length));
  lab.on('describe', (text) => console.log(text.trim()));
  stop();
  const weights = lab.getMatrix('weights', 0);
  const { heatmaps, framebuffer } = lab.layout();
  const panels = lab.panels().map((p) => `${p.id} ${p.chapter} ${p.title} ${p.stateKeys.join()} ${p.trainingRuns ? "runs" : ""}`);
  const notice: string = lab.loadLink(lab.link());
  const refused: string = lab.loadSession(JSON.stringify(lab.session()));
  const size = lab.preferredHeight() + lab.framesDrawn() + lab.frameMs() + framebuffer.width;
  const imported = await lab.importFile({ name: 'attn.npz', bytes: new Uint8Array(16) }, { batch: 0, bfloat16: false });
  const reply = await lab.parseMessage(JSON.stringify({ attnlab: MESSAGE_VERSION, id: 1, type: 'getState' }));
  lab.poll(false);
  await nextFrame();
  const schema = lab.schema();
  const stats = lab.heapStats();
  const handle = makeHandle({ module: () => null, canvas: () => document.createElement('canvas'), frames: () => 0 });
  bridgeTouch(document.createElement('canvas'));
  await lab.setState(patch);
  const summary = [String(state.cursor), String(tokensShown), String(causal), String(weights?.length), Object.keys(heatmaps).join(), panels.join(), notice, refused,
    String(size), String(reply), String(imported.layers), lab.describe(), lab.uiString('panel_token'), Object.keys(schema).join(),
    String(stats), String(lab.getState().panel), String(handle.framesDrawn())].join('\n');
  // A page that removes the figure unmounts it; the handle then refuses with a clear error.
  await lab.destroy();
  try {
    lab.getState();
  } catch (error) {
    console.log(error instanceof LabDestroyedError, saved.version);
  }
  return summary;
}

export { mathModule, offThread, figure };
