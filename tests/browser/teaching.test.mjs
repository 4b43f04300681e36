// The lab as a lesson (issue 18): the guided tour walked by link and by the arrow keys in both
// languages (each step's panel, settings, card and highlighted element); the UI font (DejaVu
// Sans at 15 CSS px, tabular digits); embeds following the reader's colour scheme unless the
// query's theme= says otherwise; the weights' colour range at 1024 tokens. Screenshots:
// teaching-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { labSuite } from '../support/suite.mjs';
import { openBrowser } from '../support/browser.mjs';
import { assertHeatmapShows, frames, screenshot, waitFor } from '../support/lab.mjs';
import { decodePng } from '../support/png.mjs';
import { artifactsDir } from '../support/paths.mjs';
import { LATIN_ALLOWED } from '../support/latin_words.mjs';

const suite = labSuite({ viewport: { width: 1280, height: 800 } });


// `want` is a subset of `got`: every key of the step's patch holds in the state.
function assertSubset(got, want, where) {
  for (const [key, value] of Object.entries(want)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) assertSubset(got?.[key], value, `${where}.${key}`);
    else assert.deepEqual(got?.[key], value, `${where}.${key}`);
  }
}

// The shown step is `k`: its panel and settings in the state, its card on screen with a title
// and text, inside the window, and its element (if it names one) framed.
async function assertStep(page, steps, k, lang) {
  // A step of the language model's scene waits for the model, which the page fetches for it.
  if (steps[k - 1].patch.source === 'language')
    await waitFor(page, (layer) => window.attnlab.getState().source === 'language' && window.attnlab.getState().layer === layer,
      steps[k - 1].patch.layer, 60000);
  await frames(page);
  const { state, tour } = await page.evaluate(() => ({ state: window.attnlab.getState(), tour: window.attnlab.layout().tour }));
  const step = steps[k - 1];
  assert.equal(state.tour, k, `${lang} step ${k}: the state's tour`);
  assert.equal(tour.step, k, `${lang} step ${k}: the card's step`);
  assert.equal(state.panel, step.panel, `${lang} step ${k}: the panel`);
  assert.equal(tour.panel, step.panel);
  assertSubset(state, step.patch, `${lang} step ${k}`);
  assert.ok(tour.title.length >= 2 && tour.text.length > 20, `${lang} step ${k}: title and text`);
  if (lang === 'zh') assert.match(tour.text, /[\u4e00-\u9fff]/, `step ${k}: the text is Chinese`);
  else assert.doesNotMatch(tour.text, /[\u4e00-\u9fff]/, `step ${k}: the text is English`);
  assert.ok(tour.w > 100 && tour.h > 40 && tour.x >= 0 && tour.x + tour.w <= 1280 && tour.y + tour.h <= 800,
    `${lang} step ${k}: the card inside the window (${JSON.stringify(tour)})`);
  if (step.highlight) {
    const b = tour.highlightBox;
    assert.ok(b.w > 20 && b.h > 20, `${lang} step ${k}: '${step.highlight}' is framed (${JSON.stringify(b)})`);
  }
  return tour;
}

