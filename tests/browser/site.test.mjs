// The published site (build/web/dist) in headless Chromium: the single-file page opened from
// disk, the build without WebAssembly SIMD where SIMD is reported missing, and the pages under
// their Content-Security-Policy (no 'unsafe-eval', no inline code) with nothing blocked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowser, serveDist, watchErrors } from '../support/browser.mjs';
import { assertHeatmapShows, matrix, screenshot } from '../support/lab.mjs';
import { distDir } from '../support/paths.mjs';

let server, url;
before(async () => ({ server, url } = await serveDist()));
after(() => server.close());

// Records every Content-Security-Policy violation the page reports, from its first script on.
const RECORD_CSP_VIOLATIONS = () => {
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    window.cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'}`));
};

// The tutorial's worked example and a causal generated scene, checked cell by cell against
// the colours the shader must give.
async function checkScenes(page, shotPrefix) {
  await page.evaluate(() => window.attnlab.setState({ source: 'worked-example', panel: 'pipeline' }));
  const worked = await matrix(page, 'weights');
  assert.equal(worked.rows, 2);
  assert.ok(Math.abs(worked.data[1] - 0.6698) < 1e-3 && Math.abs(worked.data[0] - 0.3302) < 1e-3, `weights ${worked.data}`);
  await assertHeatmapShows(page, await screenshot(page, `${shotPrefix}-worked-example.png`), 'pipeline/weights', worked);

  await page.evaluate(() => window.attnlab.setState({ source: 'generated', sentence: 'one two three four five six', seed: 9, mask: { causal: true } }));
  const causal = await matrix(page, 'weights');
  assert.equal(causal.rows, 6);
  for (let i = 0; i < 6; i++) for (let j = i + 1; j < 6; j++) assert.equal(causal.data[i * 6 + j], 0);
  await assertHeatmapShows(page, await screenshot(page, `${shotPrefix}-causal.png`), 'pipeline/weights', causal);
}

