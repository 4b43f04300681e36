// The last line of defence (issue 39): when the WebAssembly module dies anyway, forced here by
// the test hook debugCrash ('abort': abort(); 'trap': a trap inside the next frame; 'stack': a
// stack overflow out of a wasm call while the page starts), the page shows the crash screen in
// the lab's place, in the lab's language, with "Open the lab without this link", "Reload",
// "Start fresh" and the error text; nothing calls into the dead module again; an embed shows the
// same in its frame and tells the host origins it lists. Screenshots:
// build/test-artifacts/crash-*.png (en at DPR 1, zh at DPR 2, dark and light).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBrowser, serveDist, watchErrors } from '../support/browser.mjs';
import { openLab } from '../support/lab.mjs';
import { colorDistance } from '../support/colors.mjs';
import { decodePng } from '../support/png.mjs';
import { artifactsDir } from '../support/paths.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { PRE_APP_TEXT } from '../../web/pre-app-text.mjs';

let server, url, hostDir, host;
before(async () => {
  ({ server, url } = await serveDist());
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-crash-'));
  host = await startServer({ root: hostDir });
});
after(() => {
  server.close();
  host.server.close();
  fs.rmSync(hostDir, { recursive: true, force: true });
});

// The crash screen's colours (web/style.css, web/embed.css): the accent of "Open the lab
// without this link" and the background, per theme.
const ACCENT = { dark: [63, 111, 198], light: [43, 92, 176] };
const BACKGROUND = { dark: [20, 20, 25], light: [240, 240, 240] };

// Every page remembers the address it was opened at (the page rewrites its hash at once).
const REMEMBER_START = () => {
  window.startHref = location.href;
  try { window.storedAtStart = localStorage.getItem('attnlab.session'); } catch { window.storedAtStart = 'unreadable'; }
};

