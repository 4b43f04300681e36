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
//   terminate(): stops the worker; calls still pending reject.
export function createAttentionWorker({ url = new URL('./attnlab-core-worker.mjs', import.meta.url) } = {}) {
  const worker = new Worker(url, { type: 'module' });
  const pending = new Map();
  let next = 0;
  const failAll = (error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.onmessage = (event) => {
    const { id, error, ...result } = event.data;
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    if (error) {
      const Kind = error.name === 'TypeError' ? TypeError : error.name === 'RangeError' ? RangeError : Error;
      call.reject(new Kind(error.message));
    } else {
      call.resolve(result);
    }
  };
  worker.onerror = (event) => failAll(new Error(`attention worker failed: ${event.message ?? 'could not start'}`));
  return {
    attention(args) {
      // The worker's output comes back transferred; it cannot write an array of this thread.
      if (args?.into !== undefined)
        return Promise.reject(new TypeError('into is not taken by the worker: its output comes back as a fresh array'));
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, method: 'attention', args });
      });
    },
    terminate() {
      worker.terminate();
      failAll(new Error('attention worker terminated'));
    },
  };
}
