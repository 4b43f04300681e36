// Embeds in headless Chromium, beyond one or two per page (course.test.mjs has those): a page
// of 20 figures stays within the browser's WebGL context limit while every figure comes back
// when scrolled into view; the CJK font in embeds (loaded only when needed); touch on an embed
// and on the full page. Screenshots: build/test-artifacts/embeds-*.png.
import { test, before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMPOSITOR_READBACK_NOTE, openBrowser, serveDist, watchErrors } from '../support/browser.mjs';
import { cellPixel } from '../support/lab.mjs';
import { colorDistance, expectedSequential } from '../support/colors.mjs';
import { decodePng } from '../support/png.mjs';
import { artifactsDir, root } from '../support/paths.mjs';
import { startServer } from '../../scripts/serve.mjs';

let server, url, browser, hostDir, host;
before(async () => {
  ({ server, url } = await serveDist());
  browser = await openBrowser({ viewport: { width: 1280, height: 800 } });
  // The host pages come from another origin (another port), as a course page would.
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-embeds-'));
  host = await startServer({ root: hostDir });
});
after(async () => {
  await browser.close();
  server.close();
  host.server.close();
  fs.rmSync(hostDir, { recursive: true, force: true });
});

function writeHost(name, iframes, css = '') {
  fs.writeFileSync(path.join(hostDir, name), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body{margin:0;background:#fff} iframe{display:block;border:0;width:640px;height:300px;margin:0 0 20px} ${css}</style>
</head><body>${iframes.map(({ id, src }) => `<iframe id="${id}" src="${src}"></iframe>`).join('\n')}</body></html>`);
}

// The figure's state, read in its frame once its lab exists.
async function labFrame(page, id) {
  const frame = await (await page.waitForSelector(`#${id}`)).contentFrame();
  await frame.waitForFunction(() => window.attnlab?.getState, null, { timeout: 120000, polling: 200 });
  return frame;
}

// Every cell of the embed's weights heatmap has its matrix's colour, in a screenshot of
// the iframe (which must be fully on screen).
async function assertEmbedHeatmap(page, frame, id, name) {
  const png = decodePng(await (await page.$(`#${id}`)).screenshot({ path: path.join(artifactsDir, name) }));
  png.cssScale = 1;
  const { m, p } = await frame.evaluate(() => {
    const x = window.attnlab.getMatrix('weights', 0);
    return { m: { rows: x.rows, cols: x.cols, data: Array.from(x.data) }, p: window.attnlab.layout().heatmaps['token/weights'] };
  });
  assert.ok(p && p.w > 50, `${id} shows its weights heatmap`);
  for (let i = 0; i < m.rows; i++)
    for (let j = 0; j < m.cols; j++) {
      const got = cellPixel(png, p, i, j), want = expectedSequential(m.data[i * m.cols + j]);
      assert.ok(colorDistance(got, want) <= 3, `${id} cell ${i},${j}: got ${got}, want ${want}`);
    }
}

// ---- many embeds ------------------------------------------------------------------------------

// Installed in every frame: a log of the WebGL contexts the frame creates and gives up, with
// times on one clock for all frames (timeOrigin + now), and every context the browser took
// away by itself (what happens to the oldest one beyond Chromium's limit of 16).
const COUNT_CONTEXTS = () => {
  if (!location.pathname.endsWith('/embed.html')) return;
  const gl = window.__gl = { log: [], forced: 0 };
  const now = () => performance.timeOrigin + performance.now();
  const given = new WeakSet();  // contexts this page released through WEBGL_lose_context
  const seen = new WeakSet();
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    const context = getContext.call(this, type, ...rest);
    if (context && /^webgl/.test(type) && !seen.has(context)) {
      seen.add(context);
      gl.log.push({ t: now(), live: +1 });
      this.addEventListener('webglcontextlost', () => {
        if (given.has(context)) return;
        gl.forced++;
        gl.log.push({ t: now(), live: -1 });
      });
      const getExtension = context.getExtension;
      context.getExtension = function (name) {
        const ext = getExtension.call(this, name);
        if (ext && name === 'WEBGL_lose_context' && !ext.counted) {
          ext.counted = true;
          const loseContext = ext.loseContext;
          ext.loseContext = function () {
            if (!given.has(context) && !context.isContextLost()) {
              given.add(context);
              gl.log.push({ t: now(), live: -1 });
            }
            return loseContext.call(this);
          };
        }
        return ext;
      };
    }
    return context;
  };
};

test('20 embeds on one page: never more live WebGL contexts than figures on screen plus one; each renders when scrolled into view, the ones left behind stop', async () => {
  const N = 20;
  const words = ['the', 'cat', 'sat', 'on', 'a', 'warm', 'mat', 'today'];
  const iframes = Array.from({ length: N }, (_, i) => {
    const sentence = Array.from({ length: 3 + (i % 4) }, (_, k) => words[(i + k) % words.length]).join('%20');
    return { id: `e${i}`, src: `${url}embed.html?controls=0#v=2&panel=token&sentence=${sentence}&cursor=-1&temperature=${(0.5 + 0.1 * i).toFixed(1)}&mask.causal=${i % 2 === 0}` };
  });
  writeHost('twenty.html', iframes);
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const warnings = [];
  // Every WebGL message but the software compositor's note on reading canvases back
  // (tests/support/browser.mjs).
  page.on('console', (msg) => {
    if (/WebGL/i.test(msg.text()) && !COMPOSITOR_READBACK_NOTE.test(msg.text())) warnings.push(msg.text());
  });
  await page.addInitScript(COUNT_CONTEXTS);
  const t0 = Date.now();
  await page.goto(`${host.url}twenty.html`, { waitUntil: 'domcontentloaded' });
  const frames = [];
  for (const { id } of iframes) frames.push(await labFrame(page, id));
  console.log(`# all ${N} embeds started in ${Date.now() - t0} ms`);
  for (const frame of frames) assert.ok(await frame.evaluate(() => Array.isArray(window.__gl?.log)), 'the counter runs in every embed');

  // Which embeds intersect the viewport now (the host's view of its iframes).
  const onScreen = () => page.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => {
    const r = f.getBoundingClientRect();
    return r.bottom > 0 && r.top < innerHeight;
  }));
  const fullyOnScreen = (i) => page.evaluate((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  }, `e${i}`);
  // Waits until the embeds on screen draw (live, frames advancing) and the others are released.
  let mostOnScreen = 0;
  const settle = async () => {
    const shown = await onScreen();
    mostOnScreen = Math.max(mostOnScreen, shown.filter(Boolean).length);
    for (let i = 0; i < N; i++) {
      if (shown[i]) {
        const n = await frames[i].evaluate(() => window.attnlab.framesDrawn());
        await frames[i].waitForFunction((n0) => !window.attnlab.suspended && window.attnlab.framesDrawn() > n0 + 2, n, { timeout: 60000, polling: 100 });
      } else {
        await frames[i].waitForFunction(() => window.attnlab.suspended === true, null, { timeout: 60000, polling: 100 });
      }
    }
    return shown;
  };

  // 1 the top of the page: the first figures draw their matrices, every state is its own.
  let shown = await settle();
  assert.ok(shown[0] && shown[1] && !shown[N - 1]);
  for (const i of [0, 1]) {
    assert.ok(await fullyOnScreen(i));
    await assertEmbedHeatmap(page, frames[i], `e${i}`, `embeds-twenty-top-${i}.png`);
  }
  for (let i = 0; i < N; i++) {
    const s = await frames[i].evaluate(() => window.attnlab.getState());
    assert.equal(s.tokens.length, 3 + (i % 4), `embed ${i} keeps its own sentence`);
    assert.equal(s.mask.causal, i % 2 === 0, `embed ${i} keeps its own mask`);
  }

  // 2 scroll to the bottom in steps, letting each screenful settle.
  const height = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  for (let y = 800; y < height + 800; y += 800) {
    await page.evaluate((to) => window.scrollTo(0, to), Math.min(y, height));
    shown = await settle();
  }
  assert.ok(shown[N - 1] && !shown[0]);
  for (const i of [N - 2, N - 1]) {
    assert.ok(await fullyOnScreen(i));
    await assertEmbedHeatmap(page, frames[i], `e${i}`, `embeds-twenty-bottom-${i}.png`);
    const s = await frames[i].evaluate(() => window.attnlab.session());
    assert.ok(Math.abs(s.temperature - (0.5 + 0.1 * i)) < 1e-6, `embed ${i} came back in its own state (temperature ${s.temperature})`);
  }
  // The first figures, now far above, draw nothing.
  const before = await Promise.all(frames.slice(0, 3).map((f) => f.evaluate(() => window.attnlab.framesDrawn())));
  await page.waitForTimeout(1000);
  const after = await Promise.all(frames.slice(0, 3).map((f) => f.evaluate(() => window.attnlab.framesDrawn())));
  assert.deepEqual(after, before, 'the embeds scrolled out of view stopped drawing');

  // 3 the contexts, over the whole run, across all frames.
  const logs = (await Promise.all(frames.map((f) => f.evaluate(() => window.__gl)))).filter(Boolean);
  const events = logs.flatMap((g) => g.log).sort((a, b) => a.t - b.t || a.live - b.live);
  const created = events.filter((e) => e.live > 0).length;
  let live = 0, mostLive = 0;
  for (const e of events) mostLive = Math.max(mostLive, live += e.live);
  console.log(`# ${created} WebGL contexts created, at most ${mostLive} live at once; at most ${mostOnScreen} embeds on screen`);
  assert.ok(created >= N, `each embed made a context at least once (${created})`);
  assert.equal(logs.reduce((s, g) => s + g.forced, 0), 0, 'the browser took no context away');
  assert.ok(mostLive <= mostOnScreen + 1, `${mostLive} contexts live at once, with at most ${mostOnScreen} embeds on screen`);
  assert.deepEqual(warnings, []);
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- the CJK font in embeds ---------------------------------------------------------------------

// Opens an embed with its CJK font request held back until release() is called, so the same
// page can be seen without the font and then with it. (The first frame's small fonts, ui.ttf
// and ui-zh.ttf, come at once: the first frame waits for them.)
async function embedWithHeldFont(src) {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const fontRequests = [];
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  await page.route(/\/fonts\/cjk\./, async (route) => {
    fontRequests.push(route.request().url());
    await released;
    await route.continue().catch(() => {});  // the page may be closed by then
  });
  await page.goto(src);
  await page.waitForFunction(() => window.attnlab?.framesDrawn() > 5, null, { timeout: 60000, polling: 100 });
  return { page, errors, fontRequests, release };
}

// Pixels (sampled every other one) whose colour differs by more than 60 between two screenshots.
function differingPixels(a, b, x0, y0, x1, y1) {
  let differ = 0;
  for (let y = y0; y < y1; y += 2)
    for (let x = x0; x < x1; x += 2) {
      const p = a.pixel(x, y), q = b.pixel(x, y);
      if (Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) > 60) differ++;
    }
  return differ;
}

