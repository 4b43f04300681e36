// Streaming attention at n = 32,768, d = 64 in headless Chromium, in a Web Worker
// (attnlab-core-offthread.mjs): it completes, the worker's fresh math instance stays under
// 64 MiB of wasm memory, sampled rows equal exact attention computed here in double, and
// the page keeps running timers meanwhile. The time is printed (scripts/bench.sh reports it
// too); it is not asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, serveDist, watchErrors } from '../support/browser.mjs';

let server, url;
before(async () => ({ server, url } = await serveDist()));
after(() => server.close());

// A page of the site without a lab (any file with a stable name gives the origin; a worker
// needs no canvas), with window.pageTimer() in it: a 20 ms interval whose stop() says how many
// ticks fired and the longest gap between two, i.e. how responsive the page stayed. The
// browser's own request for /favicon.ico is answered here, so it logs no 404.
async function openWorkerPage(browser) {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.addInitScript(() => {
    window.pageTimer = () => {
      let ticks = 0, worstGap = 0, last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        worstGap = Math.max(worstGap, now - last);
        last = now;
        ticks++;
      }, 20);
      return { stop: () => (clearInterval(timer), { ticks, worstGap }) };
    };
  });
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  await page.goto(url + 'asset-manifest.json');
  return { page, errors };
}

