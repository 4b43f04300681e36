// Figures at a course page's sizes (issue 41, item 5): the embed a course author copies from
// the README (`embed.html?tour=one`), at 900 x 520 and 640 x 480 CSS pixels, in English and
// Chinese, shows every tour step and every exercise with its text whole. What the frame drew is
// read back by layout().textFaults (ui/text_audit.h): no glyph cut by its window's or its
// figure's edge, no two strings over each other (stacked ticks, crowded point labels), nothing
// under the step's card (it has a column of its own) and no window whose content runs past its
// edge; and what the card speaks of is in view. The token view of the README's first snippet
// (900 x 420) is held to the same. Screenshots: build/test-artifacts/course-size-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, serveDist, watchErrors } from '../support/browser.mjs';
import { screenshot } from '../support/lab.mjs';

let server, url;
before(async () => { ({ server, url } = await serveDist()); });
after(() => server.close());

// Waits for `count` more frames of the lab in the page.
const frames = (page, count) => page.evaluate(async (k) => {
  const target = window.attnlab.framesDrawn() + k;
  while (window.attnlab.framesDrawn() < target) await new Promise((r) => requestAnimationFrame(r));
}, count);

// The faults as one line each, for a failure's message.
const describe = (faults) => faults.slice(0, 6).map((f) => `${f.kind} in ${f.window} at ${f.x.toFixed(0)},${f.y.toFixed(0)} (${f.w.toFixed(0)} x ${f.h.toFixed(0)})`).join('; ');

async function openEmbed(viewport, dpr, query, fragment) {
  const browser = await openBrowser({ viewport, deviceScaleFactor: dpr });
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${url}embed.html?${query}${fragment}`);
  await page.waitForFunction(() => window.attnlab?.framesDrawn() > 2, null, { polling: 100 });
  if (fragment.includes('language=zh')) await page.waitForFunction(() => window.attnlab.layout().cjkFont, null, { polling: 100 });
  return { browser, page, errors };
}

// Shows `state` and returns the frame's layout once it is drawn (after the language model, for
// the steps that use its scene).
async function show(page, state) {
  await page.evaluate((s) => window.attnlab.setState(s), state);
  if (await page.evaluate(() => window.attnlab.getState().source === 'language'))
    await page.waitForFunction(() => window.attnlab.languageModelLoaded === true, null, { polling: 100, timeout: 30000 });
  await frames(page, 3);
  return page.evaluate(() => window.attnlab.layout());
}

const sizes = [
  { width: 900, height: 520, lang: 'en', dpr: 1 },
  { width: 640, height: 480, lang: 'en', dpr: 1 },
  { width: 900, height: 520, lang: 'zh', dpr: 2 },
  { width: 640, height: 480, lang: 'zh', dpr: 1 },
];

for (const { width, height, lang, dpr } of sizes) {
  test(`${width} x ${height}, ${lang} at DPR ${dpr}: every tour step and exercise with whole text, the card beside the figure`, async () => {
    const { browser, page, errors } = await openEmbed({ width, height }, dpr, 'tour=one', `#v=4&language=${lang}&tour=1`);
    try {
      const steps = (await page.evaluate(() => window.attnlab.tourSteps())).map((_, i) => i + 1);
      assert.ok(steps.length >= 15, 'the tour\'s steps are listed');
      const exercises = (await page.evaluate(() => window.attnlab.exercises())).map((x) => x.id);
      assert.ok(exercises.length >= 12, 'the exercises are listed');
      const states = [...steps.map((k) => ({ tour: k })), ...exercises.map((id) => ({ exercise: id }))];
      for (const state of states) {
        const what = `${width} x ${height} ${lang}: ${state.tour ? `tour step ${state.tour}` : `exercise ${state.exercise}`}`;
        let layout = await show(page, state);
        // What the card speaks of is in view: the step's framed element, the exercise's veiled
        // block nearest the top. The lab scrolls to it over the first frames after the step
        // opens, for up to 60 frames (App::scroll_to_spoken_of: a step that changes the scene
        // may move it again as the panel settles), so more frames are drawn while it is not.
        const spokenTop = (l) => {
          const spoken = state.tour ? (l.tour.highlight ? [l.tour.highlightBox] : []) : Object.values(l.exercise.veiled ?? {});
          return spoken.length ? Math.min(...spoken.map((b) => b.y)) : null;
        };
        const inView = (top) => top === null || (top >= 0 && top < height - 20);
        for (let more = 0; more < 60 && !inView(spokenTop(layout)); more += 3) {
          await frames(page, 3);
          layout = await page.evaluate(() => window.attnlab.layout());
        }
        const card = state.tour ? layout.tour : layout.exercise;
        assert.ok(card.w > 150 && card.h > 100, `${what}: its card is drawn (${JSON.stringify([card.x, card.y, card.w, card.h])})`);
        assert.ok(card.x + card.w <= width + 0.5 && card.y + card.h <= height + 0.5, `${what}: the card within the page`);
        // The card's column is the figure's right edge: no heatmap or plot reaches under it.
        for (const [id, r] of [...Object.entries(layout.heatmaps), ...Object.entries(layout.plots)])
          assert.ok(r.x + r.w <= card.x + 0.5, `${what}: ${id} ends at ${r.x + r.w}, left of the card at ${card.x}`);
        assert.equal(layout.controls, false, `${what}: the scene's controls fold for the card in a narrow page`);
        assert.ok(inView(spokenTop(layout)), `${what}: what the card speaks of comes into view (y = ${spokenTop(layout)})`);
        assert.deepEqual(layout.textFaults, [], `${what}: ${describe(layout.textFaults)}`);
        assert.equal((await page.evaluate(() => window.attnlab.getState())).language, lang, `${what}: in ${lang}`);
        if (lang === 'zh') assert.equal(layout.missingGlyphs, 0, `${what}: every glyph in the fonts`);
        if ([3, 11, 12].includes(state.tour) || [2, 11, 13].includes(state.exercise))
          await screenshot(page, `course-size-${width}x${height}-${lang}-${state.tour ? `tour${state.tour}` : `exercise${state.exercise}`}.png`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
}

test('the README\'s token-view embed at 900 x 420: bar charts with whole, separate labels', async () => {
  // The README's snippet, as a course author pastes it (its iframe is 420 px high).
  const { browser, page, errors } = await openEmbed({ width: 900, height: 420 }, 1, 'controls=0', '#v=3&panel=token&mask.causal=true&cursor=3');
  try {
    await frames(page, 3);
    const layout = await page.evaluate(() => window.attnlab.layout());
    assert.ok(Object.keys(layout.plots).length + Object.keys(layout.heatmaps).length > 0, 'the token view drew its figures');
    assert.deepEqual(layout.textFaults, [], describe(layout.textFaults));
    await screenshot(page, 'course-size-token-900x420.png');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
