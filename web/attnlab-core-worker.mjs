// attnlab-core-worker.mjs: a module Web Worker that runs long attention off the page's
// thread, with its own fresh instance of the math module. Start it through
// attnlab-core-offthread.mjs (createAttentionWorker); the messages are:
//   in:  {id, method: 'attention', args}   args as attention() of attnlab-core.mjs; the
//        worker always streams (returnWeights: false), so only the output comes back
//   out: {id, output, milliseconds, wasmMemoryBytes, isa}
//        output: Float32Array (nq*dv), transferred; milliseconds: the call's wall time in
//        the worker; wasmMemoryBytes: the instance's memory after the call (its high-water
//        mark); isa: the kernels' instruction set ('simd128')
//   or:  {id, error: {name, message}}      the TypeError / RangeError of a bad argument
import createAttnlabCore from './attnlab-core.mjs';

// The module finds its own .wasm beside itself (and the build this browser can run).
const ready = createAttnlabCore();

self.onmessage = async (event) => {
  const { id, method, args } = event.data ?? {};
  try {
    const core = await ready;
    if (method !== 'attention') throw new TypeError(`unknown method '${method}'`);
    const start = performance.now();
    const { output } = core.attention({ ...args, returnWeights: false });
    const milliseconds = performance.now() - start;
    self.postMessage({ id, output, milliseconds, wasmMemoryBytes: core.wasmMemoryBytes(), isa: core.kernelInfo().isa },
      [output.buffer]);
  } catch (e) {
    self.postMessage({ id, error: { name: e?.name ?? 'Error', message: String(e?.message ?? e) } });
  }
};
