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

// ---- the random actions --------------------------------------------------------------------

// Texts for the language model's scene, all inside its context (it reads at most 127
// characters; a longer text is refused and the scene kept): English, Chinese, and characters
// outside its vocabulary.
const LM_TEXTS = [
  'The meaning of life is',
  'Love is',
  '慈母手中线，游子身上衣。\n临行密密缝，意恐迟迟归。',
  '床前明月光，疑是地上霜。',
  'A fool and his money are soon parted.',
  'Emoji 🙂 and ☃ are not in its vocabulary; neither is ẞ.',
];
// The panels of attention as current models use it (src/ui/modern_panels.cpp).
const MODERN_PANELS = ['positions', 'gqa', 'flash', 'sinks', 'qk-space'];
// The panels that show the language model's attention (its own panel first).
const LM_PANELS = ['language', 'heads', 'model', 'pipeline', 'token'];
// The panels whose own widgets the random clicks press (buttons, sliders, switches).
const CLICK_PANELS = ['language', 'language', ...MODERN_PANELS, 'heads', 'model'];

// The kinds of action and their weights: each is drawn with probability weight / total.
// The first group is the explorer's (typing, masks, panels, imports, keys, hostile patches);
// then the language model's scene (generation, ablation, the switches that break the math),
// the modern panels, the tour and the chapters. CLICK_KINDS act (also) through clicks on the
// canvas, where layout() says the target is; the others through setState, the text field,
// the file picker and the keys.
export const ACTIONS = [
  ['sentence', 2], ['paste', 1], ['panel', 2], ['mask', 1], ['math', 1], ['cursor', 1], ['resize', 1], ['keys', 1],
  ['hostile', 1], ['heads', 1], ['import', 1],
  ['lm-scene', 1], ['lm-generate', 1], ['lm-ablate', 0.5], ['lm-break', 0.5],
  ['positions', 0.5], ['gqa', 0.5], ['gqa-measure', 0.25], ['flash', 0.5], ['sinks', 0.5], ['qk-space', 0.5],
  ['tour', 0.5], ['tour-click', 0.5], ['chapter-click', 0.5], ['panel-click', 0.75],
];
const ACTION_TOTAL = ACTIONS.reduce((a, [, w]) => a + w, 0);
// The kinds that aim the pointer at a target layout() gives: each counts the times it did
// what it aimed at. (panel-click presses at random, so it counts its hits without a target.)
const CLICK_KINDS = ['qk-space', 'tour-click', 'chapter-click'];

// The kind of the next action: the run's first ACTIONS.length actions are every kind once,
// in a seeded order (so a run of that many covers them all), the rest drawn by weight;
// among `ctx.only` (a list of kinds) if given.
function pickAction(r, ctx) {
  const list = ctx.only ? ACTIONS.filter(([kind]) => ctx.only.includes(kind)) : ACTIONS;
  const index = ctx.index++;
  if (index === 0) ctx.order = shuffled(r, list.map(([kind]) => kind));
  if (index < list.length) return ctx.order[index];
  let x = r.next() * (ctx.only ? list.reduce((a, [, w]) => a + w, 0) : ACTION_TOTAL);
  for (const [kind, weight] of list) {
    if (x < weight) return kind;
    x -= weight;
  }
  return list.at(-1)[0];
}