test('the tour: every step by its link in English and Chinese and by the arrow keys; the nav offers it', async () => {
  await suite.ready;
  for (const lang of ['en', 'zh']) {
    const { page, errors } = await suite.openLab(`?lang=${lang}`);
    await frames(page);
    // Offered beside the chapters, and the free lab is there (no step shown).
    const offer = (await page.evaluate(() => window.attnlab.layout().nav)).find((n) => n.id === 'tour');
    assert.ok(offer, `${lang}: a "Start the tour" button`);
    assert.equal((await page.evaluate(() => window.attnlab.layout().tour)).step, 0);
    const steps = await page.evaluate(() => window.attnlab.tourSteps());
    assert.equal(steps.length, 15);
    assert.deepEqual(steps.map((st, i) => st.patch.source === 'language' ? i + 1 : 0).filter(Boolean), [8, 10, 11, 12],
      'where a token looks, the mask in use, the heads and random against learned: the trained model\'s scene');
    // By link: each step's own #tour=N.
    for (let k = 1; k <= steps.length; k++) {
      const error = await page.evaluate(([n, l]) => window.attnlab.loadLink(`#v=3&tour=${n}&language=${l}`), [k, lang]);
      assert.equal(error, '', `link to step ${k}`);
      await assertStep(page, steps, k, lang);
      if ([1, 3, 8, 11, 12].includes(k)) await screenshot(page, `teaching-tour-${k}-${lang}.png`);
      if (k === 12) {
        // Random against learned: both heads drawn; the learned one looks at the previous
        // character, the random one does not.
        const { layout, state, w } = await page.evaluate(() => ({
          layout: window.attnlab.layout(), state: window.attnlab.getState(), w: window.attnlab.getMatrix('weights', 0),
        }));
        assert.ok(layout.heatmaps['heads/learned']?.w > 60 && layout.heatmaps['heads/random']?.w > 60, `${lang}: both heads drawn`);
        let learned = 0;
        for (let i = 1; i < w.rows; i++) learned += w.data[i * w.cols + i - 1];
        learned /= w.rows - 1;
        const random = state.figures.lm.randomHead.previous;
        assert.equal(state.figures.lm.randomHead.rows, w.rows);
        assert.ok(learned > 0.5 && random < 0.3, `${lang}: previous-character weight learned ${learned}, random ${random}`);
      }
    }
    // By the keys: the right arrow walks to the end; the left arrow comes back. The keys do not
    // depend on the language and the links above showed every Chinese step, so in Chinese the
    // walk starts two steps before the end.
    const first = lang === 'en' ? 1 : steps.length - 2;
    await page.evaluate((n) => window.attnlab.setState({ tour: n }), first);
    await page.click('#canvas', { position: { x: 1270, y: 300 } });
    for (let k = first + 1; k <= steps.length; k++) {
      await page.keyboard.press('ArrowRight');
      await waitFor(page, (n) => window.attnlab.getState().tour === n, k);
      await assertStep(page, steps, k, lang);
    }
    await page.keyboard.press('ArrowLeft');
    await waitFor(page, (n) => window.attnlab.getState().tour === n, steps.length - 1);
    // And by the card's own Next button, clicked where layout() says it is, once a frame of
    // step 14 has laid out its card (the state changes before the card is drawn there).
    await frames(page, 2);
    const next = (await page.evaluate(() => window.attnlab.layout().tour)).nextBox;
    assert.ok(next.w > 20 && next.h > 10, `the Next button (${JSON.stringify(next)})`);
    await page.mouse.move(next.x + next.w / 2, next.y + next.h / 2);
    await frames(page, 2);
    await page.mouse.down();
    await frames(page, 2);
    await page.mouse.up();
    await waitFor(page, (n) => window.attnlab.getState().tour === n, steps.length);
    await assertStep(page, steps, steps.length, lang);
    assert.equal((await page.evaluate(() => window.attnlab.layout().tour)).nextBox.w, 0, 'no Next on the last step');
    // A bad step in a link is refused and the state kept.
    const kept = await page.evaluate(() => window.attnlab.getState().tour);
    const refused = await page.evaluate(() => window.attnlab.setState({ tour: 99 }).then(() => '', (e) => e.message));
    assert.match(refused, /tour/);
    assert.equal(await page.evaluate(() => window.attnlab.getState().tour), kept);
    // Choosing a chapter by hand ends the tour.
    const chapter = (await page.evaluate(() => window.attnlab.layout().nav)).find((n) => n.kind === 'chapter' && n.id === 'similarity');
    await page.mouse.click(chapter.x + chapter.w / 2, chapter.y + chapter.h / 2);
    await waitFor(page, () => window.attnlab.getState().tour === 0);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the training panel before Start: both curves on ui/plot with labelled ticks and titles, the untrained heads drawn', async () => {
  await suite.ready;
  const { page, errors } = await suite.openLab('#v=3&panel=training');
  await frames(page);
  const layout = await page.evaluate(() => window.attnlab.layout());
  for (const id of ['train-loss', 'train-accuracy']) {
    const p = layout.plots[id];
    assert.ok(p, `${id} is drawn before Start`);
    assert.ok(p.xTicks.length >= 3 && p.yTicks.length >= 3, `${id}: ticks ${p.xTicks} / ${p.yTicks}`);
    assert.ok(p.xTitle.length > 0 && p.yTitle.length > 0, `${id}: axis titles`);
  }
  assert.equal(layout.plots['train-loss'].logY, true);
  assert.deepEqual(layout.plots['train-accuracy'].yRange, [0, 1]);
  // The untrained model's heads, under the curves.
  const head = layout.heatmaps['train/L0H0'];
  assert.ok(head && head.w > 80 && head.h > 80, `the first head is drawn (${JSON.stringify(head)})`);
  assert.ok(head.y > layout.plots['train-loss'].y + layout.plots['train-loss'].h);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the UI font: DejaVu Sans at 15 CSS px with tabular digits, at DPR 1 and 2', async () => {
  await suite.ready;
  for (const dpr of [1, 2]) {
    const browser = dpr === 1 ? suite.browser : await openBrowser({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
    const page = await browser.context.newPage();
    await page.goto(`${suite.url}index.html#v=3&panel=pipeline`);
    await page.evaluate(() => window.attnlab.ready);
    const font = await page.evaluate(() => window.attnlab.layout().font);
    assert.equal(font.ui, true, 'the UI font loaded');
    assert.ok(font.pixels >= 15, `${font.pixels} CSS px`);
    const first = font.digitAdvances[0];
    assert.ok(first > 0);
    for (const a of font.digitAdvances) assert.equal(a, first, `every digit as wide as '0': ${font.digitAdvances}`);
    await page.close();
    if (dpr === 2) await browser.close();
  }
});

// The colour of the pixel at the lab's lower right (the panel's background in a figure).
async function backgroundOf(browser, url, name) {
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.attnlab?.framesDrawn?.() > 3, null, { timeout: 60000, polling: 100 });
  await frames(page, 3);
  const png = decodePng(await page.screenshot({ path: path.join(artifactsDir, name) }));
  const theme = await page.evaluate(() => window.attnlab.getState().theme);
  // The figure's ground is what most of a grid of samples shows (heatmaps and text cover less).
  const counts = new Map();
  for (let gy = 1; gy < 20; gy++)
    for (let gx = 1; gx < 20; gx++) {
      const [r, g, b] = png.pixel(Math.floor((gx * png.width) / 20), Math.floor((gy * png.height) / 20));
      const key = Math.round((0.2126 * r + 0.7152 * g + 0.0722 * b) / 8) * 8;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  const [ground, share] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  await page.close();
  return { theme, luma: [ground], share: share / 361 };
}

test('embeds follow the reader\'s colour scheme; the query\'s theme= wins over it and over the hash', async () => {
  await suite.ready;
  const light = await openBrowser({ viewport: { width: 900, height: 600 }, contextOptions: { colorScheme: 'light' } });
  try {
    const embed = `${suite.url}embed.html?controls=0`;
    const onLight = await backgroundOf(light, `${embed}#v=3&panel=pipeline`, 'teaching-embed-light.png');
    assert.equal(onLight.theme, 'light');
    for (const l of onLight.luma) assert.ok(l > 200, `a light page's embed is light (${onLight.luma})`);
    const asked = await backgroundOf(light, `${embed}&theme=dark#v=3&panel=pipeline&theme=light`, 'teaching-embed-dark.png');
    assert.equal(asked.theme, 'dark');
    for (const l of asked.luma) assert.ok(l < 60, `theme=dark is dark (${asked.luma})`);
    const bad = await backgroundOf(light, `${embed}&theme=neon#v=3&panel=pipeline`, 'teaching-embed-bad-theme.png');
    assert.equal(bad.theme, 'light', 'an unknown theme= falls back to the colour scheme');
  } finally {
    await light.close();
  }
  const onDark = await backgroundOf(suite.browser, `${suite.url}embed.html?controls=0#v=3&panel=pipeline`, 'teaching-embed-scheme-dark.png');
  assert.equal(onDark.theme, 'dark');
  for (const l of onDark.luma) assert.ok(l < 60, `a dark page's embed is dark (${onDark.luma})`);
});

// Distinct colours inside a heatmap's rectangle (every other pixel sampled).
function distinctColours(png, box) {
  const seen = new Set();
  const s = png.width / 1280;
  for (let y = Math.ceil(box.y * s) + 1; y < (box.y + box.h) * s - 1; y += 2)
    for (let x = Math.ceil(box.x * s) + 1; x < (box.x + box.w) * s - 1; x += 2) {
      const [r, g, b] = png.pixel(x, y);
      seen.add(`${r},${g},${b}`);
    }
  return seen.size;
}

test('weights at 1024 tokens: the per-row and log colour ranges show the pattern a fixed [0, 1] scale hides', async () => {
  await suite.ready;
  const { page, errors } = await suite.openLab('#v=3&panel=token');
  // 1024 words of letters only (one token each): aaa, aab, ...
  const word = (i) => [676, 26, 1].map((d) => String.fromCharCode(97 + (Math.floor(i / d) % 26))).join('');
  const sentence = Array.from({ length: 1024 }, (_, i) => word(i)).join(' ');
  await page.evaluate((s) => window.attnlab.setState({ sentence: s, cursor: 500 }), sentence);
  await waitFor(page, () => window.attnlab.getState().tokens.length === 1024, undefined, 60000);
  const counts = {};
  for (const range of ['fixed', 'row', 'log']) {
    await page.evaluate((r) => window.attnlab.setState({ weightRange: r }), range);
    await frames(page, 3);
    const png = await screenshot(page, `teaching-1024-${range}.png`);
    const box = (await page.evaluate(() => window.attnlab.layout().heatmaps['token/weights']));
    assert.equal(box.colourRange, range);
    counts[range] = distinctColours(png, box);
  }
  console.log(`# distinct colours at 1024 tokens: ${JSON.stringify(counts)}`);
  assert.ok(counts.row > 50, `per-row: ${counts.row} colours`);
  assert.ok(counts.log > 50, `log: ${counts.log} colours`);
  assert.ok(counts.row > 2 * counts.fixed, `per-row shows more than fixed (${JSON.stringify(counts)})`);
  // The readout gives the weight itself, not its colour's form.
  const w = await page.evaluate(() => window.attnlab.getMatrix('weights'));
  assert.equal(w.rows, 1024);
  const rowSum = Array.from(w.data.slice(500 * 1024, 501 * 1024)).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(rowSum - 1) < 1e-4, `the weights are unchanged (row sum ${rowSum})`);
  assert.deepEqual(errors, []);
  await page.close();
});

// The worked example by hand: Q Kᵀ, scaled by 1/√2, softmax per row, times V (2 x 2, row-major).
function workedExample(q, k, v) {
  const at = (m, i, j) => m[i * 2 + j];
  const raw = [], scaled = [], weights = [], output = [];
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++) raw.push(at(q, i, 0) * at(k, j, 0) + at(q, i, 1) * at(k, j, 1));
  for (const x of raw) scaled.push(x / Math.SQRT2);
  for (let i = 0; i < 2; i++) {
    const m = Math.max(scaled[2 * i], scaled[2 * i + 1]);
    const e = [Math.exp(scaled[2 * i] - m), Math.exp(scaled[2 * i + 1] - m)];
    weights.push(e[0] / (e[0] + e[1]), e[1] / (e[0] + e[1]));
  }
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++) output.push(at(weights, i, 0) * at(v, 0, j) + at(weights, i, 1) * at(v, 1, j));
  const mat = (data) => ({ rows: 2, cols: 2, data });
  return { rawScores: mat(raw), scaledScores: mat(scaled), weights: mat(weights), output: mat(output) };
}