async function shot(page, name) {
  return decodePng(await page.screenshot({ path: path.join(artifactsDir, name) }));
}

test('CJK in embeds: Chinese UI, Chinese tokens and the controls\' preset buttons load the font and draw the glyphs', async () => {
  const cases = [
    // The Chinese UI: the controls window's labels and preset buttons, drawn from the first
    // frame's subset of the UI strings before the large font arrives.
    { name: 'zh', hash: '#v=2&language=zh&panel=token&sentence=a%20b%20c&cursor=-1', coveredAtFirst: true },
    // English UI, Chinese tokens (none of them in the UI strings): the heatmap's axis labels.
    { name: 'en-tokens', query: '?controls=0', hash: '#v=2&language=en&panel=token&sentence=%E9%B2%B8%20%E9%B2%A8%20%E9%B3%84%20%E9%B9%B0%20%E7%8B%AE%E5%AD%90&cursor=-1',
      region: (p) => [0, 0, Math.round(p.x + p.w), Math.round(p.y + p.h + 40)], least: 120 },
    // English UI with its controls: the preset buttons "猫追老鼠" and "老鼠追猫" (UI strings too).
    { name: 'en-controls', hash: '#v=2&language=en&panel=token&sentence=a%20b%20c&cursor=-1', coveredAtFirst: true },
  ];
  for (const c of cases) {
    const { page, errors, fontRequests, release } = await embedWithHeldFont(`${url}embed.html${c.query ?? ''}${c.hash}`);
    if (c.coveredAtFirst) {
      // Nothing is missing while the large font is held back, and every glyph is in the atlas.
      assert.equal(await page.evaluate(() => window.attnlab.layout().missingGlyphs), 0, `${c.name}: glyphs missing at first`);
      assert.equal(fontRequests.length, 1, `${c.name}: the embed asked for the large font`);
      release();
      await page.waitForFunction(() => window.attnlab.cjkFontLoaded === true && window.attnlab.layout().missingGlyphs === 0,
        null, { timeout: 30000, polling: 100 });
      assert.deepEqual(errors, []);
      await page.close();
      continue;
    }
    // The app counts the CJK characters it cannot draw yet (the tokens).
    await page.waitForFunction(() => window.attnlab.layout().missingGlyphs > 0, null, { timeout: 20000, polling: 100 });
    const without = await shot(page, `embeds-cjk-${c.name}-without.png`);
    assert.equal(fontRequests.length, 1, `${c.name}: the embed asked for the font`);
    release();
    await page.waitForFunction(() => window.attnlab.cjkFontLoaded === true && window.attnlab.layout().cjkFont && window.attnlab.layout().missingGlyphs === 0,
      null, { timeout: 30000, polling: 100 });
    const n = await page.evaluate(() => window.attnlab.framesDrawn());
    await page.waitForFunction((n0) => window.attnlab.framesDrawn() > n0 + 3, n, { polling: 100 });
    const withFont = await shot(page, `embeds-cjk-${c.name}-with.png`);
    const p = (await page.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
    const [x0, y0, x1, y1] = c.region(p);
    const differ = differingPixels(without, withFont, x0, y0, x1, y1);
    console.log(`# ${c.name}: ${differ} sampled pixels changed when the font arrived`);
    assert.ok(differ > c.least, `${c.name}: only ${differ} sampled pixels changed when the font arrived`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('an English embed without controls never fetches the CJK font', async () => {
  const { page, errors, fontRequests, release } = await embedWithHeldFont(`${url}embed.html?controls=0#v=2&language=en&panel=token&sentence=the%20cat%20sat&cursor=1`);
  await page.evaluate(() => window.attnlab.setState({ cursor: 2, mask: { causal: true } }));
  await page.waitForTimeout(1000);
  assert.deepEqual(fontRequests, []);
  assert.equal(await page.evaluate(() => window.attnlab.layout().missingGlyphs), 0);
  // Switching it to Chinese draws the UI from the first frame's subset at once (nothing
  // missing) and fetches the large font then.
  await page.evaluate(() => window.attnlab.setState({ language: 'zh' }));
  assert.equal(await page.evaluate(() => window.attnlab.layout().missingGlyphs), 0);
  for (let i = 0; i < 100 && fontRequests.length === 0; i++) await page.waitForTimeout(100);
  assert.equal(fontRequests.length, 1);
  release();
  await page.waitForFunction(() => window.attnlab.cjkFontLoaded === true && window.attnlab.layout().missingGlyphs === 0, null, { polling: 100 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('createLab in a host page (controls shown) fetches the CJK font for its preset buttons by itself', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const fonts = [];
  page.on('request', (r) => { if (/\/fonts\/cjk\./.test(r.url())) fonts.push(r.url()); });
  await page.goto(`${url}examples/api.html`);
  await page.waitForFunction(() => window.lab?.cjkFontLoaded === true && window.lab.layout().cjkFont, null, { timeout: 60000, polling: 100 });
  assert.equal(fonts.length, 1);
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- touch ----------------------------------------------------------------------------------------

// The figure text the app must give for query row `cursor` (web page and embeds alike).
async function expectedFigureText(target) {
  return target.evaluate(() => {
    const s = window.attnlab.getState();
    const m = window.attnlab.getMatrix('weights', 0);
    const row = Array.from(m.data.slice(s.cursor * m.cols, (s.cursor + 1) * m.cols));
    const best = Math.max(...row);
    return `Head 1: query '${s.tokens[s.cursor]}' attends most to '${s.tokens[row.indexOf(best)]}' (${best.toFixed(2)}).`;
  });
}

// Taps cell (i, j) of `target`'s weights heatmap; (dx, dy) is where its viewport sits on the page.
// The tap makes row i the query, as a mouse click does, and shows the cell's derivation, as hovering does.
async function tapCell(page, target, i, j, [dx, dy] = [0, 0]) {
  await target.waitForFunction(() => window.attnlab.layout().heatmaps['token/weights'], null, { polling: 100 });
  const p = (await target.evaluate(() => window.attnlab.layout())).heatmaps['token/weights'];
  await page.touchscreen.tap(dx + p.x + (j + 0.5) * (p.w / p.cols), dy + p.y + (i + 0.5) * (p.h / p.rows));
  await target.waitForFunction(([i2, j2]) => {
    const h = window.attnlab.layout().hover;
    return window.attnlab.getState().cursor === i2 && h.heatmap === 'token/weights' && h.row === i2 && h.col === j2 && h.derivation.length > 20;
  }, [i, j], { timeout: 20000, polling: 100 });
}

test('touch: a tap on a heatmap row of an embed and of the full page sets the query, and the ARIA text follows', async () => {
  const touch = await openBrowser({ viewport: { width: 1000, height: 700 }, contextOptions: { hasTouch: true, isMobile: false } });
  try {
    // An embed in a host page (offset, so page and frame coordinates differ).
    writeHost('touch.html', [{ id: 'e', src: `${url}embed.html?controls=0#v=2&panel=token&sentence=one%20two%20three%20four%20five&cursor=0` }],
      'body{padding:30px 0 0 40px}');
    const page = await touch.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${host.url}touch.html`);
    const frame = await labFrame(page, 'e');
    const box = await (await page.$('#e')).boundingBox();
    const figureText = () => frame.evaluate(() => document.querySelector('.attnlab-figure-text').textContent);
    await frame.waitForFunction(() => /query 'one'/.test(document.querySelector('.attnlab-figure-text').textContent), null, { polling: 100 });
    for (const [i, j] of [[3, 1], [1, 4]]) {
      await tapCell(page, frame, i, j, [box.x, box.y]);
      const want = await expectedFigureText(frame);
      await frame.waitForFunction((w) => document.querySelector('.attnlab-figure-text').textContent === w, want, { polling: 100 });
      assert.equal(await figureText(), want);
    }
    await page.screenshot({ path: path.join(artifactsDir, 'embeds-touch-embed.png') });
    assert.deepEqual(errors, []);
    await page.close();

    // The full page: its figure text is #figure-text.
    const full = await touch.context.newPage();
    const fullErrors = watchErrors(full);
    await full.goto(`${url}index.html#v=2&panel=token&sentence=red%20green%20blue%20cyan&cursor=0&language=en`);
    await full.evaluate(() => window.attnlab.ready);
    for (const [i, j] of [[2, 0], [3, 3]]) {
      await tapCell(full, full, i, j);
      const want = await expectedFigureText(full);
      await full.waitForFunction((w) => document.getElementById('figure-text').textContent === w, want, { polling: 100 });
    }
    await full.screenshot({ path: path.join(artifactsDir, 'embeds-touch-page.png') });
    assert.deepEqual(fullErrors, []);
    await full.close();
  } finally {
    await touch.close();
  }
});

// ---- importFile: an attention file posted to an embed ---------------------------------------------

// An .npz written by numpy (2 layers x 3 heads over 6 tokens, rows summing to 1), and its bytes.
function writeNpz(name, code) {
  const file = path.join(hostDir, name);
  execFileSync('/usr/bin/python3', ['-c', `import numpy as np\n${code}\nnp.savez_compressed(${JSON.stringify(file)}, **m)`]);
  return file;
}

test('importFile: a host page posts an attention file\'s bytes; the embed shows it through the same import, and refusals say why', async () => {
  const npz = writeNpz('posted.npz', `rng = np.random.default_rng(3)
a = rng.random((1, 2, 3, 6, 6)).astype(np.float32); a /= a.sum(-1, keepdims=True)
m = dict(attentions=a, tokens=np.array("we read the posted file here".split()))`);
  const allow = encodeURIComponent(host.url.replace(/\/$/, ''));
  fs.writeFileSync(path.join(hostDir, 'post.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<iframe id="e" style="width:800px;height:500px;border:0" src="${url}embed.html?origins=${allow}&tabs=1&release=0"></iframe>
<script>window.replies = []; addEventListener('message', (e) => { if (e.data?.type === 'reply') replies.push(e.data); });</script>`);
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${host.url}post.html`);
  const frame = await labFrame(page, 'e');
  const post = (message, bytes) => page.evaluate(async ([m, b]) => {
    const id = m.id;
    const element = document.getElementById('e');
    element.contentWindow.postMessage(b ? { ...m, bytes: new Uint8Array(b).buffer } : m, new URL(element.src).origin);
    for (let i = 0; i < 600 && !window.replies.some((r) => r.id === id); i++) await new Promise((r) => setTimeout(r, 50));
    return window.replies.find((r) => r.id === id);
  }, [message, bytes ? Array.from(bytes) : null]);
  const bytes = fs.readFileSync(npz);
  const ok = await post({ attnlab: 1, id: 1, type: 'importFile', name: 'posted.npz' }, bytes);
  assert.equal(ok?.ok, true, JSON.stringify(ok));
  assert.equal(ok.import.layers, 2);
  assert.equal(ok.import.heads, 3);
  assert.equal(ok.state.source, 'imported');
  const shown = await frame.evaluate(() => Array.from(window.attnlab.getMatrix('weights', 1).data).slice(0, 6));
  const row = JSON.parse(execFileSync('/usr/bin/python3', ['-c',
    `import numpy as np, json; print(json.dumps(np.load(${JSON.stringify(npz)})["attentions"][0, 0, 1, 0].tolist()))`], { encoding: 'utf8' }));
  shown.forEach((v, j) => assert.ok(Math.abs(v - row[j]) < 1e-7, `weights[0][${j}] ${v} vs ${row[j]}`));
  // A truncated file: the import's message (as the page's import bar gives it); the scene stays.
  const cut = await post({ attnlab: 1, id: 2, type: 'importFile', name: 'cut.npz' }, bytes.subarray(0, 200));
  assert.equal(cut.ok, false);
  assert.match(cut.error, /^cut\.npz: \.npz: /);
  assert.equal(await frame.evaluate(() => document.getElementById('notice').textContent), cut.error);
  assert.equal((await frame.evaluate(() => window.attnlab.getState())).import.layers, 2);
  // Bytes that are not bytes, and a missing name: refused by the message's parser.
  const text = await post({ attnlab: 1, id: 3, type: 'importFile', name: 'x.npz', bytes: 'AAAA' });
  assert.deepEqual([text.ok, text.error], [false, "'bytes' must be the file's contents (an ArrayBuffer or a typed array)"]);
  const nameless = await post({ attnlab: 1, id: 4, type: 'importFile' }, bytes);
  assert.match(nameless.error, /importFile needs 'name'/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Python package\'s served mode: a figure pointing at a served dist/ gets its file by importFile', async () => {
  const snippet = execFileSync('/usr/bin/python3', ['-c', `import numpy as np, attnlab
a = np.full((1, 2, 5, 5), 0.2, dtype=np.float32)
print(attnlab.figure(a, list("abcde"), layer=0, head=1, height=400, server=${JSON.stringify(url)})._repr_html_())`],
  { encoding: 'utf8', env: { ...process.env, PYTHONPATH: path.join(root, 'python') } });
  assert.ok(snippet.length < 4000, `the served figure is ${snippet.length} bytes of HTML`);
  fs.writeFileSync(path.join(hostDir, 'notebook-cell.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${snippet}`);
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${host.url}notebook-cell.html`);
  const frame = await (await page.waitForSelector('iframe.attnlab-figure')).contentFrame();
  await frame.waitForFunction(() => window.attnlab?.getState?.().head === 1 && window.attnlab.getState().import?.heads === 2,
    null, { timeout: 60000, polling: 200 });
  const state = await frame.evaluate(() => window.attnlab.getState());
  assert.equal(state.panel, 'model');
  assert.equal(state.import.nQ, 5);
  assert.deepEqual(errors, []);
  await page.close();
});
