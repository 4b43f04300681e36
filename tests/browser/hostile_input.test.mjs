// Hostile input at every door into the lab (issue 39: "No link, message, file or stored
// session can stop the lab"): links on the full page (at start-up and by in-page navigation)
// and on embeds (v=1 and v=3), stored sessions (at start-up and through the handle), the
// handle's setState, and postMessage setState / importFile from a host page on another
// origin. The table's classes: every class of invalid UTF-8 (in values and in key names),
// deep nesting, huge and non-finite numbers, a wrong-typed value for every key of the
// schema (window.attnlab.schema()), unknown keys, very long values, lone surrogates.
// After each case the lab must answer getState(), say why (the notice, in the UI's language,
// for links; ok:false with the reason for messages), take a normal setState({cursor}) that
// resolves after frames advance, and no uncaught error may have appeared.
//
// Every failing case is collected and reported together (its exact input and what happened),
// so one run lists them all. Screenshots of the refused-link notice (English at DPR 1,
// Chinese at DPR 2): build/test-artifacts/hostile-*.png.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBrowser, serveDist } from '../support/browser.mjs';
import { decodePng } from '../support/png.mjs';
import { artifactsDir } from '../support/paths.mjs';
import { startServer } from '../../scripts/serve.mjs';

const LINK_IGNORED = { en: "The link's state was ignored: ", zh: '链接中的状态已被忽略' };
const SESSION_IGNORED = 'The stored session was ignored: ';
const CASE_MS = 8000;  // a case that takes longer than this has stalled the lab
// The tables run on small pages (fewer pixels for the software rasteriser to fill), two
// groups at a time; the screenshots are taken at 1000 x 640.
const SMALL = { width: 640, height: 400 };
const SHOT = { width: 1000, height: 640 };

let server, url, host, hostDir, browser, storageSite;
before(async () => {
  ({ server, url } = await serveDist());
  // The stored-session group runs beside the others: its pages get an origin (a port) of their
  // own, so no other group's pages write or clear the localStorage it reads.
  storageSite = await serveDist();
  // The host pages come from another origin (another port), as a course page would.
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-hostile-'));
  host = await startServer({ root: hostDir });
  browser = await openBrowser({ viewport: SHOT });
});
after(async () => {
  await browser?.close();
  server?.close();
  storageSite?.server.close();
  host?.server.close();
  if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
});

// ---- inputs ---------------------------------------------------------------------------------

// A long input is written as a recipe, built in the page (window.__hostile.build): a list of
// parts, each a string or [string, count] (repeated). show() prints it short for the
// failure list.
const show = (parts) => parts.map((p) => (Array.isArray(p) ? `${JSON.stringify(p[0])}×${p[1]}` : JSON.stringify(p))).join(' + ');

// Every class of invalid UTF-8, percent-encoded as a link carries bytes.
const BAD_UTF8 = [
  ['overlong 2-byte NUL (C0 80)', '%C0%80'],
  ['overlong 2-byte (C1 BF)', '%C1%BF'],
  ['overlong 3-byte NUL (E0 80 80)', '%E0%80%80'],
  ['overlong 3-byte (E0 9F BF)', '%E0%9F%BF'],
  ['overlong 4-byte NUL (F0 80 80 80)', '%F0%80%80%80'],
  ['overlong 4-byte (F0 8F BF BF)', '%F0%8F%BF%BF'],
  ['C0 lead alone', '%C0'],
  ['C1 lead before ASCII', '%C1A'],
  ['high surrogate (ED A0 80)', '%ED%A0%80'],
  ['low surrogate (ED BF BF)', '%ED%BF%BF'],
  ['surrogate pair as CESU-8', '%ED%A0%BD%ED%B8%80'],
  ['above U+10FFFF (F4 90 80 80)', '%F4%90%80%80'],
  ['F5 lead', '%F5%80%80%80'],
  ['F6 lead', '%F6%80%80%80'],
  ['F7 lead', '%F7%BF%BF%BF'],
  ['F8 lead (5-byte form)', '%F8%88%80%80%80'],
  ['FC lead (6-byte form)', '%FC%84%80%80%80%80'],
  ['FE byte', '%FE'],
  ['FF byte', '%FF'],
  ['lone continuation 80', '%80'],
  ['lone continuation BF', 'a%BFb'],
  ['run of continuations', '%80%80%80%80'],
  ['truncated 2-byte at the end', 'ab%C3'],
  ['truncated 3-byte at the end', 'ab%E2%82'],
  ['truncated 4-byte at the end', 'ab%F0%9F%98'],
  ['truncated 3-byte in the middle', 'a%E2%82b'],
  ['truncated 4-byte in the middle', 'a%F0%9F%98%20b'],
  ['valid character after an invalid one', '%C0%80%E2%82%AC'],
  ['valid CJK after an FF', '%FF%E7%8C%AB'],
  ['invalid after a valid CJK', '%E7%8C%AB%ED%A0%80'],
];

// Where a class goes: the sentence, another string key (a different one per class, top level
// and under a dotted path), and a key's name.
const STRING_KEYS = ['panel', 'mask.painted', 'compare.score', 'theme', 'scale', 'compare.mask.painted', 'variants.kind', 'language'];
const NAME_SPOTS = [(b) => `${b}=1`, (b) => `sentence${b}=x`, (b) => `mask.${b}=true`, (b) => `compare.mask.x${b}=1`];

function linkTable() {
  const cases = [];
  const refuse = (name, parts, why) => cases.push({ name, parts, expect: 'refuse', why });
  BAD_UTF8.forEach(([cls, bytes], i) => {
    refuse(`invalid UTF-8 in the sentence: ${cls}`, [`#v=3&sentence=the%20${bytes}%20cat`], /UTF-8/);
    const key = STRING_KEYS[i % STRING_KEYS.length];
    refuse(`invalid UTF-8 in '${key}': ${cls}`, [`#v=3&${key}=${bytes}`], /UTF-8/);
    refuse(`invalid UTF-8 in a key's name: ${cls}`, [`#v=3&${NAME_SPOTS[i % NAME_SPOTS.length](bytes)}`]);
  });
  // Invalid UTF-8 inside a JSON value of the link (a string in an array, an object's key).
  refuse('invalid UTF-8 inside a JSON string value', ['#v=3&lab.q=["%C0%80",1]']);
  refuse('invalid UTF-8 as a JSON object key', ['#v=3&mask={"%ED%A0%80":true}']);
  refuse('invalid UTF-8 in v', ['#v=%FF&sentence=a']);
  refuse("a '%' without two hex digits", ['#v=3&sentence=100%']);
  // Nesting: thousands of [ and {, balanced and not, at the top and under a dotted path.
  // (In the sentence they are text, which the tokenizer may take or refuse: either way the
  // lab goes on.)
  cases.push({ name: 'nesting: 5000 [ in the sentence', parts: ['#v=3&sentence=', ['[', 5000]], expect: 'either' });
  cases.push({ name: 'nesting: 3000 balanced [ ] in the sentence', parts: ['#v=3&sentence=', ['[', 3000], [']', 3000]], expect: 'either' });
  // The state nests at most 16 levels, and a path's names are levels of it: the notice names
  // the key and the levels its value had left (src/app/url_state.cpp).
  const DEEP = (path) => new RegExp(`the value of '${path.replace(/\./g, '\\.')}' in the link nests more than ${16 - path.split('.').length} levels deep`);
  for (const [name, parts, why] of [
    ['4000 balanced [ ] in mask.window', ['#v=3&mask.window=', ['[', 4000], '1', [']', 4000]], DEEP('mask.window')],
    ['3000 nested objects in compare.mask.causal', ['#v=3&compare.mask.causal=', ['{"a":', 3000], '1', ['}', 3000]], DEEP('compare.mask.causal')],
    ['3000 nested objects as the mask', ['#v=3&mask=', ['{"causal":', 3000], 'true', ['}', 3000]], DEEP('mask')],
    ['20000 { in lab.q', ['#v=3&lab.q=', ['{', 20000]], DEEP('lab.q')],
    ['17 levels of [ ] in lab.row (one past the state\'s depth limit)', ['#v=3&lab.row=', ['[', 17], '1', [']', 17]], DEEP('lab.row')],
    // 16 levels in the value, 18 in the state it makes: refused, naming the key (not a byte of
    // a JSON text the reader never wrote).
    ['16 levels of [ ] in lab.row', ['#v=3&lab.row=', ['[', 16], '1', [']', 16]], /lab\.row|'row' in 'lab'/],
    ['a dotted path of 5000 segments', ['#v=3&', ['a.', 5000], 'b=1']],
    ['a dotted path of 9 segments', ['#v=3&mask.a.b.c.d.e.f.g.h=1']],
    ['an empty path segment', ['#v=3&mask..causal=true']],
  ]) refuse(`nesting: ${name}`, parts, why);
  // Huge and non-finite numbers.
  for (const [key, text] of [
    ['temperature', '1e999'], ['temperature', '-1e999'], ['temperature', 'NaN'], ['temperature', 'Infinity'],
    ['temperature', '-Infinity'], ['ropeBase', '1e39'], ['uiScale', '1e39'], ['scale', '1e999'], ['scale', '-1e39'],
    ['maskFill', '-1e39'], ['maskFill', '-1e999'], ['compare.temperature', '1e39'], ['lab.temperature', 'Infinity'],
    ['modern.rowOffset', '-1e999'], ['lab.q', '[1e999,0]'], ['lab.row', '[1,NaN]'], ['lab.row', '[-1e39]'],
    ['seed', '9007199254740993'], ['seed', '1e400'], ['variants.seed', '9007199254740993'], ['lm.seed', '18446744073709551616'],
    ['dModel', '99999999999999999999999'], ['heads', '-9223372036854775809'], ['cursor', '1e999'], ['dModel', '1.5'],
    ['mask.window', '0x10'], ['mask.global', '[1e999]'],
  ]) refuse(`number: ${key}=${text}`, [`#v=3&${key}=${text}`]);
  cases.push({ name: 'number: cursor=-0 (a zero)', parts: ['#v=3&cursor=-0'], expect: 'either' });
  // Unknown keys, at the top and nested; keys twice.
  for (const text of ['hostile=1', 'mask.hostile=true', 'compare.mask.hostile=1', 'lab.__proto__=1', '__proto__=1',
    'constructor.prototype=1', 'v=3&v=3', 'sentence=a&sentence=b', 'mask=1&mask.causal=true', 'noequals', '=1'])
    refuse(`unknown or malformed: ${text}`, [`#v=3&${text}`]);
  refuse('the version is 99', ['#v=99&sentence=a']);
  refuse('the version is a string', ['#v="3"&sentence=a']);
  // Very long values.
  // Over the fragment cap. Chromium takes seconds to set a hash of a megabyte (its history
  // keeps the whole address), so these two go to handle.loadLink, the call the page's
  // hashchange listener makes, and the notice is checked against handle.refusalText().
  cases.push({ name: 'a 1 MB sentence (over the fragment cap)', parts: ['#v=3&sentence=', ['a', 1 << 20]], expect: 'refuse', why: /at most/, direct: true });
  refuse('a 70 kB sentence (over the sentence cap)', ['#v=3&sentence=', ['a', 70000]], /at most/);
  refuse('a sentence of 2000 tokens', ['#v=3&sentence=', ['a%20', 2000]], /at most/);
  refuse('a 100 kB key name', ['#v=3&', ['k', 100000], '=1']);
  refuse('a 100 kB painted mask', ['#v=3&mask.painted=', ['0:0+%20', 14000]]);
  refuse('mask.global of 5000 indices', ['#v=3&mask.global=[', ['1,', 4999], '1]']);
  refuse('lab.row of 10000 numbers', ['#v=3&lab.row=[', ['1,', 9999], '1]']);
  cases.push({ name: 'a link of 300000 pairs', parts: ['#v=3', ['&x=1', 300000]], expect: 'refuse', why: /at most/, direct: true });
  return cases;
}