test('the worked example is drawn as coloured matrices with the operations between them; dragging a cell of Q propagates', async () => {
  await suite.ready;
  const { page, errors } = await suite.openLab('#v=3&panel=walkthrough');
  await frames(page);
  const check = async (name) => {
    const lab = (await page.evaluate(() => window.attnlab.getState())).lab;
    const want = workedExample(lab.wq, lab.wk, lab.wv);
    await page.mouse.move(5, 795);  // no cell hovered (a hovered field is tinted)
    await frames(page);
    const png = await screenshot(page, name);
    const hm = (await page.evaluate(() => window.attnlab.layout())).heatmaps;
    for (const id of ['walk/q', 'walk/k', 'walk/v', 'walk/rawScores', 'walk/scaledScores', 'walk/weights', 'walk/output'])
      assert.ok(hm[id] && hm[id].w > 40 && hm[id].h > 30, `${id} is drawn (${JSON.stringify(hm[id])})`);
    // Left to right: each step's matrix right of the one it comes from.
    assert.ok(hm['walk/rawScores'].x < hm['walk/scaledScores'].x && hm['walk/scaledScores'].x < hm['walk/weights'].x &&
      hm['walk/weights'].x < hm['walk/output'].x);
    for (const id of ['rawScores', 'scaledScores', 'output'])
      await assertHeatmapShows(page, png, `walk/${id}`, want[id], { diverging: true });
    await assertHeatmapShows(page, png, 'walk/weights', want.weights);
    await assertHeatmapShows(page, png, 'walk/q', { rows: 2, cols: 2, data: lab.wq }, { diverging: true });
    return lab;
  };
  const before = await check('teaching-walkthrough.png');
  assert.deepEqual(before.wq, [1, 2, 2, 1]);  // the tutorial's numbers
  // Drag Q's first cell to the right: its value grows, every step follows in the same frame.
  const q = (await page.evaluate(() => window.attnlab.layout())).heatmaps['walk/q'];
  const x = q.x + q.w * 0.25, y = q.y + q.h * 0.25;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let dx = 5; dx <= 60; dx += 5) await page.mouse.move(x + dx, y);
  await page.mouse.up();
  await waitFor(page, () => window.attnlab.getState().lab.wq[0] > 1.3);
  await frames(page);
  const after = await check('teaching-walkthrough-edited.png');
  assert.ok(after.wq[0] > 1.3 && after.wq.slice(1).join() === '2,2,1', `Q after the drag: ${after.wq}`);
  assert.deepEqual(errors, []);
  await page.close();
});

