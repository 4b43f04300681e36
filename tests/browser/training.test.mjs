// The training lab in headless Chromium: a live run in per-frame slices (steps rise, the
// loss falls, curves and probe heatmaps are drawn and change), pause and reset, the model
// file's download and load (same probe attention), a corrupt file's visible error, the
// session restored after a reload, the scaling experiment's two runs, and the shipped
// trained model as the explorer's scene. Screenshots: build/test-artifacts/training-*.png.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { labSuite } from '../support/suite.mjs';
import { assertHeatmapShows, screenshot } from '../support/lab.mjs';
import { artifactsDir } from '../support/paths.mjs';

const suite = labSuite({ sharedPage: true });
let page;
before(async () => { ({ page } = await suite.ready); });

const LOSS_BLUE = [90, 160, 255];
const UNSCALED_ORANGE = [255, 150, 40];

const training = () => page.evaluate(() => window.attnlab.getState().figures.training);
const probe = (layer, head) => page.evaluate(([l, h]) => {
  const m = window.attnlab.trainProbe(l, h);
  return m && { rows: m.rows, cols: m.cols, data: Array.from(m.data), step: m.step };
}, [layer, head]);
async function waitFor(predicate, arg, timeout = 120000) {
  await page.waitForFunction(predicate, arg, { timeout, polling: 100 });
}
async function frames(count) {
  const start = await page.evaluate(() => window.attnlab.framesDrawn());
  await waitFor((n) => window.attnlab.framesDrawn() >= n, start + count, 30000);
}

// Pixels within `tolerance` per channel of a curve's colour, in a region of the page (CSS
// pixels): the 2-pixel anti-aliased lines the plots draw.
function countColour(png, colour, { x0 = 0, x1 = Infinity, y0 = 0, y1 = Infinity, tolerance = 40 } = {}) {
  let n = 0;
  const yEnd = Math.min(png.height, Math.round(y1 * png.cssScale));
  const xEnd = Math.min(png.width, Math.round(x1 * png.cssScale));
  for (let y = Math.round(y0 * png.cssScale); y < yEnd; y++)
    for (let x = Math.round(x0 * png.cssScale); x < xEnd; x++) {
      const p = png.pixel(x, y);
      if (Math.abs(p[0] - colour[0]) <= tolerance && Math.abs(p[1] - colour[1]) <= tolerance &&
          Math.abs(p[2] - colour[2]) <= tolerance) n++;
    }
  return n;
}

// The loss plot's axes (ui/plot reports them in layout().plots).
async function plotRegion() {
  const p = (await page.evaluate(() => window.attnlab.layout())).plots['train-loss'];
  return { x0: p.x, x1: p.x + p.w, y0: p.y, y1: p.y + p.h };
}

// Cells of a heatmap whose sampled colour moved by more than `by` between two pictures.
async function changedCells(before, after, id, by = 12) {
  const p = (await page.evaluate(() => window.attnlab.layout())).heatmaps[id];
  let changed = 0, total = 0;
  for (let i = 0; i < p.rows; i++)
    for (let j = 0; j < p.cols; j++) {
      const x = (p.x + (j + 0.5) * (p.w / p.cols)) * before.cssScale, y = (p.y + (i + 0.5) * (p.h / p.rows)) * before.cssScale;
      const a = before.pixel(x, y), b = after.pixel(x, y);
      total++;
      if (Math.max(...a.map((v, c) => Math.abs(v - b[c]))) > by) changed++;
    }
  return { changed, total };
}

// A small run that learns fast: previous-token task, one layer, two heads.
const RUN = { task: 'previous', layers: 1, heads: 2, dModel: 32, seed: 3 };

