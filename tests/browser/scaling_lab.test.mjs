// The scaling and softmax lab: each panel opens, one control moves, and the figure the
// panel reports moves as the math says. Screenshots: build/test-artifacts/lab-*.png.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { labSuite } from '../support/suite.mjs';
import { screenshot } from '../support/lab.mjs';

const suite = labSuite({ sharedPage: true });
let page;
before(async () => { ({ page } = await suite.ready); });

const lab = () => page.evaluate(() => window.attnlab.getState().figures.lab);
async function frames(count) {
  await page.evaluate(async (k) => {
    const target = window.attnlab.framesDrawn() + k;
    while (window.attnlab.framesDrawn() < target) await new Promise((r) => requestAnimationFrame(r));
  }, count);
}

test('dot product: a long key at a worse angle wins the dot product, not the cosine', async () => {
  await page.evaluate(() => window.attnlab.setState({ panel: 'dot-product', lab: { q: [2, 1], k: [1.5, 1.5], kLong: [4, -0.5] } }));
  let f = (await lab()).dotProduct;
  assert.ok(Math.abs(f.dot - 4.5) < 1e-5 && Math.abs(f.dotLong - 7.5) < 1e-5);
  assert.ok(f.cos > f.cosLong, 'k is closer in angle');
  // Drag q's tip on the plane: its numbers follow.
  await page.evaluate(() => window.attnlab.setState({ lab: { q: [0, 3] } }));
  f = (await lab()).dotProduct;
  assert.ok(Math.abs(f.qNorm - 3) < 1e-5 && Math.abs(f.dot - 4.5) < 1e-5 && Math.abs(f.dotLong + 1.5) < 1e-5);
  await screenshot(page, 'lab-dot-product.png');
});

test('variance: Var(q.k) tracks d_k and the scaled variance stays near 1 as d_k moves', async () => {
  await page.evaluate(() => window.attnlab.setState({ panel: 'variance', lab: { dk: 16 } }));
  const a = (await lab()).variance;
  await page.evaluate(() => window.attnlab.setState({ lab: { dk: 256 } }));
  const b = (await lab()).variance;
  assert.ok(Math.abs(a.raw / 16 - 1) < 0.05 && Math.abs(b.raw / 256 - 1) < 0.05, `${a.raw}, ${b.raw}`);
  assert.ok(Math.abs(a.scaled - 1) < 0.05 && Math.abs(b.scaled - 1) < 0.05);
  assert.equal(b.histRaw.reduce((x, y) => x + y, 0), 20000);
  for (const p of a.curve) assert.ok(Math.abs(p.raw / p.dk - 1) < 0.15 && Math.abs(p.scaled - 1) < 0.15, JSON.stringify(p));
  await screenshot(page, 'lab-variance.png');
  // The curve's axes: labelled decades on both, titles, the dashed y = d_k curve and the y = 1 line.
  const plot = (await page.evaluate(() => window.attnlab.layout())).plots['variance/curve'];
  assert.ok(plot, 'the variance curve is a plot');
  assert.ok(plot.logX && plot.logY);
  assert.ok(plot.xTicks.length >= 3 && plot.yTicks.length >= 3, `ticks ${plot.xTicks} / ${plot.yTicks}`);
  assert.deepEqual(plot.xTicks.slice(0, 4), ['1', '10', '100', '1000']);
  assert.equal(plot.xTitle, 'd_k');
  assert.equal(plot.yTitle, 'variance');
  assert.deepEqual(plot.legend, ['y = d_k (theory)', 'Var(q.k)', 'Var(q.k / sqrt(d_k))']);
  assert.deepEqual(plot.references, ['y = 1']);
});

test('saturation: entropy rises with temperature; the Jacobian norm falls with d_k unscaled and stays level scaled', async () => {
  await page.evaluate(() => window.attnlab.setState({ panel: 'saturation', lab: { scaled: false, temperature: 1 } }));
  const cold = (await lab()).saturation;
  await page.evaluate(() => window.attnlab.setState({ lab: { temperature: 8 } }));
  const hot = (await lab()).saturation;
  for (let i = 0; i < 3; i++) assert.ok(hot.exampleEntropy[i] > cold.exampleEntropy[i], `d_k index ${i}`);
  // Averaged over 128 rows per d_k (one seed per d_k).
  const u = cold.unscaled, s = cold.scaled;
  assert.ok(u[0].jacobianNorm > u[4].jacobianNorm && u[4].jacobianNorm > u[8].jacobianNorm, JSON.stringify(u.map((p) => p.jacobianNorm)));
  const sj = s.map((p) => p.jacobianNorm);
  assert.ok(Math.max(...sj) - Math.min(...sj) < 0.05, JSON.stringify(sj));
  await page.evaluate(() => window.attnlab.setState({ lab: { scaled: true, temperature: 1 } }));
  const scaledExample = (await lab()).saturation;
  assert.ok(scaledExample.exampleMax[2] < cold.exampleMax[2]);
  await screenshot(page, 'lab-saturation.png');
  const plot = (await page.evaluate(() => window.attnlab.layout())).plots['saturation/jacobian'];
  assert.ok(plot && plot.logX && !plot.logY);
  assert.ok(plot.xTicks.length >= 3 && plot.yTicks.length >= 3, `ticks ${plot.xTicks} / ${plot.yTicks}`);
  assert.deepEqual(plot.legend, ['without scaling', 'with 1/sqrt(d_k)']);
});

