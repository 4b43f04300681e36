// The browser soak: randomised actions against the running page, in batches. After each
// batch it checks that no console error appeared and that frames still advance; then it
// resets the state and measures what must return to its baseline:
//   live heap bytes   mallinfo().uordblks inside the wasm app (wasm memory never shrinks,
//                     so its size alone would hide a leak)
//   JS heap           used bytes after a forced garbage collection (Chrome DevTools Protocol)
//   GL objects        live buffers, textures, framebuffers, renderbuffers, programs, shaders
//                     and vertex arrays, counted by wrapping the WebGL2 context's create* and
//                     delete* calls before the page loads
// Used by tests/browser/soak.test.mjs (a short run in the test command) and scripts/soak.mjs
// (the full 5,000 actions).

// Runs in the page before any script: counts live GL objects per kind.
export function glCounterScript() {
  const kinds = ['Buffer', 'Texture', 'Framebuffer', 'Renderbuffer', 'Program', 'Shader', 'VertexArray', 'Query', 'Sampler'];
  const live = {};
  const proto = globalThis.WebGL2RenderingContext && WebGL2RenderingContext.prototype;
  if (!proto) return;
  for (const kind of kinds) {
    live[kind] = 0;
    const create = proto['create' + kind];
    const destroy = proto['delete' + kind];
    if (!create || !destroy) continue;
    const alive = new WeakSet();
    proto['create' + kind] = function (...args) {
      const object = create.apply(this, args);
      if (object) { alive.add(object); live[kind]++; }
      return object;
    };
    proto['delete' + kind] = function (object) {
      if (object && alive.has(object)) { alive.delete(object); live[kind]--; }
      return destroy.call(this, object);
    };
  }
  globalThis.__attnlabGlLive = () => ({ ...live, total: Object.values(live).reduce((a, b) => a + b, 0) });
}

// A small deterministic generator (mulberry32), so a failing run can be replayed by seed.
export function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

const SENTENCES = [
  'The cat sat on the mat because it was tired.',
  '猫追老鼠，老鼠躲进了洞里。',
  'Emoji too: 🙂 👩‍🔬 🚀 and flags 🇫🇷🇯🇵 between words.',
  '注意力机制 attention 混合 mixed 文本 text。',
  '<img src=x onerror="window.__pwned=1"> & "quotes" \'and\' `ticks`',
  '   ',
  'a',
  'Zero\u200bwidth\u200djoiners and \u202eright-to-left\u202c marks.',
];

function randomText(r, length) {
  const pools = ['abcdefghijklmnopqrstuvwxyz ', '的一是不了人我在有他这为之大来以个中上们', '🙂🚀🌍🎉', '.,;:!?()[]{}<>"\'&'];
  let out = '';
  while (out.length < length) {
    const pool = r.pick(pools);
    out += [...pool][r.int(0, [...pool].length - 1)];
  }
  return out.slice(0, length);
}

export async function heapStats(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const js = await cdp.send('Runtime.getHeapUsage');
  return page.evaluate((jsUsed) => {
    const h = window.attnlab.heapStats();
    return { liveBytes: h.liveBytes, wasmBytes: h.wasmBytes, jsHeap: jsUsed, gl: window.__attnlabGlLive().total };
  }, js.usedSize);
}

// One random action. Each returns a short label for the log.
async function act(page, r, ctx) {
  const panels = ctx.panels;
  const kind = r.pick(['sentence', 'sentence', 'paste', 'panel', 'panel', 'mask', 'math', 'cursor', 'resize', 'keys', 'hostile', 'heads', 'import']);
  switch (kind) {
    case 'sentence': {
      const text = r.next() < 0.5 ? r.pick(SENTENCES) : randomText(r, r.int(1, 200));
      await page.fill('#sentence', text);
      return kind;
    }
    case 'paste': {
      await page.fill('#sentence', randomText(r, 10000));
      return kind;
    }
    case 'panel':
      await page.evaluate((p) => window.attnlab.setState({ panel: p }).catch(() => {}), r.pick(panels));
      return kind;
    case 'mask': {
      const painted = Array.from({ length: r.int(0, 3) }, (_, i) => `${i}:${r.int(0, 8)}${r.next() < 0.5 ? '+' : '-'}`).join(' ');
      const mask = { causal: r.next() < 0.5, window: r.int(0, 4), stride: r.int(0, 3), block: r.int(0, 4), painted };
      await page.evaluate((m) => window.attnlab.setState({ mask: m }).catch(() => {}), mask);
      return kind;
    }
    case 'math': {
      const patch = { temperature: 0.1 + r.next() * 4, scale: r.pick(['default', 'none', 'custom']), score: r.pick(['dot', 'cosine', 'additive']) };
      await page.evaluate((p) => window.attnlab.setState(p).catch(() => {}), patch);
      return kind;
    }
    case 'heads': {
      const patch = { heads: r.pick([1, 2, 4, 8]), dModel: r.pick([8, 16, 32, 64]), seed: r.int(1, 1000) };
      await page.evaluate((p) => window.attnlab.setState(p).catch(() => {}), patch);
      return kind;
    }
    case 'cursor':
      await page.evaluate((c) => window.attnlab.setState({ cursor: c }).catch(() => {}), r.int(-1, 40));
      return kind;
    case 'resize':
      await page.setViewportSize({ width: r.int(480, 1600), height: r.int(360, 1000) });
      return kind;
    case 'keys': {
      await page.click('#canvas', { position: { x: 5, y: 5 } });
      for (let i = 0; i < 4; i++) await page.keyboard.press(r.pick(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'BracketLeft', 'BracketRight', 'h']));
      return kind;
    }
    case 'hostile': {
      const junk = r.pick(['{"heads": 1e308}', '{"sentence": 5}', '[1,2,3]', '{"mask": {"window": -7}}', '{"panel": "nope"}', '{"dModel": "16"}']);
      const refused = await page.evaluate((j) => window.attnlab.setState(JSON.parse(j)).then(() => false, () => true), junk);
      if (!refused) ctx.accepted.push(junk);
      return kind;
    }
    case 'import': {
      // A small attention file through the page's file picker (the import door), or junk.
      const good = r.next() < 0.7;
      await page.setInputFiles('#import-file', {
        name: good ? 'soak.npy' : 'junk.npz', mimeType: 'application/octet-stream',
        buffer: good ? ctx.npy : Buffer.from(randomText(r, 300)),
      });
      await page.waitForFunction(() => !document.getElementById('import-progress') || document.getElementById('import-progress').hidden,
        null, { timeout: 20000 });
      return kind;
    }
    default:
      return kind;
  }
}

