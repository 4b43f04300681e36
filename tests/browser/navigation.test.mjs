// The chapter and panel navigation at 1280 x 800: every chapter's and panel's label whole (its
// text inside its button, every button inside the window, none overlapping), in English and
// Chinese, at DPR 1 and 2 and in presentation mode; clicking a chapter opens its panel and
// the panel's buttons; the keys still walk every panel. Screenshots: navigation-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labSuite } from '../support/suite.mjs';
import { openBrowser } from '../support/browser.mjs';
import { frames, openLab, screenshot, waitFor } from '../support/lab.mjs';

const suite = labSuite({ viewport: { width: 1280, height: 800 } });


// No label cut, outside the window or over another; returns the items.
async function assertWholeLabels(page, what) {
  const nav = await page.evaluate(() => window.attnlab.layout().nav);
  const chapters = nav.filter((n) => n.kind === 'chapter'), panels = nav.filter((n) => n.kind === 'panel');
  assert.equal(chapters.length, 10, `${what}: ten chapters`);
  assert.ok(panels.length >= 1, `${what}: the shown chapter's panels`);
  for (const n of nav) {
    assert.ok(n.text.length > 0, `${what}: ${n.id} has a label`);
    assert.ok(n.textWidth <= n.w - 2, `${what}: '${n.text}' (${n.textWidth.toFixed(1)} px) fits its button (${n.w.toFixed(1)} px)`);
    assert.ok(n.x + n.w <= n.right + 0.5, `${what}: '${n.text}' ends at ${n.x + n.w}, inside the window (${n.right})`);
  }
  for (let i = 0; i < nav.length; i++)
    for (let j = i + 1; j < nav.length; j++) {
      const a = nav[i], b = nav[j];
      const overlap = a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
      assert.ok(!overlap, `${what}: '${a.text}' and '${b.text}' overlap`);
    }
  return nav;
}

// Every chapter opened in turn: the labels of all panels are checked as they show.
async function walkChapters(page, what, shots = []) {
  const ids = (await page.evaluate(() => window.attnlab.layout().nav)).filter((n) => n.kind === 'chapter').map((n) => n.id);
  const registry = await page.evaluate(() => window.attnlab.panels());
  for (const chapter of ids) {
    const first = registry.find((p) => p.chapter === chapter).id;
    await page.evaluate((p) => window.attnlab.setState({ panel: p }), first);
    await frames(page);
    const nav = await assertWholeLabels(page, `${what}, chapter ${chapter}`);
    const selected = nav.filter((n) => n.selected).map((n) => `${n.kind}:${n.id}`);
    assert.deepEqual(selected, [`chapter:${chapter}`, `panel:${first}`], `${what}: the chapter and its panel are marked`);
    const shown = nav.filter((n) => n.kind === 'panel').map((n) => n.id);
    assert.deepEqual(shown, registry.filter((p) => p.chapter === chapter).map((p) => p.id), `${what}: ${chapter}'s panels`);
    if (shots.includes(chapter)) await screenshot(page, `navigation-${what.replace(/[^a-z0-9]+/gi, '-')}-${chapter}.png`);
  }
}

test('English at DPR 1: every chapter and panel label is whole; a click on a chapter opens its panel', async () => {
  const { page, errors } = await suite.openLab();
  await walkChapters(page, 'en dpr1', ['similarity', 'multi-head']);
  // A real click on chapter 8 (Variants) opens its first panel; a click on Flash then opens that.
  await page.evaluate(() => window.attnlab.setState({ panel: 'pipeline' }));
  await frames(page);
  const press = async (box) => {
    await page.mouse.move(box.x + box.w / 2, box.y + box.h / 2);
    await frames(page, 2);
    await page.mouse.down();
    await frames(page, 2);
    await page.mouse.up();
    await frames(page, 2);
  };
  let nav = await page.evaluate(() => window.attnlab.layout().nav);
  await press(nav.find((n) => n.id === 'variants' && n.kind === 'chapter'));
  await waitFor(page, () => window.attnlab.getState().panel === 'scoring');
  nav = await page.evaluate(() => window.attnlab.layout().nav);
  await press(nav.find((n) => n.id === 'flash' && n.kind === 'panel'));
  await waitFor(page, () => window.attnlab.getState().panel === 'flash');
  // Back to chapter 4 and to chapter 8 again: the chapter reopens on the panel last shown there.
  nav = await page.evaluate(() => window.attnlab.layout().nav);
  await press(nav.find((n) => n.id === 'weighted-values'));
  await waitFor(page, () => window.attnlab.getState().panel === 'pipeline');
  nav = await page.evaluate(() => window.attnlab.layout().nav);
  await press(nav.find((n) => n.id === 'variants' && n.kind === 'chapter'));
  await waitFor(page, () => window.attnlab.getState().panel === 'flash');
  await screenshot(page, 'navigation-en-flash-by-click.png');
  assert.deepEqual(errors, []);
});

