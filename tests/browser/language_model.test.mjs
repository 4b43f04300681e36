// The language-model scene in headless Chromium: the model is fetched only when its scene is
// asked for; the heads panel shows its real attention on a sentence and on a held-out poem;
// the model view shows its layer x head grid; generating 20 characters grows the view by 20
// rows with probabilities that match the math module's generate(); breaking the math shows
// the same held-out figures as the CLI; a refused prompt keeps the scene. Screenshots: build/test-artifacts/language-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBrowser } from '../support/browser.mjs';
import { labSuite } from '../support/suite.mjs';
import { assertHeatmapShows, frames, openLab, screenshot } from '../support/lab.mjs';
import { distDir, nativeDir, root } from '../support/paths.mjs';

const suite = labSuite({ sharedPage: true });
let page;
before(async () => { ({ page } = await suite.ready); });

const modelPath = path.join(root, 'assets', 'fortunes-lm.attnlm');
const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();
const model = core.loadLanguageModel(new Uint8Array(fs.readFileSync(modelPath)));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-lm-page-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const lm = () => page.evaluate(() => window.attnlab.getState().figures.lm);
// 《游子吟》 (Meng Jiao): a held-out entry of tang300 (entry 39; every tenth is held out).
const POEM = '慈母手中线，游子身上衣。\n临行密密缝，意恐迟迟归。\n谁言寸草心，报得三春晖。';
const SENTENCE = 'The cat sat on the mat because it was tired.';

test('the model is fetched only when its scene is opened', async () => {
  const before = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  assert.ok(!before.some((n) => n.includes('fortunes-lm')), 'not fetched at start');
  assert.equal((await lm()).loaded, false);
  await page.evaluate(() => window.attnlab.setState({ source: 'language' }));
  await page.evaluate(() => window.attnlab.languageModel());
  await page.waitForFunction(() => window.attnlab.getState().source === 'language', null, { timeout: 30000 });
  const after = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  assert.ok(after.some((n) => n.includes('fortunes-lm')), 'fetched when asked for');
  const f = await lm();
  assert.equal(f.loaded, true);
  assert.equal(f.layers, 2);
  assert.equal(f.heads, 4);
  // Its size, as the panel states it beside GPT-2 small's: the module's own count.
  assert.equal(f.parameters, model.config.parameters);
  assert.ok(f.parameters > 0.8e6 && f.parameters < 1e6, `${f.parameters} parameters`);
});

test('the heads panel on an English sentence and on a held-out poem: the model\'s own weights', async () => {
  // Layer 0 on the sentence (its previous-character heads), layer 1 on the poem (its heads
  // on the last punctuation mark, the end of the half-line before).
  for (const [sentence, layer, name] of [[SENTENCE, 0, 'language-heads-english.png'], [POEM, 1, 'language-heads-poem.png']]) {
    const state = await page.evaluate(([s, l]) => window.attnlab.setState({ source: 'language', sentence: s, panel: 'heads', layer: l, cursor: -1 }), [sentence, layer]);
    assert.equal(state.tokens.length, [...sentence].length + 1);
    assert.equal(state.dModel, 96);
    assert.equal(state.heads, 4);
    // Learned heads: no line saying the projections are random (the generated scene's panels have one).
    assert.equal((await page.evaluate(() => window.attnlab.layout())).randomNote, null);
    const mine = model.attention(sentence);
    for (let h = 0; h < 4; h++) {
      const w = await page.evaluate((i) => Array.from(window.attnlab.getMatrix('weights', i).data), h);
      let worst = 0;
      for (let i = 0; i < w.length; i++) worst = Math.max(worst, Math.abs(w[i] - mine.weights[layer * 4 + h][i]));
      assert.ok(worst < 1e-4, `layer ${layer} head ${h}: page and module differ by ${worst}`);
    }
    const labels = (await lm()).labels;
    assert.deepEqual(labels.map((l) => l.label), mine.labels.map((l) => l.label));
    // The shipped model's heads mean something here: at least two of the shown layer earn a label.
    const earned = labels.filter((l) => l.layer === layer && l.label !== 'mixed');
    assert.ok(earned.length >= 2, `labelled heads of layer ${layer}: ${JSON.stringify(earned)}`);
    for (const l of earned) assert.ok(l.score >= (['previous', 'first', 'self'].includes(l.label) ? 0.5 : 0.3), JSON.stringify(l));
    await frames(page, 3);
    const png = await screenshot(page, name);
    const x = await page.evaluate(() => { const m = window.attnlab.getMatrix('weights', 0); return { rows: m.rows, cols: m.cols, data: Array.from(m.data) }; });
    await assertHeatmapShows(page, png, 'heads/0', x);
  }
});

