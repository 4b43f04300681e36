// attnlab-core-offthread.mjs: long attention in a Web Worker, so the page stays responsive
// while n = 32768 tokens are attended (about 275 GFLOP at d = 64: seconds, not frames).
//
//   import { createAttentionWorker } from './attnlab-core-offthread.mjs';
//   const worker = createAttentionWorker();
//   const {output, milliseconds, wasmMemoryBytes, isa} = await worker.attention({q, k, v, nq, nk, dk, dv, causal, scale});
//   worker.terminate();
//
// createAttentionWorker({url}) -> {attention(args) -> Promise, terminate()}
//   url: where attnlab-core-worker.mjs is (default: beside this file).
//   attention(args): the arguments of attention() in attnlab-core.mjs; always the streaming
//     path (returnWeights: false): resolves to {output: Float32Array (nq*dv), milliseconds,
//     wasmMemoryBytes, isa} (see attnlab-core-worker.mjs). q, k and v are copied to the
//     worker (the caller keeps them). A bad argument rejects with the worker's TypeError /
//     RangeError, named as attention() names it; `into` is refused (a TypeError), as the
//     worker cannot write this thread's arrays.
//   overview(args, {onProgress}): overviewBegin(args) of attnlab-core.mjs run to its end in the
//     worker (q and k are copied to it), onProgress({rowsDone, progress}) after each slice of
//     about 0.1 s; resolves to job.result()'s {pooled, rows, cols, keyTotals, rowMax, rowLse,
//     scale} with {milliseconds, wasmMemoryBytes, isa} as attention's. The worker keeps the job
//     for region() until the next overview or freeOverview().
//   region({q0, q1, k0, k1}) -> Promise of {weights, rows, cols}: the exact weights of a region
//     (at most 1024 a side) of the last overview.
//   freeOverview() -> Promise of {freed}: drops the last overview's q and k from the worker.
//   terminate(): stops the worker; calls still pending reject.
//
// createLanguageModelTrainerWorker({url}) -> the language model trained on a text in a Worker
// (createLanguageModelTrainer of attnlab-core-lm.mjs, a slice of steps at a time):
//   start(options) -> Promise of the trainer's info; options as createLanguageModelTrainer's.
//     A refused text rejects with the reason and leaves the previous run as it was.
//   run() -> Promise of {step, stopped, evaluation: {heldOutBits, bigramBits, tokens}} once the
//     planned steps are done or stop() was called; meanwhile onProgress(p) gets {step, steps,
//     trainBits, heldOutBits (at evaluation points), charactersPerSecond, seconds}.
//   pause(), resume(), stop(); save() -> Promise of the .attnlm bytes (at any point of a run);
//   evaluate() -> Promise of {heldOutBits, bigramBits, tokens}; look() -> Promise of {step,
//   look: {heads, sample}} (the model as it is now: see attnlab-core-worker.mjs); terminate().
export function createLanguageModelTrainerWorker({ url = new URL('./attnlab-core-worker.mjs', import.meta.url), onProgress = () => {} } = {}) {
  const call = workerCaller(url, (data) => onProgress(data.progress));
  return {
    start: (options) => call('lmStart', options).then((r) => r.info),
    run: () => call('lmRun'),
    pause: () => call.post('lmPause'),
    resume: () => call.post('lmResume'),
    stop: () => call.post('lmStop'),
    save: () => call('lmSave').then((r) => r.bytes),
    evaluate: () => call('lmEvaluate').then((r) => r.evaluation),
    look: () => call('lmLook'),
    terminate: () => call.terminate(),
  };
}

// A worker's calls: call(method, args, onProgress) -> Promise of its answer (an error answer
// rejects with the worker's TypeError / RangeError; a message with the call's id and a
// `progress` goes to onProgress); call.post(method) sends without waiting; a message without
// an id goes to `other`.
function workerCaller(url, other = () => {}) {
  const worker = new Worker(url, { type: 'module' });
  const pending = new Map();
  let next = 0;
  const failAll = (error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.onmessage = (event) => {
    const { id, error, ...result } = event.data;
    if (id === undefined) {
      other(event.data);
      return;
    }
    const waiting = pending.get(id);
    if (!waiting) return;
    if (result.progress !== undefined && !error) {
      waiting.onProgress(result.progress);
      return;
    }
    pending.delete(id);
    if (error) {
      const Kind = error.name === 'TypeError' ? TypeError : error.name === 'RangeError' ? RangeError : Error;
      waiting.reject(new Kind(error.message));
    } else {
      waiting.resolve(result);
    }
  };
  worker.onerror = (event) => failAll(new Error(`worker failed: ${event.message ?? 'could not start'}`));
  const call = (method, args, onProgress = () => {}) => {
    const id = next++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, onProgress });
      worker.postMessage({ id, method, args });
    });
  };
  call.post = (method) => worker.postMessage({ method });
  call.terminate = () => {
    worker.terminate();
    failAll(new Error('worker terminated'));
  };
  return call;
}

export function createAttentionWorker({ url = new URL('./attnlab-core-worker.mjs', import.meta.url) } = {}) {
  const call = workerCaller(url);
  return {
    attention(args) {
      // The worker's output comes back transferred; it cannot write an array of this thread.
      if (args?.into !== undefined)
        return Promise.reject(new TypeError('into is not taken by the worker: its output comes back as a fresh array'));
      return call('attention', args);
    },
    overview(args, { onProgress = () => {} } = {}) {
      return call('overview', args, onProgress);
    },
    region(args) {
      return call('overviewRegion', args);
    },
    freeOverview() {
      return call('overviewFree');
    },
    terminate() {
      call.terminate();
    },
  };
}