// Wrong JSON types for every key of the schema, and for every object the keys sit in.
// Runs in the page (the schema comes from window.attnlab.schema()); returns
// [{path, label, value}] with value a JSON-able value.
function wrongTypeCases(schema) {
  const VALUES = { string: 'hostile', number: 7, bool: true, null: null, array: [1, 'x'], object: { x: 1 } };
  const TAKES = {
    bool: ['bool'], int: ['number'], number: ['number'], token: ['number'], enum: ['string'], 'enum|number': ['string', 'number'],
    string: ['string'], cells: ['string'], tokens: ['array'], indices: ['array'], vector: ['array'], list: ['array'],
  };
  const out = [];
  const parents = new Set();
  for (const e of schema) {
    const takes = TAKES[e.kind];
    if (!takes) throw new Error(`the schema has a kind this test does not know: ${e.kind} (${e.path})`);
    for (const [type, value] of Object.entries(VALUES)) if (!takes.includes(type)) out.push({ path: e.path, label: type, value });
    if (e.kind === 'enum' || e.kind === 'enum|number') out.push({ path: e.path, label: 'a string that is no choice', value: 'hostile' });
    if (e.kind === 'cells') out.push({ path: e.path, label: 'a string that is no cell', value: 'hostile' });
    if (takes.includes('array')) {
      out.push({ path: e.path, label: 'array of strings', value: ['x'] });
      out.push({ path: e.path, label: 'array of arrays', value: [[1]] });
      out.push({ path: e.path, label: 'array holding null', value: [null] });
    }
    const parts = e.path.split('.');
    for (let i = 1; i < parts.length; i++) parents.add(parts.slice(0, i).join('.'));
  }
  for (const p of parents)
    for (const [type, value] of Object.entries(VALUES)) if (type !== 'object') out.push({ path: p, label: `${type} for the object`, value });
  return out;
}

// Stored-session texts (and, where they parse as JSON objects, the same as setState patches).
// `raw`: \uD800-style escapes become lone surrogate characters of the JavaScript string
// itself (what a script, or a session stored by another program, can hand the lab).
function sessionTable() {
  const cases = [];
  const refuse = (name, parts, more = {}) => cases.push({ name, parts, expect: 'refuse', ...more });
  for (const text of ['', '{', 'null', '[]', '"x"', '1', 'true', '{"version":3,}', '{"version":3}{}'])
    refuse(`not a JSON object: ${JSON.stringify(text)}`, [text]);
  // Lone surrogates: escaped in the JSON text, and as characters of the string.
  refuse('an escaped lone high surrogate in the sentence', ['{"version":3,"sentence":"\\ud800"}']);
  refuse('an escaped lone low surrogate in the sentence', ['{"version":3,"sentence":"a\\udc00b"}']);
  refuse('a reversed surrogate pair', ['{"version":3,"sentence":"\\udc00\\ud800"}']);
  refuse('an escaped lone surrogate as a key', ['{"version":3,"\\ud800":1}']);
  refuse('an escaped lone surrogate as a nested key', ['{"version":3,"mask":{"\\udbff":true}}']);
  refuse('an escaped lone surrogate in the panel', ['{"version":3,"panel":"\\udfff"}']);
  // A lone surrogate character is not text: refused, or (if the lab replaces it) U+FFFD.
  refuse('a lone high surrogate character in the sentence', ['{"version":3,"sentence":"a\\ud800b"}'], { raw: true, orSentence: 'a\uFFFDb' });
  refuse('a lone low surrogate character at the end of the sentence', ['{"version":3,"sentence":"ab\\udc00"}'], { raw: true, orSentence: 'ab\uFFFD' });
  refuse('a lone surrogate character in a key', ['{"version":3,"x\\ud800":1}'], { raw: true });
  // Nesting.
  refuse('5000 balanced [ ] as the sentence', ['{"version":3,"sentence":', ['[', 5000], [']', 5000], '}']);
  refuse('100000 [ alone', [['[', 100000]]);
  refuse('5000 nested objects', [['{"a":', 5000], '1', ['}', 5000]]);
  refuse('3000 nested objects under mask.causal', ['{"version":3,"mask":{"causal":', ['{"a":', 3000], '1', ['}', 3000], '}}']);
  refuse('17 levels of [ ] under compare.mask.global', ['{"version":3,"compare":{"mask":{"global":', ['[', 17], [']', 17], '}}}']);
  refuse('a state 16 levels deep (wrong type at the bottom)', ['{"lab":{"row":', ['[', 14], '1', [']', 14], '}}']);
  // Numbers.
  for (const [key, text] of [['temperature', '1e999'], ['temperature', '-1e999'], ['temperature', 'NaN'], ['temperature', 'Infinity'],
    ['temperature', '-Infinity'], ['ropeBase', '1e39'], ['scale', '1e39'], ['maskFill', '-1e39'], ['lab.temperature', '1e39'],
    ['seed', '9007199254740993'], ['variants.seed', '9007199254740993'], ['dModel', '1e400'], ['heads', '-0.0'], ['cursor', '1e999'],
    ['uiScale', '-1e999'], ['lab.row', '[1e999]'], ['lab.q', '[NaN,1]']]) {
    const parts = key.split('.');
    const inner = `"${parts.at(-1)}":${text}`;
    refuse(`number: ${key} = ${text}`, [parts.length === 1 ? `{"version":3,${inner}}` : `{"version":3,"${parts[0]}":{${inner}}}`]);
  }
  cases.push({ name: 'number: cursor = -0 (a zero)', parts: ['{"version":3,"cursor":-0}'], expect: 'either' });
  // Unknown keys.
  for (const text of ['{"version":3,"hostile":1}', '{"version":3,"mask":{"hostile":true}}', '{"version":3,"compare":{"mask":{"x":1}}}',
    '{"version":3,"__proto__":{"sentence":"polluted"}}', '{"version":3,"constructor":{"prototype":{}}}', '{"version":3,"":1}',
    '{"version":3,"mask.causal":true}', '{"version":99}', '{"version":"3"}', '{"version":3.5}', '{"version":-1}'])
    refuse(`unknown key or version: ${text}`, [text]);
  // Very long values.
  refuse('a 1 MB sentence', ['{"version":3,"sentence":"', ['a', 1 << 20], '"}'], { why: /at most/ });
  refuse('a 70 kB sentence', ['{"version":3,"sentence":"', ['a', 70000], '"}'], { why: /at most/ });
  refuse('a sentence of 2000 tokens', ['{"version":3,"sentence":"', ['a ', 2000], '"}'], { why: /at most/ });
  refuse('a 100 kB key name', ['{"version":3,"', ['k', 100000], '":1}']);
  refuse('mask.global of 5000 indices', ['{"version":3,"mask":{"global":[', ['1,', 4999], '1]}}']);
  refuse('lab.row of 10000 numbers', ['{"version":3,"lab":{"row":[', ['1,', 9999], '1]}}']);
  refuse('a 100 kB painted mask', ['{"version":3,"mask":{"painted":"', ['0:0+ ', 20000], '"}}']);
  cases.push({ name: 'a valid session', parts: ['{"version":3,"sentence":"a valid session","mask":{"causal":true}}'], expect: 'accept', sentence: 'a valid session' });
  return cases;
}

