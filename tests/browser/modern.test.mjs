// The panels of attention as current models use it, in headless Chromium at 1280 x 800: each
// opened, one of its settings moved, its reported figures checked against the math (and
// attnlab-core's functions on the same Q, K, V), a heatmap's pixels or a plot's axes checked,
// and a screenshot taken (build/test-artifacts/modern-*.png). The last test opens all five
// in Chinese at DPR 2 and checks every glyph drawn is in the fonts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { labSuite } from '../support/suite.mjs';
import { assertHeatmapShows, matrix, screenshot, waitFor } from '../support/lab.mjs';
import { colorDistance } from '../support/colors.mjs';
import { distDir } from '../support/paths.mjs';
import { openBrowser } from '../support/browser.mjs';
import { openLab } from '../support/lab.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();

const suite = labSuite({ viewport: { width: 1280, height: 800 } });
const SENTENCE = 'The cat sat on the mat because it was tired.';
const PINK = [255, 64, 160];  // ui/heatmap_widget.h kFocusPink

async function figures(page, key) {
  await waitFor(page, (k) => {
    const f = window.attnlab.getState().figures.modern[k];
    return !!f && !f.error;
  }, key);
  return page.evaluate((k) => window.attnlab.getState().figures.modern[k], key);
}

async function frames(page, count = 3) {
  await page.evaluate(async (k) => {
    const target = window.attnlab.framesDrawn() + k;
    while (window.attnlab.framesDrawn() < target) await new Promise((r) => requestAnimationFrame(r));
  }, count);
}

// A plot reported by layout(): at least 3 labelled ticks on each axis and both titles.
function assertAxes(plot, id) {
  assert.ok(plot, `plot ${id} is on screen`);
  assert.ok(plot.xTicks.length >= 3, `${id}: x ticks ${JSON.stringify(plot.xTicks)}`);
  assert.ok(plot.yTicks.length >= 3, `${id}: y ticks ${JSON.stringify(plot.yTicks)}`);
  assert.ok(plot.xTitle.length > 0 && plot.yTitle.length > 0, `${id}: axis titles`);
}

// The screen position of a data point of a linear plot.
function plotPoint(plot, x, y) {
  return {
    x: plot.x + ((x - plot.xRange[0]) / (plot.xRange[1] - plot.xRange[0])) * plot.w,
    y: plot.y + plot.h - ((y - plot.yRange[0]) / (plot.yRange[1] - plot.yRange[0])) * plot.h,
  };
}

test('positions: RoPE scores depend on the offset alone, shifting moves the block along the diagonals; ALiBi slopes', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate((s) => window.attnlab.setState({ sentence: s, panel: 'positions', cursor: 2 }), SENTENCE);
  let f = await figures(page, 'positions');
  assert.equal(f.shift, 5);
  // The control: the shift moves from 5 to 9.
  await page.evaluate(() => window.attnlab.setState({ modern: { shift: 9 } }));
  await waitFor(page, () => window.attnlab.getState().figures.modern.positions?.shift === 9);
  f = await figures(page, 'positions');
  const n = (await page.evaluate(() => window.attnlab.getState().tokens)).length;
  assert.equal(f.longTokens, n + 9);
  assert.ok(f.toeplitzDeviation < 1e-4, `fixed contents: constant diagonals (${f.toeplitzDeviation})`);
  assert.ok(f.ropeShiftDifference < 1e-4, `RoPE block after 9 tokens = the sentence alone (${f.ropeShiftDifference})`);
  assert.ok(f.sinusoidalShiftDifference > 0.05, `the sinusoidal encoding moves it (${f.sinusoidalShiftDifference})`);
  assert.deepEqual(f.alibiSlopes, [0.25, 0.0625, 0.015625, 0.00390625]);
  const long = await matrix(page, 'positions/ropeLong');
  const alone = await matrix(page, 'positions/ropeScores');
  assert.equal(long.rows, n + 9);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      assert.ok(Math.abs(long.data[(i + 9) * (n + 9) + j + 9] - alone.data[i * n + j]) < 1e-4, `block (${i}, ${j})`);
  await frames(page);
  const png = await screenshot(page, 'modern-positions.png');
  // The block's outline lies over the cells along its edges.
  const onOutline = (i, j) => (i >= 8 && i <= 10 && j >= 8 && j <= 9 + n) || (j >= 8 && j <= 10 && i >= 8 && i <= 9 + n) ||
    (i >= 8 + n && i <= 10 + n && j >= 8) || (j >= 8 + n && j <= 10 + n && i >= 8);
  await assertHeatmapShows(page, png, 'positions/ropeLong', long, { diverging: true, skip: onOutline });
  await assertHeatmapShows(page, png, 'positions/alibiBias', await matrix(page, 'positions/alibiBias'), { diverging: true });
  const layout = await page.evaluate(() => window.attnlab.layout());
  assertAxes(layout.plots['positions/distance'], 'positions/distance');
  assert.deepEqual(layout.plots['positions/distance'].references, ['sentence length']);
  assert.deepEqual(errors, []);
});