test('start: steps rise in slices, the loss falls, the curves and the probe heatmaps are drawn and change', async () => {
  await page.evaluate((run) => window.attnlab.setState({ panel: 'training', training: { ...run, running: false } }), RUN);
  await page.evaluate(() => window.attnlab.trainReset('training'));
  await frames(3);
  let f = await training();
  assert.equal(f.steps, 0);
  assert.equal(f.heads.length, 2);
  assert.deepEqual(f.thresholds, { previousToken: 0.5, induction: 0.5 });
  const before = await screenshot(page, 'training-start.png');
  const region = await plotRegion();
  const blueBefore = countColour(before, LOSS_BLUE, region);
  // The probe heatmap shows the untrained model's attention, colour for colour.
  const p0 = await probe(0, 0);
  assert.equal(p0.rows, 32);
  await assertHeatmapShows(page, before, 'train/L0H0', p0);

  await page.evaluate(() => window.attnlab.setState({ training: { running: true } }));
  await waitFor(() => window.attnlab.getState().figures.training.steps >= 150);
  await page.evaluate(() => window.attnlab.setState({ training: { running: false } }));
  await frames(2);
  f = await training();
  assert.ok(f.steps >= 150, `${f.steps} steps`);
  assert.ok(f.lastLoss10 < 0.7 * f.firstLoss10, `loss ${f.firstLoss10} -> ${f.lastLoss10}`);
  assert.ok(f.heldOut.length >= 2 && f.heldOut.at(-1).accuracy > f.heldOut[0].accuracy,
    JSON.stringify(f.heldOut));
  assert.ok(f.stepsPerSecond > 0 && f.computeStepsPerSecond > 0);
  const curves = await page.evaluate(() => ({ loss: window.attnlab.trainCurves().loss.length }));
  assert.equal(curves.loss, f.steps);

  const after = await screenshot(page, 'training-after.png');
  const blueAfter = countColour(after, LOSS_BLUE, region);
  // A curve across the axes colours at least one pixel in every other column of them.
  const across = 0.5 * (region.x1 - region.x0) * after.cssScale;
  assert.ok(blueAfter > blueBefore + across, `loss-curve pixels ${blueBefore} -> ${blueAfter} (at least ${across} more)`);
  const p1 = await probe(0, 0);
  assert.equal(p1.step, f.steps);
  await assertHeatmapShows(page, after, 'train/L0H0', p1);
  const moved = await changedCells(before, after, 'train/L0H0');
  assert.ok(moved.changed > moved.total * 0.1, `${moved.changed} of ${moved.total} probe cells changed colour`);
});

test('pause stops the step count while frames go on; frames keep coming while training runs', async () => {
  await page.evaluate(() => window.attnlab.setState({ training: { running: true } }));
  // Frames while training: the page's animation frames keep coming. A run that blocked the
  // page would leave one gap as long as itself; slices of a few milliseconds leave gaps like
  // any other frame's (SwiftShader on a loaded machine draws a few frames per second).
  const gaps = await page.evaluate(() => new Promise((resolve) => {
    const times = [];
    const tick = (t) => {
      times.push(t);
      if (t - times[0] < 3000) requestAnimationFrame(tick);
      else resolve(times.slice(1).map((x, i) => x - times[i]));
    };
    requestAnimationFrame(tick);
  }));
  const running = await training();
  assert.ok(running.running);
  const sorted = [...gaps].sort((a, b) => a - b);
  const medianGap = sorted[Math.floor(sorted.length / 2)];
  assert.ok(gaps.length >= 5, `${gaps.length} frames in 3 s`);
  assert.ok(sorted.at(-1) < Math.max(1500, 5 * medianGap), `longest gap ${sorted.at(-1)} ms, median ${medianGap} ms`);
  assert.ok(running.steps > 0);

  await page.evaluate(() => window.attnlab.setState({ training: { running: false } }));
  const paused = (await training()).steps;
  await frames(20);
  assert.equal((await training()).steps, paused);
});

test('download, then load the file again: the same run, the same probe attention', async () => {
  await page.evaluate(() => window.attnlab.setState({ training: { running: false } }));
  await frames(2);
  const f = await training();
  const wanted = await probe(0, 0);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#train-download')]);
  const file = path.join(artifactsDir, 'training-run.attnmodel');
  await download.saveAs(file);
  assert.match(download.suggestedFilename(), /^attnlab-previous-step\d+\.attnmodel$/);
  const bytes = fs.readFileSync(file);
  assert.equal(bytes.subarray(0, 8).toString('latin1'), 'ATTNLABM');

  await page.evaluate(() => window.attnlab.trainReset('training'));
  assert.equal((await training()).steps, 0);
  assert.notDeepEqual((await probe(0, 0)).data, wanted.data);

  await page.setInputFiles('#train-load', file);
  await waitFor((n) => window.attnlab.getState().figures.training.steps === n, f.steps, 30000);
  const loaded = await probe(0, 0);
  assert.deepEqual(loaded.data, wanted.data);
  const state = await page.evaluate(() => window.attnlab.getState());
  assert.equal(state.training.task, 'previous');
  assert.equal(state.training.layers, 1);
  assert.equal(await page.textContent('#notice'), '');
  await frames(2);
  const png = await screenshot(page, 'training-loaded.png');
  await assertHeatmapShows(page, png, 'train/L0H0', loaded);
});