// ---- helpers ----------------------------------------------------------------------------------

// Installed in every document and frame before its scripts: uncaught errors, and the checks
// each case ends with. (Installed this way because the lab's pages forbid eval.)
const INIT = () => {
  const h = window.__hostile = { errors: [] };
  addEventListener('error', (e) => h.errors.push(`uncaught: ${e.message}`));
  addEventListener('unhandledrejection', (e) => h.errors.push(`unhandled rejection: ${e.reason?.stack ?? e.reason}`));
  h.build = (parts) => parts.map((p) => (Array.isArray(p) ? p[0].repeat(p[1]) : p)).join('');
  // \ud800-style escapes as the characters themselves.
  h.raw = (text) => text.replace(/\\u(d[89a-f][0-9a-f]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  h.timeout = (ms, what) => new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} did not finish in ${ms} ms`)), ms));
  // A normal setState({cursor}) resolves with that cursor after frames advanced, and getState
  // answers. '' or what went wrong.
  h.alive = async (cursor) => {
    try {
      const lab = window.attnlab;
      const state = lab.getState();
      if (!state || !Array.isArray(state.tokens)) return `getState() gave ${JSON.stringify(state)?.slice(0, 200)}`;
      const f0 = lab.framesDrawn();
      const s = await Promise.race([lab.setState({ cursor }), h.timeout(5000, `setState({cursor: ${cursor}})`)]);
      if (s.cursor !== cursor) return `setState({cursor: ${cursor}}) gave cursor ${s.cursor}`;
      if (!(lab.framesDrawn() > f0)) return 'setState resolved but no frame was drawn';
      return '';
    } catch (e) {
      return `the lab does not answer: ${e?.stack ?? e}`;
    }
  };
};

// Collects uncaught errors of the page and its frames, console errors, and the warnings an
// aborted WebAssembly instance prints.
function watch(page) {
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${(err.stack ?? String(err)).slice(0, 1500)}`));
  page.on('console', (msg) => {
    const text = msg.text();
    if (msg.type() === 'error' || /Aborted|RuntimeError|exception|call stack/i.test(text))
      errors.push(`console.${msg.type()}: ${text.slice(0, 1500)}`);
  });
  page.on('crash', () => errors.push('the page crashed'));
  return errors;
}

// Races a promise against a stall.
function within(ms, promise, what) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`stalled: ${what} did not finish in ${ms} ms`)), ms);
  })]).finally(() => clearTimeout(timer));
}

async function newPage(context, { clearStorage = true } = {}) {
  const page = await context.newPage();
  const errors = watch(page);
  await page.addInitScript(INIT);
  if (clearStorage) {
    // Once per tab, so a reload keeps what the test stored.
    await page.addInitScript(() => {
      if (sessionStorage.getItem('hostile-fresh')) return;
      sessionStorage.setItem('hostile-fresh', '1');
      localStorage.clear();
    });
  }
  return { page, errors };
}

// Waits for the full page's lab: true, or what went wrong.
const labReady = (page, ms = 60000) => within(ms, page.evaluate(() => window.attnlab.ready.then(() => true)), 'attnlab.ready')
  .catch((e) => `not ready: ${e.message.split('\n')[0]}`);

async function openFullPage(context, target, viewport = SMALL) {
  const p = await newPage(context);
  await p.page.setViewportSize(viewport);
  await p.page.goto(target);
  p.ready = await labReady(p.page);
  return p;
}

const noticeText = (page) => page.evaluate(() => document.getElementById('notice').textContent);
const alive = (target, cursor) => within(CASE_MS, target.evaluate((c) => window.__hostile.alive(c), cursor), 'the alive check')
  .catch((e) => e.message);
const frameErrors = (target) => target.evaluate(() => window.__hostile.errors.slice()).catch((e) => [`cannot read the frame: ${e.message}`]);

function report(failures, total, what, t0) {
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  if (failures.length) console.log(`# ${what}: ${failures.length} of ${total} cases failed (${seconds} s):\n${failures.map((f) => `#   ${f}`).join('\n')}`);
  else console.log(`# ${what}: ${total} cases passed (${seconds} s)`);
  assert.deepEqual(failures, [], `${failures.length} of ${total} hostile cases failed (${what})`);
}

// The notice is on screen, in one piece, and drawn: the box lies inside the window, its text
// is not cut off, and the screenshot has pixels of the notice's colour inside the box.
async function assertNoticeShown(page, png, what) {
  const box = await page.evaluate(() => {
    const n = document.getElementById('notice');
    const r = n.getBoundingClientRect();
    return {
      x: r.x, y: r.y, w: r.width, h: r.height, color: getComputedStyle(n).color, innerWidth, innerHeight,
      clipped: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1,
      visible: getComputedStyle(n).display !== 'none' && getComputedStyle(n).visibility !== 'hidden',
    };
  });
  assert.ok(box.visible && box.w > 50 && box.h > 8, `${what}: the notice has no box (${JSON.stringify(box)})`);
  assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.w <= box.innerWidth + 0.5 && box.y + box.h <= box.innerHeight + 0.5,
    `${what}: the notice is not inside the window (${JSON.stringify(box)})`);
  assert.ok(!box.clipped, `${what}: the notice's text is cut off`);
  const want = box.color.match(/\d+/g).slice(0, 3).map(Number);
  const scale = png.width / box.innerWidth;
  let ink = 0;
  for (let y = Math.ceil(box.y * scale); y < Math.floor((box.y + box.h) * scale); y++)
    for (let x = Math.ceil(box.x * scale); x < Math.floor((box.x + box.w) * scale); x++) {
      const p = png.pixel(x, y);
      if (Math.abs(p[0] - want[0]) + Math.abs(p[1] - want[1]) + Math.abs(p[2] - want[2]) < 60) ink++;
    }
  console.log(`# ${what}: notice box ${Math.round(box.w)}x${Math.round(box.h)} CSS px at (${Math.round(box.x)}, ${Math.round(box.y)}), ${ink} pixels of its colour rgb(${want})`);
  assert.ok(ink > 40 * scale * scale, `${what}: only ${ink} pixels of the notice's colour in its box`);
}

// ---- the full page -----------------------------------------------------------------------------

// The full page one group of cases runs on. A case that leaves the lab dead gets its failure
// written down, and the group goes on in a fresh page (at most 12 times), so one failure does
// not hide the rest.
async function groupPage(target = `${url}index.html`, existing = null) {
  const g = { reloads: 0, target };
  g.open = async () => Object.assign(g, await openFullPage(browser.context, g.target));
  g.reviveIfDead = async () => {
    if (await answers(g.page)) return true;
    if (++g.reloads > 12) return false;
    await within(5000, g.page.close(), 'closing a dead page').catch(() => {});
    await g.open();
    return true;
  };
  if (existing) Object.assign(g, existing);
  else await g.open();
  return g;
}
// The keys where two sessions differ (for the failure list).
function differingKeys(a, b) {
  return [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].filter((k) => JSON.stringify(a?.[k]) !== JSON.stringify(b?.[k]));
}
// Is the lab of `page` still answering?
const answers = (page) => within(3000, page.evaluate(() => !!window.attnlab.getState()), 'getState').then((ok) => ok, () => false);




