// lab.destroy() in headless Chromium: a single-page app that creates and removes 50 labs in one
// page (five at a time: in view, in view with releaseOffscreen, and scrolled out of view, so
// released) ends where it started. After each destroy the lab's element is gone from its
// container; every method refuses with a LabDestroyedError (destroy() itself resolves again);
// once all are gone nothing asks for animation frames or timers, no listener is left on window
// or document, no WebAssembly memory is reachable (weak references to each instance's memory,
// after a forced garbage collection), and the JS heap is back within half of one lab's
// footprint although the page keeps all 50 handles. The figures are printed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, serveDist, watchErrors } from '../support/browser.mjs';

let server, url, browser;
before(async () => {
  ({ server, url } = await serveDist());
  browser = await openBrowser({ viewport: { width: 1000, height: 700 } });
});
after(async () => {
  await browser.close();
  server.close();
});

// Installed before the page's scripts: what the test counts.
const PROBE = () => {
  const memories = [];  // a WeakRef to each instance's memory
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async function probed(...args) {
    const result = await instantiate.apply(this, args);
    const instance = result instanceof WebAssembly.Instance ? result : result.instance;
    for (const value of Object.values(instance.exports)) if (value instanceof WebAssembly.Memory) memories.push(new WeakRef(value));
    return result;
  };
  // The listeners on window and document: type and capture -> the set of functions.
  const listeners = new Map();
  for (const [name, target] of [['window', window], ['document', document]]) {
    const key = (type, options) => `${name} ${type} ${typeof options === 'boolean' ? options : !!options?.capture}`;
    const add = target.addEventListener, remove = target.removeEventListener;
    target.addEventListener = function (type, fn, options) {
      if (!listeners.has(key(type, options))) listeners.set(key(type, options), new Set());
      listeners.get(key(type, options)).add(fn);
      return add.call(this, type, fn, options);
    };
    target.removeEventListener = function (type, fn, options) {
      listeners.get(key(type, options))?.delete(fn);
      return remove.call(this, type, fn, options);
    };
  }
  // Calls that schedule work: animation frames and timers.
  const scheduled = { requestAnimationFrame: 0, setTimeout: 0, setInterval: 0 };
  for (const name of Object.keys(scheduled)) {
    const original = window[name];
    window[name] = function (...args) {
      scheduled[name]++;
      return original.apply(this, args);
    };
  }
  window.probe = {
    wasm() {
      const live = memories.map((ref) => ref.deref()).filter(Boolean);
      return { count: live.length, bytes: live.reduce((sum, m) => sum + m.buffer.byteLength, 0), instances: memories.length };
    },
    listeners: () => [...listeners].filter(([, set]) => set.size).map(([k, set]) => `${k} x${set.size}`).sort(),
    scheduled: () => ({ ...scheduled }),
  };
};

