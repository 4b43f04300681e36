// Course pages in headless Chromium: the state in the URL (a property test over every key
// of the app's schema), broken links, "copy link" and the embed snippet, embeds (their
// state, independence, release when off-screen, the postMessage API and its origin
// allow-list, sandboxed and cross-origin), the figure's ARIA text, the UI language,
// sessions, touch. Screenshots: build/test-artifacts/course-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBrowser, serveDist, watchErrors } from '../support/browser.mjs';
import { assertHeatmapShows, cellPixel, matrix, openLab, screenshot, waitFor } from '../support/lab.mjs';
import { decodePng } from '../support/png.mjs';
import { artifactsDir } from '../support/paths.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { getPath, randomSettings, rng } from '../support/schema.mjs';

let server, url, browser, hostDir, hostA, hostB;
before(async () => {
  ({ server, url } = await serveDist());
  browser = await openBrowser({ viewport: { width: 1280, height: 800 } });
  // Host pages live on two other origins (other ports): one the embeds allow, one they do not.
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-host-'));
  hostA = await startServer({ root: hostDir });
  hostB = await startServer({ root: hostDir });
});
after(async () => {
  await browser.close();
  server.close();
  hostA.server.close();
  hostB.server.close();
  fs.rmSync(hostDir, { recursive: true, force: true });
});

const origin = (u) => new URL(u).origin;

// The settings part of a state (what a link carries).
async function settings(page) {
  return page.evaluate(() => window.attnlab.session());
}

