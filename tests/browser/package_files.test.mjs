// The npm package as a page of a course author's loads it: packed and installed from its tarball
// (tests/support/package.mjs), served from the scratch project, its three entries imported by
// their package names (an import map made from the package's exports) and used in headless
// Chromium as README.md shows: createLab with a Chinese sentence (the CJK font), then the
// language model's scene (the model file); the math module in each of its builds; the Worker.
// Then once more where WebAssembly SIMD is reported missing (the scalar builds). Every request
// the pages and their Workers made of the package is a file of the pack, and every file of the
// pack beside package.json, the README, the licences and the declarations was requested: the
// pack is exactly what the entries load (the single-file offline pages are not in it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser, watchErrors } from '../support/browser.mjs';
import { isPackageDocument, packAndInstall } from '../support/package.mjs';
import { startServer } from '../../scripts/serve.mjs';

const PREFIX = '/node_modules/attention-lab/';
let pkg, server, url, browser;
before(async () => {
  pkg = packAndInstall();
  assert.equal(pkg.install.status, 0, `npm install failed:\n${pkg.install.stdout}\n${pkg.install.stderr}`);
  console.log(`attention-lab: ${pkg.packed()}`);
  const { exports } = JSON.parse(fs.readFileSync(path.join(pkg.installed, 'package.json'), 'utf8'));
  const imports = Object.fromEntries(Object.entries(exports).map(([entry, { default: file }]) =>
    [`attention-lab${entry.slice(1)}`, PREFIX + file.replace(/^\.\//, '')]));
  fs.writeFileSync(path.join(pkg.scratch, 'host.html'), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify({ imports })}</script></head>
<body style="margin:0"><div id="figure" style="width:900px;height:560px"></div>
<script type="module">
import { createLab } from 'attention-lab';
import createAttnlabCore from 'attention-lab/core';
import { createAttentionWorker } from 'attention-lab/core/offthread';
window.useEveryEntry = async () => {
  const lab = await createLab(document.getElementById('figure'), { state: { sentence: '猫坐在垫子上。', panel: 'token' } });
  for (const t0 = Date.now(); !lab.cjkFontLoaded; await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() - t0 > 30000) throw new Error('the CJK font did not load');
  await lab.setState({ source: 'language', sentence: 'the cat sat' });
  await lab.languageModel();
  const q = new Float32Array([1, 2, 2, 1]), k = new Float32Array([2, 1, 1, 2]), v = new Float32Array([3, 0, 0, 3]);
  const weights = [];
  for (const build of ['simd', 'scalar', 'relaxed']) {
    let core;
    try { core = await createAttnlabCore({ build }); } catch (error) { if (error instanceof RangeError) continue; throw error; }
    weights.push(core.attention({ q, k, v, nq: 2, nk: 2, dk: 2, dv: 2 }).weights[0]);
  }
  const worker = createAttentionWorker();
  const { output } = await worker.attention({ q, k, v, nq: 2, nk: 2, dk: 2, dv: 2, causal: true });
  worker.terminate();
  const state = lab.getState();
  await lab.destroy();
  return { source: state.source, languageModelLoaded: lab.languageModelLoaded === true, weights, output: [...output] };
};
</script></body></html>`);
  ({ server, url } = await startServer({ root: pkg.scratch }));
  browser = await openBrowser({ viewport: { width: 1000, height: 700 } });
});
after(async () => {
  await browser?.close();
  server?.close();
});

// Opens the host page, uses every entry, and returns the package's files it requested (the
// Workers' requests included: the context hears them).
async function filesRequested(initScript) {
  const requested = new Set();
  const hear = (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith(PREFIX)) requested.add(decodeURIComponent(pathname.slice(PREFIX.length)));
  };
  browser.context.on('request', hear);
  const page = await browser.context.newPage();
  try {
    const errors = watchErrors(page);
    if (initScript) await page.addInitScript(initScript);
    await page.goto(`${url}host.html`);
    await page.waitForFunction(() => typeof window.useEveryEntry === 'function', null, { timeout: 30000 });
    const result = await page.evaluate(() => window.useEveryEntry());
    assert.equal(result.source, 'language');
    assert.ok(result.languageModelLoaded, 'the language model was not loaded');
    const w1 = 1 / (1 + Math.exp(1 / Math.SQRT2));  // the worked example's first weight
    for (const w of result.weights) assert.ok(Math.abs(w - w1) < 1e-6, `weight ${w}`);
    assert.ok(Math.abs(result.output[0] - 3) < 1e-6, `the Worker's output ${result.output}`);
    assert.deepEqual(errors, []);
    return { requested, builds: result.weights.length };
  } finally {
    browser.context.off('request', hear);
    await page.close();
  }
}

// The SIMD probes of web/builds.mjs fail, as in an engine without WebAssembly SIMD.
const WITHOUT_SIMD = () => {
  const validate = WebAssembly.validate;
  WebAssembly.validate = (bytes) => {
    const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ?? bytes);
    return b.length < 64 && b.includes(0xfd) ? false : validate(bytes);
  };
};

test('the pack is exactly what the entries fetch: every file requested is packed, every packed file requested', async () => {
  const withSimd = await filesRequested();
  const withoutSimd = await filesRequested(WITHOUT_SIMD);
  assert.equal(withSimd.builds, 3, 'the math module did not load its three builds');
  assert.equal(withoutSimd.builds, 1, 'without SIMD only the scalar build runs');
  const requested = new Set([...withSimd.requested, ...withoutSimd.requested]);
  const packed = new Set(pkg.pack.files.map((f) => f.path));
  const missing = [...requested].filter((f) => !packed.has(f));
  assert.deepEqual(missing, [], 'files the entries fetch but the pack lacks');
  const unused = [...packed].filter((f) => !isPackageDocument(f) && !requested.has(f));
  assert.deepEqual(unused, [], 'files the pack carries but no entry fetched');
  for (const page of ['attnlab-offline.html', 'attnlab-embed-offline.html', 'index.html'])
    assert.ok(!packed.has(page), `the pack carries ${page}`);
  // Both app builds, each with its wasm, and the lazily fetched font and model are among them.
  for (const pattern of [/^attnlab\.[0-9a-f]{12}\.wasm$/, /^attnlab-nosimd\.[0-9a-f]{12}\.wasm$/, /^attnlab-core-wasm-relaxed\.[0-9a-f]{12}\.wasm$/,
    /^fonts\/cjk\.[0-9a-f]{12}\.ttf$/, /^models\/fortunes-lm\.[0-9a-f]{12}\.attnlm$/, /^attnlab-core-worker\.[0-9a-f]{12}\.mjs$/])
    assert.ok([...requested].some((f) => pattern.test(f)), `nothing requested matches ${pattern}`);
  console.log(`${requested.size} files requested, ${packed.size} packed (${[...packed].filter(isPackageDocument).length} of them package.json, README, licences, declarations)`);
});
