// attnlab-core-worker.mjs: a module Web Worker that runs long work off the page's thread
// (long attention, the overview of long attention, training the language model on a text), with its own fresh instance of
// the math module. Start it through attnlab-core-offthread.mjs (createAttentionWorker,
// createLanguageModelTrainerWorker); the messages are:
//   in:  {id, method: 'attention', args}   args as attention() of attnlab-core.mjs; the
//        worker always streams (returnWeights: false), so only the output comes back
//   out: {id, output, milliseconds, wasmMemoryBytes, isa}
//        output: Float32Array (nq*dv), transferred; milliseconds: the call's wall time in
//        the worker; wasmMemoryBytes: the instance's memory after the call (its high-water
//        mark); isa: the kernels' instruction set ('simd128')
//   in:  {id, method: 'lmStart', args}     args as createLanguageModelTrainer(); out: {id, info}
//   in:  {id, method: 'lmRun'}             trains until the planned steps or lmStop; meanwhile
//        {progress: {step, steps, trainBits, heldOutBits?, charactersPerSecond, seconds, look?}}
//        after each slice of steps (heldOutBits where an evaluation point fell); out: {id, step,
//        stopped, evaluation: {heldOutBits, bigramBits, tokens}}. At step 0 and at each
//        evaluation point the progress carries a look at the model as it is: {heads: [{layer,
//        head, label, score, previous}] on the held-out part's first context - 1 characters,
//        sample: {prompt, text}, a sample written after the held-out part's first characters}
//   in:  {method: 'lmPause' | 'lmResume' | 'lmStop'}  (no answer; lmStop also ends a pause)
//   in:  {id, method: 'lmSave'}            out: {id, bytes: Uint8Array (the .attnlm), transferred}
//   in:  {id, method: 'lmEvaluate'}        out: {id, evaluation}
//   in:  {id, method: 'lmLook'}            out: {id, step, look} (the look above, at any point)
//   in:  {id, method: 'overview', args}    args as overviewBegin() of attnlab-core.mjs; runs the
//        whole pass in slices of about 0.1 s, meanwhile {id, progress: {rowsDone, progress}} after
//        each; out: {id, pooled, rows, cols, keyTotals, rowMax, rowLse, scale, milliseconds,
//        wasmMemoryBytes, isa} (arrays transferred). The job stays for regions until the next
//        overview or overviewFree.
//   in:  {id, method: 'overviewRegion', args: {q0, q1, k0, k1}}   out: {id, weights, rows, cols}
//        of the last overview (weights transferred)
//   in:  {id, method: 'overviewFree'}      out: {id, freed}: drops the last overview's job
//   or:  {id, error: {name, message}}      the TypeError / RangeError of a bad argument
import createAttnlabCore from './attnlab-core.mjs';

// The module finds its own .wasm beside itself (and the build this browser can run).
const ready = createAttnlabCore();

// ---- training on a text ----------------------------------------------------------------

// A slice is the steps run between two looks at the message queue (pause, stop): about a
// tenth of a second of training, so a click is answered at once.
const SLICE_SECONDS = 0.1;
let lm = null;  // {trainer, step, paused, stopped, running, retired, wake}

// A run's trainer is freed when it is replaced (lmStart) and not running; a running one when
// its loop sees that.
function retire(run) {
  run.retired = run.stopped = true;
  run.paused = false;
  run.wake?.();
  if (!run.running) run.trainer.dispose();
}

// The held-out part's characters (code points, line ends made '\n' and a leading byte-order
// mark dropped, as the core's split counts them).
function heldOutCharacters(text, info) {
  const normal = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  return Array.from(normal).slice(info.trainCharacters);
}

// What the model does now: each head's label on the held-out part's first context - 1
// characters (the window a head of this model reads at once), and a sample after its first
// characters (temperature 0.8, top-k 20, seed 1: the same sample for the same weights).
const SAMPLE_PROMPT = 24;
const SAMPLE_TOKENS = 120;
function look(run) {
  try {
    return lookAt(run);
  } catch (e) {
    // A look is a view of the run, not part of it: the training goes on without it.
    return { error: String(e?.message ?? e) };
  }
}

function lookAt(run) {
  const { trainer } = run;
  const model = trainer.model();
  try {
    const probe = run.heldOut.slice(0, trainer.info.context - 1).join('');
    const heads = model.attention(probe).labels.map((l) => ({
      layer: l.layer, head: l.head, label: l.label, score: l.score, previous: l.scores.previous ?? 0,
    }));
    // After the held-out part's leading line break, up to a word's end.
    const start = run.heldOut[0] === '\n' ? 1 : 0;
    let prompt = run.heldOut.slice(start, start + SAMPLE_PROMPT).join('');
    const space = prompt.lastIndexOf(' ');
    if (space > SAMPLE_PROMPT / 2) prompt = prompt.slice(0, space + 1);
    const topK = Math.min(20, model.config.vocab);  // a text of few characters has fewer tokens
    const steps = model.generate({ prompt, tokens: SAMPLE_TOKENS, temperature: 0.8, topK, seed: 1 });
    return { heads, sample: { prompt, text: steps.map((t) => t.token).join('') } };
  } finally {
    model.dispose();
  }
}