// LATIN_ALLOWED (tests/support/latin_words.mjs): the words of Latin letters the Chinese UI may show.
test('a first visit in Chinese: no English word on the page or in what the app draws, none glued to hanzi', async () => {
  await suite.ready;
  const browser = await openBrowser({ viewport: { width: 1280, height: 800 }, contextOptions: { locale: 'zh-CN' } });
  try {
    const page = await browser.context.newPage();
    await page.goto(`${suite.url}index.html?lang=zh`);
    await page.evaluate(() => window.attnlab.ready);
    const state = await page.evaluate(() => window.attnlab.getState());
    assert.equal(state.language, 'zh');
    assert.match(state.sentence, /[\u4e00-\u9fff]/, 'the first sentence is Chinese too');
    // The page: visible text, titles, placeholders, the visible selects' options.
    const pageText = await page.evaluate(() => {
      const out = [];
      const visible = (el) => {
        const r = el.getBoundingClientRect();
        const st = getComputedStyle(el);
        return r.width > 1 && r.height > 1 && st.visibility !== 'hidden' && st.display !== 'none';
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const p = walker.currentNode.parentElement;
        if (p && visible(p) && !['SCRIPT', 'OPTION', 'STYLE'].includes(p.tagName)) out.push(walker.currentNode.textContent);
      }
      for (const el of document.querySelectorAll('[title], [placeholder]'))
        if (visible(el)) out.push(el.title ?? '', el.placeholder ?? '');
      for (const s of document.querySelectorAll('select')) if (visible(s)) for (const o of s.options) out.push(o.text);
      return out.join('\n');
    });
    // What the app drew: every widget's text and every label of its figures.
    const drawn = await page.evaluate(() => window.attnlab.drawnText());
    assert.ok(drawn.includes('相似度') && drawn.includes('权重'), 'the drawn text was recorded');
    for (const [where, text] of [['page', pageText], ['app', drawn]]) {
      // Words of letters (and digits after them); the e of a number such as 1e9 is no word.
      const words = text.match(/(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_ᵀ]*/g) ?? [];
      const english = [...new Set(words.filter((w) => !LATIN_ALLOWED.has(w)))];
      assert.deepEqual(english, [], `${where}: English words in the Chinese UI`);
      const glued = text.match(/[A-Za-z][\u4e00-\u9fff]|[\u4e00-\u9fff][A-Za-z]/g) ?? [];
      assert.deepEqual(glued, [], `${where}: Latin glued to hanzi`);
    }
    await page.screenshot({ path: path.join(artifactsDir, 'teaching-zh-first-visit.png') });
    await page.close();
  } finally {
    await browser.close();
  }
});