test('GQA and the KV cache: G = 2 pools the key/value heads; bytes per token = 2 G d_k layers bytes; decoding measured', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate((s) => window.attnlab.setState({ sentence: s, panel: 'gqa', modern: { kvHeads: 4, layers: 12, bytesPerValue: 2 } }), SENTENCE);
  let f = await figures(page, 'gqa');
  assert.ok(f.difference.every((d) => d === 0), 'G = H is multi-head attention');
  await page.evaluate(() => window.attnlab.setState({ modern: { kvHeads: 2, decodeStep: 6 } }));
  await waitFor(page, () => window.attnlab.getState().figures.modern.gqa?.kvHeads === 2);
  f = await figures(page, 'gqa');
  const dk = 16 / 4;
  assert.deepEqual(f.kvHeadOf, [0, 0, 1, 1]);
  assert.equal(f.bytesPerToken, 2 * 2 * dk * 12 * 2);
  assert.equal(f.bytesPerTokenMultiHead, 2 * 4 * dk * 12 * 2);
  assert.equal(f.bytesPerTokenMultiQuery, 2 * 1 * dk * 12 * 2);
  assert.equal(f.cacheBytes, 6 * f.bytesPerToken);
  assert.ok(Math.max(...f.difference) > 1e-3, 'pooling changes the weights');
  // Query head 3 read the mean of heads 2 and 3's keys and values: attnlab-core agrees.
  const q = await matrix(page, 'q', 3);
  const k2 = await matrix(page, 'k', 2), k3 = await matrix(page, 'k', 3);
  const v2 = await matrix(page, 'v', 2), v3 = await matrix(page, 'v', 3);
  const mean = (a, b) => Float32Array.from(a.data, (x, i) => (x + b.data[i]) / 2);
  const want = core.attention({ q: Float32Array.from(q.data), k: mean(k2, k3), v: mean(v2, v3), nq: q.rows, nk: q.rows, dk, dv: dk });
  const got = await matrix(page, 'gqa/weights/3');
  for (let i = 0; i < got.data.length; i++) assert.ok(Math.abs(got.data[i] - want.weights[i]) < 1e-5, `weight ${i}`);
  // Measure decoding with and without the cache.
  await page.evaluate(() => window.attnlab.setState({ modern: { decodeRequest: 1 } }));
  await waitFor(page, () => window.attnlab.getState().figures.modern.gqa?.decoding?.running === true);
  await screenshot(page, 'modern-gqa-measuring.png');
  await waitFor(page, () => window.attnlab.getState().figures.modern.gqa?.decoding?.running === false, undefined, 120000);
  f = await figures(page, 'gqa');
  assert.deepEqual(f.decoding.steps.map((s) => s.n), [64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]);
  assert.equal(f.decoding.done, f.decoding.total);
  assert.equal(f.decoding.fitMinN, 256);
  assert.ok(f.decoding.steps.every((s) => s.secondsWithCache > 0));
  assert.ok(f.decoding.steps.every((s) => (s.n <= 1024 ? s.secondsWithoutCache > 0 : s.secondsWithoutCache === null)));
  assert.ok(Number.isFinite(f.decoding.slopeWithCache) && Number.isFinite(f.decoding.slopeWithoutCache));
  console.log(`# decoding in Chromium (one busy machine), n >= 256: log-log slope ${f.decoding.slopeWithCache.toFixed(2)} with the cache, ` +
              `${f.decoding.slopeWithoutCache.toFixed(2)} without`);
  await frames(page);
  const png = await screenshot(page, 'modern-gqa.png');
  await assertHeatmapShows(page, png, 'gqa/weights/3', got);
  const plot = (await page.evaluate(() => window.attnlab.layout())).plots['gqa/decoding'];
  assertAxes(plot, 'gqa/decoding');
  assert.ok(plot.logX && plot.logY);
  assert.deepEqual(errors, []);
});