async function lmRun() {
  const run = lm;
  if (run.running) throw new Error('this training is already running');
  run.running = true;
  const { trainer } = run;
  const info = trainer.info;
  const windowCharacters = info.batch * info.context;  // characters read per step
  let slice = 1;
  let trainSeconds = 0;
  if (run.step === 0) self.postMessage({ progress: { step: 0, steps: info.steps, seconds: 0, charactersPerSecond: 0, look: look(run) } });
  while (!run.stopped && run.step < info.steps) {
    if (run.paused) await new Promise((resolve) => { run.wake = resolve; });
    if (run.stopped) break;
    // A slice ends at the next evaluation point, so a held-out figure is reported at its step.
    const toPoint = info.evalEvery - (run.step % info.evalEvery);
    const start = performance.now();
    const r = trainer.step(Math.min(slice, toPoint));
    const seconds = (performance.now() - start) / 1000;
    trainSeconds += seconds;
    const ran = Math.max(1, r.step - run.step);
    run.step = r.step;
    // The next slice: about SLICE_SECONDS of steps at this slice's pace.
    slice = Math.max(1, Math.min(50, Math.round(ran * SLICE_SECONDS / Math.max(seconds, 1e-3))));
    const progress = { step: r.step, steps: info.steps, trainBits: r.trainBits, seconds: trainSeconds,
      charactersPerSecond: (r.step * windowCharacters) / Math.max(trainSeconds, 1e-9) };
    if (r.heldOutBits !== undefined) {
      progress.heldOutBits = r.heldOutBits;
      progress.look = look(run);
    }
    self.postMessage({ progress });
    await new Promise((resolve) => setTimeout(resolve, 0));  // let pause and stop arrive
  }
  run.running = false;
  if (run.retired) {
    trainer.dispose();
    return { step: run.step, stopped: true, evaluation: null };
  }
  return { step: run.step, stopped: run.stopped, evaluation: trainer.evaluate() };
}

function lmControl(method) {
  if (!lm) return;
  if (method === 'lmPause') lm.paused = true;
  if (method === 'lmResume' || method === 'lmStop') {
    lm.paused = false;
    if (method === 'lmStop') lm.stopped = true;
    lm.wake?.();
    lm.wake = null;
  }
}

// ---- the overview of long attention --------------------------------------------------

// A slice is the rows stepped between two progress reports: about a tenth of a second.
const OVERVIEW_SLICE_MS = 100;
let overviewJob = null;  // the last overview's job, kept for regions

async function overview(core, args, progress) {
  overviewJob?.dispose();
  overviewJob = null;
  const start = performance.now();
  const job = core.overviewBegin(args);  // throws on a refused argument
  overviewJob = job;
  let rows = 32, report;
  do {
    const sliceStart = performance.now();
    report = job.step(rows);
    const ms = performance.now() - sliceStart;
    rows = Math.max(32, Math.min(8192, Math.round(rows * OVERVIEW_SLICE_MS / Math.max(ms, 1))));
    progress({ rowsDone: report.rowsDone, progress: report.progress });
  } while (!report.done);
  const result = job.result();
  const milliseconds = performance.now() - start;
  const transfer = [result.pooled.buffer, result.keyTotals.buffer, result.rowMax.buffer, result.rowLse.buffer];
  return [{ ...result, milliseconds, wasmMemoryBytes: core.wasmMemoryBytes(), isa: core.kernelInfo().isa }, transfer];
}

const METHODS = {
  async attention(core, args) {
    const start = performance.now();
    const { output } = core.attention({ ...args, returnWeights: false });
    const milliseconds = performance.now() - start;
    return [{ output, milliseconds, wasmMemoryBytes: core.wasmMemoryBytes(), isa: core.kernelInfo().isa }, [output.buffer]];
  },
  overview,
  async overviewRegion(core, args) {
    if (!overviewJob) throw new Error('no overview was run (overview)');
    const region = overviewJob.region(args);
    return [region, [region.weights.buffer]];
  },
  async overviewFree() {
    const freed = overviewJob !== null;
    overviewJob?.dispose();
    overviewJob = null;
    return [{ freed }];
  },
  async lmStart(core, args) {
    const trainer = core.createLanguageModelTrainer(args);  // throws on a refused text: the old run stays
    if (lm) retire(lm);
    lm = { trainer, step: 0, paused: false, stopped: false, running: false, retired: false, wake: null,
      heldOut: heldOutCharacters(args.text, trainer.info) };
    return [{ info: trainer.info }];
  },
  async lmRun() {
    if (!lm) throw new Error('no training was started (lmStart)');
    return [await lmRun()];
  },
  async lmSave() {
    if (!lm) throw new Error('no training was started (lmStart)');
    const bytes = lm.trainer.save();
    return [{ bytes }, [bytes.buffer]];
  },
  async lmLook() {
    if (!lm) throw new Error('no training was started (lmStart)');
    return [{ step: lm.step, look: look(lm) }];
  },
  async lmEvaluate() {
    if (!lm) throw new Error('no training was started (lmStart)');
    return [{ evaluation: lm.trainer.evaluate() }];
  },
};

self.onmessage = async (event) => {
  const { id, method, args } = event.data ?? {};
  if (method === 'lmPause' || method === 'lmResume' || method === 'lmStop') {
    lmControl(method);
    return;
  }
  try {
    const core = await ready;
    if (!Object.hasOwn(METHODS, method)) throw new TypeError(`unknown method '${method}'`);
    const [result, transfer = []] = await METHODS[method](core, args, (progress) => self.postMessage({ id, progress }));
    self.postMessage({ id, ...result }, transfer);
  } catch (e) {
    self.postMessage({ id, error: { name: e?.name ?? 'Error', message: String(e?.message ?? e) } });
  }
};