// A host page with the given body; the page keeps every message it receives in window.received.
function hostPage(name, body) {
  fs.writeFileSync(path.join(hostDir, name), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body{margin:0;background:#fff} iframe{display:block;border:0;width:640px;height:400px}</style></head><body>
<script>window.received=[];addEventListener('message',function(e){window.received.push({origin:e.origin,data:e.data});});</script>
${body}</body></html>`);
}

async function embedFrame(page, id) {
  const handle = await page.waitForSelector(`#${id}`);
  const frame = await handle.contentFrame();
  await frame.waitForFunction(() => window.attnlab && window.attnlab.framesDrawn() > 2, null, { timeout: 30000, polling: 100 });
  return frame;
}

async function elementPng(page, selector, name) {
  const buffer = await (await page.$(selector)).screenshot({ path: path.join(artifactsDir, name) });
  return decodePng(buffer);
}

function samePixels(a, b) {
  if (a.width !== b.width || a.height !== b.height) return false;
  return Buffer.compare(Buffer.from(a.data), Buffer.from(b.data)) === 0;
}

test('URL round-trip: every key of the state schema, set to random non-default values, survives a link', async () => {
  const { page, errors } = await openLab(browser, url);
  const schema = await page.evaluate(() => window.attnlab.schema());
  assert.ok(schema.length >= 40, `the schema lists ${schema.length} keys`);
  const random = rng(8);
  const tokenize = async (sentence) => {
    await page.evaluate((s) => window.attnlab.setState({ sentence: s }), sentence);
    return page.evaluate(() => window.attnlab.getState().tokens.length);
  };
  const changed = new Set();
  for (let trial = 0; trial < 4; trial++) {
    const patch = await randomSettings(schema, random, { workedExample: trial === 3, tokenize });
    await page.evaluate((p) => window.attnlab.setState(p), patch);
    const want = await settings(page);
    const link = await page.evaluate(() => window.attnlab.link());
    // The page keeps its address bar current: the hash is the link.
    await waitFor(page, (l) => location.hash === '#' + l, link);
    const other = await browser.context.newPage();
    const otherErrors = watchErrors(other);
    await other.goto(`${url}index.html#${link}`);
    await other.evaluate(() => window.attnlab.ready);
    assert.deepEqual(await settings(other), want, `trial ${trial}: link ${link}`);
    assert.equal(await other.evaluate(() => document.getElementById('notice').textContent), '');
    assert.deepEqual(otherErrors, []);
    await other.close();
    for (const e of schema) if (JSON.stringify(getPath(want, e.path)) !== JSON.stringify(e.default)) changed.add(e.path);
  }
  for (const e of schema) assert.ok(e.fixed || changed.has(e.path), `key ${e.path} was never set away from its default`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a malformed or hostile hash: defaults, a visible notice, and a page that still works', async () => {
  const { page, errors } = await openLab(browser, url, '#v=2&dModel=99999&sentence=%3Cimg%20src=x%20onerror=alert(1)%3E&%ZZ');
  const notice = await page.evaluate(() => document.getElementById('notice').textContent);
  assert.match(notice, /^The link's state was ignored: /);
  assert.equal(await page.evaluate(() => document.querySelectorAll('#notice *, img').length), 0);  // text, never HTML
  const s = await settings(page);
  assert.equal(s.dModel, 16);
  assert.equal(s.sentence, 'The cat sat on the mat because it was tired.');
  await page.evaluate(() => window.attnlab.setState({ sentence: 'a b c d', cursor: -1, panel: 'token' }));
  const png = await screenshot(page, 'course-bad-hash.png');
  await assertHeatmapShows(page, png, 'token/weights', await matrix(page, 'weights'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('links made with schema version 1 still open', async () => {
  const { page, errors } = await openLab(browser, url, '#v=1&source=random&n=8&dK=16&mask=causal&scale=none');
  const s = await settings(page);
  assert.equal(s.mask.causal, true);
  assert.equal(s.scale, 'none');
  assert.equal(await page.evaluate(() => document.getElementById('notice').textContent), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('copy link and the embed snippet carry the current state', async () => {
  const { page, errors } = await openLab(browser, url);
  await page.evaluate(() => window.attnlab.setState({ sentence: 'one two three four', cursor: 3, panel: 'token' }));
  const link = await page.evaluate(() => window.attnlab.link());
  await waitFor(page, (l) => location.hash === '#' + l, link);
  await page.click('#copy-link');
  assert.equal(await page.inputValue('#link-field'), `${url}index.html#${link}`);
  await page.click('#embed-button');
  const snippet = await page.inputValue('#embed-snippet');
  const src = /<iframe src="([^"]+)"/.exec(snippet)[1];
  assert.equal(src, `${url}embed.html#${link}`);
  const embed = await browser.context.newPage();
  await embed.goto(src);
  await embed.waitForFunction(() => window.attnlab?.framesDrawn() > 2, null, { polling: 100 });
  const s = await embed.evaluate(() => window.attnlab.session());
  assert.equal(s.sentence, 'one two three four');
  assert.equal(s.cursor, 3);
  await embed.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embed URL opens in the state it names, one panel without tabs, controls hidden on request', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${url}embed.html?controls=0#v=2&panel=token&sentence=a%20b%20c%20d%20e&cursor=2&mask.causal=true`);
  await page.waitForFunction(() => window.attnlab?.framesDrawn() > 2, null, { polling: 100 });
  const s = await page.evaluate(() => window.attnlab.session());
  assert.equal(s.panel, 'token');
  assert.equal(s.cursor, 2);
  assert.equal(s.mask.causal, true);
  await page.evaluate(() => window.attnlab.setState({ cursor: -1 }));
  const png = await screenshot(page, 'course-embed.png');
  const m = await matrix(page, 'weights');
  assert.equal(m.data[0 * 5 + 1], 0);  // causal
  await assertHeatmapShows(page, png, 'token/weights', m);
  // No controls window: the heatmap starts in the left part of the page.
  const p = (await page.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
  assert.ok(p.x < 200, `the heatmap starts at x = ${p.x}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('two sandboxed cross-origin embeds: both render, the allowed host changes one, the other keeps its pixels; focus only on click', async () => {
  const allow = encodeURIComponent(origin(hostA.url));
  hostPage('two.html', `<input id="host-field" autofocus>
<iframe id="a" sandbox="allow-scripts allow-same-origin" src="${url}embed.html?origins=${allow}#v=2&panel=token&sentence=a%20b%20c%20d&cursor=0"></iframe>
<iframe id="b" sandbox="allow-scripts allow-same-origin" src="${url}embed.html?origins=${allow}#v=2&panel=token&sentence=w%20x%20y%20z&cursor=0"></iframe>`);
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${hostA.url}two.html`);
  const a = await embedFrame(page, 'a');
  const b = await embedFrame(page, 'b');
  const beforeA = await elementPng(page, '#a', 'course-two-a-before.png');
  const beforeB = await elementPng(page, '#b', 'course-two-b-before.png');
  // Both show their heatmap.
  for (const frame of [a, b]) {
    const p = (await frame.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
    assert.ok(p && p.w > 50, 'an embed shows its weights heatmap');
  }
  // The embeds did not take the focus from the host's field.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'host-field');

  const reply = await page.evaluate(() => new Promise((resolve) => {
    addEventListener('message', (e) => { if (e.data?.type === 'reply' && e.data.id === 1) resolve(e.data); });
    document.getElementById('a').contentWindow.postMessage(
      { attnlab: 1, id: 1, type: 'setState', state: { mask: { causal: true }, cursor: 3 } }, '*');
  }));
  assert.equal(reply.ok, true);
  assert.equal(reply.state.cursor, 3);
  assert.equal((await a.evaluate(() => window.attnlab.session())).mask.causal, true);
  await a.waitForFunction((n) => window.attnlab.framesDrawn() > n + 2, await a.evaluate(() => window.attnlab.framesDrawn()));
  const afterA = await elementPng(page, '#a', 'course-two-a-after.png');
  const afterB = await elementPng(page, '#b', 'course-two-b-after.png');
  assert.ok(!samePixels(beforeA, afterA), 'embed a shows its new state');
  assert.ok(samePixels(beforeB, afterB), 'embed b is unchanged, pixel for pixel');

  // Auto-height: each embed told the host its preferred height.
  const heights = await page.evaluate(() => window.received.filter((r) => r.data?.event === 'height').map((r) => r.data.height));
  assert.ok(heights.length >= 2 && heights.every((h) => h > 100 && h < 2000), `heights ${heights}`);

  // A click gives the embed the keyboard: arrow keys then move its query cursor.
  await page.click('#b', { position: { x: 500, y: 200 } });
  assert.equal(await b.evaluate(() => document.activeElement.tagName), 'CANVAS');
  await b.evaluate(() => window.attnlab.setState({ cursor: 0 }));
  await page.keyboard.press('ArrowRight');
  await b.waitForFunction(() => window.attnlab.getState().cursor === 1, null, { polling: 100 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('postMessage: a disallowed origin is ignored, an allowed one gets answers, malformed messages are refused', async () => {
  const allow = encodeURIComponent(origin(hostA.url));
  hostPage('one.html', `<iframe id="e" sandbox="allow-scripts allow-same-origin" src="${url}embed.html?origins=${allow}#v=2&sentence=p%20q%20r&cursor=0"></iframe>`);
  const ask = (page, message) => page.evaluate((m) => new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 2500);
    addEventListener('message', (e) => {
      if (e.data?.type === 'reply' && e.data.id === m.id) { clearTimeout(timer); resolve(e.data); }
    });
    document.getElementById('e').contentWindow.postMessage(m, '*');
  }), message);

  const denied = await browser.context.newPage();
  await denied.goto(`${hostB.url}one.html`);
  const frame = await embedFrame(denied, 'e');
  assert.equal(await ask(denied, { attnlab: 1, id: 5, type: 'setState', state: { cursor: 2 } }), null);
  assert.equal((await frame.evaluate(() => window.attnlab.session())).cursor, 0);
  await denied.close();

  const allowed = await browser.context.newPage();
  const errors = watchErrors(allowed);
  await allowed.goto(`${hostA.url}one.html`);
  await embedFrame(allowed, 'e');
  const got = await ask(allowed, { attnlab: 1, id: 6, type: 'getState' });
  assert.equal(got.ok, true);
  assert.deepEqual(got.state.tokens, ['p', 'q', 'r']);
  const bad = await ask(allowed, { attnlab: 1, id: 7, type: 'setState', state: { dModel: -3 } });
  assert.equal(bad.ok, false);
  assert.match(bad.error, /dModel/);
  const malformed = await ask(allowed, { attnlab: 1, id: 8, type: 'explode' });
  assert.equal(malformed.ok, false);
  assert.match(malformed.error, /'type' must be/);
  // Subscribed cursor events follow the embed's cursor.
  assert.equal((await ask(allowed, { attnlab: 1, id: 9, type: 'subscribe', event: 'cursor' })).ok, true);
  await ask(allowed, { attnlab: 1, id: 10, type: 'setState', state: { cursor: 2 } });
  await waitFor(allowed, () => window.received.some((r) => r.data?.event === 'cursor' && r.data.cursor === 2 && r.data.token === 'r'));
  assert.deepEqual(errors, []);
  await allowed.close();
});

test('an off-screen embed stops drawing and gives up its WebGL context; it comes back when scrolled into view', async () => {
  hostPage('far.html', `<div style="height:3000px">scroll down</div>
<iframe id="far" src="${url}embed.html#v=2&panel=token&sentence=far%20away%20figure&cursor=1"></iframe>`);
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${hostA.url}far.html`);
  const frame = await (await page.waitForSelector('#far')).contentFrame();
  await frame.waitForFunction(() => window.attnlab?.suspended === true, null, { timeout: 30000, polling: 100 });
  const frames0 = await frame.evaluate(() => window.attnlab.framesDrawn());
  await page.waitForTimeout(1000);
  assert.equal(await frame.evaluate(() => window.attnlab.framesDrawn()), frames0, 'no frames while off-screen');
  assert.equal(await frame.evaluate(() => document.querySelectorAll('canvas').length), 0, 'no canvas, no context');
  assert.equal((await frame.evaluate(() => window.attnlab.getState())).cursor, 1, 'the state is kept');

  await page.evaluate(() => document.getElementById('far').scrollIntoView());
  await frame.waitForFunction((n) => !window.attnlab.suspended && window.attnlab.framesDrawn() > n + 3, frames0, { timeout: 30000, polling: 100 });
  const s = await frame.evaluate(() => window.attnlab.session());
  assert.equal(s.sentence, 'far away figure');
  assert.equal(s.cursor, 1);
  await frame.evaluate(() => window.attnlab.setState({ cursor: -1 }));
  const png = decodePng(await (await page.$('#far')).screenshot({ path: path.join(artifactsDir, 'course-far-back.png') }));
  // The weights heatmap is drawn again: its cells have the colours of its matrix.
  const m = await frame.evaluate(() => { const x = window.attnlab.getMatrix('weights', 0); return { rows: x.rows, cols: x.cols, data: Array.from(x.data) }; });
  const p = (await frame.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
  png.cssScale = 1;
  const { expectedSequential, colorDistance } = await import('../support/colors.mjs');
  for (let i = 0; i < m.rows; i++)
    for (let j = 0; j < m.cols; j++)
      assert.ok(colorDistance(cellPixel(png, p, i, j), expectedSequential(m.data[i * m.cols + j])) <= 3, `cell ${i},${j}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the figure text (ARIA live region) follows the query cursor', async () => {
  const { page, errors } = await openLab(browser, url);
  await page.evaluate(() => window.attnlab.setState({ sentence: 'the cat sat on the mat', cursor: 1, panel: 'token', head: 0, language: 'en' }));
  assert.equal(await page.getAttribute('#figure-text', 'aria-live'), 'polite');
  const check = async (query) => {
    const m = await matrix(page, 'weights');
    const cursor = (await settings(page)).cursor;
    const row = m.data.slice(cursor * m.cols, (cursor + 1) * m.cols);
    const best = row.indexOf(Math.max(...row));
    const tokens = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
    const want = `Head 1: query '${query}' attends most to '${tokens[best]}' (${Math.max(...row).toFixed(2)}).`;
    await waitFor(page, (w) => document.getElementById('figure-text').textContent === w, want);
  };
  await check('cat');
  await page.click('#canvas', { position: { x: 5, y: 400 } });
  await page.keyboard.press('ArrowRight');
  await waitFor(page, () => window.attnlab.getState().cursor === 2);
  await check('sat');
  await page.evaluate(() => window.attnlab.setState({ panel: 'variance', lab: { dk: 64 } }));
  await waitFor(page, () => /^At d_k = 64 the variance of q \. k is [0-9.]+; divided by sqrt\(d_k\) it is [0-9.]+\.$/.test(document.getElementById('figure-text').textContent));
  assert.deepEqual(errors, []);
  await page.close();
});

test('UI language: switching to Chinese redraws the UI in Chinese glyphs; ?lang=zh opens in Chinese', async () => {
  const { page, errors } = await openLab(browser, url);
  await page.evaluate(() => window.attnlab.setState({ panel: 'token', cursor: -1, language: 'en' }));
  const en = await screenshot(page, 'course-lang-en.png');
  await page.selectOption('#language', 'zh');
  await waitFor(page, () => window.attnlab.getState().language === 'zh');
  await waitFor(page, () => window.attnlab.cjkFontLoaded === true && window.attnlab.layout().missingGlyphs === 0);
  await page.waitForTimeout(300);
  const zh = await screenshot(page, 'course-lang-zh.png');
  assert.equal(await page.textContent('#copy-link'), '复制链接');
  assert.equal(await page.evaluate(() => window.attnlab.getState().panel), 'token', 'the panel survives the switch');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  // The controls window (left) is drawn in other glyphs: many pixels differ there.
  let differ = 0;
  for (let y = 60; y < 400; y += 2)
    for (let x = 0; x < 330; x += 2) {
      const p = en.pixel(x, y), q = zh.pixel(x, y);
      if (Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) > 60) differ++;
    }
  assert.ok(differ > 500, `only ${differ} sampled pixels changed in the controls`);
  assert.match(await page.evaluate(() => window.attnlab.describe()), /个词元/);
  await page.close();

  const other = await browser.context.newPage();
  await other.goto(`${url}index.html?lang=zh`);
  await other.evaluate(() => window.attnlab.ready);
  await waitFor(other, () => window.attnlab.getState().language === 'zh');
  await other.selectOption('#language', 'en');  // leave the stored session in English
  await waitFor(other, () => window.attnlab.getState().language === 'en');
  await other.waitForTimeout(600);  // the session is stored 300 ms after the last change
  await other.close();
  assert.deepEqual(errors, []);
});

test('sessions: saved to a file and loaded back; restored after a reload; a bad stored session is ignored with a notice', async () => {
  const { page, errors } = await openLab(browser, url);
  await page.evaluate(() => window.attnlab.setState({ sentence: 'save me please', cursor: 2, language: 'en', compare: { enabled: true, temperature: 3 } }));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-session')]);
  const file = path.join(artifactsDir, 'course-session.json');
  await download.saveAs(file);
  const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(saved.sentence, 'save me please');
  assert.equal(saved.compare.temperature, 3);

  await page.evaluate(() => window.attnlab.setState({ sentence: 'something else', compare: { enabled: false } }));
  await page.setInputFiles('#page-tools input[type=file]', file);
  await waitFor(page, () => window.attnlab.getState().sentence === 'save me please');
  assert.equal((await settings(page)).compare.enabled, true);
  const bad = path.join(artifactsDir, 'course-session-bad.json');
  fs.writeFileSync(bad, '{"heads": 3}');
  await page.setInputFiles('#page-tools input[type=file]', bad);
  await waitFor(page, () => /^The file was not loaded: /.test(document.getElementById('notice').textContent));
  assert.equal((await settings(page)).sentence, 'save me please', 'a bad file keeps the state');

  // A reload without a hash restores the last session from this browser, including a change
  // made just before it (stored when the page is left, not only 300 ms after the change).
  await page.evaluate(() => window.attnlab.setState({ cursor: 1 }));
  await page.goto(`${url}index.html`);
  await page.evaluate(() => window.attnlab.ready);
  assert.equal((await settings(page)).sentence, 'save me please');
  assert.equal((await settings(page)).cursor, 1);

  assert.deepEqual(errors, []);
  await page.close();

  // A broken stored session, written before the page's own scripts run. (Written from the
  // page above instead, the store it schedules 300 ms after a change, or flushes when the
  // page is left, could overwrite it first.)
  const fresh = await browser.context.newPage();
  const freshErrors = watchErrors(fresh);
  await fresh.addInitScript(() => localStorage.setItem('attnlab.session', '{"dModel": "lots"'));
  await fresh.goto(`${url}index.html`);
  await fresh.evaluate(() => window.attnlab.ready);
  assert.match(await fresh.textContent('#notice'), /^The stored session was ignored: /);
  assert.equal((await settings(fresh)).sentence, 'The cat sat on the mat because it was tired.');
  assert.deepEqual(freshErrors, []);
  await fresh.close();
});

test('createLab: the module in a host page, with getState, setState and on("cursor")', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${url}examples/api.html`);
  await page.waitForFunction(() => window.lab && window.lab.framesDrawn() > 2, null, { polling: 100, timeout: 30000 });
  const s = await page.evaluate(() => window.lab.getState());
  assert.equal(s.panel, 'token');
  await page.evaluate(() => window.lab.setState({ cursor: 4 }));
  await waitFor(page, () => /query 'the'/.test(document.getElementById('cursor-log').textContent));
  await screenshot(page, 'course-api.png');
  const refused = await page.evaluate(() => window.lab.setState({ heads: 3 }).then(() => 'applied', (e) => e.message));
  assert.match(refused, /not divisible/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('touch: a tap on a heatmap cell shows its derivation (hover) and selects its row as the query', async () => {
  const touch = await openBrowser({ viewport: { width: 1000, height: 700 }, contextOptions: { hasTouch: true, isMobile: false } });
  try {
    const { page, errors } = await openLab(touch, url);
    await page.evaluate(() => window.attnlab.setState({ sentence: 'a b c d e f', cursor: 0, panel: 'token' }));
    const p = (await page.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
    const tapCell = async (i, j) => {
      await page.touchscreen.tap(p.x + (j + 0.5) * (p.w / p.cols), p.y + (i + 0.5) * (p.h / p.rows));
      await waitFor(page, ([i2, j2]) => {
        const h = window.attnlab.layout().hover;
        return h.heatmap === 'token/weights' && h.row === i2 && h.col === j2;
      }, [i, j]);
    };
    await tapCell(3, 1);
    await waitFor(page, () => window.attnlab.getState().cursor === 3);
    const hover = (await page.evaluate(() => window.attnlab.layout())).hover;
    assert.ok(hover.derivation.length > 20, `derivation: ${hover.derivation}`);
    await screenshot(page, 'course-touch.png');
    await tapCell(5, 4);
    await waitFor(page, () => window.attnlab.getState().cursor === 5);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await touch.close();
  }
});