test('the single-file page opens from disk (file://) alone, under its CSP, and draws correct pixels', async () => {
  // Alone in a fresh folder: nothing beside it could be loaded by accident.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-offline-'));
  const file = path.join(folder, 'attnlab-offline.html');
  fs.copyFileSync(path.join(distDir, 'attnlab-offline.html'), file);
  const browser = await openBrowser();
  try {
    const page = await browser.context.newPage();
    await page.addInitScript(RECORD_CSP_VIOLATIONS);
    const errors = watchErrors(page);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    const pageUrl = pathToFileURL(file).href;
    await page.goto(pageUrl);
    await page.evaluate(() => window.attnlab.ready);
    assert.equal(await page.evaluate(() => location.protocol), 'file:');
    assert.equal(await page.evaluate(() => window.attnlab.build), 'simd');
    await checkScenes(page, 'site-offline');

    // The CJK font travels inside the file too: 猫追老鼠 draws without missing glyphs.
    await page.waitForFunction(() => window.attnlab.cjkFontLoaded === true, null, { timeout: 60000 });
    await page.evaluate(() => window.attnlab.setState({ sentence: '猫追老鼠' }));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal((await page.evaluate(() => window.attnlab.layout())).missingGlyphs, 0);
    await screenshot(page, 'site-offline-cjk.png');

    // A tour step of the language model's scene: the file carries no model, and the step says
    // so in its card (rather than waiting for a model that never comes).
    await page.evaluate(() => window.attnlab.setState({ tour: 8, language: 'en' }));
    let drawn = '';
    for (let k = 0; k < 20 && !/This\s+page\s+carries\s+no\s+language\s+model/.test(drawn); k++)
      drawn = await page.evaluate(() => window.attnlab.drawnText());
    assert.match(drawn, /This\s+page\s+carries\s+no\s+language\s+model\s+\(it\s+is\s+the\s+offline\s+single-file\s+page\)/);  // wrapped in the card
    assert.equal(await page.evaluate(() => window.attnlab.getState().source), 'generated');
    // Its notice instead of "loading", wrapped in the controls: any space may be a line break.
    assert.match(drawn, new RegExp('this page carries no language model, so its scene cannot open here'.replace(/ /g, '\\s+')));
    assert.doesNotMatch(drawn, /the language model is loading/);
    await screenshot(page, 'site-offline-no-model.png');

    assert.deepEqual(requests.filter((u) => u !== pageUrl && !u.startsWith('data:')), [], 'the offline page requested other files');
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test('where WebAssembly SIMD is reported missing, the scalar builds load and draw correct pixels', async () => {
  const browser = await openBrowser();
  try {
    const page = await browser.context.newPage();
    // An engine without SIMD rejects any module that uses it; the 0xfd opcode prefix marks
    // SIMD instructions, and the loaders' probe module is nothing but one of them.
    await page.addInitScript(() => {
      const validate = WebAssembly.validate;
      WebAssembly.validate = (bytes) => {
        const u8 = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        return u8.length < 64 && u8.includes(0xfd) ? false : validate(bytes);
      };
    });
    const errors = watchErrors(page);
    const requests = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname.slice(1)));
    await page.goto(url + 'index.html');
    await page.evaluate(() => window.attnlab.ready);
    assert.equal(await page.evaluate(() => window.attnlab.build), 'scalar');
    await checkScenes(page, 'site-nosimd');

    // The math module picks its scalar build the same way.
    const core = await page.evaluate(async () => {
      const { default: createAttnlabCore } = await import(new URL('attnlab-core.mjs', location.href).href);
      const c = await createAttnlabCore();
      const r = c.attention({ q: new Float32Array([1, 2, 2, 1]), k: new Float32Array([2, 1, 1, 2]), v: new Float32Array([3, 0, 0, 3]), nq: 2, nk: 2, dk: 2, dv: 2 });
      return { build: c.build, isa: c.kernelInfo().isa, weights: Array.from(r.weights) };
    });
    assert.equal(core.build, 'scalar');
    assert.equal(core.isa, 'wasm32-scalar');
    [0.330, 0.670, 0.670, 0.330].forEach((w, i) => assert.ok(Math.abs(core.weights[i] - w) < 1e-3, `weights ${core.weights}`));

    const wasm = requests.filter((p) => p.endsWith('.wasm'));
    assert.ok(wasm.some((p) => /^attnlab-nosimd\.[0-9a-f]{12}\.wasm$/.test(p)), `requests: ${wasm}`);
    assert.ok(wasm.some((p) => /^attnlab-core-wasm-nosimd\.[0-9a-f]{12}\.wasm$/.test(p)), `requests: ${wasm}`);
    assert.ok(requests.some((p) => /^attnlab-nosimd\.[0-9a-f]{12}\.js$/.test(p)), 'the scalar runtime was not loaded');
    assert.deepEqual(wasm.filter((p) => !p.includes('nosimd')), [], 'a SIMD build was downloaded too');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('under the page\'s Content-Security-Policy nothing of ours is blocked, and eval and inline code are', async () => {
  const browser = await openBrowser();
  try {
    const page = await browser.context.newPage();
    await page.addInitScript(RECORD_CSP_VIOLATIONS);
    const errors = watchErrors(page);
    await page.goto(url + 'index.html');
    await page.evaluate(() => window.attnlab.ready);
    assert.equal(await page.evaluate(() => window.attnlab.build), 'simd');
    await checkScenes(page, 'site-csp');
    // The lazily fetched font, and the math module in the page and in a Web Worker.
    await page.waitForFunction(() => window.attnlab.cjkFontLoaded === true, null, { timeout: 60000 });
    const workerOutput = await page.evaluate(async () => {
      const { createAttentionWorker } = await import(new URL('attnlab-core-offthread.mjs', location.href).href);
      const worker = createAttentionWorker();
      const r = await worker.attention({ q: new Float32Array([1, 2, 2, 1]), k: new Float32Array([2, 1, 1, 2]), v: new Float32Array([3, 0, 0, 3]), nq: 2, nk: 2, dk: 2, dv: 2 });
      worker.terminate();
      return Array.from(r.output);
    });
    [0.99, 2.01, 2.01, 0.99].forEach((o, i) => assert.ok(Math.abs(workerOutput[i] - o) < 0.01, `output ${workerOutput}`));
    // Chromium runs relaxed SIMD, yet the math module loads its SIMD build unless asked
    // (builds.mjs: it is not faster here); asked for, the relaxed-SIMD build loads under the
    // policy and computes what the SIMD build computes.
    const builds = await page.evaluate(async () => {
      const { default: createAttnlabCore } = await import(new URL('attnlab-core.mjs', location.href).href);
      const [relaxed, simd] = [await createAttnlabCore({ build: 'relaxed' }), await createAttnlabCore()];
      const q = relaxed.randomNormal({ seed: 3, rows: 200, cols: 64 }), k = relaxed.randomNormal({ seed: 4, rows: 200, cols: 64 });
      const args = { q, k, v: k, nq: 200, nk: 200, dk: 64, dv: 64, returnWeights: false };
      const [a, b] = [relaxed.attention(args).output, simd.attention(args).output];
      let diff = 0;
      for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i] - b[i]));
      return { builds: [relaxed.build, simd.build], isas: [relaxed.kernelInfo().isa, simd.kernelInfo().isa], diff, norm: Math.hypot(...a.slice(0, 64)) };
    });
    assert.deepEqual(builds.builds, ['relaxed', 'simd']);
    assert.deepEqual(builds.isas, ['simd128-relaxed', 'simd128']);
    assert.ok(builds.diff < 1e-5 && builds.norm > 0.1, `relaxed and SIMD outputs: ${JSON.stringify(builds)}`);
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    assert.deepEqual(errors, []);

    // The policy is really in force: string evaluation and an injected inline script are refused
    // (and reported, so the empty list above means something).
    // (Run from a timer: code the test driver evaluates directly is exempt from the policy.)
    await page.evaluate(() => setTimeout(() => {
      try { window.evalResult = String(eval('6 * 7')); } catch (e) { window.evalResult = e.name; }
    }, 0));
    await page.waitForFunction(() => window.evalResult !== undefined);
    assert.equal(await page.evaluate(() => window.evalResult), 'EvalError');
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.injectedRan = true;';
      document.body.appendChild(s);
    });
    await page.waitForFunction(() => window.cspViolations.length >= 2);
    assert.equal(await page.evaluate(() => window.injectedRan), undefined);
    const violations = await page.evaluate(() => window.cspViolations);
    assert.ok(violations.some((v) => v.startsWith('script-src blocked eval')), violations.join('; '));
    assert.ok(violations.some((v) => v.startsWith('script-src-elem blocked inline')), violations.join('; '));
  } finally {
    await browser.close();
  }
});
