// The long-input overview in headless Chromium: a .npz of q and k for 32,768 tokens (d_k 64,
// no weights, written by numpy) is imported through the page's file input; the pass runs in
// the math module's Worker while the page keeps drawing, with a progress bar; the pooled
// picture has a key that every query attends to (the file plants one) and key totals summing
// to n; a click on a block puts its region's exact weights beside it, each the softmax of its
// whole row as computed here in double. Screenshots: en DPR 1, then the same lab switched to
// Chinese at DPR 2 (the window moved to a denser screen: the pass is not run again).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBrowser, serveDist } from '../support/browser.mjs';
import { frames, openLab, screenshot } from '../support/lab.mjs';
import { decodePng } from '../support/png.mjs';
import { artifactsDir } from '../support/paths.mjs';

const N = 32768, D = 64;
let server, url, dir, file, q, k;
// The first test's lab, kept open for the second (which views the same pass in Chinese).
let shared = null;

// q and k: random parts, a band along the diagonal (shared position features) and key 0 a sink.
const WRITER = `
import sys, numpy as np
n, d, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(7)
pos = np.arange(n)[:, None] / (10000 ** (np.arange(16)[None, :] / 16))
feat = np.concatenate([np.sin(pos), np.cos(pos)], axis=1)
q = np.concatenate([rng.normal(0, 0.5, (n, d - 32)), 2.5 * feat], axis=1).astype(np.float32)
k = np.concatenate([rng.normal(0, 0.5, (n, d - 32)), 2.5 * feat], axis=1).astype(np.float32)
q[:, 0] += 3.0
k[0, 0] += 9.0
np.savez(out, q=q[None, None], k=k[None, None])
q.tofile(out + '.q'); k.tofile(out + '.k')
`;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-overview-'));
  file = path.join(dir, 'long-32k.npz');
  execFileSync('/usr/bin/python3', ['-c', WRITER, String(N), String(D), file]);
  q = new Float32Array(fs.readFileSync(file + '.q').buffer.slice(0));
  k = new Float32Array(fs.readFileSync(file + '.k').buffer.slice(0));
  ({ server, url } = await serveDist());
});
after(async () => {
  await shared?.browser.close();
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const overview = (page) => page.evaluate(() => window.attnlab.getState().figures.overview);

// Imports the file and waits for the pass, sampling its progress and the frames drawn meanwhile.
async function importAndWait(page, { shotWhileRunning } = {}) {
  await page.setInputFiles('#import-file', file);
  await page.waitForFunction(() => ['done', 'error'].includes(window.attnlab.importStatus().state), null, { timeout: 60000, polling: 100 });
  const status = await page.evaluate(() => window.attnlab.importStatus());
  assert.equal(status.state, 'done', JSON.stringify(status));
  assert.equal((await page.evaluate(() => window.attnlab.getState())).panel, 'overview');
  const started = Date.now(), frames0 = await page.evaluate(() => window.attnlab.framesDrawn());
  const seen = [];
  let shot = false;
  for (;;) {
    const f = await overview(page);
    assert.equal(f.error, '');
    if (f.done) break;
    seen.push(f.progress);
    if (shotWhileRunning && !shot && f.progress > 0.05) {
      await screenshot(page, shotWhileRunning);
      shot = true;
    }
    assert.ok(Date.now() - started < 180000, 'the pass ends within 3 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = (Date.now() - started) / 1000;
  const drawn = (await page.evaluate(() => window.attnlab.framesDrawn())) - frames0;
  return { seen, seconds, drawn };
}

// The exact weight row i over keys [k0, k0 + cols), in double: softmax of the whole row.
function exactRow(i, k0, cols) {
  const scale = 1 / Math.sqrt(D), s = new Float64Array(N);
  let max = -Infinity;
  for (let j = 0; j < N; j++) {
    let dot = 0;
    for (let t = 0; t < D; t++) dot += q[i * D + t] * k[j * D + t];
    s[j] = dot * scale;
    if (s[j] > max) max = s[j];
  }
  let sum = 0;
  for (let j = 0; j < N; j++) sum += Math.exp(s[j] - max);
  return Array.from({ length: cols }, (_, c) => Math.exp(s[k0 + c] - max) / sum);
}

test('a 32k-token file of q and k: the overview in a Worker, its sink, its key totals, a clicked region exact', async () => {
  const browser = await openBrowser({ viewport: { width: 1400, height: 900 } });
  try {
    const { page, errors } = await openLab(browser, url);
    const run = await importAndWait(page, { shotWhileRunning: 'overview-progress.png' });
    console.log(`overview of ${N} tokens: ${run.seconds.toFixed(1)} s in the Worker, ${run.drawn} frames drawn meanwhile (shared machine)`);
    assert.ok(run.seen.some((p) => p > 0 && p < 1), `progress reported while running: ${run.seen.slice(0, 8)}`);
    assert.ok(run.drawn > run.seconds * 5, `the page kept drawing: ${run.drawn} frames in ${run.seconds} s`);
    const f = await overview(page);
    assert.equal(f.nq, N);
    assert.equal(f.block, 64);
    assert.deepEqual([f.rows, f.cols], [512, 512]);
    assert.ok(Math.abs(f.keyTotalsSum - N) < N * 1e-4, `key totals sum to n: ${f.keyTotalsSum}`);
    assert.equal(f.topKey, 0, 'the planted sink takes the most weight');
    assert.ok(f.topKeyTotal > 5, `the sink's total ${f.topKeyTotal} (a key's mean total is 1)`);
    await frames(page, 3);
    // A click on the block of queries 16,384.. and keys 16,384..: its region, exact.
    const h = (await page.evaluate(() => window.attnlab.layout())).heatmaps['overview/pooled'];
    assert.ok(h, 'the pooled picture is drawn');
    await page.mouse.click(h.x + h.w * (256.5 / 512), h.y + h.h * (256.5 / 512));
    await page.waitForFunction(() => window.attnlab.getState().figures.overview.region !== null, null, { timeout: 10000, polling: 100 });
    const r = (await overview(page)).region;
    assert.deepEqual([r.rows, r.cols], [256, 256]);
    assert.ok(Math.abs(r.q0 - 16384) <= 192 && Math.abs(r.k0 - 16384) <= 192, `region at ${r.q0}, ${r.k0}`);
    const want = exactRow(r.q0, r.k0, r.cols);
    const worst = Math.max(...want.map((w, c) => Math.abs(w - r.firstRow[c])));
    assert.ok(worst < 1e-6, `the region's first row differs from the exact weights by ${worst}`);
    await frames(page, 3);
    const layout = await page.evaluate(() => window.attnlab.layout());
    assert.ok(layout.heatmaps['overview/region'], 'the region is drawn');
    assert.ok(layout.plots['overview/key-totals']?.yTicks.length >= 3, 'key totals with a y axis');
    await screenshot(page, 'overview-32k.png');
    assert.deepEqual(errors, []);
    shared = { browser, page, errors, keyTotalsSum: f.keyTotalsSum };
  } finally {
    if (!shared) await browser.close();  // else the second test uses it, and after() closes it
  }
});

// The same lab switched to Chinese and moved to a 1200 x 800 window at DPR 2 (the browser's
// device metrics changed under the running page, as when a window moves to another screen):
// the overview it computed stays, and is drawn again at the new scale.
test('the overview in Chinese at DPR 2', async () => {
  assert.ok(shared, 'the first test left its lab open');
  const { page, errors } = shared;
  await page.setViewportSize({ width: 1200, height: 800 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1200, height: 800, deviceScaleFactor: 2, mobile: false });
  assert.equal(await page.evaluate(() => window.devicePixelRatio), 2);
  await page.evaluate(() => window.attnlab.setState({ language: 'zh', overview: { q0: 0, k0: 0, side: 128 } }));
  await page.waitForFunction(() => window.attnlab.cjkFontLoaded, null, { timeout: 30000 });
  await page.waitForFunction(() => window.attnlab.getState().figures.overview.region !== null, null, { timeout: 10000, polling: 100 });
  const f = await overview(page);
  assert.equal(f.done, true);
  assert.equal(f.keyTotalsSum, shared.keyTotalsSum, 'the pass was kept, not run again');
  await frames(page, 3);
  // Captured through the same session: Playwright's own screenshot scales to the density it set.
  const shot = Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'png' })).data, 'base64');
  fs.writeFileSync(path.join(artifactsDir, 'overview-32k-zh-dpr2.png'), shot);
  const png = decodePng(shot);
  assert.deepEqual([png.width, png.height], [2400, 1600]);
  const layout = await page.evaluate(() => window.attnlab.layout());
  assert.ok(layout.heatmaps['overview/pooled'] && layout.heatmaps['overview/region'], 'both pictures drawn in Chinese');
  // The canvas's drawing buffer followed the new density, and the panel speaks Chinese.
  const canvas = await page.evaluate(() => { const c = document.querySelector('canvas'); return [c.width, c.getBoundingClientRect().width]; });
  assert.ok(Math.abs(canvas[0] / canvas[1] - 2) < 0.01, `canvas ${canvas[0]} px for ${canvas[1]} CSS px`);
  assert.match(await page.evaluate(() => window.attnlab.drawnText()), /概览/);
  // The page's line on the import, written in English when the file came, is said in Chinese now.
  assert.match(await page.evaluate(() => document.getElementById('import-message').textContent), /^long-32k\.npz：1 层 × 1 个头，32768 × 32768 个词元（\d+ 毫秒）$/);
  assert.deepEqual(errors, []);
});
