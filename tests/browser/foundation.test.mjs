// The page in headless Chromium: WebGL2, the heatmap's pixels, crisp at DPR 2,
// and a clear message where WebGL2 is missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser, serveDist, watchErrors } from '../support/browser.mjs';
import { decodePng } from '../support/png.mjs';
import { colorDistance, expectedSequential } from '../support/colors.mjs';
import { artifactsDir } from '../support/paths.mjs';

let server, url;
before(async () => ({ server, url } = await serveDist()));
after(() => server.close());

async function openLab(browser) {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(url + 'index.html');
  await page.evaluate(() => window.attnlab.ready);
  return { page, errors };
}

// Checks every cell's colour (sampled away from the centred number) against the
// colour the shader must give for the app's weights; returns the worst distance.
async function checkHeatmapPixels(page, shotName, id = 'pipeline/weights', head = 0) {
  const layout = await page.evaluate(() => window.attnlab.layout());
  const m = await page.evaluate((h) => {
    const w = window.attnlab.getMatrix('weights', h);
    return { rows: w.rows, cols: w.cols, data: Array.from(w.data) };
  }, head);
  const buffer = await page.screenshot({ path: path.join(artifactsDir, shotName) });
  const png = decodePng(buffer);
  const scale = png.width / (await page.evaluate(() => window.innerWidth));
  assert.ok(layout.heatmaps[id], `no heatmap '${id}' on screen`);
  const { x, y, w, h } = layout.heatmaps[id];
  let worst = 0;
  for (let i = 0; i < m.rows; i++)
    for (let j = 0; j < m.cols; j++) {
      const px = (x + (j + 0.2) * w / m.cols) * scale;
      const py = (y + (i + 0.2) * h / m.rows) * scale;
      const got = png.pixel(px, py);
      const want = expectedSequential(m.data[i * m.cols + j]);
      const d = colorDistance(got, want);
      assert.ok(d <= 3, `cell (${i},${j}) weight ${m.data[i * m.cols + j].toFixed(4)}: got rgb ${got}, want ${want}`);
      worst = Math.max(worst, d);
    }
  return { m, worst };
}

test('the page runs on WebGL2 and draws the worked example in the shader colours', async () => {
  const browser = await openBrowser();
  try {
    const { page, errors } = await openLab(browser);
    const gl = await page.evaluate(() => {
      const ctx = document.getElementById('canvas').getContext('webgl2');
      return ctx ? { version: ctx.getParameter(ctx.VERSION), webgl2: ctx instanceof WebGL2RenderingContext } : null;
    });
    assert.ok(gl && gl.webgl2, 'the app canvas has no WebGL2 context');
    assert.match(gl.version, /WebGL 2\.0/);

    const state = await page.evaluate(() => window.attnlab.setState({ source: 'worked-example' }));
    assert.equal(state.source, 'worked-example');
    const { m } = await checkHeatmapPixels(page, 'browser-worked-example.png');
    assert.equal(m.rows, 2);
    assert.ok(Math.abs(m.data[1] - 0.6698) < 1e-3 && Math.abs(m.data[0] - 0.3302) < 1e-3);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('generated scene with a causal mask: upper triangle has the zero colour, all cells match', async () => {
  const browser = await openBrowser();
  try {
    const { page, errors } = await openLab(browser);
    await page.evaluate(() => window.attnlab.setState({ source: 'generated', sentence: 'one two three four five six', seed: 9, mask: { causal: true } }));
    const { m } = await checkHeatmapPixels(page, 'browser-random-causal.png');
    assert.equal(m.rows, 6);
    for (let i = 0; i < 6; i++) for (let j = i + 1; j < 6; j++) assert.equal(m.data[i * 6 + j], 0);
    // A refused patch leaves the state as it was.
    const before = await page.evaluate(() => window.attnlab.getState());
    const err = await page.evaluate(() => window.attnlab.setState({ heads: 99 }).then(() => null, (e) => e.message));
    assert.match(err, /'heads' must be between 1 and 16/);
    assert.deepEqual(await page.evaluate(() => window.attnlab.getState()), before);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('crisp at devicePixelRatio 2: the backing store is twice the CSS size', async () => {
  const browser = await openBrowser({ deviceScaleFactor: 2, viewport: { width: 900, height: 600 } });
  try {
    const { page, errors } = await openLab(browser);
    await page.evaluate(() => window.attnlab.setState({ source: 'worked-example' }));
    const l = await page.evaluate(() => window.attnlab.layout());
    assert.equal(l.devicePixelRatio, 2);
    const box = await page.locator('#canvas').boundingBox();
    assert.equal(l.framebuffer.width, Math.round(box.width * 2));
    assert.equal(l.framebuffer.height, Math.round(box.height * 2));
    assert.equal(l.framebuffer.width, 1800);
    await checkHeatmapPixels(page, 'browser-dpr2.png');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('without WebGL2 the page says so instead of failing silently', async () => {
  const browser = await openBrowser({ extraArgs: ['--disable-webgl2'] });
  try {
    const page = await browser.context.newPage();
    await page.goto(url + 'index.html');
    const rejected = await page.evaluate(() => window.attnlab.ready.then(() => false, () => true));
    assert.ok(rejected);
    const text = await page.locator('#status-text').textContent();
    assert.match(text, /WebGL2 is not available/);
    assert.ok(await page.locator('#status').isVisible());
    await page.screenshot({ path: path.join(artifactsDir, 'browser-no-webgl2.png') });
  } finally {
    await browser.close();
  }
});