test('a corrupt or truncated file shows a clear error and keeps the run', async () => {
  const file = path.join(artifactsDir, 'training-run.attnmodel');
  const bytes = fs.readFileSync(file);
  const steps = (await training()).steps;
  const corrupt = Buffer.from(bytes);
  corrupt[Math.floor(corrupt.length / 2)] ^= 0x10;
  await page.setInputFiles('#train-load', { name: 'corrupt.attnmodel', mimeType: 'application/octet-stream', buffer: corrupt });
  await waitFor(() => document.getElementById('notice').textContent.includes('checksum'), null, 30000);
  assert.match(await page.textContent('#notice'), /^Could not load corrupt\.attnmodel: model file: checksum mismatch/);
  assert.ok(await page.isVisible('#notice'));
  let f = await training();
  assert.equal(f.steps, steps);
  assert.match(f.error, /checksum mismatch/);
  await frames(2);
  const png = await screenshot(page, 'training-corrupt.png');
  // The panel says it too, in its error colour (its own controls column, left of the plots;
  // the scene's controls fold away on this panel, so the column starts at the left edge).
  assert.equal((await page.evaluate(() => window.attnlab.layout())).controls, false);
  const ERROR_RED = [255, 115, 89];
  let red = 0;
  for (let y = 0; y < png.height; y++)
    for (let x = 0; x < 400; x++) {
      const p = png.pixel(x, y);
      // The text's anti-aliased edges blend into the ground: near the colour, not exactly it.
      if (Math.abs(p[0] - ERROR_RED[0]) <= 40 && Math.abs(p[1] - ERROR_RED[1]) <= 40 && Math.abs(p[2] - ERROR_RED[2]) <= 40) red++;
    }
  assert.ok(red > 30, `${red} error-coloured pixels`);

  await page.setInputFiles('#train-load', { name: 'half.attnmodel', mimeType: 'application/octet-stream', buffer: bytes.subarray(0, 5000) });
  await waitFor(() => document.getElementById('notice').textContent.includes('half.attnmodel'), null, 30000);
  assert.match(await page.textContent('#notice'), /truncated: the file has 5000 bytes/);
  f = await training();
  assert.equal(f.steps, steps);
  await assert.rejects(page.evaluate(() => window.attnlab.trainLoad(new Uint8Array([1, 2, 3]))), /not an Attention Lab model file|too short|truncated/);
  assert.equal((await training()).steps, steps);
});

test('a reload restores the session: the run, its curves and its held-out points', async () => {
  await page.evaluate(() => window.attnlab.setState({ training: { running: true } }));
  await waitFor((n) => window.attnlab.getState().figures.training.steps >= n, (await training()).steps + 20);
  await page.evaluate(() => window.attnlab.setState({ training: { running: false } }));
  await frames(2);
  const f = await training();
  const wanted = await probe(0, 0);
  const loss = await page.evaluate(() => Array.from(window.attnlab.trainCurves().loss));
  await page.evaluate(() => window.attnlab.persistTraining());

  await page.reload();
  await page.evaluate(() => window.attnlab.ready);
  await page.evaluate(() => window.attnlab.setState({ panel: 'training' }));
  const g = await training();
  assert.equal(g.steps, f.steps);
  assert.deepEqual(g.heldOut, f.heldOut);
  assert.deepEqual(await page.evaluate(() => Array.from(window.attnlab.trainCurves().loss)), loss);
  assert.deepEqual((await probe(0, 0)).data, wanted.data);
  await frames(2);
  const png = await screenshot(page, 'training-reloaded.png');
  const region = await plotRegion();
  assert.ok(countColour(png, LOSS_BLUE, region) > 0.5 * (region.x1 - region.x0) * png.cssScale);
});

test('the scaling experiment: two runs in step, same seed and data, loss curves overlaid', async () => {
  await page.evaluate(() => window.attnlab.setState({ panel: 'scaling-run', scalingRun: { dk: 64, init: 'unit', seed: 1 } }));
  await page.evaluate(() => window.attnlab.trainReset('scaling'));
  await frames(2);
  const before = await screenshot(page, 'training-scaling-start.png');
  await page.evaluate(() => window.attnlab.setState({ scalingRun: { running: true } }));
  await waitFor(() => window.attnlab.getState().figures.training.scaling.steps >= 40);
  await page.evaluate(() => window.attnlab.setState({ scalingRun: { running: false } }));
  await frames(2);
  const x = (await training()).scaling;
  assert.equal(x.steps, x.unscaledSteps);
  // The same initial weights and first batch; at d_k = 64 the unscaled run starts saturated.
  const curves = await page.evaluate(() => {
    const c = window.attnlab.trainCurves();
    return { scaled: Array.from(c.scaled), unscaled: Array.from(c.unscaled) };
  });
  assert.equal(curves.scaled.length, x.steps);
  assert.notDeepEqual(curves.scaled, curves.unscaled);
  assert.ok(curves.unscaled[0] > curves.scaled[0], `first losses ${curves.scaled[0]}, ${curves.unscaled[0]}`);
  const after = await screenshot(page, 'training-scaling.png');
  const right = { x0: 370 };
  const blue = [countColour(before, LOSS_BLUE, right), countColour(after, LOSS_BLUE, right)];
  const orange = [countColour(before, UNSCALED_ORANGE, right), countColour(after, UNSCALED_ORANGE, right)];
  assert.ok(blue[1] > blue[0] + 200, `scaled-curve pixels ${blue}`);
  assert.ok(orange[1] > orange[0] + 200, `unscaled-curve pixels ${orange}`);
});