// ---- embeds -------------------------------------------------------------------------------------

function writeHost(name, body) {
  fs.writeFileSync(path.join(hostDir, name), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body{margin:0;background:#fff} iframe{border:0;display:inline-block;vertical-align:top}</style></head><body>${body}</body></html>`);
}

// The lab of an embed, once its window.attnlab exists: the frame, or what went wrong (an
// uncaught error in the frame before its lab came ends the wait at once).
async function embedLab(page, id, ms = 45000) {
  const frame = await (await page.waitForSelector(`#${id}`)).contentFrame();
  try {
    await frame.waitForFunction(() => window.attnlab?.getState || window.__hostile?.errors.length, null, { timeout: ms, polling: 100 });
    if (await frame.evaluate(() => !!window.attnlab?.getState)) return { frame };
    return { frame, error: 'the embed stopped before its lab existed' };
  } catch (e) {
    return { frame, error: `window.attnlab never appeared in ${ms} ms` };
  }
}


// The messages a host page sends: built in the host page (lone surrogates, Infinity, byte
// buffers cannot all cross into it as arguments). Each: {name, make() -> message, id,
// expect: 'refuse' (a reply {ok: false, error}) | 'accept' | 'none' (not the lab's: no reply)
// | 'ignore' (too large to be read: no reply, or ok: false), idOrNull (the reply's id may be
// null: text the lab cannot parse has no id it could read; an object's id is echoed), anyId
// (the id itself is what is wrong: any reply), maxMs, check(reply) -> '', orCheck(reply) -> '' (an accepted reply
// that is as good as a refusal: a repair the lab documents)}.
const HOST_CASES = () => {
  const cases = [];
  let next = 1000;
  const nest = (open, inner, close, n) => JSON.parse(open.repeat(n) + inner + close.repeat(n));
  const setState = (name, state, more = {}) => {
    const id = next++;
    cases.push({ name, id, expect: 'refuse', make: () => ({ attnlab: 1, id, type: 'setState', state: typeof state === 'function' ? state() : state }), ...more });
  };
  const message = (name, make, more = {}) => {
    const id = next++;
    cases.push({ name, id, expect: 'refuse', make: () => make(id), ...more });
  };
  // Lone surrogates in strings and keys (the embed writes the message as JSON, escaping them).
  setState('a lone high surrogate as the sentence', { sentence: '\uD800' });
  setState('a lone low surrogate inside the sentence', { sentence: 'x\uDFFFy' });
  setState('a reversed pair in the sentence', { sentence: '\uDC00\uD800' });
  setState('a lone surrogate as a key', { ['\uD800']: 1 });
  setState('a lone surrogate as a nested key', { mask: { ['\uDBFF']: true } });
  setState('a lone surrogate as the panel', { panel: '\uD800' });
  setState('a lone surrogate in painted cells', { mask: { painted: '0:0+ \uDC00' } });
  message('a lone surrogate as the id', () => ({ attnlab: 1, id: '\uD800', type: 'setState', state: { cursor: 1 } }), { anyId: true });
  message('a lone surrogate in the type', (id) => ({ attnlab: 1, id, type: 'setState\uD800', state: {} }), { anyId: true });
  message('a lone surrogate as an unknown message key', (id) => ({ attnlab: 1, id, type: 'getState', ['\uDFFF']: 1 }), { anyId: true });
  // Text messages (the embed reads a string as the message's JSON).
  message('text: an escaped lone surrogate', (id) => `{"attnlab":1,"id":${id},"type":"setState","state":{"sentence":"\\ud800"}}`, { idOrNull: true });
  message('text: a lone surrogate character', (id) => `{"attnlab":1,"id":${id},"type":"setState","state":{"sentence":"a\uD800b"}}`,
    { idOrNull: true, orSentence: 'a\uFFFDb' });
  message('text: truncated JSON naming attnlab', (id) => `{"attnlab":1,"id":${id},"type":"setState","state":{`, { idOrNull: true });
  message('text: 100000 [ after attnlab', (id) => `{"attnlab":1,"id":${id},"type":"setState","state":` + '['.repeat(100000), { idOrNull: true });
  message('text: 5000 balanced [ ] as the state', (id) => `{"attnlab":1,"id":${id},"type":"setState","state":` + '['.repeat(5000) + ']'.repeat(5000) + '}', { idOrNull: true });
  message('text: not the lab\'s', () => 'hello', { expect: 'none' });
  message('text: another tool\'s JSON', () => '{"type":"setState","state":{}}', { expect: 'none' });
  // Nesting.
  // (Deeper than about 2500 levels, the host's own postMessage refuses to copy the object.)
  setState('2000 nested arrays as the sentence', () => ({ sentence: nest('[', '', ']', 2000) }));
  setState('2000 nested objects under mask.causal', () => ({ mask: { causal: nest('{"a":', '1', '}', 2000) } }));
  setState('the state 17 levels deep', () => nest('{"a":', '1', '}', 17));
  // What structured clone carries and JSON cannot hold.
  setState('a cycle in the state', () => { const o = { sentence: 'x' }; o.self = o; return o; });
  setState('a BigInt in the state', () => ({ seed: 10n }));
  message('2000 nested arrays beside the state', (id) => ({ attnlab: 1, id, type: 'setState', state: {}, extra: nest('[', '', ']', 2000) }));
  message('2000 nested arrays as attnlab', (id) => ({ attnlab: nest('[', '1', ']', 2000), id, type: 'getState' }), { anyId: true });
  // Numbers (the embed's JSON writes non-finite numbers as null).
  for (const [key, value] of [['temperature', Infinity], ['temperature', -Infinity], ['temperature', NaN], ['temperature', 1e39],
    ['ropeBase', 1e39], ['scale', -1e39], ['maskFill', -1e39], ['seed', 2 ** 53 + 1], ['seed', 2 ** 64], ['dModel', 1.5], ['heads', 1e300]])
    setState(`number: ${key} = ${value}`, { [key]: value });
  setState('number: lab.row = [1e39]', { lab: { row: [1e39] } });
  { const id = next++; cases.push({ name: 'number: cursor = -0', id, expect: 'accept', make: () => ({ attnlab: 1, id, type: 'setState', state: { cursor: -0 } }), check: (r) => (r.state.cursor === 0 ? '' : `cursor ${r.state.cursor}`) }); }
  // Wrong types and unknown keys (every key's wrong types run on the full page).
  for (const [name, state] of [['sentence: a number', { sentence: 5 }], ['mask: a string', { mask: 'x' }], ['compare: an array', { compare: [] }],
    ['heads: a string', { heads: '4' }], ['mask.causal: a string', { mask: { causal: 'yes' } }], ['lab.q: a string', { lab: { q: 'x' } }],
    ['cursor: null', { cursor: null }], ['an unknown key', { hostile: 1 }], ['an unknown key in mask', { mask: { hostile: 1 } }],
    ['an unknown key in compare.mask', { compare: { mask: { x: 1 } } }], ['a __proto__ key', JSON.parse('{"__proto__":{"sentence":"x"}}')],
    ['an empty key', { '': 1 }]])
    setState(`type: ${name}`, state);
  message('state: a string', (id) => ({ attnlab: 1, id, type: 'setState', state: 'x' }));
  message('state: null', (id) => ({ attnlab: 1, id, type: 'setState', state: null }));
  message('state: an array', (id) => ({ attnlab: 1, id, type: 'setState', state: [1] }));
  message('attnlab: 2', (id) => ({ attnlab: 2, id, type: 'getState' }));
  message('type: a number', (id) => ({ attnlab: 1, id, type: 5 }));
  message('type: unknown', (id) => ({ attnlab: 1, id, type: 'eval' }));
  message('id: an object', () => ({ attnlab: 1, id: {}, type: 'getState' }), { anyId: true });
  message('id: 100 characters', () => ({ attnlab: 1, id: 'i'.repeat(100), type: 'getState' }), { anyId: true });
  message('subscribe: an unknown event', (id) => ({ attnlab: 1, id, type: 'subscribe', event: '\uD800' }), { anyId: true });
  // Very long values.
  setState('a 1,000,000-character sentence', () => ({ sentence: 'a'.repeat(1000000) }));
  setState('a 70 kB sentence', () => ({ sentence: 'a'.repeat(70000) }));
  setState('a sentence of 2000 tokens', () => ({ sentence: 'a '.repeat(2000) }));
  setState('a 100 kB key name', () => ({ ['k'.repeat(100000)]: 1 }));
  setState('mask.global of 5000 indices', () => ({ mask: { global: Array.from({ length: 5000 }, (_, i) => i) } }));
  message('a 1.2 MB message (over the message cap)', (id) => ({ attnlab: 1, id, type: 'setState', state: { sentence: 'a'.repeat(1200000) } }), { expect: 'ignore' });
  { const id = next++; cases.push({ name: 'a valid setState (the door is open)', id, expect: 'accept', make: () => ({ attnlab: 1, id, type: 'setState', state: { sentence: 'hostile input was refused', cursor: 1 } }), check: (r) => (r.state.sentence === 'hostile input was refused' ? '' : `sentence ${r.state.sentence}`) }); }
  // importFile: junk, bad names, bad fields, a JSON file with a 2 MB token label.
  const bytesOf = (text) => new TextEncoder().encode(text).buffer;
  const junk = (n, seed) => { const b = new Uint8Array(n); let s = seed; for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) >>> 0; b[i] = s >>> 24; } return b.buffer; };
  const file = (name, fileName, bytes, more = {}) => message(`importFile: ${name}`, (id) => {
    const m = { attnlab: 1, id, type: 'importFile', name: fileName, bytes: typeof bytes === 'function' ? bytes() : bytes };
    return m;
  }, { transfer: (m) => (m.bytes instanceof ArrayBuffer ? [m.bytes] : []), notice: true, maxMs: 5000, ...more });
  const attention = '{"format":"attnlab-attention","version":1,"attentions":[[[[0.75,0.25],[0.5,0.5]]]]';
  file('junk bytes as .npz', 'junk.npz', () => junk(4096, 1));
  file('junk bytes as .npy', 'junk.npy', () => junk(4096, 2));
  file('junk bytes as .json', 'junk.json', () => junk(4096, 3));
  file('no bytes', 'empty.json', () => new ArrayBuffer(0));
  file('a .npy header that lies', 'lies.npy', () => { const b = new Uint8Array(bytesOf("\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (99999, 99999), }" + ' '.repeat(40) + '\n')); return b.buffer; });
  file('JSON: 100000 [', 'deep.json', () => bytesOf('['.repeat(100000)));
  file('JSON: 5000 nested objects', 'deep2.json', () => bytesOf('{"a":'.repeat(5000) + '1' + '}'.repeat(5000)));
  // An imported file's labels are repaired (docs/INPUT.md): refused, or each bad byte read as U+FFFD.
  file('JSON: invalid UTF-8 in a token (C0 80)', 'utf8.json', () => { const a = new TextEncoder().encode(attention + ',"tokens":["'); const b = new TextEncoder().encode('","b"]}'); return new Uint8Array([...a, 0xc0, 0x80, ...b]).buffer; },
    { orCheck: (r) => (/^\uFFFD+$/.test(r.import?.keyTokens?.[0] ?? '') ? '' : `tokens ${JSON.stringify(r.import?.keyTokens)}`) });
  // A lone surrogate escape is no character: refused, or read as U+FFFD.
  file('JSON: a lone surrogate escape in a token', 'surrogate.json', () => bytesOf(attention + ',"tokens":["\\ud800","b"]}'),
    { orCheck: (r) => (r.import?.keyTokens?.[0] === '\uFFFD' ? '' : `tokens ${JSON.stringify(r.import?.keyTokens)}`) });
  file('JSON: a number 1e999 as a weight', 'inf.json', () => bytesOf('{"format":"attnlab-attention","version":1,"attentions":[[[[1e999]]]]}'));
  file('name: empty', '', () => junk(64, 4), { notice: false });
  file('name: 300 characters', 'n'.repeat(300) + '.npz', () => junk(64, 5), { notice: false });
  file('name: a lone surrogate', '\uD800.json', () => junk(64, 6), { anyId: true, notice: false });
  file('name: markup', '<img src=x onerror="window.__pwned=1">.npz', () => junk(64, 7));
  file('name: a path', '../../../etc/passwd', () => junk(64, 8));
  message('importFile: bytes a string', (id) => ({ attnlab: 1, id, type: 'importFile', name: 'x.npz', bytes: 'AAAA' }));
  message('importFile: name a number', (id) => ({ attnlab: 1, id, type: 'importFile', name: 5, bytes: new ArrayBuffer(8) }));
  message('importFile: batch -1', (id) => ({ attnlab: 1, id, type: 'importFile', name: 'x.npz', bytes: new ArrayBuffer(8), batch: -1 }));
  message('importFile: bfloat16 a string', (id) => ({ attnlab: 1, id, type: 'importFile', name: 'x.npz', bytes: new ArrayBuffer(8), bfloat16: 'yes' }));
  file('a valid JSON file (the door is open)', 'ok.json', () => bytesOf(attention + ',"tokens":["a","b"]}'), { expect: 'accept', check: (r) => (r.state.source === 'imported' && r.import?.nQ === 2 ? '' : `import ${JSON.stringify(r.import)}`) });
  // Last: a file that froze an embed for 100 s.
  file('JSON: a 2 MB token label', 'label.json', () => bytesOf(attention + ',"tokens":["' + 'x'.repeat(2 << 20) + '","b"]}'));
  return cases;
};