test('controls in context: a panel that reads none of the scene\'s settings folds them away and gets the room; a button brings them back', async () => {
  const { page, errors } = await suite.openLab();
  await page.evaluate(() => window.attnlab.setState({ panel: 'pipeline' }));
  await frames(page);
  let layout = await page.evaluate(() => window.attnlab.layout());
  assert.equal(layout.controls, true);
  assert.ok(!layout.nav.some((n) => n.kind === 'toggle'), 'no toggle where the controls act');
  const withControls = layout.nav.find((n) => n.kind === 'chapter').x;
  await page.evaluate(() => window.attnlab.setState({ panel: 'variance' }));
  await frames(page);
  layout = await page.evaluate(() => window.attnlab.layout());
  assert.equal(layout.controls, false);
  assert.ok(layout.nav.find((n) => n.kind === 'chapter').x < withControls - 200, 'the panel starts at the left edge');
  await screenshot(page, 'navigation-variance-folded.png');
  const toggle = layout.nav.find((n) => n.kind === 'toggle');
  assert.equal(toggle.text, 'Show the scene controls');
  await page.mouse.move(toggle.x + toggle.w / 2, toggle.y + toggle.h / 2);
  await frames(page, 2);
  await page.mouse.down();
  await frames(page, 2);
  await page.mouse.up();
  await waitFor(page, () => window.attnlab.layout().controls === true);
  layout = await page.evaluate(() => window.attnlab.layout());
  assert.equal(layout.nav.find((n) => n.kind === 'toggle').text, 'Hide the scene controls');
  assert.deepEqual(errors, []);
});

test('the ] key walks every panel in the chapters\' order and wraps', async () => {
  const { page, errors } = await suite.openLab();
  const registry = await page.evaluate(() => window.attnlab.panels().map((p) => p.id));
  await page.evaluate((p) => window.attnlab.setState({ panel: p }), registry[0]);
  await frames(page);
  await page.mouse.click(900, 500);  // the canvas takes the keys
  const seen = [];
  for (let i = 0; i < registry.length; i++) {
    seen.push(await page.evaluate(() => window.attnlab.getState().panel));
    await page.keyboard.press(']');
    await frames(page, 2);
  }
  assert.deepEqual(seen, registry);
  assert.equal(await page.evaluate(() => window.attnlab.getState().panel), registry[0]);
  assert.deepEqual(errors, []);
});

for (const { lang, dpr, present } of [
  { lang: 'zh', dpr: 1, present: false }, { lang: 'en', dpr: 2, present: false },
  { lang: 'zh', dpr: 2, present: false }, { lang: 'en', dpr: 1, present: true }, { lang: 'zh', dpr: 1, present: true },
]) {
  const what = `${lang} dpr${dpr}${present ? ' presentation' : ''}`;
  test(`${what}: every chapter and panel label is whole`, async () => {
    const browser = await openBrowser({ deviceScaleFactor: dpr, viewport: { width: 1280, height: 800 } });
    try {
      await suite.ready;
      const { page, errors } = await openLab(browser, suite.url, lang === 'zh' ? '?lang=zh' : '');
      if (lang === 'zh') await waitFor(page, () => window.attnlab.cjkFontLoaded === true);
      if (present) await page.evaluate(() => window.attnlab.setState({ presentation: true }));
      await frames(page, 4);
      await walkChapters(page, what, present || dpr === 2 ? ['softmax', 'variants'] : ['order']);
      if (lang === 'zh') assert.equal(await page.evaluate(() => window.attnlab.layout().missingGlyphs), 0);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
}
