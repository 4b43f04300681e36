// The short soak (the full one: scripts/soak.mjs, 5,000 actions): randomised typing
// (emoji, CJK, hostile markup, 10,000-character pastes), mask edits, panel switches, math
// and model changes, imports (good and junk files), resizes, keys and hostile state
// patches; the language model's scene (generation, ablation, the switches that break the
// math), the modern panels (positions, GQA and its measurement, flash steps, sinks, the
// query-key plane), the tour and the chapters, by setState and by clicks; in batches. Every
// kind runs (the first actions are each kind once), only expected patches are refused, and
// each kind that aims the pointer at a target (the tour's buttons, the chapters and panels,
// a query on the query-key plane) hits it at least once. After each batch: no console error,
// frames still advance, nothing ran from a typed string; after a reset the app's live heap
// bytes (mallinfo), the JS heap and the live GL objects stay bounded near their baseline and
// do not grow batch after batch.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser, serveDist } from '../support/browser.mjs';
import { assertHeatmapShows, matrix, openLab, screenshot, waitFor } from '../support/lab.mjs';
import { artifactsDir } from '../support/paths.mjs';
import { checkActions, checkSoak, glCounterScript, soak } from '../support/soak.mjs';

let server, url, browser;
before(async () => {
  ({ server, url } = await serveDist());
  browser = await openBrowser();
  await browser.context.addInitScript(glCounterScript);
});
after(async () => {
  await browser.close();
  server.close();
});

test('short soak: 150 random actions in 3 batches leave no error, no runaway heap and no leaked GL objects', async () => {
  const { page, errors } = await openLab(browser, url);
  const cdp = await browser.context.newCDPSession(page);
  const result = await soak(page, cdp, { actions: 150, batch: 50, seed: 7, errors });
  fs.writeFileSync(path.join(artifactsDir, 'soak-short.json'), JSON.stringify(result, null, 1));
  checkSoak(result);
  checkActions(result);
  await page.close();
});

// Waits until `count` more frames have been drawn.
async function frames(page, count) {
  const f = await page.evaluate(() => window.attnlab.framesDrawn());
  await waitFor(page, ([from, n]) => window.attnlab.framesDrawn() >= from + n, [f, count]);
}

test('live GL objects follow the panel on screen: after a tour of every panel, the first panel needs what it needed before', async () => {
  const { page, errors } = await openLab(browser, url);
  const schema = await page.evaluate(() => window.attnlab.schema());
  const panels = schema.find((e) => e.path === 'panel').choices;
  const live = () => page.evaluate(() => window.__attnlabGlLive().total);
  await page.evaluate(() => window.attnlab.setState({ panel: 'pipeline' }));
  await frames(page, 3);
  const before = await live();
  const counts = {};
  for (const panel of panels) {
    await page.evaluate((p) => window.attnlab.setState({ panel: p }), panel);
    await frames(page, 3);
    counts[panel] = await live();
  }
  await page.evaluate(() => window.attnlab.setState({ panel: 'pipeline' }));
  await frames(page, 3);
  const after = await live();
  // The tour drew more heatmaps than the pipeline alone (the textures were really made) ...
  assert.ok(Math.max(...Object.values(counts)) > before, `GL objects per panel ${JSON.stringify(counts)}, pipeline ${before}`);
  // ... and back on the pipeline, only its own are alive.
  assert.equal(after, before, `GL objects per panel ${JSON.stringify(counts)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('WebGL context loss and restore bring the picture back', async () => {
  const { page, errors } = await openLab(browser, url);
  await page.evaluate(() => window.attnlab.setState({ panel: 'pipeline', cursor: -1 }));
  await frames(page, 2);
  const ext = await page.evaluateHandle(() => document.getElementById('canvas').getContext('webgl2').getExtension('WEBGL_lose_context'));
  await ext.evaluate((e) => e.loseContext());
  await waitFor(page, () => document.getElementById('canvas').getContext('webgl2').isContextLost());
  // Nothing is drawn while the context is lost.
  const lostAt = await page.evaluate(() => window.attnlab.framesDrawn());
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.attnlab.framesDrawn()), lostAt, 'frames were drawn on a lost context');
  await ext.evaluate((e) => e.restoreContext());
  await frames(page, 5);
  const png = await screenshot(page, 'soak-context-restored.png');
  await assertHeatmapShows(page, png, 'pipeline/weights', await matrix(page, 'weights'));
  // The state survived: a change after the restore is drawn too.
  await page.evaluate(() => window.attnlab.setState({ temperature: 3 }));
  await frames(page, 3);
  const png2 = await screenshot(page, 'soak-context-restored-changed.png');
  await assertHeatmapShows(page, png2, 'pipeline/weights', await matrix(page, 'weights'));
  assert.deepEqual(errors.filter((e) => !/context lost/i.test(e)), []);
  await page.close();
});
