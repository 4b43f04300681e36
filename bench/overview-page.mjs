// The overview of n = 32,768 tokens, d_k = 64 (src/core/attention/overview.h) in headless
// Chromium, in a Web Worker on a fresh instance of the math module: block 32 (a 1024 x 1024
// pooled picture), mean pooling, not causal, then one region of 1024 x 1024 exact weights.
// bench/page.mjs runs it after the suite; bench/overview.mjs runs it alone.
import { createAttentionWorker } from '/core/attnlab-core-offthread.mjs';

// A filler of Float32Arrays of `count` values in [-1, 1) from one LCG stream seeded `seed`.
export function lcgFiller(seed) {
  let state = seed;
  return (count) => {
    const a = new Float32Array(count);
    for (let i = 0; i < a.length; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      a[i] = state / 2 ** 31 - 1;
    }
    return a;
  };
}

export async function overview32k() {
  const n = 32768, d = 64, block = 32;
  const next = lcgFiller(11), fill = () => next(n * d);
  const worker = createAttentionWorker({ url: '/core/attnlab-core-worker.mjs' });
  try {
    const q = fill(), k = fill();
    // A small overview first, so the worker's instance is compiled and warm; memory is read
    // after the big one (the instance's high-water mark).
    await worker.overview({ q: q.subarray(0, 512 * d), k: k.subarray(0, 512 * d), nq: 512, nk: 512, dk: d, block });
    let reports = 0;
    const r = await worker.overview({ q, k, nq: n, nk: n, dk: d, block }, { onProgress: () => { reports += 1; } });
    const regionStart = performance.now();
    const region = await worker.region({ q0: 16384, q1: 17408, k0: 0, k1: 1024 });
    const regionMs = performance.now() - regionStart;
    return { n, d, block, rows: r.rows, cols: r.cols, ms: r.milliseconds, wasmMemoryBytes: r.wasmMemoryBytes, isa: r.isa,
      progressReports: reports, regionMs, regionCells: region.weights.length };
  } finally {
    worker.terminate();
  }
}