// ---- the notice in Chinese, at DPR 2 -----------------------------------------------------------

// ---- the groups, two at a time ------------------------------------------------------------------

// Most of a case's time is waiting for animation frames, so two groups (each in its own page)
// run side by side; the longest first.
describe('hostile input at every door', { concurrency: 2 }, () => {
  test('links on the full page: a hostile link at start-up, then the table through in-page navigation (hashchange); the notice says why and the lab goes on', async () => {
    const t0 = Date.now();
    const failures = [];
    let total = 0;
    // 1 start-up with a hostile hash: the notice, drawn on screen (screenshot), then the table
    // on the same page.
    let first = null;
    const startCases = [
      ['#v=3&sentence=%C0%80', /UTF-8/],
      ['#v=3&panel=token&mask.window=' + '['.repeat(3000) + '1' + ']'.repeat(3000), null],
    ];
    for (const [k, [hash, why]] of startCases.entries()) {
      total++;
      const p = await openFullPage(browser.context, `${url}index.html?start=${k}${hash}`, k === 0 ? SHOT : SMALL);
      const what = `start-up link ${JSON.stringify(hash.slice(0, 60))}`;
      if (p.ready !== true) {
        failures.push(`${what}: ${p.ready}; errors: ${p.errors.join(' | ').slice(0, 2000)}`);
        await p.page.close();
        continue;
      }
      const notice = await noticeText(p.page);
      const problem = await alive(p.page, 1);
      if (!notice.startsWith(LINK_IGNORED.en) || (why && !why.test(notice)) || problem || p.errors.length)
        failures.push(`${what}: notice ${JSON.stringify(notice)}, alive: ${problem || 'yes'}, errors: ${p.errors.join(' | ').slice(0, 2000)}`);
      if (k === 0 && notice) {
        const png = decodePng(await p.page.screenshot({ path: path.join(artifactsDir, 'hostile-link-notice-en-dpr1.png') }));
        await assertNoticeShown(p.page, png, 'English, DPR 1');
      }
      if (k === 0) {
        await p.page.setViewportSize(SMALL);
        first = p;
      } else {
        await p.page.close();
      }
    }

    // 2 the table, each case by in-page navigation.
    const g = await groupPage(`${url}index.html`, first);
    const cases = linkTable();
    cases.push({ name: 'a valid link', parts: ['#v=3&sentence=a%20valid%20link&mask.causal=true'], expect: 'accept', sentence: 'a valid link' });
    const defaultsOf = (page) => page.evaluate(() => { window.attnlab.loadLink('#v=3'); return window.attnlab.session(); });
    let defaults = await defaultsOf(g.page);
    // The cases go to the page in batches (one evaluate each: the round trip costs more than
    // a case on a busy machine). A batch stops at a case after which the lab does not answer or
    // an error was caught; a batch that stalls, or after which the page reported an error, is
    // run again one case at a time, so each failure is pinned on its case.
    const runBatch = (batch) => g.page.evaluate(async (batch) => {
      const h = window.__hostile;
      const results = [];
      for (const { parts, cursor, direct } of batch) {
        let notice;
        if (direct) {
          const error = window.attnlab.loadLink(h.build(parts));
          notice = error ? window.attnlab.refusalText() || error : '';
        } else {
          const changed = new Promise((resolve) => addEventListener('hashchange', resolve, { once: true }));
          location.hash = h.build(parts);
          // The page's own listener was added first, so it has run when this one runs.
          await Promise.race([changed, h.timeout(3000, 'hashchange')]).catch(() => {});
          notice = document.getElementById('notice').textContent;
        }
        let session = null;
        try { session = window.attnlab.session(); } catch { /* the alive check says why */ }
        const out = { notice, session, alive: await h.alive(cursor), errors: h.errors.splice(0) };
        results.push(out);
        if (out.alive || out.errors.length) break;
      }
      return results;
    }, batch);
    let solo = 0;  // cases left to run one at a time
    for (let i = 0; i < cases.length;) {
      const n = solo > 0 ? 1 : Math.min(20, cases.length - i);
      const batch = cases.slice(i, i + n).map((c, k) => ({ parts: c.parts, cursor: (i + k) % 2 ? 1 : 0, direct: !!c.direct }));
      const { page, errors } = g;
      const errorsBefore = errors.length;
      let results;
      try {
        results = await within(CASE_MS * n, runBatch(batch), `link cases ${i}-${i + n - 1}`);
      } catch (e) {
        if (n > 1) {
          solo = n;
          if (!(await g.reviveIfDead())) { failures.push('too many dead pages: the rest of the table was not run'); break; }
          defaults = await defaultsOf(g.page);
          continue;
        }
        results = [{ thrown: e.message.split('\n')[0] }];
      }
      if (n > 1 && errors.length > errorsBefore) {
        solo = n;
        continue;
      }
      for (const [k, r] of results.entries()) {
        const c = cases[i + k];
        total++;
        const problems = [];
        if (r.thrown) problems.push(r.thrown);
        else {
          if (r.alive) problems.push(r.alive);
          if (r.errors.length) problems.push(`in-page errors: ${r.errors.join(' | ')}`);
          if (c.expect === 'refuse') {
            if (!r.notice.startsWith(LINK_IGNORED.en) || r.notice.length <= LINK_IGNORED.en.length) problems.push(`notice ${JSON.stringify(r.notice.slice(0, 300))}`);
            else if (c.why && !c.why.test(r.notice)) problems.push(`notice ${JSON.stringify(r.notice.slice(0, 300))} does not match ${c.why}`);
            if (JSON.stringify(r.session) !== JSON.stringify(defaults)) problems.push(`the state is not the defaults after a refused link (${differingKeys(r.session, defaults).join(', ')} differ)`);
          } else if (c.expect === 'accept') {
            if (r.notice !== '') problems.push(`notice ${JSON.stringify(r.notice)} for a valid link`);
            if (r.session?.sentence !== c.sentence) problems.push(`sentence ${JSON.stringify(r.session?.sentence)}`);
          } else if (r.notice && !r.notice.startsWith(LINK_IGNORED.en)) {
            problems.push(`notice ${JSON.stringify(r.notice.slice(0, 300))}`);
          }
        }
        if (n === 1 && errors.length > errorsBefore) problems.push(`errors: ${errors.slice(errorsBefore).join(' | ').slice(0, 2000)}`);
        if (problems.length) failures.push(`link ${c.name} [${show(c.parts).slice(0, 160)}]: ${problems.join('; ')}`);
      }
      i += Math.max(1, results.length);
      if (solo) solo -= Math.max(1, results.length);
      const last = results.at(-1);
      if ((last?.thrown || last?.alive) && !(await answers(page))) {
        if (!(await g.reviveIfDead())) { failures.push('too many dead pages: the rest of the table was not run'); break; }
        defaults = await defaultsOf(g.page);
      }
    }
    await g.page.close();
    report(failures, total, 'links on the full page', t0);
  });
  test('messages to an embed from a host on another origin: setState and importFile with hostile content get {ok: false, error}, and the embed goes on', async () => {
    const t0 = Date.now();
    const failures = [];
    const allow = encodeURIComponent(host.url.replace(/\/$/, ''));
    writeHost('post.html', `<iframe id="e" style="width:800px;height:500px" src="${url}embed.html?origins=${allow}&release=0&tabs=1#v=3&panel=token&sentence=the%20cat%20sat%20on%20the%20mat"></iframe>
  <script>window.replies = []; addEventListener('message', (e) => { if (e.data && e.data.type === 'reply') replies.push({ at: performance.now(), data: e.data }); });</script>`);
    const { page, errors } = await newPage(browser.context);
    await page.goto(`${host.url}post.html`);
    const { frame, error } = await embedLab(page, 'e');
    assert.ok(!error, `the embed did not start: ${error}`);
    await page.evaluate(`window.__cases = (${HOST_CASES})()`);
    const list = await page.evaluate(() => window.__cases.map(({ name, id, expect, anyId, orSentence, maxMs, notice }) => ({ name, id, expect, anyId, orSentence, maxMs, notice })));
    const post = (i, cursor) => page.evaluate(async ([i, cursor]) => {
      const c = window.__cases[i];
      const element = document.getElementById('e');
      const target = element.contentWindow;
      const origin = new URL(element.src).origin;
      const n0 = window.replies.length;
      const wait = async (pred, ms) => {
        const end = performance.now() + ms;
        for (;;) {
          const r = window.replies.slice(n0).find(pred);
          if (r || performance.now() >= end) return r ?? null;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };
      const t0 = performance.now();
      let m;
      try {
        m = c.make();
        target.postMessage(m, origin, c.transfer ? c.transfer(m) : []);
      } catch (e) {
        return { hostThrew: `the host could not send it: ${e}` };  // the browser's limit, not the lab's
      }
      // A reply to this message: its id, or (where the id is what is wrong) any reply but the normal one.
      const normalId = `normal-${i}`;
      const mine = (r) => r.data.id === c.id || (c.idOrNull && r.data.id === null) || (c.anyId && r.data.id !== normalId);
      // A file is imported over several frames: its reply is awaited before the normal message.
      // Other messages are answered at once, in order: the normal one follows straight away.
      let reply = c.transfer ? await wait(mine, c.maxMs ?? 6000) : null;
      target.postMessage({ attnlab: 1, id: normalId, type: 'setState', state: { cursor } }, origin);
      const normal = await wait((r) => r.data.id === normalId, 6000);
      if (!reply) reply = await wait(mine, c.expect === 'none' || c.expect === 'ignore' ? 0 : 300);
      const out = { normal: normal && { ok: normal.data.ok, cursor: normal.data.state?.cursor, error: normal.data.error } };
      if (reply) {
        out.reply = { ok: reply.data.ok, id: reply.data.id, error: reply.data.error, ms: Math.round(reply.at - t0), import: reply.data.import,
          state: reply.data.state && { sentence: reply.data.state.sentence, cursor: reply.data.state.cursor, source: reply.data.state.source } };
        if (c.check && reply.data.ok) out.checked = c.check(reply.data);
        if (c.orCheck && reply.data.ok) out.orChecked = c.orCheck(reply.data);
      }
      return out;
    }, [i, cursor]);
    const sessionOf = () => within(CASE_MS, frame.evaluate(() => ({ session: JSON.stringify(window.attnlab.session()), frames: window.attnlab.framesDrawn() })), 'the embed\'s state');
    const slowest = [];
    let nullIds = 0;
    for (const [i, c] of list.entries()) {
      const problems = [];
      const errorsBefore = errors.length;
      const caseStart = Date.now();
      let r;
      try {
        const before = await sessionOf();
        r = await within(CASE_MS * 2, post(i, i % 2 ? 1 : 0), `message case ${i}`);
        if (r.hostThrew) {
          console.log(`# message ${c.name}: ${r.hostThrew}`);
          continue;
        }
        const now = await sessionOf();
        const reply = r.reply;
        if (reply && reply.id === null) nullIds++;
        if (c.expect === 'refuse') {
          const replaced = reply?.ok === true && ((c.orSentence !== undefined && reply.state?.sentence === c.orSentence) || r.orChecked === '');
          if (!reply) problems.push('no reply');
          else if (reply.ok !== false && !replaced) problems.push(`accepted (${JSON.stringify(reply).slice(0, 200)})`);
          else if (reply.ok === false && !(typeof reply.error === 'string' && reply.error.length > 5)) problems.push(`ok: false without a reason (${JSON.stringify(reply.error)})`);
          if (reply && c.maxMs && reply.ms > c.maxMs) problems.push(`the reply took ${reply.ms} ms`);
          if (reply && c.notice && reply.ok === false) {
            const notice = await frame.evaluate(() => document.getElementById('notice').textContent);
            if (!notice) problems.push('the embed shows no notice for the refused file');
          }
        } else if (c.expect === 'accept') {
          if (!reply || reply.ok !== true) problems.push(`refused: ${JSON.stringify(reply)?.slice(0, 300)}`);
          else if (r.checked) problems.push(r.checked);
        } else if (c.expect === 'none') {
          if (reply) problems.push(`a reply to a message that is not the lab's: ${JSON.stringify(reply).slice(0, 200)}`);
        } else if (c.expect === 'ignore') {
          if (reply && reply.ok !== false) problems.push(`accepted: ${JSON.stringify(reply).slice(0, 200)}`);
        }
        // The normal message after it: answered, and the figure drew.
        if (!r.normal || r.normal.ok !== true || r.normal.cursor !== (i % 2 ? 1 : 0)) problems.push(`the normal setState({cursor}) after it: ${JSON.stringify(r.normal)}`);
        if (!(now.frames > before.frames)) problems.push('no frame drawn');
        if (c.expect === 'refuse' || c.expect === 'none' || c.expect === 'ignore') {
          // The state the refusal left, with the normal message's cursor.
          const was = JSON.parse(before.session);
          was.cursor = i % 2 ? 1 : 0;
          const is = JSON.parse(now.session);
          if (JSON.stringify(was) !== JSON.stringify(is) && !(r.reply?.ok === true)) problems.push('a refused message changed the state');
        }
        const inFrame = await frameErrors(frame);
        if (inFrame.length) problems.push(`in-frame errors: ${inFrame.join(' | ').slice(0, 2000)}`);
        await frame.evaluate(() => window.__hostile.errors.splice(0));
      } catch (e) {
        problems.push(e.message.split('\n')[0]);
      }
      if (errors.length > errorsBefore) problems.push(`errors: ${errors.slice(errorsBefore).join(' | ').slice(0, 2000)}`);
      slowest.push([Date.now() - caseStart, c.name]);
      if (problems.length) {
        failures.push(`message ${c.name} (id ${c.id}): ${problems.join('; ')}`);
        const ok = await within(3000, frame.evaluate(() => !!window.attnlab.getState()), 'getState').catch(() => false);
        if (!ok) { failures.push('the embed no longer answers: the rest of the table was not run'); break; }
      }
    }
    // Markup in a file's name is shown as text, never run.
    const injected = await within(3000, frame.evaluate(() => ({ img: document.querySelectorAll('img').length, pwned: !!window.__pwned })), 'markup check').catch((e) => ({ error: e.message }));
    if (injected.error || injected.img || injected.pwned) failures.push(`markup in a file's name: ${JSON.stringify(injected)}`);
    slowest.sort((a, b) => b[0] - a[0]);
    console.log(`# ${nullIds} replies carried id null (text the lab could not parse, or a wrong id)`);
    console.log(`# ${list.length} message cases; the slowest: ${slowest.slice(0, 4).map(([ms, name]) => `${name} ${ms} ms`).join(', ')}`);
    await within(5000, page.close(), 'closing the page').catch(() => {});
    report(failures, list.length, 'messages to an embed', t0);
  });
  test('the handle\'s doors on the full page: a wrong-typed value for every key of the schema (and every object the keys sit in) through setState, loadSession and loadLink', async () => {
    const t0 = Date.now();
    const failures = [];
    const g = await groupPage();
    const schema = await g.page.evaluate(() => window.attnlab.schema());
    assert.ok(schema.length > 50, `the schema lists ${schema.length} keys`);
    const cases = wrongTypeCases(schema);
    const byPath = new Map();
    for (const c of cases) byPath.set(c.path, [...(byPath.get(c.path) ?? []), c]);
    let total = 0;
    for (const [k, [keyPath, group]] of [...byPath].entries()) {
      total += group.length * 3;
      const { page: p, errors } = g;
      const errorsBefore = errors.length;
      let r;
      try {
        r = await within(CASE_MS * 2, p.evaluate(async ([keyPath, group, cursor]) => {
          const lab = window.attnlab;
          const h = window.__hostile;
          const patchOf = (value) => {
            const keys = keyPath.split('.');
            const root = {};
            let o = root;
            for (const key of keys.slice(0, -1)) o = o[key] = {};
            o[keys.at(-1)] = value;
            return root;
          };
          const linkText = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
          lab.loadLink('#v=3');
          const base = JSON.stringify(lab.session());
          const problems = [];
          for (const c of group) {
            const patch = patchOf(c.value);
            const doors = {
              setState: async () => { try { await lab.setState(patch); return ''; } catch (e) { return e.message; } },
              loadSession: async () => lab.loadSession(JSON.stringify({ version: 3, ...patch })),
              loadLink: async () => lab.loadLink(`#v=3&${keyPath}=${encodeURIComponent(linkText(c.value))}`),
            };
            for (const [door, run] of Object.entries(doors)) {
              const refusal = await run();
              const now = JSON.stringify(lab.session());
              if (!refusal) problems.push(`${door}: ${keyPath} = ${JSON.stringify(c.value)} (${c.label}) was accepted`);
              else if (typeof refusal !== 'string' || refusal.length < 8) problems.push(`${door}: ${keyPath} = ${JSON.stringify(c.value)}: refusal ${JSON.stringify(refusal)}`);
              if (now !== base) {
                problems.push(`${door}: ${keyPath} = ${JSON.stringify(c.value)} (${c.label}) changed the state`);
                lab.loadLink('#v=3');
              }
            }
          }
          const problem = await h.alive(cursor);
          if (problem) problems.push(problem);
          return { problems, errors: h.errors.splice(0) };
        }, [keyPath, group, k % 2 ? 1 : 0]), `the cases of '${keyPath}'`);
      } catch (e) {
        r = { problems: [e.message.split('\n')[0]], errors: [] };
      }
      const problems = [...r.problems, ...r.errors.map((e) => `in-page error: ${e}`)];
      if (errors.length > errorsBefore) problems.push(`errors: ${errors.slice(errorsBefore).join(' | ').slice(0, 2000)}`);
      if (problems.length) {
        failures.push(`wrong types for '${keyPath}': ${problems.join('; ')}`);
        if (!(await g.reviveIfDead())) { failures.push('too many dead pages'); break; }
      }
    }
    await g.page.close();
    console.log(`# ${schema.length} keys in the schema, ${byPath.size} paths with objects, ${cases.length} wrong values x 3 doors`);
    report(failures, total, 'wrong types through setState, loadSession, loadLink', t0);
  });
  test('stored sessions: the table through handle.loadSession (and setState where it is an object), and hostile sessions in localStorage at start-up', async () => {
    const t0 = Date.now();
    const failures = [];
    let total = 0;
    const cases = sessionTable();
    const g = await groupPage(`${storageSite.url}index.html`);
    for (const [i, c] of cases.entries()) {
      const { page, errors } = g;
      const errorsBefore = errors.length;
      let r;
      try {
        r = await within(CASE_MS, page.evaluate(async ([c, cursor]) => {
          const lab = window.attnlab;
          const h = window.__hostile;
          let text = h.build(c.parts);
          if (c.raw) text = h.raw(text);
          lab.loadLink('#v=3');
          const base = JSON.stringify(lab.session());
          const out = { doors: {} };
          const check = (door, refusal) => {
            const now = lab.session();
            out.doors[door] = { refusal, changed: JSON.stringify(now) !== base, sentence: now.sentence };
            lab.loadLink('#v=3');
          };
          check('loadSession', lab.loadSession(text));
          // The same as a setState patch, where the text is a JSON object (JSON.parse turns
          // \ud800 escapes into lone surrogates, as a script's strings may hold them).
          let patch = null;
          try { patch = JSON.parse(text); } catch { /* not JSON: that door is the session's alone */ }
          if (patch && typeof patch === 'object' && !Array.isArray(patch)) {
            let refusal = '';
            try { await lab.setState(patch); } catch (e) { refusal = e.message; }
            check('setState', refusal);
          }
          out.alive = await h.alive(cursor);
          out.errors = h.errors.splice(0);
          return out;
        }, [{ parts: c.parts, raw: !!c.raw }, i % 2 ? 1 : 0]), `session case ${i}`);
      } catch (e) {
        r = { thrown: e.message.split('\n')[0] };
      }
      const problems = [];
      if (r.thrown) problems.push(r.thrown);
      else {
        if (r.alive) problems.push(r.alive);
        if (r.errors.length) problems.push(`in-page errors: ${r.errors.join(' | ')}`);
        for (const [door, d] of Object.entries(r.doors)) {
          total++;
          if (c.expect === 'refuse') {
            const replaced = c.orSentence !== undefined && !d.refusal && d.sentence === c.orSentence;
            if (!d.refusal && !replaced) problems.push(`${door} accepted it${d.changed ? ` (sentence now ${JSON.stringify(d.sentence)})` : ''}`);
            else if (d.refusal && d.changed) problems.push(`${door} refused it (${d.refusal}) but the state changed`);
            else if (d.refusal && c.why && !c.why.test(d.refusal)) problems.push(`${door}: ${JSON.stringify(d.refusal)} does not match ${c.why}`);
          } else if (c.expect === 'accept') {
            if (d.refusal || d.sentence !== c.sentence) problems.push(`${door} refused a valid session: ${d.refusal}`);
          }
        }
      }
      if (errors.length > errorsBefore) problems.push(`errors: ${errors.slice(errorsBefore).join(' | ').slice(0, 2000)}`);
      if (problems.length) {
        failures.push(`session ${c.name} [${show(c.parts).slice(0, 160)}${c.raw ? ', escapes as characters' : ''}]: ${problems.join('; ')}`);
        if (!(await g.reviveIfDead())) { failures.push('too many dead pages'); break; }
      }
    }

    // At start-up: the page restores the session this browser stored; a hostile one is dropped
    // with a notice, and the page starts with the defaults.
    const stored = [
      { name: 'an escaped lone surrogate', parts: ['{"version":3,"sentence":"\\ud800"}'] },
      { name: 'a lone surrogate character in a key', parts: ['{"version":3,"x\\udfff":1}'], raw: true },
      { name: '5000 balanced [ ] as the sentence', parts: ['{"version":3,"sentence":', ['[', 5000], [']', 5000], '}'] },
    ];
    for (const [k, c] of stored.entries()) {
      total++;
      const { page, errors } = g;
      const what = `stored session at start-up: ${c.name}`;
      const errorsBefore = errors.length;
      // The page stores its own session 300 ms after a change (and when it is left, if that
      // timer is pending): let it settle before the hostile one goes in.
      await page.waitForTimeout(450);
      const text = await page.evaluate(([parts, raw]) => {
        let t = window.__hostile.build(parts);
        if (raw) t = window.__hostile.raw(t);
        localStorage.setItem('attnlab.session', t);
        return t.length;
      }, [c.parts, !!c.raw]);
      // A load without a hash (a link's hash would win over the stored session).
      await page.goto(`${storageSite.url}index.html?stored=${k}`);
      const ready = await labReady(page);
      const problems = [];
      if (ready !== true) problems.push(ready);
      else {
        const notice = await noticeText(page);
        if (!notice.startsWith(SESSION_IGNORED) || notice.length <= SESSION_IGNORED.length) problems.push(`notice ${JSON.stringify(notice.slice(0, 300))}`);
        const left = await page.evaluate(() => localStorage.getItem('attnlab.session'));
        if (left !== null && left.length === text) problems.push('the hostile session is still stored');
        const problem = await alive(page, 1);
        if (problem) problems.push(problem);
        const inPage = await frameErrors(page);
        if (inPage.length) problems.push(`in-page errors: ${inPage.join(' | ')}`);
      }
      if (errors.length > errorsBefore) problems.push(`errors: ${errors.slice(errorsBefore).join(' | ').slice(0, 2000)}`);
      if (problems.length) {
        failures.push(`${what} [${show(c.parts).slice(0, 120)}]: ${problems.join('; ')}`);
        if (!(await g.reviveIfDead())) { failures.push('too many dead pages'); break; }
      }
    }
    await g.page.close();
    report(failures, total, 'stored sessions', t0);
  });
  test('links on embeds (v=1 and v=3) at start-up, in a host page on another origin: each figure starts, says why, and goes on', async () => {
    const t0 = Date.now();
    const failures = [];
    const cases = [
      { name: 'v=3 overlong C0 80 in the sentence', hash: '#v=3&panel=token&sentence=%C0%80', why: /UTF-8/ },
      { name: 'v=3 surrogate ED A0 80 in the sentence', hash: '#v=3&sentence=the%20%ED%A0%80', why: /UTF-8/ },
      { name: 'v=3 4000 balanced [ ] in mask.window', hash: '#v=3&mask.window=' + '['.repeat(4000) + ']'.repeat(4000), why: /'mask\.window' in the link nests more than 14 levels/ },
      { name: 'v=3 3000 nested objects as the mask', hash: '#v=3&mask=' + '{"causal":'.repeat(3000) + 'true' + '}'.repeat(3000), why: /'mask' in the link nests more than 15 levels/ },
      { name: 'v=3 a wrong type for heads', hash: '#v=3&heads="x"', why: /'heads' must be/ },
      { name: 'v=1 F5 lead in the sentence', hash: '#v=1&sentence=a%F5%80%80%80', why: /UTF-8/ },
      { name: 'v=1 low surrogate as the mask', hash: '#v=1&mask=%ED%BF%BF', why: /UTF-8/ },
      { name: 'v=1 a truncated sequence in the sentence', hash: '#v=1&sentence=a%E2%82' , why: /UTF-8/ },
      { name: 'v=1 a valid link (the door is open)', hash: '#v=1&sentence=one%20two%20three&mask=causal', expect: 'accept' },
    ];
    writeHost('links.html', cases.map((c, i) =>
      // (A '"' of the link is written %22: the attribute's own quotes must stay its ends.)
      `<iframe id="e${i}" style="width:320px;height:200px" src="${url}embed.html?controls=0&release=0${c.hash.replace(/"/g, '%22')}"></iframe>`).join(''));
    const { page, errors } = await newPage(browser.context);
    await page.goto(`${host.url}links.html`, { waitUntil: 'domcontentloaded' });
    const labs = await Promise.all(cases.map((_, i) => embedLab(page, `e${i}`)));
    for (const [i, c] of cases.entries()) {
      const { frame, error } = labs[i];
      const problems = [];
      if (error) problems.push(`${error}; in-frame errors: ${(await frameErrors(frame)).join(' | ').slice(0, 2000)}`);
      else {
        const r = await within(CASE_MS, frame.evaluate(() => ({ notice: document.getElementById('notice').textContent, state: window.attnlab.getState() })), 'reading the embed')
          .catch((e) => ({ thrown: e.message }));
        if (r.thrown) problems.push(r.thrown);
        else if (c.expect === 'accept') {
          if (r.notice !== '' || r.state.sentence !== 'one two three' || r.state.mask.causal !== true)
            problems.push(`a valid v=1 link: notice ${JSON.stringify(r.notice)}, sentence ${JSON.stringify(r.state.sentence)}, causal ${r.state.mask?.causal}`);
        } else {
          if (!r.notice.startsWith(LINK_IGNORED.en) || r.notice.length <= LINK_IGNORED.en.length || (c.why && !c.why.test(r.notice)))
            problems.push(`notice ${JSON.stringify(r.notice.slice(0, 300))}`);
          if (r.state.sentence !== 'The cat sat on the mat because it was tired.') problems.push(`sentence ${JSON.stringify(r.state.sentence.slice(0, 80))} (not the default)`);
        }
        const problem = await alive(frame, 1);
        if (problem) problems.push(problem);
        const inFrame = await frameErrors(frame);
        if (inFrame.length) problems.push(`in-frame errors: ${inFrame.join(' | ').slice(0, 2000)}`);
      }
      if (problems.length) failures.push(`embed link ${c.name} [${c.hash.slice(0, 80)}${c.hash.length > 80 ? '…' : ''}]: ${problems.join('; ')}`);
    }
    await page.screenshot({ path: path.join(artifactsDir, 'hostile-embed-links.png') });
    if (errors.length) failures.push(`errors on the host page or its frames: ${errors.join(' | ').slice(0, 3000)}`);
    await within(5000, page.close(), 'closing the page').catch(() => {});
    report(failures, cases.length, 'links on embeds', t0);
  });
  test('the refused-link notice in Chinese at DPR 2: said in Chinese at start-up and after in-page navigation, drawn whole', async () => {
    const zh = await openBrowser({ deviceScaleFactor: 2, viewport: { width: 1000, height: 640 }, contextOptions: { locale: 'zh-CN' } });
    try {
      const p = await openFullPage(zh.context, `${url}index.html?lang=zh#v=3&sentence=%C0%80`, SHOT);
      assert.equal(p.ready, true, `${p.ready}; errors: ${p.errors.join(' | ')}`);
      const notice = await noticeText(p.page);
      assert.ok(notice.startsWith(LINK_IGNORED.zh), `the notice: ${JSON.stringify(notice)}`);
      assert.match(notice, /UTF-8/);
      const png = decodePng(await p.page.screenshot({ path: path.join(artifactsDir, 'hostile-link-notice-zh-dpr2.png') }));
      assert.equal(png.width, 2000);
      await assertNoticeShown(p.page, png, 'Chinese, DPR 2');
      assert.equal(await alive(p.page, 1), '');
      // A hostile link followed in the page: ?lang=zh still wins, so the notice stays Chinese.
      const after = await p.page.evaluate(async () => {
        const changed = new Promise((resolve) => addEventListener('hashchange', resolve, { once: true }));
        location.hash = '#v=3&sentence=%ED%A0%80';
        await changed;
        return { notice: document.getElementById('notice').textContent, language: window.attnlab.getState().language };
      });
      assert.ok(after.notice.startsWith(LINK_IGNORED.zh), `after in-page navigation: ${JSON.stringify(after)}`);
      assert.equal(await alive(p.page, 2), '');
      assert.deepEqual([...p.errors, ...(await frameErrors(p.page))], []);
    } finally {
      await zh.close();
    }
  });
});