const HOST = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>destroy</title></head>
<body style="margin:0"><div id="labs"></div><script type="module">
import { createLab, LabDestroyedError } from './api.mjs';
const labs = document.getElementById('labs');
window.handles = [];
// One lab in a container of its own; 'away' puts the container far below the viewport.
window.mount = async (how) => {
  const box = document.createElement('div');
  box.style.cssText = 'width:480px;height:320px;' + (how === 'away' ? 'position:absolute;top:6000px' : '');
  labs.append(box);
  const lab = await createLab(box, { state: { sentence: 'the cat sat on the mat', cursor: 1 }, releaseOffscreen: how !== 'plain' });
  window.handles.push(lab);
  return { lab, box };
};
// Five labs at once, each used, then destroyed: the last one while a setState is on its way.
window.round = async () => {
  const mounted = await Promise.all(['plain', 'plain', 'plain', 'released', 'away'].map((how) => window.mount(how)));
  const states = await Promise.all(mounted.map(({ lab }) => lab.setState({ cursor: 2 })));
  const suspended = mounted[4].lab.suspended === true;
  const late = mounted[0].lab.setState({ cursor: 3 }).then(() => 'resolved', (e) => e.name);
  await Promise.all(mounted.map(({ lab }) => lab.destroy()));
  const refusals = [];
  for (const { lab, box } of mounted) {
    if (box.childElementCount !== 0) refusals.push('the container keeps the lab\\'s element');
    try { lab.getState(); refusals.push('getState answered'); } catch (e) { if (!(e instanceof LabDestroyedError)) refusals.push('getState: ' + e); }
    await lab.setState({ cursor: 1 }).then(() => refusals.push('setState resolved'), (e) => { if (!(e instanceof LabDestroyedError)) refusals.push('setState: ' + e); });
    try { lab.on('cursor', () => {}); refusals.push('on answered'); } catch (e) { if (e.name !== 'LabDestroyedError') refusals.push('on: ' + e); }
    await lab.destroy();  // a second call does nothing
    box.remove();
  }
  return { cursors: states.map((s) => s.cursor), suspended, late: await late, refusals, canvases: document.querySelectorAll('canvas').length };
};
window.ready = true;
</script></body></html>`;

// The JS heap after a forced collection (CDP), and the WebAssembly memory still reachable.
async function measure(page, cdp) {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));  // pending frames and timers settle
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  const wasm = await page.evaluate(() => window.probe.wasm());
  return { heap: heap.usedSize, backing: heap.backingStorageSize ?? 0, wasm };
}
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

test('50 labs created and destroyed in one page: no frame loop, listener, instance or heap left behind', { timeout: 600_000 }, async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.addInitScript(PROBE);
  await page.route(`${url}destroy-host.html`, (route) => route.fulfill({ contentType: 'text/html', body: HOST }));
  await page.goto(`${url}destroy-host.html`);
  await page.waitForFunction(() => window.ready === true);
  const cdp = await page.context().newCDPSession(page);

  // The start: one round first, so what every lab shares (the compiled builds, the fonts, the
  // modules) is loaded; then one lab alive, for one lab's footprint.
  const listenersAtStart = await page.evaluate(() => window.probe.listeners());
  const first = await page.evaluate(() => window.round());
  assert.deepEqual(first.refusals, []);
  const start = await measure(page, cdp);
  await page.evaluate(() => window.mount('plain').then(({ lab }) => { window.one = lab; }));
  const one = await measure(page, cdp);
  await page.evaluate(async () => { await window.one.destroy(); window.one = null; document.getElementById('labs').replaceChildren(); });
  const footprint = one.heap + one.wasm.bytes - (start.heap + start.wasm.bytes);
  assert.equal(one.wasm.count, 1, 'one lab has one instance');

  for (let r = 0; r < 10; r++) {
    const round = await page.evaluate(() => window.round());
    assert.deepEqual(round.cursors, [2, 2, 2, 2, 2]);
    assert.equal(round.suspended, true, 'the lab out of view was released');
    assert.ok(['resolved', 'LabDestroyedError'].includes(round.late), `a setState under way when destroyed: ${round.late}`);
    assert.deepEqual(round.refusals, []);
    assert.equal(round.canvases, 0);
  }
  const end = await measure(page, cdp);

  // Idle, with every lab gone: nothing is scheduled any more.
  const before = await page.evaluate(() => window.probe.scheduled());
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idle = await page.evaluate(() => window.probe.scheduled());
  const listenersAtEnd = await page.evaluate(() => window.probe.listeners());
  const handles = await page.evaluate(() => window.handles.length);

  const growth = end.heap + end.wasm.bytes - (start.heap + start.wasm.bytes);
  console.log(`one lab: JS heap +${mib(one.heap - start.heap)}, wasm memory ${mib(one.wasm.bytes)} (footprint ${mib(footprint)})`);
  console.log(`start: JS heap ${mib(start.heap)}, wasm ${start.wasm.count} live of ${start.wasm.instances} made; ` +
    `after ${handles} labs: JS heap ${mib(end.heap)}, wasm ${end.wasm.count} live (${mib(end.wasm.bytes)}) of ${end.wasm.instances} made; ` +
    `growth ${mib(growth)}; ArrayBuffer backing stores ${mib(start.backing)} -> ${mib(end.backing)}`);
  assert.equal(handles, 56);
  // (A released lab that is asked something starts an instance for the moment: more than 56.)
  assert.ok(end.wasm.instances >= 56, `${end.wasm.instances} instances made`);
  assert.equal(end.wasm.count, 0, 'a destroyed lab\'s WebAssembly memory is still reachable');
  assert.ok(growth < footprint / 2, `heap and wasm memory grew by ${mib(growth)} over 50 labs (one lab: ${mib(footprint)})`);
  assert.ok(end.backing - start.backing < footprint / 2, `backing stores grew by ${mib(end.backing - start.backing)}`);
  assert.deepEqual({ frames: idle.requestAnimationFrame - before.requestAnimationFrame, timeouts: idle.setTimeout - before.setTimeout,
    intervals: idle.setInterval - before.setInterval }, { frames: 0, timeouts: 0, intervals: 0 });
  assert.deepEqual(listenersAtEnd, listenersAtStart, 'listeners left on window or document');
  assert.deepEqual(errors, []);
  await page.close();
});