// English words in `text` beyond the allowed ones and the names quoted as a state writes them
// ('panel', "dot"), which stay as they are in either language.
function englishWords(text) {
  const unquoted = text.replace(/'[^']*'|"[^"]*"/g, ' ');
  const words = unquoted.match(/(?<![A-Za-z0-9_.])[A-Za-z][A-Za-z0-9_ᵀ]*/g) ?? [];
  return [...new Set(words.filter((w) => !LATIN_ALLOWED.has(w)))];
}

test('refusals in Chinese: a broken link, a sentence too long, a damaged file; scripts still read English', async () => {
  await suite.ready;
  // A link the app refuses: the page's notice says why, in Chinese, the defaults shown.
  const { page } = await suite.openLab('?lang=zh#panel=nowhere');
  await waitFor(page, () => document.getElementById('notice').textContent.length > 0);
  const linkNotice = await page.textContent('#notice');
  assert.match(linkNotice, /^链接中的状态已被忽略：'panel' 必须是以下之一：/);
  assert.deepEqual(englishWords(linkNotice.replace(/：.*$/, '')), []);
  const state = await page.evaluate(() => window.attnlab.getState());
  assert.equal(state.panel, 'pipeline');

  // A sentence over the explorer's token limit, typed into the page's field.
  const before = state.sentence;
  await page.fill('#sentence', 'a '.repeat(1100));
  await waitFor(page, () => /词元/.test(document.getElementById('notice').textContent));
  const sentenceNotice = await page.textContent('#notice');
  assert.equal(sentenceNotice, '文本有 1100 个词元；浏览器最多显示 1024 个');
  assert.equal((await page.evaluate(() => window.attnlab.getState())).sentence, before, 'the scene is kept');
  const scripted = await page.evaluate(() => window.attnlab.setState({ sentence: 'a '.repeat(1100) })
    .then(() => null, (e) => ({ message: e.message, localized: e.localized })));
  assert.equal(scripted.message, 'the text has 1100 tokens; the explorer shows at most 1024');
  assert.equal(scripted.localized, sentenceNotice);

  // A file that is not a zip archive, through the import bar, and one with a bad .npy header.
  await page.setInputFiles('#import-file', { name: 'bad.npz', mimeType: 'application/octet-stream', buffer: Buffer.from('PK\x03\x04 not an archive') });
  await waitFor(page, () => window.attnlab.importStatus().state === 'error');
  const importNotice = await page.textContent('#import-message');
  assert.match(importNotice, /^bad\.npz：\.npz：不是 zip 压缩包/);
  assert.deepEqual(englishWords(importNotice.slice('bad.npz'.length)), [], importNotice);
  const header = `${"{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }".padEnd(117, ' ')}\n`;
  const npy = Buffer.concat([Buffer.from([0x93]), Buffer.from('NUMPY'), Buffer.from([1, 0, header.length, 0]), Buffer.from(header, 'latin1'),
    Buffer.alloc(8)]);
  await page.setInputFiles('#import-file', { name: 'big-endian.npy', mimeType: 'application/octet-stream', buffer: npy });
  await waitFor(page, () => window.attnlab.importStatus().state === 'error' && /big-endian\.npy/.test(window.attnlab.importStatus().message));
  const npyNotice = await page.textContent('#import-message');
  assert.match(npyNotice, /^big-endian\.npy：/);
  assert.deepEqual(englishWords(npyNotice.slice('big-endian.npy'.length)), [], npyNotice);
  const english = await page.evaluate(() => window.attnlab.importFile({ name: 'bad.npz', bytes: new TextEncoder().encode('PK\x03\x04 not an archive') })
    .then(() => '', (e) => e.message));
  assert.match(english, /^bad\.npz: \.npz: not a zip archive/);
  assert.equal((await page.evaluate(() => window.attnlab.getState())).source, 'generated', 'the scene is kept');
  await page.screenshot({ path: path.join(artifactsDir, 'teaching-zh-refusals.png') });
  // A script's loadLink reads the English reason (and, as any refused link, gives the defaults).
  const scriptedLink = await page.evaluate(() => window.attnlab.loadLink('#panel=nowhere'));
  assert.match(scriptedLink, /^'panel' must be one of dot-product, /, 'a script reads the English');
  await page.close();
});

