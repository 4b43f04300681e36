// Import and export in headless Chromium: files written by numpy/torch (float32 and float16,
// tokens, 2+ layers, cross-attention, a batch axis, Q/K/V) are picked through the page's file
// input, and the page reports the same numbers at probed cells; the model view draws the
// layer x head grid; special tokens hide; a damaged file is refused with the scene kept;
// an exported .npy loads in numpy with the right shape and values; an SVG has one cell
// element per visible cell; a PNG at scale 2 has twice the pixels each way (a heatmap's and
// the whole panel's); a larger file, and a JSON file's text, are checked in steps with the
// frame loop running.
// Screenshots and exported panels: build/test-artifacts/import-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBrowser, serveDist } from '../support/browser.mjs';
import { cellPixel, downloadedBytes, openLab, screenshot } from '../support/lab.mjs';
import { decodePng } from '../support/png.mjs';
import { colorDistance, expectedSequential } from '../support/colors.mjs';
import { artifactsDir, root } from '../support/paths.mjs';

const PYTHON = '/usr/bin/python3';
const FIXTURES = path.join(root, 'tests', 'python', 'import_fixtures.py');
let server, url, browser, dir, described;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-import-'));
  described = JSON.parse(execFileSync(PYTHON, [FIXTURES, 'fixtures', dir], { encoding: 'utf8' })).files;
  ({ server, url } = await serveDist());
  browser = await openBrowser({ viewport: { width: 1400, height: 900 } });
});
after(async () => {
  await browser.close();
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Picks the file through the page's <input type=file> and waits for the load to end.
async function pick(page, name, { batch = 0 } = {}) {
  await page.fill('#import-batch', String(batch));
  await page.setInputFiles('#import-file', path.join(dir, name));
  await page.waitForFunction(() => ['done', 'error'].includes(window.attnlab.importStatus().state), null,
    { timeout: 30000, polling: 50 });
  return page.evaluate(() => window.attnlab.importStatus());
}

// Loads `file` through a file input of the test's own, with the finish phase cut into steps
// of 64 KiB of work (one per animation frame), so a small file still takes many steps.
// Resolves to the error message ('' when it loaded) and the import status.
async function importInSteps(page, file) {
  await page.evaluate(() => {
    if (document.getElementById('test-file')) return;
    const input = Object.assign(document.createElement('input'), { type: 'file', id: 'test-file', hidden: true });
    document.body.append(input);
  });
  await page.setInputFiles('#test-file', file);
  return page.evaluate(() => window.attnlab.importFile(document.getElementById('test-file').files[0], { stepBytes: 65536 })
    .then(() => '', (e) => e.message).then((message) => ({ message, status: window.attnlab.importStatus() })));
}

// The page's weights for (layer, head) at each probe equal the file's (float32 exactly),
// or within `tolerance` when the page recomputes them from Q, K, V.
async function assertProbes(page, probes, tolerance = 0) {
  for (const [layer, head, row, col, value] of probes) {
    await page.evaluate(([l, h]) => window.attnlab.setState({ layer: l, head: h }), [layer, head]);
    const got = await page.evaluate(([h, i, j]) => {
      const m = window.attnlab.getMatrix('weights', h);
      return m.data[i * m.cols + j];
    }, [head, row, col]);
    if (tolerance === 0) assert.equal(got, Math.fround(value), `layer ${layer} head ${head} (${row}, ${col})`);
    else assert.ok(Math.abs(got - value) <= tolerance, `layer ${layer} head ${head} (${row}, ${col}): ${got} vs ${value}`);
  }
}

test('cross-attention, float32, deflate-compressed .npz: shape, tokens, values, model view', async () => {
  const { page, errors } = await openLab(browser, url);
  const status = await pick(page, 'cross_f32.npz');
  assert.equal(status.state, 'done', status.message);
  const d = described['cross_f32.npz'];
  let state = await page.evaluate(() => window.attnlab.getState());
  assert.equal(state.source, 'imported');
  assert.equal(state.panel, 'model');
  assert.deepEqual([state.import.layers, state.import.heads, state.import.nQ, state.import.nK], [d.layers, d.heads, d.n_q, d.n_k]);
  assert.equal(state.import.format, 'npz');
  assert.deepEqual(state.tokens, ['<s>', 'le', 'chat', 'dort']);
  assert.deepEqual(state.import.keyTokens, ['[CLS]', 'the', 'cat', 'is', 'asleep', '[SEP]']);
  assert.deepEqual(state.import.unavailablePanels, ['qk-space', 'sinks', 'pipeline', 'positions', 'compare', 'gqa', 'flash']);
  await assertProbes(page, d.probes);

  // The model view: a thumbnail per layer and head once they are filled, and the focus.
  await page.evaluate(() => window.attnlab.setState({ layer: 1, head: 2 }));
  await page.waitForFunction(() => window.attnlab.getState().import.thumbnailsDone === 6, null, { timeout: 10000 });
  await page.evaluate(() => window.attnlab.setState({}));
  const heatmaps = (await page.evaluate(() => window.attnlab.layout())).heatmaps;
  for (let l = 0; l < 2; l++) for (let h = 0; h < 3; h++) assert.ok(heatmaps[`model/${l}/${h}`], `thumbnail ${l}/${h}`);
  const focus = heatmaps['model/focus'];
  assert.deepEqual([focus.rows, focus.cols], [4, 6]);
  const png = await screenshot(page, 'import-model-view.png');
  const m = await page.evaluate(() => { const x = window.attnlab.getMatrix('weights', 2); return Array.from(x.data); });
  for (const [i, j] of [[0, 1], [2, 3], [3, 4]]) {
    const dist = colorDistance(cellPixel(png, focus, i, j), expectedSequential(m[i * 6 + j]));
    assert.ok(dist <= 3, `focused head cell (${i}, ${j}) colour off by ${dist}`);
  }
  // The sink share of the focused layer: mean weight on key 0, per head.
  state = await page.evaluate(() => window.attnlab.getState());
  const col0 = [0, 1, 2, 3].reduce((s, i) => s + m[i * 6], 0) / 4;
  assert.ok(Math.abs(state.import.sinkShare[2] - col0) < 1e-6);
  assert.deepEqual(errors, []);
  await page.close();
});

test('float16 with a batch axis: the picked batch entry, special tokens hidden and renormalised', async () => {
  const { page, errors } = await openLab(browser, url);
  const status = await pick(page, 'self_f16_batch.npz', { batch: 1 });
  assert.equal(status.state, 'done', status.message);
  const d = described['self_f16_batch.npz'];
  let state = await page.evaluate(() => window.attnlab.getState());
  assert.deepEqual([state.import.batch, state.import.batchIndex, state.import.layers], [2, 1, 3]);
  assert.deepEqual(state.tokens, d.tokens);
  await assertProbes(page, d.probes);

  // Hide [CLS], [SEP], [PAD]: 3 visible tokens; raw rows then sum to < 1, renormalised to 1.
  await page.evaluate(() => window.attnlab.setState({ layer: 0, head: 0, hideSpecial: true }));
  state = await page.evaluate(() => window.attnlab.getState());
  assert.deepEqual(state.tokens, ['a', 'dog', 'ran']);
  let w = await page.evaluate(() => { const x = window.attnlab.getMatrix('weights', 0); return { rows: x.rows, cols: x.cols, data: Array.from(x.data) }; });
  assert.deepEqual([w.rows, w.cols], [3, 3]);
  const rowSum = (k) => w.data.slice(k * 3, k * 3 + 3).reduce((a, b) => a + b, 0);
  assert.ok(rowSum(0) < 0.999, `raw row sums to ${rowSum(0)}`);
  await page.evaluate(() => window.attnlab.setState({ renormalise: true }));
  w = await page.evaluate(() => { const x = window.attnlab.getMatrix('weights', 0); return { rows: x.rows, cols: x.cols, data: Array.from(x.data) }; });
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(rowSum(k) - 1) < 1e-5, `renormalised row ${k} sums to ${rowSum(k)}`);

  // The SVG of the visible weights has one cell element per visible cell (3 x 3 = 9).
  const svg = await page.evaluate(() => new TextDecoder().decode(window.attnlab.exportMatrix('weights', { format: 'svg' }).bytes));
  assert.equal((svg.match(/<rect class="cell"/g) || []).length, 9);
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  await page.evaluate(() => window.attnlab.setState({ hideSpecial: false }));
  const full = await page.evaluate(() => new TextDecoder().decode(window.attnlab.exportMatrix('weights', { format: 'svg' }).bytes));
  assert.equal((full.match(/<rect class="cell"/g) || []).length, 49);
  await screenshot(page, 'import-f16-batch.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Q, K, V given: the pipeline panel recomputes the file\'s weights', async () => {
  const { page, errors } = await openLab(browser, url);
  const status = await pick(page, 'qkv_f32.npz');
  assert.equal(status.state, 'done', status.message);
  const d = described['qkv_f32.npz'];
  // Recomputed in float32 with the default scale: torch's numbers to within float rounding.
  await assertProbes(page, d.probes, 1e-6);
  const state = await page.evaluate(() => window.attnlab.setState({ panel: 'pipeline', layer: 1, head: 1 }));
  assert.equal(state.import.hasQkv, true);
  assert.deepEqual(state.import.unavailablePanels, []);
  assert.ok(state.import.qkvMaxDifference < 1e-5, `recomputed weights differ by ${state.import.qkvMaxDifference}`);
  const q = await page.evaluate(() => window.attnlab.getMatrix('q', 1));
  assert.deepEqual([q.rows, q.cols], [5, 4]);
  const layout = await page.evaluate(() => window.attnlab.layout());
  assert.ok(layout.heatmaps['pipeline/rawScores'], 'the pipeline panel draws the scores');
  await screenshot(page, 'import-qkv-pipeline.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a weights-only file says which panels are unavailable; a damaged file keeps the scene', async () => {
  const { page, errors } = await openLab(browser, url);
  assert.equal((await pick(page, 'bare_f16.npy')).state, 'done');
  await assertProbes(page, described['bare_f16.npy'].probes);
  const before = await page.evaluate(() => window.attnlab.setState({ panel: 'pipeline' }));
  assert.deepEqual(before.import.unavailablePanels, ['qk-space', 'sinks', 'pipeline', 'positions', 'compare', 'gqa', 'flash']);
  assert.equal(before.tokens[0], '0');  // no tokens in a bare .npy: indices
  assert.equal((await page.evaluate(() => window.attnlab.layout())).heatmaps['pipeline/q'], undefined);
  await screenshot(page, 'import-weights-only.png');

  const bad = await pick(page, 'not_attention.npz');
  assert.equal(bad.state, 'error');
  assert.match(bad.message, /not_attention\.npz: \.npz: not a zip archive/);
  assert.equal(await page.locator('#import-message').textContent(), bad.message);
  const after = await page.evaluate(() => window.attnlab.getState());
  assert.equal(after.import.name, 'bare_f16.npy');  // the previous scene stays
  assert.deepEqual(errors, []);
  await page.close();
});

test('export: .npy through a real download loads in numpy; PNG at scale 2 has twice the pixels', async () => {
  const { page, errors } = await openLab(browser, url);
  assert.equal((await pick(page, 'cross_f32.npz')).state, 'done');
  await page.evaluate(() => window.attnlab.setState({ layer: 1, head: 2 }));
  await page.selectOption('#export-matrix', 'weights');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-export="npy"]')]);
  const saved = path.join(dir, 'exported.npy');
  await download.saveAs(saved);
  assert.equal(download.suggestedFilename(), 'weights-layer1-head2.npy');
  const check = JSON.parse(execFileSync(PYTHON, [FIXTURES, 'check-npy', saved, path.join(dir, 'cross_f32.npz'), 'attentions', '1', '2'],
    { encoding: 'utf8' }));
  assert.deepEqual(check.shape, [4, 6]);
  assert.equal(check.dtype, 'float32');
  assert.equal(check.max_abs_diff, 0);

  const sizes = await page.evaluate(() => [1, 2].map((scale) => Array.from(window.attnlab.exportMatrix('weights', { format: 'png', scale }).bytes)));
  const [one, two] = sizes.map((b) => decodePng(Buffer.from(b)));
  assert.deepEqual([one.width, one.height], [6 * 8, 4 * 8]);
  assert.deepEqual([two.width, two.height], [2 * one.width, 2 * one.height]);
  // Same picture, twice as large: pixel (x, y) at scale 1 = pixel (2x, 2y) at scale 2.
  for (const [x, y] of [[3, 3], [20, 10], [47, 31]]) assert.deepEqual(two.pixel(2 * x, 2 * y), one.pixel(x, y));
  const w = await page.evaluate(() => Array.from(window.attnlab.getMatrix('weights', 2).data));
  assert.ok(colorDistance(one.pixel(8 * 3 + 4, 8 * 2 + 4), expectedSequential(w[2 * 6 + 3])) <= 1);

  const csv = await page.evaluate(() => new TextDecoder().decode(window.attnlab.exportMatrix('weights', { format: 'csv' }).bytes));
  const lines = csv.trim().split('\n');
  assert.equal(lines[0], 'query\\key,[CLS],the,cat,is,asleep,[SEP]');
  assert.equal(Math.fround(Number(lines[3].split(',')[4])), w[2 * 6 + 3]);  // 9 digits: the float exactly
  const json = await page.evaluate(() => JSON.parse(new TextDecoder().decode(window.attnlab.exportMatrix('weights', { format: 'json' }).bytes)));
  assert.deepEqual([json.rows, json.cols], [4, 6]);
  assert.equal(json.values[2][3], w[2 * 6 + 3]);
  const refused = await page.evaluate(() => { try { window.attnlab.exportMatrix('rawScores', { format: 'png' }); return ''; } catch (e) { return e.message; } });
  assert.match(refused, /no matrix 'rawScores'/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a float16 file (4 x 4 x 256 x 256, 2 MB) is checked in steps while frames keep advancing', async () => {
  const file = path.join(dir, 'medium.npy');
  execFileSync(PYTHON, [FIXTURES, 'large', file, '4', '4', '256']);
  const { page, errors } = await openLab(browser, url);
  // 64 KiB of the 2 MiB of data per animation frame: 32 steps at least.
  const { status: report } = await importInSteps(page, file);
  assert.equal(report.state, 'done', report.message);
  assert.ok(report.finish.steps >= 32, `${report.finish.steps} finish steps`);
  // The app drew frames between the steps: one per step, give or take the first and last.
  assert.ok(report.finish.frames >= report.finish.steps - 2,
    `${report.finish.frames} frames drawn during ${report.finish.steps} finish steps (${report.finish.ms.toFixed(0)} ms)`);
  const state = await page.evaluate(() => window.attnlab.getState());
  assert.deepEqual([state.import.layers, state.import.heads, state.import.nQ], [4, 4, 256]);
  // The sink on the first token is visible in the figures: well above 1/256.
  assert.ok(state.import.sinkShare.every((s) => s > 0.03), `sink shares ${state.import.sinkShare}`);
  await page.waitForFunction(() => window.attnlab.getState().import.thumbnailsDone === 16, null, { timeout: 20000 });
  await page.evaluate(() => window.attnlab.setState({}));
  await screenshot(page, 'import-medium-model-view.png');

  // An Inf in the last element is found by the last step: the message names it, frames went
  // on meanwhile, and the scene is still the previous file.
  const broken = path.join(dir, 'medium_inf.npy');
  execFileSync(PYTHON, ['-c', `
import sys
import numpy as np
w = np.load(sys.argv[1])
w[-1, -1, -1, -1] = np.inf
np.save(sys.argv[2], w)
`, file, broken]);
  const refused = await importInSteps(page, broken);
  assert.equal(refused.message, "medium_inf.npy: 'the array' contains NaN or Inf at flat index 1048575");
  assert.equal(refused.status.state, 'error');
  assert.equal(await page.locator('#import-message').textContent(), refused.message);
  assert.ok(refused.status.finish.steps >= 32 && refused.status.finish.frames >= refused.status.finish.steps - 2,
    `${refused.status.finish.frames} frames in ${refused.status.finish.steps} steps`);
  const kept = await page.evaluate(() => window.attnlab.getState());
  assert.equal(kept.import.name, 'medium.npy');
  assert.deepEqual(kept.import.sinkShare, state.import.sinkShare);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a JSON file (4 x 4 x 48 x 48, 0.8 MB of text) is parsed in steps while frames keep advancing', async () => {
  const file = path.join(dir, 'medium.json');
  execFileSync(PYTHON, [FIXTURES, 'large-json', file, '4', '4', '48']);
  const text = fs.readFileSync(file, 'utf8');
  const weights = JSON.parse(text).attentions;
  const { page, errors } = await openLab(browser, url);
  // 64 KiB of text per animation frame: 12 steps at least, a frame drawn between each two.
  const { status: report } = await importInSteps(page, file);
  assert.equal(report.state, 'done', report.message);
  assert.ok(report.finish.steps >= Math.floor(text.length / 65536), `${report.finish.steps} finish steps`);
  assert.ok(report.finish.frames >= report.finish.steps - 2,
    `${report.finish.frames} frames drawn during ${report.finish.steps} finish steps (${report.finish.ms.toFixed(0)} ms)`);
  const state = await page.evaluate(() => window.attnlab.getState());
  assert.deepEqual([state.import.layers, state.import.heads, state.import.nQ, state.import.nK], [4, 4, 48, 48]);
  // The numbers are the file's, each the float32 nearest the text's decimal.
  await assertProbes(page, [[0, 0, 0, 0], [1, 2, 5, 40], [3, 3, 47, 47]].map(([l, h, i, j]) => [l, h, i, j, weights[l][h][i][j]]));

  // An unknown key at the very end is found only once the whole text is parsed: the
  // message names it, frames went on meanwhile, and the scene is still the previous file.
  const damaged = path.join(dir, 'medium_extra.json');
  fs.writeFileSync(damaged, text.slice(0, -1) + ', "extra": 1}');
  const refused = await importInSteps(page, damaged);
  assert.match(refused.message, /^medium_extra\.json: JSON: unknown key "extra"/);
  assert.equal(refused.status.state, 'error');
  assert.ok(refused.status.finish.steps >= Math.floor(text.length / 65536) && refused.status.finish.frames >= refused.status.finish.steps - 2,
    `${refused.status.finish.frames} frames in ${refused.status.finish.steps} steps`);
  assert.equal((await page.evaluate(() => window.attnlab.getState())).import.name, 'medium.json');
  assert.deepEqual(errors, []);
  await page.close();
});

test('export: the whole panel as PNG, at scale 2 twice the pixels each way, the heatmap in its colours', async () => {
  const { page, errors } = await openLab(browser, url);
  assert.equal((await pick(page, 'cross_f32.npz')).state, 'done');
  await page.evaluate(() => window.attnlab.setState({ layer: 1, head: 2 }));
  await page.waitForFunction(() => window.attnlab.getState().import.thumbnailsDone === 6, null, { timeout: 10000 });
  await page.evaluate(() => window.attnlab.setState({}));
  const before = await page.evaluate(() => {
    const r = document.getElementById('canvas').getBoundingClientRect();
    return { layout: window.attnlab.layout(), rect: { left: r.left, top: r.top, width: r.width, height: r.height } };
  });
  // The PNGs (megabytes: stored, not compressed) cross over as base64 text.
  const shots = await page.evaluate(() => [1, 2].map((scale) => {
    const out = window.attnlab.exportPanel({ scale });
    let text = '';
    for (let i = 0; i < out.bytes.length; i += 0x8000) text += String.fromCharCode(...out.bytes.subarray(i, i + 0x8000));
    return { base64: btoa(text), width: out.width, height: out.height, name: out.name };
  }));
  const files = shots.map((s) => Buffer.from(s.base64, 'base64'));
  const [one, two] = files.map((b) => decodePng(b));
  fs.writeFileSync(path.join(artifactsDir, 'import-panel-x1.png'), files[0]);
  fs.writeFileSync(path.join(artifactsDir, 'import-panel-x2.png'), files[1]);
  assert.equal(shots[1].name, 'panel-model-x2.png');
  assert.deepEqual([one.width, one.height], [shots[0].width, shots[0].height]);
  assert.deepEqual([two.width, two.height], [2 * one.width, 2 * one.height]);
  // The panel window: the whole canvas, since the model view reads none of the scene's
  // settings and the controls fold away.
  const fb = before.layout.framebuffer;
  assert.equal(before.layout.controls, false);
  assert.equal(one.height, fb.height);
  assert.equal(one.width, fb.width, `panel ${one.width} wide in a ${fb.width} canvas`);
  // The focused head's cells in the shader's colours at both scales, where the screen has them.
  const focus = before.layout.heatmaps['model/focus'];
  const { rect } = before;
  const toPanel = (x, y) => [(x - rect.left) * fb.width / rect.width - (fb.width - one.width), (y - rect.top) * fb.height / rect.height];
  const w = await page.evaluate(() => Array.from(window.attnlab.getMatrix('weights', 2).data));
  for (const [i, j] of [[0, 0], [1, 3], [3, 5]]) {
    const [px, py] = toPanel(focus.x + (j + 0.3) * (focus.w / focus.cols), focus.y + (i + 0.3) * (focus.h / focus.rows));
    const want = expectedSequential(w[i * 6 + j]);
    assert.ok(colorDistance(one.pixel(px, py), want) <= 3, `scale 1 cell (${i}, ${j}): ${one.pixel(px, py)} vs ${want}`);
    assert.ok(colorDistance(two.pixel(2 * px, 2 * py), want) <= 3, `scale 2 cell (${i}, ${j}): ${two.pixel(2 * px, 2 * py)} vs ${want}`);
  }
  // Not a blank picture: text, thumbnails and heatmaps give many colours.
  const colours = new Set();
  for (let y = 0; y < two.height; y += 3) for (let x = 0; x < two.width; x += 3) colours.add(two.pixel(x, y).join(','));
  assert.ok(colours.size > 200, `${colours.size} distinct colours at scale 2`);
  // The screen is drawn at its own scale again: the next frame's layout is the one before.
  await page.evaluate(() => window.attnlab.setState({}));
  const after = await page.evaluate(() => window.attnlab.layout());
  assert.deepEqual(after.framebuffer, fb);
  assert.deepEqual(after.heatmaps['model/focus'], focus);
  // The page's button downloads the same export at the chosen scale.
  await page.selectOption('#export-scale', '2');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-panel')]);
  assert.equal(download.suggestedFilename(), 'panel-model-x2.png');
  const saved = decodePng(await downloadedBytes(download));
  assert.deepEqual([saved.width, saved.height], [two.width, two.height]);
  const refused = await page.evaluate(() => { try { window.attnlab.exportPanel({ scale: 9 }); return ''; } catch (e) { return e.message; } });
  assert.match(refused, /scale must be 1, 2, 3 or 4/);
  assert.deepEqual(errors, []);
  await page.close();
});