test('32k-token streaming attention runs in a worker under 64 MiB; the page stays responsive', async () => {
  const browser = await openBrowser();
  try {
    const { page, errors } = await openWorkerPage(browser);
    const r = await page.evaluate(async () => {
      const { createAttentionWorker } = await import('./attnlab-core-offthread.mjs');
      const n = 32768, d = 64;
      // Inputs from a small LCG (uniform in [-1, 1)): the page needs no wasm of its own.
      let state = 12345;
      const fill = (a) => {
        for (let i = 0; i < a.length; i++) {
          state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
          a[i] = state / 2 ** 31 - 1;
        }
        return a;
      };
      const q = fill(new Float32Array(n * d)), k = fill(new Float32Array(n * d)), v = fill(new Float32Array(n * d));
      const worker = createAttentionWorker();
      // The page's own timer: how late does a 20 ms interval fire while the worker computes?
      const timer = window.pageTimer();
      const start = performance.now();
      const result = await worker.attention({ q, k, v, nq: n, nk: n, dk: d, dv: d });
      const wall = performance.now() - start;
      const { ticks, worstGap } = timer.stop();
      // A bad argument comes back as the API's own error.
      const refusal = await worker.attention({ q, k, v, nq: n, nk: n, dk: 63, dv: d }).then(() => null, (e) => `${e.name}: ${e.message}`);
      const intoRefusal = await worker.attention({ q, k, v, nq: n, nk: n, dk: d, dv: d, into: { output: new Float32Array(n * d) } })
        .then(() => null, (e) => `${e.name}: ${e.message}`);
      worker.terminate();
      // Exact rows in double: softmax(q_i k^T / 8) v.
      const rows = [0, 1, 4097, 20000, n - 1];
      let worst = 0, finite = true;
      for (let i = 0; i < result.output.length; i += 997) finite &&= Number.isFinite(result.output[i]);
      for (const i of rows) {
        const s = new Float64Array(n);
        let max = -Infinity;
        for (let j = 0; j < n; j++) {
          let dot = 0;
          for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
          s[j] = dot / 8;
          if (s[j] > max) max = s[j];
        }
        let sum = 0;
        const o = new Float64Array(d);
        for (let j = 0; j < n; j++) {
          const e = Math.exp(s[j] - max);
          sum += e;
          for (let c = 0; c < d; c++) o[c] += e * v[j * d + c];
        }
        for (let c = 0; c < d; c++) worst = Math.max(worst, Math.abs(o[c] / sum - result.output[i * d + c]));
      }
      return { length: result.output.length, milliseconds: result.milliseconds, wall, wasmMemoryBytes: result.wasmMemoryBytes,
        isa: result.isa, ticks, worstGap, worst, finite, refusal, intoRefusal };
    });
    console.log(`# 32k streaming attention in a worker: ${(r.milliseconds / 1000).toFixed(2)} s in the worker ` +
      `(${(4 * 32768 ** 2 * 64 / r.milliseconds / 1e6).toFixed(1)} GFLOP/s), wasm memory ${(r.wasmMemoryBytes / 2 ** 20).toFixed(1)} MiB, ` +
      `page timer: ${r.ticks} ticks, worst gap ${r.worstGap.toFixed(0)} ms`);
    assert.equal(r.length, 32768 * 64);
    assert.equal(r.isa, 'simd128');
    assert.ok(r.finite);
    assert.ok(r.worst < 1e-5, `sampled rows differ from exact attention by ${r.worst}`);
    assert.ok(r.wasmMemoryBytes < 64 * 2 ** 20, `wasm memory ${r.wasmMemoryBytes} bytes`);
    assert.match(r.refusal, /^RangeError: q must hold/);
    assert.match(r.intoRefusal, /^TypeError: into is not taken by the worker/);
    // Responsive: the page's timer kept firing through the whole run. A page blocked by the
    // computation would show one gap as long as the run itself; load on a shared 2-core
    // machine (the worker, SwiftShader and the renderer share it) can delay single ticks by
    // a second or more, so the check is relative to the run, not a fixed number of ms.
    assert.ok(r.ticks >= r.wall / 20 / 4, `only ${r.ticks} timer ticks in ${r.wall.toFixed(0)} ms`);
    assert.ok(r.worstGap < r.wall / 4, `the page's timer stalled for ${r.worstGap.toFixed(0)} ms of a ${r.wall.toFixed(0)} ms run`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

// The language model trained on a text in a Worker (createLanguageModelTrainerWorker): progress
// arrives while the page's timers keep firing, pause holds the step count, stop ends the run
// early, and the saved file loads in the page's own math module and scores the held-out part
// as the worker's evaluation said. A refused text rejects and leaves the run as it was.
test('the language model trains on a text in a worker: progress, pause, stop, save; the page stays responsive', async () => {
  const browser = await openBrowser();
  try {
    const { page, errors } = await openWorkerPage(browser);
    const r = await page.evaluate(async () => {
      const { createLanguageModelTrainerWorker } = await import('./attnlab-core-offthread.mjs');
      const words = ['the', 'cat', 'sat', 'on', 'a', 'mat', 'and', 'then', 'ran', 'to', 'its', 'bed'];
      let x = 7, text = '';
      for (let i = 0; i < 400; i++) {
        for (let w = 0; w < 5; w++) {
          x = (Math.imul(x, 1103515245) + 12345) >>> 0;
          text += words[(x >>> 16) % 12] + (w === 4 ? '.\n' : ' ');
        }
      }
      const progress = [];
      const worker = createLanguageModelTrainerWorker({ onProgress: (p) => progress.push(p) });
      const info = await worker.start({ text, seed: 3, preset: 'quick', steps: 300 });
      const refused = await worker.start({ text: 'short', seed: 1 }).then(() => null, (e) => `${e.name}: ${e.message}`);
      const timer = window.pageTimer();
      const running = worker.run();
      while (progress.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      worker.pause();
      await new Promise((resolve) => setTimeout(resolve, 300));  // a slice in flight may still report
      const pausedAt = progress.at(-1).step;
      await new Promise((resolve) => setTimeout(resolve, 400));
      const afterPause = progress.at(-1).step;
      worker.resume();
      while (progress.at(-1).step < 150) await new Promise((resolve) => setTimeout(resolve, 20));
      worker.stop();
      const ended = await running;
      const { ticks, worstGap } = timer.stop();
      const bytes = await worker.save();
      worker.terminate();
      const { default: createAttnlabCore } = await import('./attnlab-core.mjs');
      const core = await createAttnlabCore();
      const model = core.loadLanguageModel(bytes);
      const held = Array.from(text).slice(info.trainCharacters).join('');
      const again = model.evaluate(held).bitsPerToken;
      return { info, refused, pausedAt, afterPause, ended, again, ticks, worstGap,
        evaluated: progress.filter((p) => p.heldOutBits !== undefined).map((p) => p.step),
        looks: progress.filter((p) => p.look).map((p) => [p.step, p.look.heads?.length, p.look.sample?.text.length]),
        last: progress.at(-1), steps: model.config.steps };
    });
    assert.equal(r.info.preset, 'quick');
    assert.equal(r.info.steps, 300);
    assert.match(r.refused, /RangeError: the text has 5 characters; training needs at least 2000/);
    assert.equal(r.afterPause, r.pausedAt, 'no step while paused');
    assert.equal(r.ended.stopped, true);
    assert.ok(r.ended.step >= 150 && r.ended.step < 300, `stopped at step ${r.ended.step}`);
    assert.equal(r.steps, r.ended.step, 'the file holds the steps done');
    assert.ok(r.evaluated.length >= 3 && r.evaluated.every((s) => s % 50 === 0), `evaluation points ${r.evaluated}`);
    // A look at the model (each head's label, a sample) at step 0 and at each evaluation point.
    assert.deepEqual(r.looks.map(([step]) => step), [0, ...r.evaluated]);
    // 120 tokens (an untrained model may write "<unk>", five characters for one token).
    assert.ok(r.looks.every(([, heads, sample]) => heads === 4 && sample >= 120), JSON.stringify(r.looks));
    assert.ok(r.last.charactersPerSecond > 0 && r.last.seconds > 0, JSON.stringify(r.last));
    assert.equal(r.again, r.ended.evaluation.heldOutBits, 'the saved file scores the held-out part as the worker said');
    assert.ok(r.ended.evaluation.heldOutBits < r.ended.evaluation.bigramBits + 1, JSON.stringify(r.ended.evaluation));
    assert.ok(r.ticks > 10 && r.worstGap < 500, `page timers: ${r.ticks} ticks, worst gap ${r.worstGap} ms`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