test('the model view shows the language model\'s layer x head grid and the focused head', async () => {
  const state = await page.evaluate((s) => window.attnlab.setState({ source: 'language', sentence: s, panel: 'model', layer: 1, head: 2, cursor: -1 }), POEM);
  const n = [...POEM].length + 1;
  assert.equal(state.tokens.length, n);
  const mine = model.attention(POEM);  // layers * heads entries of n x n
  const f = await lm();
  assert.equal(f.thumbnails, 8);
  for (let h = 0; h < 4; h++) {
    const w = mine.weights[4 + h];
    let first = 0;
    for (let i = 0; i < n; i++) first += w[i * n];
    assert.ok(Math.abs(f.sinkShare[h] - first / n) < 1e-5, `layer 1 head ${h}: sink share ${f.sinkShare[h]} vs ${first / n}`);
  }
  await frames(page, 3);
  const png = await screenshot(page, 'language-model-view.png');
  const layout = await page.evaluate(() => window.attnlab.layout());
  for (let l = 0; l < 2; l++)
    for (let h = 0; h < 4; h++) {
      const p = layout.heatmaps[`model/${l}/${h}`];
      assert.ok(p && p.rows === n && p.cols === n && p.w > 40, `thumbnail ${l}.${h} drawn at ${p && p.w} px`);
    }
  await assertHeatmapShows(page, png, 'model/focus', { rows: n, cols: n, data: mine.weights[4 + 2] });
  await assertHeatmapShows(page, png, 'model/0/1', { rows: n, cols: n, data: mine.weights[1] }, { tolerance: 12 });
});

// Across layers in the model view: the layer's head mean, head max and rollout, each the math
// module's own figure from the model's weights on the poem; the focused query's row as bars.
test('across layers: head mean, max and rollout of the language model, as the math module computes them', async () => {
  const n = [...POEM].length + 1;
  const mine = model.attention(POEM);
  const weights = new Float32Array(2 * 4 * n * n);
  mine.weights.forEach((w, i) => weights.set(w, i * n * n));
  const rolled = core.rollout({ weights, layers: 2, heads: 4, n, residual: 0.5 });
  const cursor = n - 1;
  for (const [mode, want] of [
    ['rollout', (j) => rolled[(n + cursor) * n + j]],
    ['mean', (j) => [0, 1, 2, 3].reduce((a, h) => a + mine.weights[4 + h][cursor * n + j], 0) / 4],
    ['max', (j) => Math.max(...[0, 1, 2, 3].map((h) => mine.weights[4 + h][cursor * n + j]))],
  ]) {
    await page.evaluate(([m, c, s]) => window.attnlab.setState({ source: 'language', sentence: s, panel: 'model', layer: 1, acrossLayers: m, rolloutResidual: 0.5, cursor: c }), [mode, cursor, POEM]);
    const f = await page.evaluate(() => window.attnlab.getState().figures.acrossLayers);
    assert.equal(f.mode, mode);
    assert.equal(f.rows, n);
    let worst = 0;
    for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(f.focusRow[j] - want(j)));
    assert.ok(worst < 1e-5, `${mode}: page and module differ by ${worst}`);
    if (mode !== 'max') assert.ok(f.rowSums.every((s) => Math.abs(s - 1) < 1e-5), `${mode}: rows sum to 1`);
  }
  await frames(page, 3);
  await screenshot(page, 'language-model-view-max.png');
  await page.evaluate(() => window.attnlab.setState({ acrossLayers: 'rollout' }));
  await frames(page, 3);
  const layout = await page.evaluate(() => window.attnlab.layout());
  assert.ok(layout.heatmaps['model/across']?.rows === n, 'the rollout heatmap is drawn');
  const bars = layout.plots['model/across-row'];
  assert.ok(bars && bars.yTicks.length >= 3, 'the focused query\'s row is drawn as bars with a y axis');
  await screenshot(page, 'language-model-view-rollout.png');
  await page.evaluate(() => window.attnlab.setState({ acrossLayers: 'heads' }));
});