test('the token panel\'s bars carry their key tokens, with axes and a readout under the pointer', async () => {
  await suite.ready;
  const { page } = await suite.openLab('#panel=token&cursor=3');
  await frames(page, 3);
  const state = await page.evaluate(() => window.attnlab.getState());
  const tokens = await page.evaluate(() => window.attnlab.getState().tokens ?? null);
  const layout = await page.evaluate(() => window.attnlab.layout());
  for (const id of ['token/raw', 'token/scaled', 'token/weights-row']) {
    const plot = layout.plots[id];
    assert.ok(plot, `${id} is drawn`);
    assert.equal(plot.xTitle, 'key token');
    assert.ok(plot.yTicks.length >= 3, `${id}: ${plot.yTicks}`);
    assert.ok(plot.xTicks.length >= 3, `${id}: ${plot.xTicks}`);
    if (tokens) for (const t of plot.xTicks) assert.ok(tokens.includes(t), `${id}: tick '${t}' is a token`);
  }
  assert.equal(layout.plots['token/weights-row'].yTitle, 'weights = softmax');
  // The readout of the bar under the pointer is the weight the app computed for that key.
  const plot = layout.plots['token/weights-row'];
  const weights = await page.evaluate(() => window.attnlab.getMatrix('weights', 0));
  const n = weights.cols;
  const key = 1;
  await page.mouse.move(plot.x + ((key + 0.5) / n) * plot.w, plot.y + plot.h - 2);
  await frames(page, 3);
  const readout = (await page.evaluate(() => window.attnlab.layout())).plots['token/weights-row'].readout;
  const expected = weights.data[state.cursor * n + key];
  const shown = Number(/= ([-0-9.e]+)$/.exec(readout)?.[1]);
  assert.ok(Math.abs(shown - expected) <= 5e-4 * Math.max(1, Math.abs(expected)), `readout '${readout}', weight ${expected}`);
  await page.close();
});