test('FlashAttention: the output equals exact attention; the step shown is outlined; m and l end as the row max and sum', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate((s) => window.attnlab.setState({ sentence: s, panel: 'flash', modern: { blockQ: 3, blockK: 4 } }), SENTENCE);
  let f = await figures(page, 'flash');
  const n = (await page.evaluate(() => window.attnlab.getState().tokens)).length;
  assert.equal(f.steps, Math.ceil(n / 3) * Math.ceil(n / 4));
  assert.ok(f.maxDifference < 1e-5, `flash = exact (${f.maxDifference})`);
  // The control: causal, and the step moved to the last key tile of query tile 1.
  await page.evaluate(() => window.attnlab.setState({ modern: { flashCausal: true, flashStep: 2 } }));
  await waitFor(page, () => window.attnlab.getState().figures.modern.flash?.step === 2 && window.attnlab.getState().modern.flashCausal);
  f = await figures(page, 'flash');
  assert.ok(f.maxDifference < 1e-5);
  const c = f.current;
  assert.deepEqual([c.qTile, c.kTile, c.qBegin, c.qEnd, c.kBegin, c.kEnd], [1, 1, 3, 6, 4, 8]);
  for (let r = c.qBegin; r < c.qEnd; r++) {
    assert.ok(Math.abs(c.m[r - c.qBegin] - f.rowMax[r]) < 1e-5, `m of row ${r}`);
    assert.ok(Math.abs(c.l[r - c.qBegin] - f.rowSum[r]) / f.rowSum[r] < 1e-5, `l of row ${r}`);
  }
  // The exact output agrees with attnlab-core's flashAttention on the same head.
  const [q, k, v] = await Promise.all(['q', 'k', 'v'].map((m) => matrix(page, m, 0)));
  const ref = core.flashAttention({ q: Float32Array.from(q.data), k: Float32Array.from(k.data), v: Float32Array.from(v.data),
    nq: n, nk: n, dk: q.cols, dv: v.cols, causal: true, blockQ: 3, blockK: 4 });
  const out = await matrix(page, 'flash/output');
  for (let i = 0; i < out.data.length; i++) assert.ok(Math.abs(out.data[i] - ref.output[i]) < 1e-6);
  await frames(page);
  const png = await screenshot(page, 'modern-flash.png');
  const p = (await page.evaluate(() => window.attnlab.layout())).heatmaps['flash/exactWeights'];
  await assertHeatmapShows(page, png, 'flash/exactWeights', await matrix(page, 'flash/exactWeights'), { tolerance: 3 });
  // The pink frame on the current tile's top edge, midway along it.
  const cw = p.w / p.viewW, ch = p.h / p.viewH;
  const edge = png.pixel((p.x + (c.kBegin + (c.kEnd - c.kBegin) / 2) * cw) * png.cssScale, (p.y + c.qBegin * ch) * png.cssScale);
  assert.ok(colorDistance(edge, PINK) < 40, `the current tile is outlined in pink: ${edge}`);
  assert.deepEqual(errors, []);
});