// Why this cell, in the language model's scene: a weight cell of a head of layer 0 chosen;
// its raw score's terms sum to the score, and its weight is the model's own.
test('why this cell: a language-model head\'s score as its terms, its weight the model\'s', async () => {
  const n = [...SENTENCE].length + 1;
  await page.evaluate((s) => window.attnlab.setState({ source: 'language', sentence: s, panel: 'pipeline', layer: 0, head: 1, cursor: 12, cursorKey: 11 }), SENTENCE);
  const c = await page.evaluate(() => window.attnlab.getState().figures.cell);
  assert.deepEqual([c.row, c.col, c.head], [12, 11, 1]);
  assert.ok(Math.abs(c.termsSum - c.raw) <= 1e-5 * (1 + c.termsAbsSum), `terms ${c.termsSum} vs score ${c.raw}`);
  const shown = c.terms.reduce((a, t) => a + t.product, c.rest);
  assert.ok(Math.abs(shown - c.termsSum) < 1e-9);
  assert.equal(c.terms.length, 8);
  const mine = model.attention(SENTENCE);
  assert.ok(Math.abs(c.weight - mine.weights[1][12 * n + 11]) < 1e-5, `weight ${c.weight}`);
  await frames(page, 3);
  const layout = await page.evaluate(() => window.attnlab.layout());
  assert.ok(layout.plots['pipeline/cell-terms']?.yTicks.length >= 3, 'the terms are drawn as bars with a y axis');
  await screenshot(page, 'language-cell-why.png');
  await page.evaluate(() => window.attnlab.setState({ cursorKey: -1 }));
});

test('generating 20 characters adds 20 rows; the probabilities match generate()', async () => {
  const prompt = 'The meaning of life is';
  let state = await page.evaluate((s) => window.attnlab.setState({ source: 'language', sentence: s, panel: 'language', lm: { tokens: 20, shown: 0 } }), prompt);
  const rows0 = state.tokens.length;
  state = await page.evaluate(() => window.attnlab.setState({ lm: { shown: 20 } }));
  assert.equal(state.tokens.length, rows0 + 20);
  const w = await page.evaluate(() => window.attnlab.getMatrix('weights', 0));
  assert.equal(w.rows, rows0 + 20);
  const f = await lm();
  // Sampled by default (seeded: the same characters as the core module's generate with the
  // state's temperature, top-k and seed); greedy when asked.
  assert.ok(Math.abs(state.lm.temperature - 0.8) < 1e-6, `temperature ${state.lm.temperature}`);
  assert.deepEqual([state.lm.topK, state.lm.seed], [20, 1]);
  const expected = model.generate({ prompt, tokens: 20, temperature: 0.8, topK: 20, seed: 1 });
  assert.deepEqual(f.generated.map((g) => g.id), expected.map((g) => g.id));
  const greedy = model.generate({ prompt, tokens: 20, temperature: 0 });
  assert.notDeepEqual(expected.map((g) => g.id), greedy.map((g) => g.id), 'sampling is not greedy decoding');
  for (let i = 0; i < 20; i++) {
    const sum = f.generated[i].top.reduce((a, t) => a + t.p, 0);
    assert.ok(sum <= 1 + 1e-6, `probabilities shown sum to ${sum}`);
    for (let j = 0; j < 10; j++) assert.ok(Math.abs(f.generated[i].top[j].p - expected[i].top[j].p) < 1e-5);
  }
  await frames(page, 3);
  const png = await screenshot(page, 'language-generate.png');
  const plot = (await page.evaluate(() => window.attnlab.layout())).plots['lm/step-next'];
  assert.ok(plot && plot.w > 100, 'the step\'s next-character bars are drawn');
  assert.ok(png.width > 0);
});