function shuffled(r, list) {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// Waits until the app has drawn `count` more frames.
async function frames(page, count) {
  await page.evaluate(async (k) => {
    const target = window.attnlab.framesDrawn() + k;
    while (window.attnlab.framesDrawn() < target) await new Promise((ok) => requestAnimationFrame(ok));
  }, count);
}

// A press of the mouse at (x, y) in CSS pixels, a frame for each step (Dear ImGui sees the
// pointer arrive, the button go down, then up); `dx` drags that far before letting go.
async function press(page, x, y, dx = 0) {
  await page.mouse.move(x, y);
  await frames(page, 1);
  await page.mouse.down();
  await frames(page, 1);
  if (dx) {
    await page.mouse.move(x + dx, y, { steps: 2 });
    await frames(page, 1);
  }
  await page.mouse.up();
  await frames(page, 1);
}

// setState(patch): resolves to a few fields of the new state, or {refused: reason}.
// The patch is made valid from where the lab is: `head`, if given, is a fraction in [0, 1)
// of the scene's heads (a head is checked against the heads of the scene the patch starts
// from: into the language model's scene, the model's); a patch into that scene with no text
// of its own brings `fallback` if the text now in the field is longer than the model reads
// (it would be refused, the scene kept).
function patch(page, p, fallback) {
  return page.evaluate(([q, f]) => {
    if (q.source === 'language' || q.head !== undefined) {
      const s = window.attnlab.getState();
      const language = q.source === 'language' || (q.source === undefined && s.source === 'language');
      if (q.head !== undefined) {
        const heads = language ? s.figures.lm.heads : s.heads;
        q.head = Math.floor(q.head * heads);
        if (language) q.heads = heads;
      }
      if (q.source === 'language' && q.sentence === undefined && [...s.sentence].length > s.figures.lm.context - 1) q.sentence = f;
    }
    return window.attnlab.setState(q).then(
      (s) => ({ source: s.source, panel: s.panel, tour: s.tour, n: s.tokens.length, lm: s.figures.lm.loaded }),
      (e) => ({ refused: e.message }));
  }, [p, fallback]);
}

// A whole number in [lo, hi], mostly from the small end (what a reader sets), sometimes anywhere.
function small(r, lo, hi, typical) {
  return r.next() < 0.8 ? r.int(lo, Math.min(hi, typical)) : r.int(lo, hi);
}

// One random action; returns its kind. `ctx.kinds[kind]` counts what it did: ran, refused
// (a setState refused: only the hostile kind and an over-long text for the model expect it),
// for clicks `hit` (the click changed what it should), and the milliseconds it took.
async function act(page, r, ctx) {
  const kind = pickAction(r, ctx);
  const tally = (ctx.kinds[kind] ??= { ran: 0, refused: 0, hit: 0, ms: 0 });
  tally.ran++;
  const started = Date.now();
  const set = async (p) => {
    const s = await patch(page, p, p.source === 'language' ? r.pick(LM_TEXTS) : '');
    if (!s.refused) return s;
    tally.refused++;
    if ((tally.why ??= []).length < 5) tally.why.push(s.refused);
    return null;
  };
  const range = (path) => ctx.schema.find((e) => e.path === path);
  switch (kind) {
    case 'sentence': {
      const text = r.next() < 0.5 ? r.pick(SENTENCES) : randomText(r, r.int(1, 200));
      await page.fill('#sentence', text);
      break;
    }
    case 'paste':
      await page.fill('#sentence', randomText(r, 10000));
      break;
    case 'panel':
      await page.evaluate((p) => window.attnlab.setState({ panel: p }).catch(() => {}), r.pick(ctx.panels));
      break;
    case 'mask': {
      const painted = Array.from({ length: r.int(0, 3) }, (_, i) => `${i}:${r.int(0, 8)}${r.next() < 0.5 ? '+' : '-'}`).join(' ');
      const mask = { causal: r.next() < 0.5, window: r.int(0, 4), stride: r.int(0, 3), block: r.int(0, 4), painted };
      await page.evaluate((m) => window.attnlab.setState({ mask: m }).catch(() => {}), mask);
      break;
    }
    case 'math': {
      const p = { temperature: 0.1 + r.next() * 4, scale: r.pick(['default', 'none', 'custom']), score: r.pick(['dot', 'cosine', 'additive']) };
      await page.evaluate((q) => window.attnlab.setState(q).catch(() => {}), p);
      break;
    }
    case 'heads': {
      const p = { heads: r.pick([1, 2, 4, 8]), dModel: r.pick([8, 16, 32, 64]), seed: r.int(1, 1000) };
      await page.evaluate((q) => window.attnlab.setState(q).catch(() => {}), p);
      break;
    }
    case 'cursor':
      await page.evaluate((c) => window.attnlab.setState({ cursor: c }).catch(() => {}), r.int(-1, 40));
      break;
    case 'resize':
      await page.setViewportSize({ width: r.int(480, 1600), height: r.int(360, 1000) });
      break;
    case 'keys': {
      await page.click('#canvas', { position: { x: 5, y: 5 } });
      for (let i = 0; i < 4; i++) await page.keyboard.press(r.pick(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'BracketLeft', 'BracketRight', 'h']));
      break;
    }
    case 'hostile': {
      const junk = r.pick(['{"heads": 1e308}', '{"sentence": 5}', '[1,2,3]', '{"mask": {"window": -7}}', '{"panel": "nope"}', '{"dModel": "16"}',
        '{"lm": {"ablate": [8]}}', '{"lm": {"tokens": 0}}', '{"modern": {"rowOffset": 6}}', '{"tour": 99}', '{"exercise": 14}', '{"modern": {"kvHeads": 0}}']);
      const refused = await page.evaluate((j) => window.attnlab.setState(JSON.parse(j)).then(() => false, () => true), junk);
      if (!refused) ctx.accepted.push(junk);
      break;
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
      break;
    }

    // -- the language model's scene (its model loaded before the baseline: see soak())
    case 'lm-scene': {
      // Into the scene on one of the panels that show it, a text (now and then one past its
      // context: 300-400 UTF-16 units are at least 150 characters, refused), a layer and
      // head, the cursor.
      const long = r.next() < 0.1;
      if (long) tally.expectRefused = (tally.expectRefused ?? 0) + 1;
      // (randomText cuts at a UTF-16 unit: a half emoji, a lone surrogate, is no text at all and
      // is refused as such, so it is dropped here.)
      const whole = (t) => Array.from(t).filter((c) => !/^[\ud800-\udfff]$/.test(c)).join('') || 'a';
      const sentence = long ? randomText(r, r.int(300, 400)) : r.next() < 0.7 ? r.pick(LM_TEXTS) : whole(randomText(r, r.int(1, 120)));
      await set({ source: 'language', panel: r.pick(LM_PANELS), sentence, layer: r.int(0, 1), head: r.next(), cursor: r.int(-1, 30) });
      break;
    }
    case 'lm-generate': {
      // Generation: how many characters, sampling, how many shown; sometimes playing them out.
      const tokens = small(r, 1, range('lm.tokens').max, 40);
      const lm = { tokens, temperature: r.pick([0, 0.5, 1, 2 * r.next()]), topK: r.int(0, 50), seed: r.int(0, 1 << 30),
        shown: r.int(0, tokens), playing: r.next() < 0.25 };
      await set({ source: 'language', panel: r.next() < 0.7 ? 'language' : r.pick(LM_PANELS), lm });
      break;
    }
    case 'lm-ablate': {
      // Heads switched off (indices layer * heads + head), on the language panel, which also
      // measures each head's ablation in the background.
      const heads = range('lm.ablate').max + 1;
      const ablate = Array.from({ length: heads }, (_, i) => i).filter(() => r.next() < 0.3);
      await set({ source: 'language', panel: r.next() < 0.7 ? 'language' : r.pick(LM_PANELS), lm: { ablate } });
      break;
    }
    case 'lm-break': {
      // The switches that break the math: no scaling, attention temperature, no causal mask,
      // a finite mask fill, half precision.
      const p = { source: 'language', scale: r.pick(['default', 'none']), temperature: r.pick([1, 0.05 + 3.95 * r.next()]),
        mask: { causal: r.next() < 0.7 }, maskFill: r.pick(['-inf', -1e9]), lm: { half: r.next() < 0.2 } };
      if (r.next() < 0.5) p.panel = 'language';
      await set(p);
      break;
    }

    // -- the modern panels (in whichever scene is on: generated, worked example, language, imported)
    case 'positions': {
      const p = { panel: 'positions', modern: { shift: small(r, 1, range('modern.shift').max, 16) }, cursor: r.int(-1, 20),
        positional: r.pick(['none', 'sinusoidal', 'alibi', 'rope']) };
      if (p.positional === 'rope') Object.assign(p, { source: 'generated', dModel: 32, heads: r.pick([1, 2, 4, 8]), ropePairing: r.pick(['half', 'interleaved']) });
      await set(p);
      break;
    }
    case 'gqa':
      await set({ panel: 'gqa', head: r.next(), modern: { kvHeads: r.int(1, range('modern.kvHeads').max), layers: small(r, 1, range('modern.layers').max, 48),
        bytesPerValue: r.pick([1, 2, 4, 8]), decodeStep: small(r, 0, range('modern.decodeStep').max, 30) } });
      break;
    case 'gqa-measure':
      // The panel's Measure: raising decodeRequest times decoding with and without the cache,
      // a sample a frame, while the next actions go on.
      if (!(await page.evaluate(() => window.attnlab.setState({ panel: 'gqa', modern: { decodeRequest: window.attnlab.getState().modern.decodeRequest + 1 } })
        .then(() => true, () => false)))) tally.refused++;
      break;
    case 'flash':
      await set({ panel: 'flash', head: r.next(), modern: { blockQ: small(r, 1, range('modern.blockQ').max, 12), blockK: small(r, 1, range('modern.blockK').max, 12),
        flashCausal: r.next() < 0.5, flashStep: small(r, 0, range('modern.flashStep').max, 40) } });
      break;
    case 'sinks': {
      const o = range('modern.rowOffset');
      await set({ panel: 'sinks', cursor: r.int(-1, 20), head: r.next(), modern: { sinkWindow: small(r, 0, range('modern.sinkWindow').max, 16),
        sinks: small(r, 0, range('modern.sinks').max, 4), rowOffset: o.min + (o.max - o.min) * r.next() } });
      break;
    }
    case 'qk-space': {
      // The plane of queries and keys; the pointer then goes to one of its queries (the
      // readout names the point under it).
      const s = await set({ panel: 'qk-space', head: r.next(), cursor: r.int(-1, 20) });
      const pick = r.next();
      await frames(page, 1);
      const at = s && await page.evaluate((u) => {
        const plot = window.attnlab.layout().plots['qk/plane'];
        const q = window.attnlab.getState().figures.modern.qkSpace?.queries;
        if (!plot || !q?.length) return null;
        const [x, y] = q[Math.floor(u * q.length)];
        return { x: plot.x + ((x - plot.xRange[0]) / (plot.xRange[1] - plot.xRange[0])) * plot.w,
          y: plot.y + plot.h - ((y - plot.yRange[0]) / (plot.yRange[1] - plot.yRange[0])) * plot.h };
      }, pick);
      if (at) {
        await page.mouse.move(at.x, at.y);
        await frames(page, 2);
        if ((await page.evaluate(() => window.attnlab.layout().plots['qk/plane']?.readout ?? '')) !== '') tally.hit++;
      }
      break;
    }

    // -- the tour and the chapters
    case 'tour': {
      // A step by setState, or from a step the arrow keys walking it.
      const step = r.int(0, range('tour').max);
      const s = await set({ tour: step });
      if (s && step > 0 && r.next() < 0.5) {
        await page.focus('#canvas');  // the canvas takes the keys (a click could land on a chapter and end the tour)
        for (let i = r.int(1, 3); i > 0; i--) await page.keyboard.press(r.pick(['ArrowLeft', 'ArrowRight']));
      }
      break;
    }
    case 'tour-click': {
      // The nav's "Start the tour", or the card's Back or Next, where layout() says they are.
      await frames(page, 1);
      const l = await page.evaluate(() => {
        const { tour, nav } = window.attnlab.layout();
        return { step: tour.step, next: tour.nextBox, back: tour.backBox, offer: nav.find((n) => n.kind === 'tour') };
      });
      const target = l.step > 0 ? r.pick([['next', l.next], ['back', l.back]].filter(([, b]) => b && b.w > 0)) : ['offer', l.offer];
      if (!target || !target[1]) break;
      const [which, box] = target;
      await press(page, box.x + box.w / 2, box.y + box.h / 2);
      const want = which === 'offer' ? 1 : which === 'next' ? l.step + 1 : l.step - 1;
      if (await page.evaluate(() => window.attnlab.getState().tour) === want) tally.hit++;
      break;
    }
    case 'chapter-click': {
      // A chapter's button (it opens the chapter's panel last shown) or a panel's button of the shown chapter.
      await frames(page, 1);
      const nav = await page.evaluate(() => window.attnlab.layout().nav.filter((n) => n.kind === 'chapter' || n.kind === 'panel'));
      const item = r.pick(nav.filter((n) => n.kind === (r.next() < 0.6 ? 'chapter' : 'panel')));
      if (!item) break;
      await press(page, item.x + item.w / 2, item.y + item.h / 2);
      const panel = await page.evaluate(() => window.attnlab.getState().panel);
      const chapter = ctx.registry.find((p) => p.id === panel)?.chapter;
      if (item.kind === 'panel' ? panel === item.id : chapter === item.id) tally.hit++;
      break;
    }
    case 'panel-click': {
      // Clicks (and now and then a drag) anywhere under the navigation of one of the new
      // panels: its buttons, sliders and switches (Generate, Step, Play, the ablation boxes,
      // the switches that break the math, Measure, the flash step's arrows), the scene's controls.
      const panel = r.pick(CLICK_PANELS);
      const p = { panel };
      if (panel === 'language' && r.next() < 0.7) p.source = 'language';
      await set(p);
      await frames(page, 1);
      const { top, w, h } = await page.evaluate(() => {
        const nav = window.attnlab.layout().nav;
        return { top: Math.max(0, ...nav.map((n) => n.y + n.h)), w: window.innerWidth, h: window.innerHeight };
      });
      const before = await page.evaluate(() => window.attnlab.link());
      for (let i = r.int(1, 3); i > 0; i--)
        await press(page, r.int(1, w - 2), r.int(Math.ceil(top) + 2, h - 2), r.next() < 0.2 ? r.int(-80, 80) : 0);
      if (await page.evaluate(() => window.attnlab.link()) !== before) tally.hit++;
      break;
    }
    default:
      break;
  }
  tally.ms += Date.now() - started;
  return kind;
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
export async function soak(page, cdp, { actions, batch, seed, errors, only = null, log = () => {} }) {
  const r = rng(seed);
  // The language model's file is fetched and parsed once, when its scene is first asked for,
  // and kept for the page's life (like the fonts): loaded before the baseline, so that the
  // baseline holds it and what the checks measure is what the scene's actions leave behind.
  await page.evaluate(() => window.attnlab.languageModel());
  const defaults = await page.evaluate(() => window.attnlab.getState());
  // Likewise the training lab's runs: built when one of their panels first shows (or a run is
  // started), then kept; reset() below goes back to the default panel.
  await page.evaluate(() => window.attnlab.setState({ panel: 'training' }));
  const schema = await page.evaluate(() => window.attnlab.schema());
  const registry = await page.evaluate(() => window.attnlab.panels());
  const panels = schema.find((e) => e.path === 'panel').choices;
  const reset = async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    // The pointer off the figures (a hovered heatmap's tooltip draws one of its own).
    await page.mouse.move(1, 1);
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
  const ctx = { panels, registry, schema, only, index: 0, order: [], accepted: [], kinds: {}, npy: weightsNpy() };
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
  return { baseline, series, accepted: ctx.accepted, kinds: ctx.kinds };
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

// The actions did what they are for. Every hostile patch was refused; every other setState
// was taken, except a text past the language model's context (refused by design, counted as
// `expectRefused`); and each kind that aims the pointer hit its target (`hit`) at least once.
// `kinds` is soak()'s tally; with `everyKind` each kind of ACTIONS must have run.
export function checkActions({ kinds, accepted }, { everyKind = true } = {}) {
  if (accepted.length) throw new Error(`hostile patches accepted: ${accepted.join(', ')}`);
  for (const [kind] of ACTIONS) {
    const k = kinds[kind];
    if (!k) {
      if (everyKind) throw new Error(`no '${kind}' action ran`);
      continue;
    }
    if (k.refused !== (k.expectRefused ?? 0))
      throw new Error(`'${kind}': ${k.refused} of ${k.ran} patches refused, ${k.expectRefused ?? 0} expected (${(k.why ?? []).join('; ')})`);
    if (CLICK_KINDS.includes(kind) && k.hit === 0) throw new Error(`'${kind}': none of ${k.ran} clicks hit`);
  }
}
