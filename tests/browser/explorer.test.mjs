// The explorer in headless Chromium: text typed through the page's field (English and
// Chinese), the mask, the query cursor, heads, the lines view, the difference view,
// compare mode, hover derivations, zoom at n = 1024, resizing. Each test checks state
// and pixels and saves a screenshot (build/test-artifacts/explorer-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labSuite } from '../support/suite.mjs';
import { assertHeatmapShows, cellPixel, matrix, screenshot, waitFor } from '../support/lab.mjs';
import { colorDistance, expectedSequential } from '../support/colors.mjs';

const suite = labSuite();

const HIGHLIGHT = [255, 64, 160];

test('sentences typed into the text field: English words, Chinese characters with real glyphs', async () => {
  const { page, errors } = await suite.openLab();
  await page.click('#sentence');
  await page.fill('#sentence', '');
  await page.keyboard.type('Attention is all you need, pretty much.');
  await waitFor(page, () => window.attnlab.getState().tokens.length === 9);
  let state = await page.evaluate(() => window.attnlab.getState());
  assert.deepEqual(state.tokens, ['Attention', 'is', 'all', 'you', 'need', ',', 'pretty', 'much', '.']);
  // Keys typed into the field never reach the app: 'p' did not toggle presentation mode.
  assert.equal(state.presentation, false);

  // Chinese through the field as an IME would commit it, with characters not in any preset.
  await page.fill('#sentence', '');
  await page.keyboard.insertText('我喜欢在图书馆读书');
  await waitFor(page, () => window.attnlab.getState().tokens[0] === '我');
  state = await page.evaluate(() => window.attnlab.getState());
  assert.deepEqual(state.tokens, ['我', '喜', '欢', '在', '图', '书', '馆', '读', '书']);
  await waitFor(page, () => window.attnlab.cjkFontLoaded === true && window.attnlab.layout().missingGlyphs === 0);
  await page.evaluate(() => window.attnlab.setState({ cursor: -1 }));
  const png = await screenshot(page, 'explorer-chinese.png');
  // The row labels left of the weights heatmap are drawn glyphs: many text-coloured pixels.
  const p = (await page.evaluate(() => window.attnlab.layout())).heatmaps['pipeline/weights'];
  let ink = 0;
  for (let y = p.y; y < p.y + p.h; y++)
    for (let x = p.x - 60; x < p.x - 2; x++) {
      const [r, g, b] = png.pixel(x * png.cssScale, y * png.cssScale);
      if (r > 150 && g > 150 && b > 150) ink++;
    }
  assert.ok(ink > 100, `only ${ink} light pixels where the CJK labels should be`);
  await assertHeatmapShows(page, png, 'pipeline/weights', await matrix(page, 'weights'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('causal mask: the weights upper triangle has the zero colour', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate(() => window.attnlab.setState({ sentence: 'a b c d e f g h', mask: { causal: true }, cursor: -1, panel: 'token' }));
  const png = await screenshot(page, 'explorer-causal.png');
  const m = await matrix(page, 'weights');
  const layout = await page.evaluate(() => window.attnlab.layout());
  const zero = expectedSequential(0);
  for (let i = 0; i < 8; i++)
    for (let j = i + 1; j < 8; j++) {
      assert.equal(m.data[i * 8 + j], 0);
      assert.ok(colorDistance(cellPixel(png, layout.heatmaps['token/weights'], i, j), zero) <= 3, `cell (${i},${j})`);
    }
  await assertHeatmapShows(page, png, 'token/weights', m);
  // The generated scene's projections come from the seed: the panel says so above its
  // figures, in the text's grey, and names the seed; a panel that draws none says nothing.
  const note = layout.randomNote;
  assert.ok(note && note.text.startsWith('Random projections (seed 1): nothing in these figures was learned'), JSON.stringify(note));
  assert.ok(/Language model/.test(note.text));
  assert.ok(note.h > 10 && note.w > 300 && note.y + note.h <= layout.heatmaps['token/weights'].y, JSON.stringify(note));
  let ink = 0;
  for (let y = note.y; y < note.y + note.h; y++)
    for (let x = note.x; x < note.x + note.w; x++) if (colorDistance(png.pixel(x * png.cssScale, y * png.cssScale), [128, 128, 128]) <= 40) ink++;
  assert.ok(ink > 200, `only ${ink} grey pixels of the note`);
  await page.evaluate(() => window.attnlab.setState({ seed: 7 }));
  assert.match((await page.evaluate(() => window.attnlab.layout())).randomNote.text, /^Random projections \(seed 7\)/);
  await page.evaluate(() => window.attnlab.setState({ panel: 'variance' }));
  assert.equal((await page.evaluate(() => window.attnlab.layout())).randomNote, null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('query cursor: arrow keys on the canvas move the highlighted row; the lines view follows', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate(() => window.attnlab.setState({ sentence: 'a b c d e f g h', cursor: 2, panel: 'token' }));
  await page.focus('#canvas');
  await page.keyboard.press('ArrowDown');
  await waitFor(page, () => window.attnlab.getState().cursor === 3);
  await page.evaluate(() => window.attnlab.setState({}));  // one more frame drawn
  const png = await screenshot(page, 'explorer-cursor.png');
  const layout = await page.evaluate(() => window.attnlab.layout());
  const p = layout.heatmaps['token/weights'];
  // The pixel nearest the highlight colour within 2 px of row i's top edge (the canvas may sit
  // at a fractional CSS offset below the page's toolbars, which moves a 1-px line by a pixel).
  const rowEdge = (i) => {
    const y0 = (p.y + i * (p.h / 8)) * png.cssScale;
    let best = null;
    for (let dy = -2; dy <= 2; dy++) {
      const px = png.pixel((p.x + p.w * 0.5) * png.cssScale, y0 + dy);
      if (!best || colorDistance(px, HIGHLIGHT) < colorDistance(best, HIGHLIGHT)) best = px;
    }
    return best;
  };
  assert.ok(colorDistance(rowEdge(3), HIGHLIGHT) <= 40, `row 3 top edge ${rowEdge(3)} is not highlighted`);
  assert.ok(colorDistance(rowEdge(2), HIGHLIGHT) > 80, `row 2 top edge ${rowEdge(2)} is still highlighted`);
  // Lines view: pink line pixels between the two token columns.
  const lines = layout.heatmaps['token/lines'];
  let pink = 0;
  for (let y = lines.y; y < lines.y + lines.h; y += 1)
    for (let x = lines.x + lines.w * 0.35; x < lines.x + lines.w * 0.65; x += 1) {
      const [r, g, b] = png.pixel(x * png.cssScale, y * png.cssScale);
      if (r > g + 30 && b > g) pink++;
    }
  assert.ok(pink > 50, `the lines view has only ${pink} line pixels`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('switching the head redraws the heatmap with that head\'s weights; difference view', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate(() => window.attnlab.setState({ sentence: 'the quick brown fox jumps', cursor: -1, head: 2, panel: 'pipeline' }));
  let png = await screenshot(page, 'explorer-head2.png');
  const w2 = await matrix(page, 'weights', 2);
  await assertHeatmapShows(page, png, 'pipeline/weights', w2);
  const w0 = await matrix(page, 'weights', 0);
  assert.notDeepEqual(w0.data, w2.data);

  await page.evaluate(() => window.attnlab.setState({ panel: 'heads', head: 1, diffHead: 3 }));
  png = await screenshot(page, 'explorer-heads.png');
  const a = await matrix(page, 'weights', 1), b = await matrix(page, 'weights', 3);
  const diff = { rows: a.rows, cols: a.cols, data: a.data.map((v, i) => v - b.data[i]) };
  await assertHeatmapShows(page, png, 'heads/difference', diff, { diverging: true });
  for (let h = 0; h < 4; h++) await assertHeatmapShows(page, png, `heads/${h}`, await matrix(page, 'weights', h));
  const state = await page.evaluate(() => window.attnlab.getState());
  assert.equal(state.figures.heads.length, 4);
  assert.ok(state.figures.heads.every((m) => m.entropy > 0 && m.maxWeight > 0 && m.distance >= 0));

  // Other heads in the difference: the panel makes it again in the same place each frame,
  // from the same results (nothing is recomputed), and the picture still follows it.
  const computed = (await page.evaluate(() => window.attnlab.frameTimings())).lastRecompute.frame;
  await page.evaluate(() => window.attnlab.setState({ head: 2, diffHead: 0 }));
  png = await screenshot(page, 'explorer-heads-other-difference.png');
  assert.equal((await page.evaluate(() => window.attnlab.frameTimings())).lastRecompute.frame, computed);
  const c = await matrix(page, 'weights', 2), d = await matrix(page, 'weights', 0);
  const diff2 = { rows: c.rows, cols: c.cols, data: c.data.map((v, i) => v - d.data[i]) };
  assert.notDeepEqual(diff2.data, diff.data);
  await assertHeatmapShows(page, png, 'heads/difference', diff2, { diverging: true });
  // Idle on this panel, no heatmap is uploaded again: every frame is the picture shown.
  const idle = () => page.evaluate(() => {
    const t = window.attnlab.frameTimings();
    return { frames: t.last.frame, unchanged: t.unchangedFrames };
  });
  await page.mouse.move(5, 300);
  await page.waitForTimeout(300);
  const before = await idle();
  await page.waitForTimeout(800);
  const after = await idle();
  assert.ok(after.frames - before.frames >= 5, `only ${after.frames - before.frames} frames in 0.8 s`);
  assert.equal(after.unchanged - before.unchanged, after.frames - before.frames);
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare mode: unscaled side B beside scaled side A, and their difference', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate(() => window.attnlab.setState({ sentence: 'one two three four five six', cursor: -1, panel: 'compare', compare: { enabled: true, scale: 'none' } }));
  const png = await screenshot(page, 'explorer-compare.png');
  const a = await matrix(page, 'weights'), b = await matrix(page, 'b:weights');
  await assertHeatmapShows(page, png, 'compare/a', a);
  await assertHeatmapShows(page, png, 'compare/b', b);
  const diff = { rows: a.rows, cols: a.cols, data: a.data.map((v, i) => v - b.data[i]) };
  await assertHeatmapShows(page, png, 'compare/difference', diff, { diverging: true });
  // Without 1/sqrt(d_k) the weights are sharper.
  const maxMean = (m) => { let s = 0; for (let i = 0; i < m.rows; i++) s += Math.max(...m.data.slice(i * m.cols, (i + 1) * m.cols)); return s / m.rows; };
  assert.ok(maxMean(b) > maxMean(a));
  assert.deepEqual(errors, []);
  await page.close();
});

test('hovering a cell shows how its value came about', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate(() => window.attnlab.setState({ sentence: 'cats chase mice', cursor: -1, panel: 'token' }));
  const p = (await page.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
  await page.mouse.move(p.x + p.w * (2.5 / 3), p.y + p.h * (1.5 / 3));
  await waitFor(page, () => window.attnlab.layout().hover.heatmap === 'token/weights');
  const hover = (await page.evaluate(() => window.attnlab.layout())).hover;
  assert.equal(hover.row, 1);
  assert.equal(hover.col, 2);
  assert.match(hover.derivation, /^chase -> mice\nq1\.k2 = /);
  assert.match(hover.derivation, /x scale 0\.5000 = /);
  const w = await matrix(page, 'weights');
  assert.match(hover.derivation, new RegExp(`= ${w.data[1 * 3 + 2].toFixed(4)}$`));
  await screenshot(page, 'explorer-hover.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('n = 1024: the heatmap zooms with the wheel; over the cap the text is refused and the scene stays', async () => {
  const { page, errors } = await suite.openLab();
  // 1024 distinct words of letters only (digits would split into separate number tokens).
  const word = (i) => 'w' + [...i.toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join('');
  const words = Array.from({ length: 1024 }, (_, i) => word(i)).join(' ');
  await page.evaluate((s) => window.attnlab.setState({ sentence: s, panel: 'token', cursor: 500 }), words);
  assert.equal((await page.evaluate(() => window.attnlab.getState())).tokens.length, 1024);
  let p = (await page.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
  assert.equal(p.viewW, 1024);
  await page.mouse.move(p.x + p.w * 0.5, p.y + p.h * 0.5);
  for (let i = 0; i < 12; i++) {
    await page.mouse.wheel(0, -120);
    await page.evaluate(() => window.attnlab.setState({}));  // let a frame take each notch
  }
  await waitFor(page, () => window.attnlab.layout().heatmaps['token/weights'].viewW < 100);
  await page.evaluate(() => window.attnlab.setState({}));
  p = (await page.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
  assert.ok(p.viewW < 100 && p.viewX0 > 300 && p.viewX0 < 700, `zoomed view ${JSON.stringify(p)}`);
  assert.equal((await page.evaluate(() => window.attnlab.getState())).cursor, 500);
  await page.mouse.move(5, 300);  // away from the heatmap, so no tooltip covers it
  await page.evaluate(() => window.attnlab.setState({ cursor: -1 }));
  const png = await screenshot(page, 'explorer-zoom-1024.png');
  await assertHeatmapShows(page, png, 'token/weights', await matrix(page, 'weights'));

  // A temperature change at n = 1024: the frame that drew it reports where its time went,
  // and the picture shows the new (sharper) weights.
  const before = await page.evaluate(() => window.attnlab.frameTimings());
  const rowMax = () => page.evaluate(() => {
    const m = window.attnlab.getMatrix('weights', 0);
    return Math.max(...m.data.subarray(500 * m.cols, 501 * m.cols));
  });
  const maxBefore = await rowMax();
  await page.evaluate(() => window.attnlab.setState({ temperature: 0.5 }));
  const timings = await page.evaluate(() => window.attnlab.frameTimings());
  const t = timings.lastRecompute;
  assert.ok(t.frame > before.lastRecompute.frame && t.frame <= timings.last.frame, JSON.stringify(timings));
  assert.ok(t.computeMs > 0 && t.uploadMs > 0 && t.uiMs > 0 && t.drawMs > 0, JSON.stringify(t));
  assert.ok(Math.abs(t.totalMs - (t.computeMs + t.uploadMs + t.uiMs + t.drawMs)) < 1e-6, JSON.stringify(t));
  assert.ok(await rowMax() > maxBefore, 'a lower temperature sharpens the row');
  const png2 = await screenshot(page, 'explorer-zoom-1024-cold.png');
  await assertHeatmapShows(page, png2, 'token/weights', await matrix(page, 'weights'));

  // 1025 tokens through the text field: refused with a message, the 1024-token scene stays.
  await page.fill('#sentence', words + ' extra');
  await waitFor(page, () => document.getElementById('notice').textContent.length > 0);
  assert.match(await page.textContent('#notice'), /the text has 1025 tokens; the explorer shows at most 1024/);
  assert.equal((await page.evaluate(() => window.attnlab.getState())).tokens.length, 1024);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an idle lab sends nothing to the GPU: the canvas keeps its picture, and the next change is drawn', async () => {
  const { page, errors } = await suite.openLab();
  await page.mouse.move(5, 300);  // away from every widget: nothing hovered
  await page.evaluate(() => window.attnlab.setState({ sentence: 'the cat sat on the mat', cursor: -1, panel: 'pipeline' }));
  const idle = () => page.evaluate(() => {
    const t = window.attnlab.frameTimings();
    return { frames: t.last.frame, unchanged: t.unchangedFrames };
  });
  // The loop goes onto its idle timer after 30 frames that drew and computed nothing (half a
  // second at 60 Hz, longer on a loaded machine): wait until a half second has at most 7.
  for (const t0 = Date.now(); Date.now() - t0 < 8000;) {
    const before = (await idle()).frames;
    await page.waitForTimeout(500);
    if ((await idle()).frames - before <= 7) break;
  }
  const a = await idle();
  await page.waitForTimeout(800);
  const b = await idle();
  // The loop kept running (frames counted), on its idle timer (about ten frames a second, not
  // an animation frame each: platform/main_web.cpp), and every one of those frames had the
  // picture already on the canvas.
  assert.ok(b.frames - a.frames >= 5 && b.frames - a.frames <= 12, `${b.frames - a.frames} frames in 0.8 s idle`);
  assert.equal(b.unchanged - a.unchanged, b.frames - a.frames);
  // The pointer moving over the canvas brings every animation frame back at once.
  const moved = await idle();
  const movedAt = Date.now();
  for (let i = 0; i < 12; i++) {
    await page.mouse.move(5 + i, 300 + i);
    await page.waitForTimeout(25);
  }
  const woken = await idle();
  const wokenRate = (woken.frames - moved.frames) / ((Date.now() - movedAt) / 1000);
  const idleRate = (b.frames - a.frames) / 0.8;
  assert.ok(wokenRate >= 2 * idleRate, `${wokenRate.toFixed(1)} frames a second while the pointer moved, ${idleRate.toFixed(1)} idle`);
  await page.mouse.move(5, 300);
  const png = await screenshot(page, 'explorer-idle.png');
  await assertHeatmapShows(page, png, 'pipeline/weights', await matrix(page, 'weights'));
  // A change: the frame that recomputed drew (its GL time), and the canvas shows the new weights.
  const cold = await matrix(page, 'weights');
  await page.evaluate(() => window.attnlab.setState({ temperature: 0.3 }));
  const t = await page.evaluate(() => window.attnlab.frameTimings());
  assert.ok(t.lastRecompute.drawMs > 0 && t.lastRecompute.frame > b.frames, JSON.stringify(t));
  assert.ok(t.unchangedFrames >= b.unchanged);
  const sharp = await matrix(page, 'weights');
  assert.ok(Math.max(...sharp.data) > Math.max(...cold.data), 'a lower temperature sharpens the weights');
  await assertHeatmapShows(page, await screenshot(page, 'explorer-idle-changed.png'), 'pipeline/weights', sharp);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a resize keeps the picture right', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate(() => window.attnlab.setState({ sentence: 'a b c d', cursor: -1, panel: 'pipeline' }));
  await page.setViewportSize({ width: 900, height: 620 });
  await waitFor(page, () => window.attnlab.layout().framebuffer.width === 900);
  await page.evaluate(() => window.attnlab.setState({}));
  const layout = await page.evaluate(() => window.attnlab.layout());
  const canvasBox = await page.locator('#canvas').boundingBox();
  assert.equal(layout.framebuffer.height, Math.round(canvasBox.height));
  const png = await screenshot(page, 'explorer-resized.png');
  await assertHeatmapShows(page, png, 'pipeline/weights', await matrix(page, 'weights'));
  assert.deepEqual(errors, []);
  await page.close();
});