// What the crash screen in `scope` (a page or a frame) shows.
async function crashScreen(scope) {
  await scope.waitForSelector('.attnlab-crash', { state: 'visible', timeout: 20000 });
  return scope.evaluate(() => {
    const screen = document.querySelector('.attnlab-crash');
    const visible = (e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const buttons = [...screen.querySelectorAll('button')].map((b) => ({ text: b.textContent, visible: visible(b), cls: b.className }));
    const report = screen.querySelector('textarea');
    const canvas = document.querySelector('#canvas, .attnlab-canvas');
    return {
      title: screen.querySelector('h2').textContent, body: screen.querySelector('p').textContent, lang: screen.lang, buttons,
      report: report.value, reportReadOnly: report.readOnly, reportVisible: visible(report),
      canvasVisible: visible(canvas), toolbarVisible: visible(document.getElementById('toolbar')),
      // The screen is inside the viewport and nothing of it is cut off sideways.
      fits: [...screen.querySelectorAll('h2, p, button, textarea')].every((e) => {
        const r = e.getBoundingClientRect();
        return r.left >= 0 && r.right <= innerWidth + 0.5 && e.scrollWidth <= e.clientWidth + 1;
      }),
    };
  });
}

function assertScreen(shown, language) {
  const text = PRE_APP_TEXT[language];
  assert.equal(shown.title, text.web_crash_title);
  assert.equal(shown.body, text.web_crash_body);
  assert.equal(shown.lang, language === 'zh' ? 'zh-Hans' : 'en');
  assert.deepEqual(shown.buttons.map((b) => b.text), [text.web_crash_open, text.web_crash_reload, text.web_crash_fresh]);
  assert.ok(shown.buttons.every((b) => b.visible), JSON.stringify(shown.buttons));
  assert.ok(shown.reportVisible && shown.reportReadOnly);
  assert.match(shown.report, /^Attention Lab stopped\nbuild: (simd|scalar)\nerror: /);
  assert.equal(shown.canvasVisible, false, 'the canvas is hidden');
  assert.ok(shown.fits, 'the screen fits its width');
}

// The screenshot's pixels: the accent button and the background are the theme's.
async function assertPainted(scope, png, cssScale, theme, offset = { x: 0, y: 0 }) {
  const boxes = await scope.evaluate(() => {
    const r = (e) => { const b = e.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
    return { open: r(document.querySelector('.attnlab-crash-open')), screen: r(document.querySelector('.attnlab-crash')) };
  });
  const at = (x, y) => png.pixel((offset.x + x) * cssScale, (offset.y + y) * cssScale);
  const button = at(boxes.open.x + 3, boxes.open.y + boxes.open.h / 2);
  assert.ok(colorDistance(button, ACCENT[theme]) <= 3, `button pixel ${button}, want ${ACCENT[theme]}`);
  const corner = at(boxes.screen.x + 3, boxes.screen.y + boxes.screen.h - 3);
  assert.ok(colorDistance(corner, BACKGROUND[theme]) <= 3, `background pixel ${corner}, want ${BACKGROUND[theme]}`);
}

// Console errors settle: one report per death (`deaths`), then nothing more (no loop of exceptions).
async function assertQuietAfter(page, errors, deaths = 1) {
  const count = errors.length;
  assert.equal(count, deaths, errors.join('\n'));
  assert.ok(errors.every((e) => /^Attention Lab has stopped/.test(e)), errors.join('\n'));
  await page.waitForTimeout(2500);
  assert.equal(errors.length, count, `errors after the crash: ${errors.slice(count).join('\n')}`);
}

// The full page with a stored session (sentence A), then a change to sentence B that the crash
// keeps from being stored: the link (the hash) says B, the stored session A.
async function pageWithLinkAndSession(browser, query = '') {
  const { page, errors } = await openLab(browser, url, query);
  await page.addInitScript(REMEMBER_START);
  await page.evaluate(() => window.attnlab.setState({ sentence: 'stored words stay here' }));
  await page.waitForFunction(() => /stored words stay here/.test(localStorage.getItem('attnlab.session') ?? ''), null, { timeout: 10000 });
  const stored = await page.evaluate(() => localStorage.getItem('attnlab.session'));
  return { page, errors, stored };
}

test('the full page: abort() shows the crash screen in English; the lab is dead to every call; "Open the lab without this link" comes back with the stored session', async () => {
  const browser = await openBrowser({ deviceScaleFactor: 1, viewport: { width: 1100, height: 700 } });
  try {
    const { page, errors, stored } = await pageWithLinkAndSession(browser);
    const died = await page.evaluate(async () => {
      await window.attnlab.setState({ sentence: 'the link words only' });
      const frames = window.attnlab.framesDrawn();
      const error = await window.attnlab.debugCrash('abort').then(() => null, (e) => ({ name: e.name, message: e.message }));
      return { error, frames, hash: location.hash };
    });
    assert.equal(died.error?.name, 'LabStoppedError');
    assert.match(died.error.message, /^Attention Lab has stopped \(RuntimeError: Aborted\(/);
    assert.match(died.hash, /sentence=the%20link%20words%20only/);

    const shown = await crashScreen(page);
    assertScreen(shown, 'en');
    assert.equal(shown.toolbarVisible, false, 'the toolbar, whose controls need the app, is hidden');
    assert.match(shown.report, /\nbuild: simd\n/);
    assert.match(shown.report, /error: RuntimeError: Aborted\(/);
    assert.match(shown.report, /wasm/, 'the stack names the wasm frames');
    const png = decodePng(await page.screenshot({ path: path.join(artifactsDir, 'crash-page-en-dpr1-dark.png') }));
    await assertPainted(page, png, 1, 'dark');

    // Dead to every call: one clear error, no frames, nothing stored over the session.
    const calls = await page.evaluate(async () => {
      const a = window.attnlab;
      const threw = (fn) => { try { fn(); return null; } catch (e) { return e.name; } };
      return {
        crashed: a.crashed?.name,
        getState: threw(() => a.getState()), link: threw(() => a.link()), layout: threw(() => a.layout()),
        setState: await a.setState({ cursor: 1 }).then(() => null, (e) => e.name),
        importFile: await a.importFile({ name: 'x.npy', bytes: new Uint8Array(4) }).then(() => null, (e) => e.name),
        frames: a.framesDrawn(),
      };
    });
    assert.deepEqual(calls, { crashed: 'LabStoppedError', getState: 'LabStoppedError', link: 'LabStoppedError', layout: 'LabStoppedError',
      setState: 'LabStoppedError', importFile: 'LabStoppedError', frames: calls.frames });
    assert.ok(calls.frames >= died.frames);
    await assertQuietAfter(page, errors);
    assert.equal(await page.evaluate(() => window.attnlab.framesDrawn()), calls.frames, 'no frame was drawn after the crash');
    assert.equal(await page.evaluate(() => localStorage.getItem('attnlab.session')), stored, 'the stored session is untouched');

    // Out: the same page without the hash, which opens the stored session (not the link's).
    await Promise.all([page.waitForNavigation(), page.click('.attnlab-crash-open')]);
    await page.evaluate(() => window.attnlab.ready);
    const back = await page.evaluate(() => ({ start: window.startHref, stored: window.storedAtStart, sentence: window.attnlab.getState().sentence,
      crash: !!document.querySelector('.attnlab-crash'), frames: window.attnlab.framesDrawn() }));
    assert.equal(back.start, `${url}index.html`);
    assert.equal(back.stored, stored);
    assert.equal(back.sentence, 'stored words stay here');
    assert.equal(back.crash, false);
    assert.ok(back.frames > 0);
  } finally {
    await browser.close();
  }
});

test('the full page in Chinese at DPR 2, light theme: a trap inside a frame shows the crash screen in Chinese; "Start fresh" clears the stored session and keeps ?lang=', async () => {
  const browser = await openBrowser({ deviceScaleFactor: 2, viewport: { width: 900, height: 640 }, contextOptions: { locale: 'zh-CN' } });
  try {
    const { page, errors, stored } = await pageWithLinkAndSession(browser, '?lang=zh');
    assert.ok(stored);
    await page.evaluate(() => window.attnlab.setState({ theme: 'light', sentence: '链接里的句子' }));
    await page.evaluate(() => window.attnlab.debugCrash('trap'));  // the next frame traps
    const shown = await crashScreen(page);
    assertScreen(shown, 'zh');
    assert.match(shown.report, /error: RuntimeError: unreachable/);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
    const png = decodePng(await page.screenshot({ path: path.join(artifactsDir, 'crash-page-zh-dpr2-light.png') }));
    await assertPainted(page, png, 2, 'light');
    assert.equal(await page.evaluate(() => window.attnlab.crashed?.name), 'LabStoppedError');
    await assertQuietAfter(page, errors);

    await Promise.all([page.waitForNavigation(), page.click('.attnlab-crash-fresh')]);
    await page.evaluate(() => window.attnlab.ready);
    const back = await page.evaluate(() => ({ start: window.startHref, stored: window.storedAtStart, state: window.attnlab.getState(),
      zh: window.attnlab.uiString('default_sentence_zh') }));
    assert.equal(back.start, `${url}index.html?lang=zh`);
    assert.equal(back.stored, null, 'the stored session was cleared');
    assert.equal(back.state.language, 'zh');
    assert.equal(back.state.sentence, back.zh, 'a first visit in Chinese');
  } finally {
    await browser.close();
  }
});

test('the full page: a stack overflow out of a wasm call while the page starts shows the crash screen, not a blank page; "Reload" reloads', async () => {
  const browser = await openBrowser();
  try {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    // The app's first getStateJson call (the page reads the state while it wires itself up)
    // overflows the stack inside the module, once per tab.
    await page.addInitScript(() => {
      for (const name of ['createAttnlabApp', 'createAttnlabAppNoSimd']) {
        let factory;
        Object.defineProperty(window, name, {
          configurable: true,
          get: () => factory,
          set: (real) => {
            factory = (options) => real(options).then((module) => {
              const getStateJson = module.getStateJson;
              module.getStateJson = (...args) => {
                if (!sessionStorage.getItem('overflowed')) {
                  sessionStorage.setItem('overflowed', '1');
                  module.debugCrash('stack');
                }
                return getStateJson(...args);
              };
              return module;
            });
          },
        });
      }
    });
    await page.goto(url + 'index.html');
    const ready = await page.evaluate(() => window.attnlab.ready.then(() => 'resolved', (e) => `${e.name}: ${e.message}`));
    assert.match(ready, /^LabStoppedError: Attention Lab has stopped \(RangeError: Maximum call stack size exceeded\)/);
    const shown = await crashScreen(page);
    assertScreen(shown, 'en');
    assert.match(shown.report, /error: RangeError: Maximum call stack size exceeded/);
    assert.equal(await page.locator('#status').isVisible(), false, 'the loading line is gone');
    await assertQuietAfter(page, errors);
    // Reload: the same address again, and this time the lab starts.
    await Promise.all([page.waitForNavigation(), page.click('.attnlab-crash-reload')]);
    await page.evaluate(() => window.attnlab.ready);
    assert.equal(await page.evaluate(() => !!document.querySelector('.attnlab-crash')), false);
    assert.ok(await page.evaluate(() => window.attnlab.framesDrawn()) > 0);
  } finally {
    await browser.close();
  }
});

test('an embed on another origin: abort and trap show the crash screen in its frame, post the error event to the listed host, and refuse later messages', async () => {
  const browser = await openBrowser({ viewport: { width: 1000, height: 900 } });
  try {
    const allow = encodeURIComponent(host.url.replace(/\/$/, ''));
    fs.writeFileSync(path.join(hostDir, 'crash.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body{margin:0;background:#fff} iframe{display:block;border:0;width:680px;height:330px;margin:0 0 16px}</style>
<script>window.received = []; addEventListener('message', (e) => { if (e.data?.attnlab === 1 && e.data.event !== 'height') received.push({ origin: e.origin, data: e.data }); });</script>
<iframe id="a" src="${url}embed.html?origins=${allow}&release=0#v=3&panel=token&sentence=one%20two%20three&cursor=1"></iframe>
<iframe id="b" src="${url}embed.html?origins=${allow}&release=0&theme=light#v=3&panel=token&sentence=%E7%8C%AB%E8%BF%BD%E8%80%81%E9%BC%A0&language=zh"></iframe>`);
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${host.url}crash.html`);
    const frame = async (id) => {
      const f = await (await page.waitForSelector(`#${id}`)).contentFrame();
      await f.waitForFunction(() => window.attnlab?.framesDrawn?.() > 2, null, { timeout: 60000, polling: 100 });
      return f;
    };
    const [a, b] = [await frame('a'), await frame('b')];
    const embedOrigin = new URL(url).origin;

    // a: abort(), in English, dark.
    const aborted = await a.evaluate(() => window.attnlab.debugCrash('abort').then(() => null, (e) => e.name));
    assert.equal(aborted, 'LabStoppedError');
    const shownA = await crashScreen(a);
    assertScreen(shownA, 'en');
    assert.equal(await a.evaluate(() => document.querySelectorAll('canvas').length), 0, 'the canvas is gone');
    const pngA = decodePng(await (await page.$('#a')).screenshot({ path: path.join(artifactsDir, 'crash-embed-en-dark.png') }));
    await assertPainted(a, pngA, 1, 'dark');
    // b: a trap in its frame, in Chinese (its link's language), light; b itself goes on until then.
    await b.evaluate(() => window.attnlab.debugCrash('trap'));
    const shownB = await crashScreen(b);
    assertScreen(shownB, 'zh');
    assert.match(shownB.report, /unreachable/);
    const pngB = decodePng(await (await page.$('#b')).screenshot({ path: path.join(artifactsDir, 'crash-embed-zh-light.png') }));
    await assertPainted(b, pngB, 1, 'light');

    // The host heard one error event from each, from the embed's origin.
    await page.waitForFunction(() => window.received.filter((m) => m.data.event === 'error').length >= 2, null, { timeout: 10000 });
    const events = await page.evaluate(() => window.received.filter((m) => m.data.event === 'error'));
    assert.equal(events.length, 2);
    for (const e of events) {
      assert.equal(e.origin, embedOrigin);
      assert.deepEqual(Object.keys(e.data).sort(), ['attnlab', 'event', 'message', 'type']);
      assert.equal(e.data.type, 'event');
      assert.match(e.data.message, /^Attention Lab has stopped \(RuntimeError: /);
    }
    // Later messages are refused with the reason.
    const reply = await page.evaluate(async (origin) => {
      document.getElementById('a').contentWindow.postMessage({ attnlab: 1, id: 41, type: 'getState' }, origin);
      for (let i = 0; i < 100 && !window.received.some((m) => m.data.id === 41); i++) await new Promise((r) => setTimeout(r, 50));
      return window.received.find((m) => m.data.id === 41)?.data;
    }, embedOrigin);
    assert.deepEqual({ ...reply, error: undefined }, { attnlab: 1, type: 'reply', id: 41, ok: false, error: undefined });
    assert.match(reply.error, /^Attention Lab has stopped/);
    await assertQuietAfter(page, errors, 2);  // one report per frame

    // Out: the frame opens its figure again, without its link (its options kept).
    await a.click('.attnlab-crash-open');
    await a.waitForURL(`${url}embed.html?origins=${allow}&release=0`, { timeout: 20000 });
    await a.waitForFunction(() => window.attnlab?.framesDrawn?.() > 2, null, { timeout: 60000, polling: 100 });
    const back = await a.evaluate(() => ({ hash: location.hash, search: location.search, crash: !!document.querySelector('.attnlab-crash'), sentence: window.attnlab.getState().sentence }));
    assert.equal(back.hash, '');
    assert.equal(back.search, `?origins=${allow}&release=0`);
    assert.equal(back.crash, false);
    assert.notEqual(back.sentence, 'one two three');
  } finally {
    await browser.close();
  }
});
