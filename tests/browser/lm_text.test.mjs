// "Train on your text" in headless Chromium, through the page's own controls: refused texts
// (too short, not UTF-8, more characters than the vocabulary holds) say why and keep what
// was there; the GPL is opened as a file and its summary is the math module's; Train runs in
// the Worker while the main thread's frame times stay within 1.5x of idle; the panel's plot
// gets axes and points, the heads table fills; Pause, Resume and Stop; the stopped run's model
// drives the language-model scene; Save downloads it, and after a reload Load model reads it
// back to the same held-out bits and the math module's weights, and a damaged file is refused.
// The Chinese UI at DPR 2 trains too (the quick size). Screenshots:
// build/test-artifacts/lm-text-*.png.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser } from '../support/browser.mjs';
import { labSuite } from '../support/suite.mjs';
import { downloadedBytes, frames, openLab, screenshot, waitFor } from '../support/lab.mjs';
import { distDir } from '../support/paths.mjs';

const suite = labSuite({ sharedPage: true });
let page;
before(async () => { ({ page } = await suite.ready); });

const GPL = fs.readFileSync('/usr/share/common-licenses/GPL-3');
const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();

const run = (p = page) => p.evaluate(() => window.attnlab.getState().figures.lmText);
const message = (p = page) => p.evaluate(() => document.getElementById('lm-text-message').textContent);