test('sinks: a row moved down until it matches nothing keeps softmax at 1 while off by one lets it go; StreamingLLM keeps key 0', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate((s) => window.attnlab.setState({ sentence: s, panel: 'sinks', cursor: 4, modern: { rowOffset: 0 } }), SENTENCE);
  let f = await figures(page, 'sinks');
  const before = f.offByOneSum;
  await page.evaluate(() => window.attnlab.setState({ modern: { rowOffset: -12 } }));
  await waitFor(page, () => window.attnlab.getState().modern.rowOffset === -12);
  await frames(page);
  f = await figures(page, 'sinks');
  const sum = f.rowSoftmax.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 1) < 1e-5, `softmax sums to 1 (${sum})`);
  assert.ok(f.offByOneSum < 1e-3 && f.offByOneSum < before, `off by one: ${before} -> ${f.offByOneSum}`);
  assert.equal(f.headSinkShare.length, 4);
  const allowed = await matrix(page, 'sinks/streamingAllowed');
  for (let i = 0; i < allowed.rows; i++) assert.equal(allowed.data[i * allowed.cols], 1, `row ${i} sees the sink`);
  const png = await screenshot(page, 'modern-sinks.png');
  await assertHeatmapShows(page, png, 'sinks/streamingWeights', await matrix(page, 'sinks/streamingWeights'));
  const plot = (await page.evaluate(() => window.attnlab.layout())).plots['sinks/row'];
  assert.ok(plot.xTicks.includes('cat') && plot.xTicks.includes('mat'), `token labels on the row's axis: ${plot.xTicks}`);
  assert.ok(plot.yTicks.length >= 3);
  assert.deepEqual(plot.legend, ['softmax', 'softmax off by one']);
  assert.deepEqual(errors, []);
});

test('query-key space: the pointer on a query shows its token; the plane is PCA of queries and keys together', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate((s) => window.attnlab.setState({ sentence: s, panel: 'qk-space', cursor: 2, head: 1 }), SENTENCE);
  let f = await figures(page, 'qkSpace');
  const tokens = await page.evaluate(() => window.attnlab.getState().tokens);
  assert.equal(f.queries.length, tokens.length);
  assert.ok(f.explained > 0 && f.explained < 1, `explained ${f.explained}`);
  // The control: d_model 8 with 4 heads gives d_k = 2, so the plane keeps everything.
  await page.evaluate(() => window.attnlab.setState({ dModel: 8 }));
  await waitFor(page, () => window.attnlab.getState().figures.modern.qkSpace?.explained > 0.99999);
  f = await figures(page, 'qkSpace');
  await frames(page);
  const plot = (await page.evaluate(() => window.attnlab.layout())).plots['qk/plane'];
  assertAxes(plot, 'qk/plane');
  const at = plotPoint(plot, f.queries[5][0], f.queries[5][1]);
  await page.mouse.move(at.x, at.y);
  await frames(page);
  const readout = (await page.evaluate(() => window.attnlab.layout())).plots['qk/plane'].readout;
  assert.ok(readout.startsWith(`${tokens[5]}: `), `the readout names the point under the pointer: '${readout}'`);
  await screenshot(page, 'modern-qk-space.png');
  assert.deepEqual(errors, []);
});

test('the five panels in Chinese at DPR 2: every glyph drawn is in the fonts (screenshots)', async () => {
  const browser = await openBrowser({ deviceScaleFactor: 2, viewport: { width: 1280, height: 800 } });
  try {
    await suite.ready;
    const { page, errors } = await openLab(browser, suite.url, '?lang=zh');
    await waitFor(page, () => window.attnlab.cjkFontLoaded === true);
    for (const panel of ['positions', 'gqa', 'flash', 'sinks', 'qk-space']) {
      await page.evaluate((p) => window.attnlab.setState({ panel: p, cursor: 3 }), panel);
      await frames(page, 4);
      await waitFor(page, () => window.attnlab.layout().missingGlyphs === 0);
      const png = await screenshot(page, `modern-${panel}-zh-dpr2.png`);
      assert.equal(png.width, 2560);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
