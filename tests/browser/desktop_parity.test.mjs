// The desktop app and the browser draw the same picture for the same state: the desktop
// --screenshot (under Xvfb) and the page are sampled at the same cells and both must show
// the colours the shader gives for the browser's weights. Presentation mode on both.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBrowser, serveDist } from '../support/browser.mjs';
import { assertHeatmapShows, cellPixel, matrix, openLab, screenshot } from '../support/lab.mjs';
import { colorDistance, expectedSequential } from '../support/colors.mjs';
import { decodePng } from '../support/png.mjs';
import { artifactsDir, nativeDir } from '../support/paths.mjs';

let server, url, browser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-parity-'));
before(async () => {
  ({ server, url } = await serveDist());
  browser = await openBrowser({ viewport: { width: 1280, height: 800 } });
});
after(async () => {
  await browser.close();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function desktopShot(state, name, extra = []) {
  const stateFile = path.join(tmp, name + '.json');
  fs.writeFileSync(stateFile, JSON.stringify(state));
  const out = path.join(artifactsDir, name);
  execFileSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24', path.join(nativeDir, 'attnlab'), '--width', '1280',
    '--height', '800', '--state', stateFile, '--screenshot', out, ...extra], { stdio: 'pipe', timeout: 60000 });
  const png = decodePng(fs.readFileSync(out));
  png.cssScale = 1;
  return { png, layout: JSON.parse(fs.readFileSync(out + '.json', 'utf8')) };
}

test('desktop --screenshot and the browser show the same cells for the same state', async () => {
  const state = { sentence: '猫追老鼠，老鼠跑了。', panel: 'token', cursor: -1, mask: { causal: true }, head: 1 };
  const { page, errors } = await openLab(browser, url);
  await page.evaluate((s) => window.attnlab.setState(s), state);
  const webPng = await screenshot(page, 'parity-browser.png');
  const weights = await matrix(page, 'weights', 1);
  const webChecked = await assertHeatmapShows(page, webPng, 'token/weights', weights);

  const desk = desktopShot(state, 'parity-desktop.png');
  const p = desk.layout.heatmaps['token/weights'];
  assert.equal(p.rows, weights.rows);
  let checked = 0;
  for (let i = 0; i < weights.rows; i++)
    for (let j = 0; j < weights.cols; j++) {
      const want = expectedSequential(weights.data[i * weights.cols + j]);
      const got = cellPixel(desk.png, p, i, j);
      assert.ok(colorDistance(got, want) <= 3, `desktop cell (${i},${j}): got ${got}, want ${want}`);
      checked++;
    }
  assert.equal(checked, webChecked);
  assert.deepEqual(errors, []);
  await page.close();
});

test('presentation mode: larger UI, controls hidden, on the desktop and the web', async () => {
  const desk = desktopShot({ sentence: 'The cat sat on the mat', panel: 'token', cursor: 2 }, 'presentation-desktop.png', ['--present']);
  const p = desk.layout.heatmaps['token/weights'];
  assert.ok(p.x < 200, `the heatmap should start near the left edge without the controls panel (x = ${p.x})`);

  const { page, errors } = await openLab(browser, url);
  await page.evaluate(() => window.attnlab.setState({ sentence: 'The cat sat on the mat', panel: 'token', cursor: 2 }));
  const before = (await page.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
  await page.evaluate(() => window.attnlab.setState({ presentation: true }));
  const during = (await page.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
  assert.ok(during.x < before.x - 100, `controls panel not hidden: x ${before.x} -> ${during.x}`);
  const png = await screenshot(page, 'presentation-browser.png');
  await page.evaluate(() => window.attnlab.setState({ cursor: -1 }));
  await assertHeatmapShows(page, await screenshot(page, 'presentation-browser-nocursor.png'), 'token/weights', await matrix(page, 'weights'));
  // The P key on the canvas leaves presentation mode again.
  await page.focus('#canvas');
  await page.keyboard.press('p');
  await page.waitForFunction(() => window.attnlab.getState().presentation === false, null, { timeout: 10000 });
  assert.ok(png.width > 0);
  assert.deepEqual(errors, []);
  await page.close();
});