// The main thread's frame times over `ms`: the intervals (ms) between the page's animation
// frames, what the user sees; the app's own CPU time of each frame it drew (frameMs); and how
// many frames the app drew.
async function frameTimes(p, ms) {
  return p.evaluate(async (span) => {
    const times = [], cpu = [];
    const drawn = window.attnlab.framesDrawn();
    const end = performance.now() + span;
    let last = await new Promise((r) => requestAnimationFrame(r));
    while (last < end) {
      const now = await new Promise((r) => requestAnimationFrame(r));
      times.push(now - last);
      cpu.push(window.attnlab.frameMs());
      last = now;
    }
    return { times, cpu, drawn: window.attnlab.framesDrawn() - drawn };
  }, ms);
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

test('refused texts say why in the bar and the panel, and keep the text there was', async () => {
  await page.evaluate(() => window.attnlab.setState({ panel: 'lm-train' }));
  assert.equal(await page.isVisible('#lm-text-bar'), true);
  assert.equal((await run()).available, true);
  assert.equal((await run()).phase, 'empty');
  // Too short, typed into the box.
  await page.fill('#lm-text-input', 'A short poem.\n'.repeat(20));
  await waitFor(page, () => /at least 2000/.test(document.getElementById('lm-text-message').textContent));
  assert.match((await run()).error, /280 characters; training needs at least 2000/);
  assert.equal((await run()).phase, 'empty');
  assert.equal(await page.isDisabled('#lm-text-train'), true);
  // A good text, then a file that is not UTF-8: refused, naming the byte; the good one stays.
  await page.setInputFiles('#lm-text-file', { name: 'GPL-3.txt', mimeType: 'text/plain', buffer: GPL });
  await waitFor(page, () => window.attnlab.getState().figures.lmText.phase === 'ready');
  const bad = Buffer.concat([GPL.subarray(0, 5000), Buffer.from([0xff]), GPL.subarray(5000)]);
  await page.setInputFiles('#lm-text-file', { name: 'latin1.txt', mimeType: 'text/plain', buffer: bad });
  await waitFor(page, () => /UTF-8/.test(document.getElementById('lm-text-message').textContent));
  assert.match(await message(), /latin1\.txt: the text is not valid UTF-8 \(byte 5000\)/);
  let r = await run();
  assert.equal(r.phase, 'ready');
  assert.equal(r.name, 'GPL-3.txt');
  // More distinct characters than the vocabulary's cap: says how many.
  let wide = '';
  for (let rep = 0; rep < 2; rep++) for (let cp = 0x4e00; cp < 0x4e00 + 8190; cp++) wide += String.fromCodePoint(cp);
  wide += '\n' + 'a'.repeat(4000);
  await page.setInputFiles('#lm-text-file', { name: 'hanzi.txt', mimeType: 'text/plain', buffer: Buffer.from(wide) });
  await waitFor(page, () => /8193/.test(document.getElementById('lm-text-message').textContent));
  assert.match(await message(), /the vocabulary would have 8193 tokens; at most 8192 are allowed/);
  r = await run();
  assert.equal(r.name, 'GPL-3.txt');
  assert.equal(r.phase, 'ready');
  assert.equal(await page.isDisabled('#lm-text-train'), false);
  // The summary is the math module's own split and vocabulary.
  const trainer = core.createLanguageModelTrainer({ text: GPL.toString('utf8'), seed: 1 });
  assert.equal(r.characters, trainer.info.characters);
  assert.equal(r.trainCharacters, trainer.info.trainCharacters);
  assert.equal(r.heldOutCharacters, trainer.info.heldOutCharacters);
  assert.equal(r.vocabulary, trainer.info.vocab);
  assert.equal(r.bigramBits, trainer.evaluate().bigramBits);
  assert.equal(r.steps, 1600);  // the default size, the page preset
  trainer.dispose();
});

test('training in the Worker keeps the page\'s frames, fills the plot and the heads, and stops into the scene', async () => {
  const idle = await frameTimes(page, 2500);
  await page.selectOption('#lm-text-preset', 'page');
  await page.click('#lm-text-train');
  await waitFor(page, () => window.attnlab.getState().figures.lmText.phase === 'training');
  const busy = await frameTimes(page, 4000);
  const ratio = median(busy.times) / median(idle.times);
  console.log(`frame interval: idle median ${median(idle.times).toFixed(1)} ms over ${idle.times.length} frames, ` +
    `training median ${median(busy.times).toFixed(1)} ms over ${busy.times.length} frames: ratio ${ratio.toFixed(2)}; ` +
    `the app's CPU per frame: idle ${median(idle.cpu).toFixed(2)} ms, training ${median(busy.cpu).toFixed(2)} ms ` +
    '(the panel draws a plot and a table while training)');
  assert.ok(busy.drawn > 0 && idle.drawn > 0, 'the app drew frames in both spans');
  assert.ok(ratio <= 1.5, `training frame time ${ratio.toFixed(2)}x idle`);
  // An evaluation point at least: the plot's held-out series and the heads at a trained step.
  await waitFor(page, () => window.attnlab.getState().figures.lmText.headsStep >= 100, null, 120000);
  let r = await run();
  assert.equal(r.phase, 'training');
  assert.ok(r.trainPoints >= 5, `${r.trainPoints} training points`);
  assert.equal(r.heldOutSteps[0], 100);
  assert.equal(r.heads.length, 8);  // 2 layers x 4 heads
  assert.ok(r.heads.every((h) => h.previous >= 0 && h.previous <= 1));
  assert.ok(r.sample.length > 0);
  assert.ok(r.charactersPerSecond > 1000, `${r.charactersPerSecond} characters/s`);
  const plot = (await page.evaluate(() => window.attnlab.layout())).plots['lm-text/curve'];
  assert.ok(plot, 'the curve plot is drawn');
  assert.ok(plot.xTicks.length >= 3 && plot.yTicks.length >= 3, 'both axes have ticks');
  assert.ok(plot.references.some((t) => /character bigram/.test(t)));
  await frames(page, 2);
  await screenshot(page, 'lm-text-training-en.png');
  // Pause: the scene runs the model as it is; Resume; Stop.
  await page.click('#lm-text-pause');
  await waitFor(page, () => window.attnlab.getState().figures.lmText.modelLoaded);
  r = await run();
  assert.equal(r.phase, 'paused');
  assert.equal(await page.textContent('#lm-text-pause'), 'Resume');
  const pausedAt = r.step;
  await page.waitForTimeout(1000);
  assert.equal((await run()).step, pausedAt, 'no step while paused');
  await page.click('#lm-text-pause');
  await waitFor(page, (s) => window.attnlab.getState().figures.lmText.step > s, pausedAt);
  await page.click('#lm-text-stop');
  await waitFor(page, () => window.attnlab.getState().figures.lmText.phase === 'stopped', null, 30000);
  await waitFor(page, () => window.attnlab.getState().figures.lmText.heldOutFinal > 0);
  r = await run();
  assert.ok(r.step < r.steps);
  assert.ok(r.heldOutFinal < 5, `${r.heldOutFinal} bits`);
  assert.equal(r.headsStep, r.step, 'the heads and the sample of the model where it stopped');
  await frames(page, 2);
  await screenshot(page, 'lm-text-stopped-en.png');
  // Every panel of the scene reads the new model.
  const lm = await page.evaluate(() => window.attnlab.getState().figures.lm);
  assert.equal(lm.name, 'GPL-3');
  assert.deepEqual([lm.layers, lm.heads, lm.context], [2, 4, 64]);
  for (const panel of ['language', 'heads', 'model']) {
    const state = await page.evaluate((p) => window.attnlab.setState({ source: 'language', panel: p, sentence: 'This License applies to' }), panel);
    assert.equal(state.panel, panel);
    await frames(page, 3);
  }
  await screenshot(page, 'lm-text-model-en.png');
  await page.evaluate(() => window.attnlab.setState({ panel: 'lm-train' }));

  // Save downloads the model; after a reload, Load model reads it back to the same bits.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#lm-text-save')]);
  assert.match(download.suggestedFilename(), /^GPL-3-step\d+\.attnlm$/);
  const file = await downloadedBytes(download);
  const model = core.loadLanguageModel(new Uint8Array(file));
  const heldOut = [...GPL.toString('utf8')].slice(r.trainCharacters).join('');
  const bits = model.evaluate(heldOut).bitsPerToken;
  assert.ok(Math.abs(bits - r.heldOutFinal) < 1e-9, `${bits} against the panel's ${r.heldOutFinal}`);
  assert.match(model.config.notes, /Trained in Attention Lab on a text of 35149 characters/);
  assert.doesNotMatch(model.config.notes, /GNU|Free Software/, 'no copy of the text in the file');
  model.dispose();
  await page.reload();
  await page.evaluate(() => window.attnlab.ready);
  await page.setInputFiles('#train-load', { name: download.suggestedFilename(), mimeType: 'application/octet-stream', buffer: file });
  await waitFor(page, (n) => window.attnlab.getState().figures.lm.name === n, download.suggestedFilename());
  const loaded = await page.evaluate(() => window.attnlab.getState().figures.lm);
  assert.deepEqual([loaded.layers, loaded.heads, loaded.context], [2, 4, 64]);
  // The scene runs the file's weights: the page's heads are the math module's on a sentence.
  const sentence = 'The Program is free.';
  const state = await page.evaluate((s) => window.attnlab.setState({ source: 'language', sentence: s, panel: 'heads', layer: 0, cursor: -1 }), sentence);
  assert.equal(state.tokens.length, [...sentence].length + 1);
  const mine = core.loadLanguageModel(new Uint8Array(file));
  const want = mine.attention(sentence);
  for (let h = 0; h < 4; h++) {
    const w = await page.evaluate((i) => Array.from(window.attnlab.getMatrix('weights', i).data), h);
    let worst = 0;
    for (let i = 0; i < w.length; i++) worst = Math.max(worst, Math.abs(w[i] - want.weights[h][i]));
    assert.ok(worst < 1e-4, `head ${h}: page and module differ by ${worst}`);
  }
  mine.dispose();
  // A damaged file: the reason is shown, the scene keeps the model it had.
  const damaged = Buffer.from(file);
  damaged[damaged.length - 1] ^= 0xff;
  await page.setInputFiles('#train-load', { name: 'damaged.attnlm', mimeType: 'application/octet-stream', buffer: damaged });
  await waitFor(page, () => /damaged\.attnlm/.test(document.getElementById('notice').textContent));
  assert.match(await page.evaluate(() => document.getElementById('notice').textContent), /damaged\.attnlm.*checksum/);
  assert.equal((await page.evaluate(() => window.attnlab.getState().figures.lm)).name, download.suggestedFilename());
});

test('the Chinese UI at DPR 2 trains too, its words in Chinese', async () => {
  const browser = await openBrowser({ viewport: { width: 1200, height: 800 }, deviceScaleFactor: 2 });
  try {
    const { page: zh, errors } = await openLab(browser, suite.url, '?lang=zh#panel=lm-train');
    await waitFor(zh, () => window.attnlab.getState().language === 'zh' && window.attnlab.cjkFontLoaded);
    assert.equal(await zh.textContent('#lm-text-train'), '训练');
    assert.match(await zh.evaluate(() => document.getElementById('lm-text-preset').options[0].text), /^quick：1 层/);
    await zh.setInputFiles('#lm-text-file', { name: 'GPL-3.txt', mimeType: 'text/plain', buffer: GPL.subarray(0, 1500) });
    await waitFor(zh, () => document.getElementById('lm-text-message').textContent.length > 0);
    assert.match(await message(zh), /训练至少需要 2000 个/);
    await zh.setInputFiles('#lm-text-file', { name: 'GPL-3.txt', mimeType: 'text/plain', buffer: GPL });
    await waitFor(zh, () => window.attnlab.getState().figures.lmText.phase === 'ready');
    await zh.selectOption('#lm-text-preset', 'quick');
    await zh.click('#lm-text-train');
    await waitFor(zh, () => window.attnlab.getState().figures.lmText.headsStep >= 100, null, 120000);
    await frames(zh, 2);
    const png = await screenshot(zh, 'lm-text-training-zh-dpr2.png');
    assert.equal(png.cssScale, 2);
    await zh.click('#lm-text-stop');
    await waitFor(zh, () => window.attnlab.getState().figures.lmText.modelLoaded, null, 30000);
    await zh.evaluate(() => window.attnlab.setState({ source: 'language', panel: 'model' }));
    await frames(zh, 3);
    await screenshot(zh, 'lm-text-model-zh-dpr2.png');
    // Across layers in Chinese: rollout of the new model with a query in focus.
    await zh.evaluate(() => window.attnlab.setState({ acrossLayers: 'rollout', cursor: 10 }));
    await frames(zh, 3);
    const across = await zh.evaluate(() => window.attnlab.getState().figures.acrossLayers);
    assert.equal(across.mode, 'rollout');
    assert.equal(across.focusRow.length, across.cols);
    await screenshot(zh, 'model-view-rollout-zh-dpr2.png');
    // Why this cell, in Chinese.
    await zh.evaluate(() => window.attnlab.setState({ panel: 'pipeline', acrossLayers: 'heads', cursor: 10, cursorKey: 9 }));
    await frames(zh, 3);
    assert.equal((await zh.evaluate(() => window.attnlab.getState().figures.cell)).col, 9);
    await screenshot(zh, 'cell-why-zh-dpr2.png');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