test('the shipped trained model as an explorer scene: its induction heads, architecture locked', async () => {
  await page.evaluate(() => window.attnlab.trainedModelReady);
  const f = await training();
  assert.equal(f.trainedModel.task, 'induction');
  let state = await page.evaluate(() => window.attnlab.setState({ source: 'trained', panel: 'heads', layer: 1 }));
  assert.equal(state.source, 'trained');
  assert.equal(state.dModel, 32);
  assert.equal(state.heads, 2);
  assert.equal(state.mask.causal, true);
  const n = state.tokens.length;
  const m = n / 2;
  assert.ok(Number.isInteger(m) && m >= 8, `${n} tokens`);
  assert.deepEqual(state.tokens.slice(0, m), state.tokens.slice(m));  // a sequence and its repeat
  // Layer 1's heads are induction heads: a query in the repeat attends to the token after
  // the previous occurrence of its own token.
  for (const head of [0, 1]) {
    const w = await page.evaluate((h) => Array.from(window.attnlab.getMatrix('weights', h).data), head);
    let score = 0;
    for (let i = m; i < n; i++) score += w[i * n + (i - m + 1)];
    score /= n - m;
    assert.ok(score > 0.5, `layer 1 head ${head} induction score ${score}`);
  }
  // The model fixes d_model and heads: a request to change them changes nothing.
  state = await page.evaluate(() => window.attnlab.setState({ dModel: 64, heads: 4 }));
  assert.equal(state.dModel, 32);
  assert.equal(state.heads, 2);
  await frames(2);
  const png = await screenshot(page, 'training-trained-scene.png');
  const weights = await page.evaluate(() => {
    const x = window.attnlab.getMatrix('weights', 1);
    return { rows: x.rows, cols: x.cols, data: Array.from(x.data) };
  });
  await assertHeatmapShows(page, png, 'heads/1', weights);
  await page.evaluate(() => window.attnlab.setState({ source: 'generated', panel: 'pipeline' }));
});

// The trained model in the model view: its 2 x 2 heads as thumbnails, and rollout over its
// two layers equal to the paper's recursion computed here from the heads the page reports.
test('the trained model in the model view: every head, and attention rollout across its layers', async () => {
  await page.evaluate(() => window.attnlab.trainedModelReady);
  const layers = [];
  for (const layer of [0, 1]) {
    await page.evaluate((l) => window.attnlab.setState({ source: 'trained', panel: 'model', layer: l, acrossLayers: 'heads' }), layer);
    layers.push(await page.evaluate(() => [0, 1].map((h) => window.attnlab.getMatrix('weights', h)).map((m) => ({ n: m.rows, data: Array.from(m.data) }))));
  }
  const n = layers[0][0].n;
  // Ã_l = rownormalise(0.5 mean_h A_l + 0.5 I), R_0 = Ã_0, R_1 = Ã_1 R_0.
  const tilde = (heads) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const row = [];
      for (let j = 0; j < n; j++) row.push(0.5 * (heads[0].data[i * n + j] + heads[1].data[i * n + j]) / 2 + (i === j ? 0.5 : 0));
      const sum = row.reduce((a, b) => a + b, 0);
      out.push(row.map((x) => x / sum));
    }
    return out;
  };
  const [a0, a1] = layers.map(tilde);
  const cursor = n - 1;
  const want = a0[0].map((_, j) => a1[cursor].reduce((acc, w, k) => acc + w * a0[k][j], 0));
  await page.evaluate((c) => window.attnlab.setState({ layer: 1, acrossLayers: 'rollout', rolloutResidual: 0.5, cursor: c }), cursor);
  await frames(3);
  const f = await page.evaluate(() => window.attnlab.getState().figures.acrossLayers);
  assert.equal(f.mode, 'rollout');
  assert.equal(f.rows, n);
  const worst = Math.max(...want.map((w, j) => Math.abs(w - f.focusRow[j])));
  assert.ok(worst < 1e-5, `rollout's focused row differs from the recursion by ${worst}`);
  const layout = await page.evaluate(() => window.attnlab.layout());
  for (const id of ['model/0/0', 'model/0/1', 'model/1/0', 'model/1/1', 'model/across'])
    assert.ok(layout.heatmaps[id], `${id} is drawn`);
  assert.ok(layout.plots['model/across-row']?.yTicks.length >= 3, 'the focused query\'s row as bars with a y axis');
  await screenshot(page, 'trained-model-view-rollout.png');
  await page.evaluate(() => window.attnlab.setState({ source: 'generated', panel: 'pipeline', acrossLayers: 'heads' }));
});