test('softmax step by step: exp(s - max) / sum, rows summing to 1', async () => {
  await page.evaluate(() => window.attnlab.setState({ panel: 'softmax', lab: { row: [2, 1, 0.1, -1] } }));
  const f = (await lab()).softmax;
  assert.equal(f.max, 2);
  const e = [2, 1, 0.1, -1].map((x) => Math.exp(x - 2));
  const sum = e.reduce((a, b) => a + b, 0);
  f.weights.forEach((w, j) => assert.ok(Math.abs(w - e[j] / sum) < 1e-6));
  assert.ok(Math.abs(f.sum - sum) < 1e-5);
  await screenshot(page, 'lab-softmax.png');
});

test('stability: naive float16 overflows at 12, float32 at 100; -inf and -1e9 differ on a fully masked row', async () => {
  await page.evaluate(() => window.attnlab.setState({ panel: 'stability', lab: { row: [12, 3, 1, -2] } }));
  let f = (await lab()).stability;
  assert.deepEqual([f.naive32Overflow, f.stable32Overflow, f.naive16Overflow, f.stable16Overflow], [false, false, true, false]);
  // Every key masked: -inf gives zeros and a flag; -1e9 swamps these scores (float32 spacing
  // at 1e9 is 64), so the weights come out uniform, as in the tutorial's code and PyTorch.
  assert.deepEqual(f.fullyInf, [0, 0, 0, 0]);
  assert.equal(f.fullyInfFlag, true);
  f.fullyFinite.forEach((w) => assert.ok(Math.abs(w - 0.25) < 1e-6, `${f.fullyFinite}`));
  await page.evaluate(() => window.attnlab.setState({ lab: { row: [100, 3, 1, -2] } }));
  f = (await lab()).stability;
  assert.deepEqual([f.naive32Overflow, f.stable32Overflow, f.naive16Overflow, f.stable16Overflow], [true, false, true, false]);
  // exp(100) is inf in float32: inf / inf = NaN for that key, finite / inf = 0 for the rest.
  assert.deepEqual(f.naive32, [null, 0, 0, 0]);
  assert.ok(Math.abs(f.stable32[0] - 1) < 1e-6);
  await screenshot(page, 'lab-stability.png');
});

test('worked example walkthrough: the tutorial\'s numbers, and they follow an edit of Q', async () => {
  await page.evaluate(() => window.attnlab.setState({ panel: 'walkthrough', lab: { wq: [1, 2, 2, 1] } }));
  let w = (await lab()).walkthrough;
  assert.deepEqual(w.rawScores, [4, 5, 5, 4]);
  [0.330, 0.670, 0.670, 0.330].forEach((x, i) => assert.ok(Math.abs(w.weights[i] - x) < 1e-3));
  [0.99, 2.01, 2.01, 0.99].forEach((x, i) => assert.ok(Math.abs(w.output[i] - x) < 1e-2));
  await screenshot(page, 'lab-walkthrough.png');
  await page.evaluate(() => window.attnlab.setState({ lab: { wq: [1, 0, 0, 1] } }));
  w = (await lab()).walkthrough;
  assert.deepEqual(w.rawScores, [2, 1, 1, 2]);
  assert.ok(w.weights[0] > 0.5 && w.weights[3] > 0.5);
});

test('lab panels opened by clicking their tabs compute and draw their figures (samples only for the variance panel)', async () => {
  // A lab setting changed on another panel: no lab figures until a lab panel shows them.
  await page.evaluate(() => window.attnlab.setState({ panel: 'pipeline', lab: { dk: 32, row: [3, 1, 0] } }));
  assert.equal(await lab(), undefined);
  // A frame between mouse events: this ImGui reads the button's state once per frame.
  const press = async (box) => {
    await page.mouse.move(box.x + box.w / 2, box.y + box.h / 2);
    await frames(2);
    await page.mouse.down();
    await frames(2);
    await page.mouse.up();
    await frames(2);
  };
  // The panel's button, after its chapter's button when another chapter is shown.
  const click = async (panel) => {
    const nav = () => page.evaluate(() => window.attnlab.layout().nav);
    if (!(await nav()).some((n) => n.kind === 'panel' && n.id === panel)) {
      const chapter = await page.evaluate((p) => window.attnlab.panels().find((x) => x.id === p).chapter, panel);
      const c = (await nav()).find((n) => n.kind === 'chapter' && n.id === chapter);
      assert.ok(c, `chapter ${chapter} is laid out`);
      await press(c);
    }
    const t = await page.evaluate((p) => window.attnlab.layout().tabs[p], panel);
    assert.ok(t && t.w > 0 && t.h > 0, `tab ${panel} is laid out`);
    await press(t);
    await page.waitForFunction((p) => window.attnlab.getState().panel === p, panel, { polling: 50 });
    await frames(2);
  };
  await click('walkthrough');
  let f = await lab();
  assert.equal(f.variance, undefined);  // no sampling for the walkthrough
  assert.deepEqual(f.softmax.weights.length, 3);
  assert.equal(f.walkthrough.weights.length, 4);
  await click('variance');
  f = await lab();
  assert.equal(f.variance.dk, 32);
  assert.equal(f.variance.curve.length, 11);
  assert.ok(Math.abs(f.variance.raw / 32 - 1) < 0.1 && Math.abs(f.variance.scaled - 1) < 0.1, JSON.stringify(f.variance));
  // The histograms are drawn: orange bars (q.k) and blue bars (q.k / sqrt(d_k)).
  const png = await screenshot(page, 'lab-variance-by-tab.png');
  let orange = 0, blue = 0;
  for (let y = 0; y < png.height; y++)
    for (let x = Math.round(png.width / 2); x < png.width; x++) {
      const [r, g, b] = png.pixel(x, y);
      if (r > 220 && g > 120 && g < 190 && b < 90) orange++;
      if (b > 220 && r < 110 && g > 120 && g < 190) blue++;
    }
  assert.ok(orange > 3000 && blue > 3000, `histogram pixels: ${orange} orange, ${blue} blue`);
});