test('break the math: the page shows the CLI\'s held-out figures; a refused prompt keeps the scene', async () => {
  const cli = path.join(nativeDir, 'attnlab-cli');
  await page.evaluate(() => window.attnlab.setState({ source: 'language', sentence: 'Love is', panel: 'language', lm: { shown: 0 } }));
  const base = (await lm()).bits;
  assert.equal(base.length, 2);
  for (const b of base) assert.ok(Math.abs(b.now - b.base) < 1e-9, 'the model\'s own math');
  await page.evaluate(() => window.attnlab.setState({ scale: 'none' }));
  const noScale = (await lm()).bits;
  // The CLI on the same sample text, with and without the scaling.
  const texts = model.config.samples.map((x) => x.text);  // the file's held-out samples, what the page scores
  for (let i = 0; i < 2; i++) assert.ok(noScale[i].now > noScale[i].base, `no scale costs bits (${noScale[i].now} vs ${noScale[i].base})`);
  assert.equal(texts.length, 2);
  for (let i = 0; i < 2; i++) {
    const file = path.join(dir, `s${i}.txt`);
    fs.writeFileSync(file, texts[i]);
    for (const [flags, figure] of [[[], base[i].base], [['--no-scale'], noScale[i].now]]) {
      const r = spawnSync(cli, ['lm-eval', '--model', modelPath, '--text', file, ...flags], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.ok(Math.abs(JSON.parse(r.stdout).bitsPerToken - figure) < 1e-4, `CLI ${flags} vs page`);
    }
  }
  await frames(page, 3);
  await screenshot(page, 'language-break.png');
  await page.evaluate(() => window.attnlab.setState({ scale: 'default' }));
  // 10,000 characters: refused with a message, the scene as it was.
  const tokens = (await page.evaluate(() => window.attnlab.getState())).tokens.length;
  await assert.rejects(page.evaluate(() => window.attnlab.setState({ sentence: 'x'.repeat(10000) })), /the model reads at most 127/);
  const st = await page.evaluate(() => window.attnlab.getState());
  assert.equal(st.sentence, 'Love is');
  assert.equal(st.tokens.length, tokens);
});

// Activation patching: the preset pair's grids fill in a few runs a frame, each cell the CLI's;
// the head that restores most of the gap looks, on the clean prompt, at the changed character.
const patching = () => page.evaluate(() => window.attnlab.getState().figures.lmPatch);
const patchDone = (p, by = 'head') => p.waitForFunction((b) => {
  const f = window.attnlab.getState().figures.lmPatch;
  return f.gridBy === b && f.cells > 0 && f.cellsDone === f.cells && f.error === '';
}, by, { timeout: 60000, polling: 100 });

test('activation patching: the grids equal the CLI\'s, fill in without stalling the frame, and name the head', async () => {
  const cli = path.join(nativeDir, 'attnlab-cli');
  await page.evaluate(() => window.attnlab.setState({ source: 'language', sentence: 'Love is', panel: 'lm-patch', patch: { by: 'head', position: -1 } }));
  await patchDone(page);
  let f = await patching();
  assert.equal([...f.clean].length, [...f.corrupt].length);
  const run = (by) => {
    const r = spawnSync(cli, ['lm-patch', '--model', modelPath, '--clean', f.clean, '--corrupt', f.corrupt, '--answer', f.answer,
      '--foil', f.foil, '--by', by], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const near = (a, b, what) => {
    assert.equal(a.length, b.length, `${what}: rows`);
    let worst = 0;
    a.forEach((row, i) => row.forEach((x, j) => { worst = Math.max(worst, Math.abs(x - b[i][j])); }));
    assert.ok(worst < 1e-3, `${what}: page and CLI differ by ${worst}`);
  };
  let want = run('head');
  assert.ok(Math.abs(f.cleanDiff - want.cleanDiff) < 1e-3 && Math.abs(f.corruptDiff - want.corruptDiff) < 1e-3, 'the two differences');
  assert.ok(f.cleanDiff - f.corruptDiff > 2, `a clear gap: ${f.cleanDiff} vs ${f.corruptDiff}`);
  near(f.grid, want.grid, 'head grid');
  // The previous-character head (layer 0, head 3) restores most of it, and looks at the change.
  assert.deepEqual([f.peak.row, f.peak.col], [0, 3]);
  assert.ok(f.peak.restored > 0.8, `restored ${f.peak.restored}`);
  assert.ok(f.peak.weightOnChanged > 0.5, `weight on the changed character ${f.peak.weightOnChanged}`);
  assert.ok(f.grid.flat().filter((x, i) => i !== 3).every((x) => x < 0.3), 'no other head restores as much');
  await frames(page, 3);
  const layout = await page.evaluate(() => window.attnlab.layout());
  assert.equal(layout.heatmaps['lm-patch/grid']?.rows, 2);
  assert.equal(layout.heatmaps['lm-patch/grid']?.cols, 4);
  await screenshot(page, 'lm-patch-heads.png');

  // The residual grid (3 x 45 runs), with the frame intervals recorded while it fills.
  await page.evaluate(() => {
    window.__patchFrames = [];
    window.__patchFramesStop = false;
    const tick = (t) => {
      window.__patchFrames.push(t);
      if (!window.__patchFramesStop) requestAnimationFrame(tick);
    };
    window.attnlab.setState({ patch: { by: 'residual' } });
    requestAnimationFrame(tick);
  });
  await patchDone(page, 'residual');
  await page.evaluate(() => { window.__patchFramesStop = true; });
  f = await patching();
  want = run('residual');
  assert.equal(f.rows, 3);
  assert.equal(f.cols, [...f.clean].length + 1);
  near(f.grid, want.grid, 'residual grid');
  const last = f.cols - 1;
  assert.ok(Math.abs(f.grid[0][f.changed] - 1) < 1e-4 && Math.abs(f.grid[2][last] - 1) < 1e-4, 'the embeddings at the change, the last row at the end');
  const times = await page.evaluate(() => window.__patchFrames);
  const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
  const median = gaps[Math.floor(gaps.length / 2)], p95 = gaps[Math.floor(gaps.length * 0.95)];
  console.log(`residual grid: ${f.cells} runs over ${gaps.length} frames; frame interval median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  assert.ok(gaps.length >= 5, 'spread over frames');
  assert.ok(p95 < 100, `frames while patching: p95 ${p95} ms`);
  await frames(page, 3);
  await screenshot(page, 'lm-patch-residual.png');

  // A refused request (unequal lengths) says why and keeps the grid.
  await page.evaluate(() => window.attnlab.setState({ patch: { corrupt: 'If at first' } }));
  await frames(page, 2);
  const refused = await patching();
  assert.match(refused.error, /44.*11|11.*44/);
  assert.deepEqual(refused.grid, f.grid);
  await page.evaluate((c) => window.attnlab.setState({ patch: { corrupt: c, by: 'head' } }), f.corrupt);
});

test('activation patching in Chinese at DPR 2', async () => {
  const browser = await openBrowser({ viewport: { width: 1200, height: 800 }, deviceScaleFactor: 2 });
  try {
    const { page: zh, errors } = await openLab(browser, suite.url, '?lang=zh#panel=lm-patch');
    await zh.evaluate(() => window.attnlab.setState({ source: 'language', sentence: 'Love is' }));
    await zh.evaluate(() => window.attnlab.languageModel());
    await zh.waitForFunction(() => window.attnlab.getState().source === 'language' && window.attnlab.cjkFontLoaded, null, { timeout: 30000 });
    await zh.evaluate(() => window.attnlab.setState({ panel: 'lm-patch', patch: { by: 'head' } }));
    await patchDone(zh);
    const f = await zh.evaluate(() => window.attnlab.getState().figures.lmPatch);
    assert.deepEqual([f.peak.row, f.peak.col], [0, 3]);
    await frames(zh, 3);
    const layout = await zh.evaluate(() => window.attnlab.layout());
    assert.equal(layout.heatmaps['lm-patch/grid']?.cols, 4);
    await screenshot(zh, 'lm-patch-zh-dpr2.png');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
