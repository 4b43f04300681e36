// The mask editor, scoring-function, efficient-attention and cost-chart panels in headless
// Chromium: painting cells with a real mouse drag and undoing it (state and pixels), -inf
// cells in a colour no scale produces, the scoring panel's weights against the math, the
// variant panel's error against attnlab-core's efficientAttention on the same input, and a
// cost chart measured across frames. Screenshots: build/test-artifacts/variants-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { labSuite } from '../support/suite.mjs';
import { assertHeatmapShows, cellPixel, frames, matrix, screenshot, waitFor } from '../support/lab.mjs';
import { colorDistance, expectedDiverging, expectedSequential } from '../support/colors.mjs';
import { distDir } from '../support/paths.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();

const suite = labSuite();

const STRIPES = [[200, 200, 200], [150, 150, 150]];  // files/colormap.h kMaskedStripeA/B


function cellCentre(p, i, j) {
  return { x: p.x + (j + 0.5) * (p.w / p.viewW), y: p.y + (i + 0.5) * (p.h / p.viewH) };
}

const SENTENCE = 'a b c d e f g h';

test('painting cells with a mouse drag changes the mask and the pixels; Ctrl+Z and Ctrl+Y undo and redo both', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate((s) => window.attnlab.setState({ sentence: s, panel: 'mask', cursor: -1, variants: { paintAllow: false } }), SENTENCE);
  await waitFor(page, () => !!window.attnlab.layout().heatmaps['mask/allowed']);
  const p = (await page.evaluate(() => window.attnlab.layout())).heatmaps['mask/allowed'];
  let png = await screenshot(page, 'variants-mask-before.png');
  for (let j = 0; j < 8; j++) assert.ok(colorDistance(cellPixel(png, p, 1, j), expectedSequential(1)) <= 3, `cell (1,${j}) starts allowed`);

  // A real drag along row 1 from column 2 to column 5, a frame between mouse events.
  const from = cellCentre(p, 1, 2), to = cellCentre(p, 1, 5);
  await page.mouse.move(from.x, from.y);
  await frames(page);
  await page.mouse.down();
  await frames(page);
  for (let t = 1; t <= 3; t++) {
    await page.mouse.move(from.x + ((to.x - from.x) * t) / 3, from.y);
    await frames(page);
  }
  await page.mouse.up();
  await frames(page, 3);

  let state = await page.evaluate(() => window.attnlab.getState());
  assert.equal(state.mask.painted, '1:2- 1:3- 1:4- 1:5-');
  assert.equal(state.figures.variants.maskHistory.undo, 1);
  const allowed = await matrix(page, 'maskAllowed');
  const weights = await matrix(page, 'weights');
  for (let j = 0; j < 8; j++) {
    const blocked = j >= 2 && j <= 5;
    assert.equal(allowed.data[8 + j], blocked ? 0 : 1, `mask (1,${j})`);
    if (blocked) assert.equal(weights.data[8 + j], 0, `weight (1,${j})`);
  }
  png = await screenshot(page, 'variants-mask-painted.png');
  await assertHeatmapShows(page, png, 'mask/allowed', allowed);
  await assertHeatmapShows(page, png, 'mask/weights', weights);

  // Undo with Ctrl+Z on the canvas (it has the focus since the drag): mask and pixels return.
  await page.keyboard.press('Control+z');
  await waitFor(page, () => window.attnlab.getState().mask.painted === '');
  await frames(page, 2);
  png = await screenshot(page, 'variants-mask-undone.png');
  const restored = await matrix(page, 'maskAllowed');
  assert.ok(restored.data.every((x) => x === 1));
  await assertHeatmapShows(page, png, 'mask/allowed', restored);
  state = await page.evaluate(() => window.attnlab.getState());
  assert.deepEqual(state.figures.variants.maskHistory, { undo: 0, redo: 1 });

  await page.keyboard.press('Control+y');
  await waitFor(page, () => window.attnlab.getState().mask.painted === '1:2- 1:3- 1:4- 1:5-');
  await frames(page, 2);
  png = await screenshot(page, 'variants-mask-redone.png');
  await assertHeatmapShows(page, png, 'mask/allowed', await matrix(page, 'maskAllowed'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('masked scores: -inf cells are grey stripes that no colour scale produces; a fully masked row is reported', async () => {
  const { page, errors } = await suite.openLab();
  // Causal, and row 3's remaining keys 0..3 blocked by hand: row 3 is fully masked.
  await page.evaluate((s) => window.attnlab.setState({
    sentence: s, panel: 'mask', cursor: -1, mask: { causal: true, painted: '3:0- 3:1- 3:2- 3:3-' },
  }), SENTENCE);
  await waitFor(page, () => !!window.attnlab.layout().heatmaps['mask/maskedScores']);
  await frames(page, 2);
  const state = await page.evaluate(() => window.attnlab.getState());
  assert.deepEqual(state.figures.fullyMaskedRows, [3]);
  const png = await screenshot(page, 'variants-mask-neg-inf.png');
  const layout = await page.evaluate(() => window.attnlab.layout());
  const p = layout.heatmaps['mask/maskedScores'];
  const scores = await matrix(page, 'maskedScores');

  // No entry of either colour scale is a neutral grey from 147 to 203 (what a stripe is).
  for (let t = 0; t <= 255; t++)
    for (const c of [expectedSequential(t / 255), expectedDiverging(t / 255, 0, 1)])
      assert.ok(!(Math.max(...c) - Math.min(...c) <= 3 && c[0] >= 147 && c[0] <= 203), `scale colour ${c} looks like a stripe`);
  let infCells = 0;
  for (let i = 0; i < 8; i++)
    for (let j = 0; j < 8; j++) {
      const v = scores.data[i * 8 + j];
      // Every pixel of two lines across the cell (away from the middle, where a cell's number
      // would be written, and from the grid line): for -inf, each is one of the two greys.
      const samples = [];
      const cw = p.w / p.viewW, ch = p.h / p.viewH;
      for (const fy of [0.2, 0.8])
        for (let x = Math.ceil((p.x + (j + 0.15) * cw) * png.cssScale); x < (p.x + (j + 0.85) * cw) * png.cssScale; x++)
          samples.push(png.pixel(x, (p.y + (i + fy) * ch) * png.cssScale));
      // A stripe pixel is a neutral grey from 150 to 200 (the edges between the two stripes
      // are blended), which neither scale contains; both greys appear in a -inf cell.
      const isStripe = (c) => Math.max(...c) - Math.min(...c) <= 3 && c[0] >= 147 && c[0] <= 203;
      if (v === -Infinity) {
        infCells++;
        assert.ok(samples.every(isStripe), `-inf cell (${i},${j}) shows ${JSON.stringify(samples)}`);
        assert.ok(STRIPES.every((s) => samples.some((c) => colorDistance(c, s) <= 3)), `-inf cell (${i},${j}) is not striped`);
      } else {
        assert.ok(!samples.some(isStripe), `finite cell (${i},${j}) shows a stripe grey`);
        assert.ok(colorDistance(cellPixel(png, p, i, j), expectedDiverging(v, p.rangeLo, p.rangeHi)) <= 3, `cell (${i},${j})`);
      }
    }
  assert.equal(infCells, 28 + 4);  // the upper triangle and row 3's four painted cells
  const weights = await matrix(page, 'weights');
  assert.deepEqual(weights.data.slice(24, 32), [0, 0, 0, 0, 0, 0, 0, 0]);
  await assertHeatmapShows(page, png, 'mask/weights', weights);
  assert.deepEqual(errors, []);
  await page.close();
});

// softmax of each row of an (n, n) score matrix (as plain arrays).
function softmaxRows(s, n) {
  const out = new Array(n * n);
  for (let i = 0; i < n; i++) {
    const row = s.slice(i * n, (i + 1) * n);
    const m = Math.max(...row);
    const e = row.map((x) => Math.exp(x - m));
    const z = e.reduce((a, b) => a + b, 0);
    for (let j = 0; j < n; j++) out[i * n + j] = e[j] / z;
  }
  return out;
}

test('scoring panel: dot, scaled dot, cosine and additive weights match the math on the same Q and K', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate((s) => window.attnlab.setState({ sentence: s, panel: 'scoring', cursor: -1 }), SENTENCE);
  await waitFor(page, () => !!window.attnlab.getMatrix('scoring/dot/weights'));
  await frames(page, 2);
  const q = await matrix(page, 'q'), k = await matrix(page, 'k');
  const n = q.rows, d = q.cols;
  const row = (m, i) => m.data.slice(i * m.cols, (i + 1) * m.cols);
  const dot = (a, b) => a.reduce((s, x, c) => s + x * b[c], 0);
  const wq = await matrix(page, 'scoring/additive/wq'), wk = await matrix(page, 'scoring/additive/wk');
  const va = (await matrix(page, 'scoring/additive/v')).data;
  const project = (x, w) => Array.from({ length: d }, (_, c) => x.reduce((s, xv, r) => s + xv * w.data[r * d + c], 0));
  const scores = { dot: [], 'scaled-dot': [], cosine: [], additive: [] };
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const qi = row(q, i), kj = row(k, j);
      const s = dot(qi, kj);
      scores.dot.push(s);
      scores['scaled-dot'].push(s / Math.sqrt(d));
      scores.cosine.push(s / Math.sqrt(dot(qi, qi) * dot(kj, kj)));
      const qp = project(qi, wq), kp = project(kj, wk);
      scores.additive.push(qp.reduce((acc, x, c) => acc + va[c] * Math.tanh(x + kp[c]), 0));
    }
  const png = await screenshot(page, 'variants-scoring.png');
  const scaled = softmaxRows(scores['scaled-dot'], n);
  // The panel's scaled dot is the explorer's own head-0 weights.
  const pipeline = await matrix(page, 'weights');
  for (let x = 0; x < n * n; x++) assert.ok(Math.abs(pipeline.data[x] - scaled[x]) < 1e-5);
  for (const name of Object.keys(scores)) {
    const want = softmaxRows(scores[name], n);
    const got = await matrix(page, `scoring/${name}/weights`);
    const diff = await matrix(page, `scoring/${name}/difference`);
    for (let x = 0; x < n * n; x++) {
      assert.ok(Math.abs(got.data[x] - want[x]) < 1e-4, `${name} weight ${x}: ${got.data[x]} vs ${want[x]}`);
      assert.ok(Math.abs(diff.data[x] - (want[x] - scaled[x])) < 1e-4, `${name} difference ${x}`);
    }
    await assertHeatmapShows(page, png, `scoring/${name}/weights`, got);
    if (name !== 'scaled-dot') await assertHeatmapShows(page, png, `scoring/${name}/difference`, diff, { diverging: true });
  }
  // The four functions really differ: dot is sharper than scaled dot, cosine flatter.
  const maxOf = (m) => Math.max(...m);
  assert.ok(maxOf(softmaxRows(scores.dot, n)) > maxOf(scaled));
  assert.deepEqual(errors, []);
  await page.close();
});

test('variant panel: the error shown is efficientAttention\'s relativeError on the same Q, K, V; heatmaps match', async () => {
  const { page, errors } = await suite.openLab();
  for (const [variant, patch, option] of [
    ['window', { kind: 'window', window: 1 }, { window: 1 }],
    ['performer', { kind: 'performer', features: 16, seed: 3 }, { features: 16, seed: 3 }],
    ['linformer', { kind: 'linformer', rank: 4, seed: 2 }, { rank: 4, seed: 2 }],
  ]) {
    await page.evaluate(([s, v]) => window.attnlab.setState({ sentence: s, panel: 'variants', cursor: -1, head: 1, variants: v }), [SENTENCE, patch]);
    await waitFor(page, (kind) => window.attnlab.getState().figures.variants.variant?.kind === kind, variant);
    await frames(page, 2);
    const state = await page.evaluate(() => window.attnlab.getState());
    const shown = state.figures.variants.variant;
    const q = await matrix(page, 'q', 1), k = await matrix(page, 'k', 1), v = await matrix(page, 'v', 1);
    const r = core.efficientAttention({
      variant, q: new Float32Array(q.data), k: new Float32Array(k.data), v: new Float32Array(v.data),
      n: q.rows, dk: q.cols, dv: v.cols, ...option, display: true,
    });
    assert.ok(shown.relativeError > 0);
    assert.ok(Math.abs(shown.relativeError - r.relativeError) <= 1e-9 * r.relativeError, `${variant}: ${shown.relativeError} vs ${r.relativeError}`);
    assert.equal(shown.multiplyAdds, r.cost.multiplyAdds);
    assert.ok(shown.seconds > 0 && shown.exactSeconds > 0);
    const err = await matrix(page, 'variant/weightError');
    for (let x = 0; x < err.data.length; x++) assert.ok(Math.abs(err.data[x] - r.display.weightError[x]) < 1e-6);
    const png = await screenshot(page, `variants-${variant}.png`);
    await assertHeatmapShows(page, png, 'variant/weightError', err, { diverging: true });
    await assertHeatmapShows(page, png, 'variant/exactWeights', await matrix(page, 'variant/exactWeights'));
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('cost chart: measured a slice per frame with progress, frames keep coming, slopes at the end', async () => {
  const { page, errors } = await suite.openLab();
  // Before any measurement the panel already draws the formulas' counts for every kind.
  await page.evaluate(() => window.attnlab.setState({ panel: 'cost-chart' }));
  await frames(page, 3);
  const formulas = (await page.evaluate(() => window.attnlab.layout())).plots['cost/formulas'];
  assert.ok(formulas && formulas.logX && formulas.logY, 'the formula plot is drawn at once');
  assert.deepEqual(formulas.legend, ['exact', 'window', 'strided', 'blocksparse', 'linear', 'performer', 'linformer']);
  assert.ok(formulas.xTicks.length >= 3 && formulas.yTicks.length >= 3, `ticks ${formulas.xTicks} / ${formulas.yTicks}`);
  assert.equal(formulas.yTitle, 'multiply-adds');
  assert.equal((await page.evaluate(() => window.attnlab.layout())).plots['cost/measured'], undefined);
  await screenshot(page, 'variants-cost-chart-formulas.png');
  await page.evaluate(() => window.attnlab.setState({ variants: { costChartRequest: 1 } }));
  // Poll while it runs: frames drawn and samples done.
  const polls = await page.evaluate(async () => {
    const out = [];
    const started = performance.now();
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      const c = window.attnlab.getState().figures.variants.costChart;
      out.push({ t: performance.now() - started, frames: window.attnlab.framesDrawn(), done: c.done, running: c.running });
      if (!c.running || performance.now() - started > 540000) return out;
    }
  });
  const last = polls[polls.length - 1];
  assert.equal(last.running, false, 'the chart did not finish in 9 minutes');
  const state = await page.evaluate(() => window.attnlab.getState());
  const chart = state.figures.variants.costChart;
  assert.equal(chart.done, chart.total);
  assert.equal(chart.total, 7 * 8);
  // Progress was visible in between, and frames advanced during the run: more frames than
  // samples, and no poll interval (250 ms) without a new frame for more than a few polls.
  assert.ok(polls.some((p) => p.done > 0 && p.done < chart.total));
  assert.ok(chart.frames > chart.total, `${chart.frames} frames for ${chart.total} samples`);
  let stalled = 0, worst = 0, advanced = 0;
  for (let i = 1; i < polls.length; i++) {
    stalled = polls[i].frames === polls[i - 1].frames ? stalled + 1 : 0;
    if (!stalled) advanced++;
    worst = Math.max(worst, stalled);
  }
  console.log(`cost chart: ${polls.length} polls, ${chart.frames} frames, ${(last.t / 1000).toFixed(1)} s, ` +
              `${advanced} polls with a new frame, longest stall ${worst} polls`);
  assert.ok(advanced >= (polls.length - 1) * 0.5, `frames advanced in only ${advanced} of ${polls.length - 1} poll intervals`);
  for (const s of chart.series) {
    console.log(`  ${s.kind.padEnd(12)} slope ${s.slope?.toFixed(3)}  ${s.samples.map((p) => (p.seconds * 1e3).toFixed(3)).join(' ')} ms`);
    assert.deepEqual(s.samples.map((p) => p.n), [64, 128, 256, 512, 1024, 2048, 4096, 8192]);
    assert.ok(s.samples.every((p) => p.seconds > 0));
    assert.equal(typeof s.slope, 'number');
    assert.equal(s.fitPoints, 5);
  }
  const png = await screenshot(page, 'variants-cost-chart.png');
  // The exact series is drawn in light grey-white (240, 240, 240) inside the plot.
  const plot = (await page.evaluate(() => window.attnlab.layout())).plots['cost/measured'];
  assert.ok(plot.xTicks.length >= 3 && plot.yTicks.length >= 3, `ticks ${plot.xTicks} / ${plot.yTicks}`);
  assert.ok(plot.legend.every((l) => / slope -?\d/.test(l)), `slopes in the legend: ${plot.legend}`);
  let ink = 0;
  for (let y = plot.y; y < plot.y + plot.h; y += 1)
    for (let x = plot.x; x < plot.x + plot.w; x += 1)
      if (colorDistance(png.pixel(x * png.cssScale, y * png.cssScale), [240, 240, 240]) <= 12) ink++;
  assert.ok(ink > 30, `only ${ink} pixels of the exact series`);
  assert.deepEqual(errors, []);
  await page.close();
});