// Symbols of the panels' math beyond the first frame's: names of matrices, heads and layers,
// sums and functions, methods (Performer, Linformer, StreamingLLM), keys (Ctrl+Z), units and
// the README's name.
const PANEL_SYMBOLS = new Set(['A', 'B', 'G', 'H', 'J', 'N', 'O', 'P', 'y', 'l', 'k2', 'O_exact', 'd_v', 'KV', 'KiB', 'tanh',
  'cos', 'sum', 'sum_i', 's_i', 's_j', 'm_h', 'm_old', 'm_new', 'Wq', 'Wk', 'W_q', 'W_k', 'PCA', 'Performer', 'Linformer',
  'StreamingLLM', 'Ctrl', 'Z', 'Y', 'README',
  // the language model's data and name: Debian's fortune files, the file fortunes-lm
  'Debian', 'fortune', 'fortunes', 'lm', 'top', 'unk', 'KB']);

test('every panel in Chinese: no English word in what the app draws', async () => {
  await suite.ready;
  const sentence = encodeURIComponent('猫坐在垫子上，因为它累了。');
  const { page } = await suite.openLab(`?lang=zh#sentence=${sentence}`);
  const panels = await page.evaluate(() => window.attnlab.panels().map((p) => p.id));
  assert.ok(panels.length >= 20, panels.join(' '));
  const found = {};
  for (const panel of panels) {
    await page.evaluate((p) => window.attnlab.setState({ panel: p }), panel);
    const drawn = await page.evaluate(() => window.attnlab.drawnText());
    assert.match(drawn, /[\u4e00-\u9fff]/, `${panel}: Chinese was drawn`);
    // A path to a document (docs/TRAINING.md) and a layer-head name (L0H1) are names, not words.
    const text = drawn.replace(/"[^"]*"/g, ' ').replace(/[\w/]+\.md\b/g, ' ').replace(/\b[LH]\d+\b/g, ' ');
    const words = text.match(/(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_ᵀ]*/g) ?? [];
    const english = [...new Set(words.filter((w) => !LATIN_ALLOWED.has(w) && !PANEL_SYMBOLS.has(w)))];
    if (english.length) found[panel] = english;
  }
  // The language model's panel again with its model loaded, a text generated after the sentence.
  await page.evaluate(() => window.attnlab.languageModel());
  await page.evaluate(() => window.attnlab.setState({ source: 'language', panel: 'language', lm: { tokens: 5, shown: 5 } }));
  await page.waitForFunction(() => window.attnlab.getState().source === 'language', null, { timeout: 30000 });
  await page.evaluate(() => window.attnlab.setState({ lm: { tokens: 5, shown: 5 } }));
  {
    const drawn = await page.evaluate(() => window.attnlab.drawnText());
    const text = drawn.replace(/"[^"]*"/g, ' ');
    const words = text.match(/(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_ᵀ]*/g) ?? [];
    const english = [...new Set(words.filter((w) => !LATIN_ALLOWED.has(w) && !PANEL_SYMBOLS.has(w)))];
    if (english.length) found['language (loaded)'] = english;
  }
  assert.deepEqual(found, {}, 'English words in the Chinese panels');
  await page.close();
});
