// Helpers for tests that drive the real page: open it, read matrices, check heatmap
// cells against the colours the shader must give.
import assert from 'node:assert/strict';
import path from 'node:path';
import { decodePng } from './png.mjs';
import { colorDistance, expectedDiverging, expectedSequential } from './colors.mjs';
import { artifactsDir } from './paths.mjs';
import { watchErrors } from './browser.mjs';

// Opens the page in its default state: the session an earlier test left in this browser's
// storage (the page restores the last session) is cleared first.
export async function openLab(browser, url, query = '') {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  // Once per tab (sessionStorage), so a later reload in this tab still finds its session.
  await page.addInitScript(() => {
    if (sessionStorage.getItem('attnlab-test-fresh')) return;
    sessionStorage.setItem('attnlab-test-fresh', '1');
    localStorage.clear();
  });
  await page.goto(url + 'index.html' + query);
  await page.evaluate(() => window.attnlab.ready);
  return { page, errors };
}

// Waits until the lab has drawn `count` more frames.
export async function frames(page, count = 3) {
  await page.evaluate(async (k) => {
    const target = window.attnlab.framesDrawn() + k;
    while (window.attnlab.framesDrawn() < target) await new Promise((r) => requestAnimationFrame(r));
  }, count);
}

// Waits until `predicate(arg)` holds in the page, polling every 100 ms.
export async function waitFor(page, predicate, arg, timeout = 20000) {
  await page.waitForFunction(predicate, arg, { timeout, polling: 100 });
}

export async function matrix(page, name, head = 0) {
  // The Float32Array leaves the page as it is (playwright sends a typed array as base64); an
  // array made in the page would go number by number, checked and wrapped on both sides (a
  // 1024 x 1024 matrix cost seconds of CPU that way). The tests get a plain array.
  const m = await page.evaluate(([n, h]) => {
    const x = window.attnlab.getMatrix(n, h);
    return x && { rows: x.rows, cols: x.cols, data: x.data };
  }, [name, head]);
  return m && { ...m, data: Array.from(m.data) };
}

export async function screenshot(page, name) {
  const buffer = await page.screenshot({ path: path.join(artifactsDir, name) });
  const png = decodePng(buffer);
  png.cssScale = png.width / (await page.evaluate(() => window.innerWidth));
  return png;
}

// Pixel of cell (i, j) of a heatmap, sampled at 20% into the cell (away from its number).
export function cellPixel(png, placement, i, j) {
  const [px, py] = cellPoint(png, placement, i, j);
  return png.pixel(px, py);
}
function cellPoint(png, placement, i, j) {
  const { x, y, w, h, viewX0, viewY0, viewW, viewH } = placement;
  return [(x + (j - viewX0 + 0.2) * (w / viewW)) * png.cssScale, (y + (i - viewY0 + 0.2) * (h / viewH)) * png.cssScale];
}
// Whether that sample point is inside the screenshot (a panel taller than the window scrolls,
// and the rows below its edge are not on screen).
function onScreen(png, placement, i, j) {
  const [px, py] = cellPoint(png, placement, i, j);
  return px >= 0 && py >= 0 && px < png.width - 1 && py < png.height - 1;
}

// Every visible cell of `id` has the colour of `m` (sequential or diverging scale).
// `skip(i, j)`: cells left out (under an outline the panel draws over them).
export async function assertHeatmapShows(page, png, id, m, { diverging = false, tolerance = 3, skip = () => false } = {}) {
  const layout = await page.evaluate(() => window.attnlab.layout());
  const p = layout.heatmaps[id];
  assert.ok(p, `no heatmap '${id}' on screen`);
  assert.equal(p.rows, m.rows);
  assert.equal(p.cols, m.cols);
  // Cells whose sample point (20% into the cell, and a pixel of margin) is in view.
  const margin = Math.max(p.viewW / p.w, p.viewH / p.h);
  const inView = (k, v0, vw) => k + 0.2 >= v0 + margin && k + 0.2 <= v0 + vw - margin;
  let checked = 0;
  for (let i = Math.floor(p.viewY0); i < Math.min(m.rows, p.viewY0 + p.viewH); i++)
    for (let j = Math.floor(p.viewX0); j < Math.min(m.cols, p.viewX0 + p.viewW); j++) {
      if (!inView(i, p.viewY0, p.viewH) || !inView(j, p.viewX0, p.viewW) || !onScreen(png, p, i, j) || skip(i, j)) continue;
      const v = m.data[i * m.cols + j];
      const want = diverging ? expectedDiverging(v, p.rangeLo, p.rangeHi) : expectedSequential(v);
      const got = cellPixel(png, p, i, j);
      assert.ok(colorDistance(got, want) <= tolerance, `${id} cell (${i},${j}) value ${v}: got ${got}, want ${want}`);
      checked++;
    }
  assert.ok(checked > 0, `no cell of '${id}' was checked`);
  return checked;
}

// A finished download's bytes. Read through its stream, which works in a browser connected
// to the suite's shared Chromium too (download.path() names a file only a launching process
// can see).
export async function downloadedBytes(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks);
}