// A (1, 2, 4, 4) float32 .npy of attention weights: two heads of four tokens.
function weightsNpy() {
  const header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 4, 4), }";
  const padded = header + ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  const head = Buffer.concat([Buffer.from([0x93]), Buffer.from('NUMPY'), Buffer.from([1, 0]),
    Buffer.from(Uint16Array.of(padded.length).buffer), Buffer.from(padded, 'latin1')]);
  const weights = new Float32Array(32);
  for (let row = 0; row < 8; row++)
    for (let col = 0; col < 4; col++) weights[row * 4 + col] = col === row % 4 ? 0.7 : 0.1;
  return Buffer.concat([head, Buffer.from(weights.buffer)]);
}

// Runs `actions` random actions in batches of `batch`; returns the per-batch series.
export async function soak(page, cdp, { actions, batch, seed, errors, log = () => {} }) {
  const r = rng(seed);
  const defaults = await page.evaluate(() => window.attnlab.getState());
  const schema = await page.evaluate(() => window.attnlab.schema());
  const panels = schema.find((e) => e.path === 'panel').choices;
  const reset = async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.fill('#sentence', defaults.sentence);
    await page.evaluate(async (s) => {
      const patch = {};
      for (const key of Object.keys(s)) if (!['version', 'tokens', 'figures', 'panels'].includes(key)) patch[key] = s[key];
      await window.attnlab.setState(patch);
      // Two more frames, so whatever the last change freed is freed.
      const f = window.attnlab.framesDrawn();
      while (window.attnlab.framesDrawn() < f + 2) await new Promise((ok) => requestAnimationFrame(ok));
    }, defaults);
  };
  await reset();
  const baseline = await heapStats(page, cdp);
  const series = [];
  const ctx = { panels, accepted: [], npy: weightsNpy() };
  for (let done = 0; done < actions; ) {
    const n = Math.min(batch, actions - done);
    const counts = {};
    for (let i = 0; i < n; i++) {
      const label = await act(page, r, ctx);
      counts[label] = (counts[label] || 0) + 1;
    }
    done += n;
    const before = await page.evaluate(() => window.attnlab.framesDrawn());
    await page.waitForFunction((f) => window.attnlab.framesDrawn() >= f + 3, before, { timeout: 20000 });
    await reset();
    const stats = await heapStats(page, cdp);
    const pwned = await page.evaluate(() => window.__pwned === 1);
    const entry = { actions: done, errors: errors.length, pwned, ...stats, counts };
    series.push(entry);
    log(entry);
  }
  return { baseline, series, accepted: ctx.accepted };
}

// The soak's verdict. The app frees the texture of every heatmap not drawn in the last two
// frames, so after a reset the live GL objects must be exactly the baseline's. Caches (the
// last imported file, the tokenizer's) may keep the live heap somewhat above its first
// baseline, so the heap checks are: every batch within a fixed allowance of the baseline,
// and no growth from the first batch to the last.
export function checkSoak({ baseline, series }, { liveAllowance = 4 << 20, growthAllowance = 1 << 20 } = {}) {
  const first = series[0];
  const last = series.at(-1);
  for (const s of series) {
    if (s.errors) throw new Error(`console errors after ${s.actions} actions`);
    if (s.pwned) throw new Error(`a typed string ran as code by ${s.actions} actions`);
    if (s.liveBytes > baseline.liveBytes + liveAllowance)
      throw new Error(`live heap ${s.liveBytes} B after ${s.actions} actions, baseline ${baseline.liveBytes} B`);
    if (s.jsHeap > baseline.jsHeap * 1.5 + (8 << 20))
      throw new Error(`JS heap ${s.jsHeap} B after ${s.actions} actions, baseline ${baseline.jsHeap} B`);
  }
  if (series.some((s) => s.gl !== baseline.gl))
    throw new Error(`live GL objects after each reset: ${series.map((s) => s.gl).join(', ')}, baseline ${baseline.gl}`);
  if (series.length > 2 && last.liveBytes > first.liveBytes + growthAllowance)
    throw new Error(`live heap grew from ${first.liveBytes} B to ${last.liveBytes} B`);
}
