// Import benchmark in headless Chromium (not part of the test command):
//   node bench/import.mjs [--repeats 3] [--layers 12 --heads 12 --n 512] [--json]
// (after scripts/build.sh web). Writes a (layers, heads, n, n) float16 .npy of softmax rows
// (12 x 12 x 512 x 512 = 75.5 MB by default) with tests/python/import_fixtures.py, or with
// --json the lab's JSON format, numbers as Python writes float32 values (n 128 by default:
// 12 x 12 x 128 x 128, about 52 MB of text; the format's cap is 64 MiB), then
// for each repeat opens a fresh page, picks the file through the page's file input and
// reports: load time (pick to the imported scene drawn), frames drawn during the load and
// the longest gap between animation frames (the frame loop must keep running) over the whole
// load and within its finish phase (the app parsing, checking and moving the data in steps),
// the finish phase's longest step, the time until the model view's thumbnails are all
// filled, and the peak resident memory of the browser's processes (the sum over Chromium's process tree, sampled every 50 ms) above
// the page's idle level. Medians over the repeats. Chromium draws with SwiftShader on a
// shared 2-core machine here: times are noisy; say so beside any figure.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBrowser, serveDist } from '../tests/support/browser.mjs';
import { root } from '../tests/support/paths.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const json = process.argv.includes('--json');
const repeats = arg('repeats', 3), layers = arg('layers', 12), heads = arg('heads', 12), n = arg('n', json ? 128 : 512);

// Resident memory (kB) of this process's descendants: the browser playwright started.
function treeRssKb() {
  const children = new Map();
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(pid));
    } catch { /* the process ended */ }
  }
  let total = 0;
  const stack = [...(children.get(process.pid) ?? [])];
  while (stack.length) {
    const pid = stack.pop();
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) total += Number(m[1]);
    } catch { /* gone */ }
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-bench-import-'));
const file = path.join(dir, json ? `attention_${layers}x${heads}x${n}x${n}.json` : `attention_${layers}x${heads}x${n}x${n}_f16.npy`);
const made = JSON.parse(execFileSync('/usr/bin/python3', [path.join(root, 'tests/python/import_fixtures.py'),
  json ? 'large-json' : 'large', file, String(layers), String(heads), String(n)], { encoding: 'utf8' }));
console.error(`wrote ${file} (${(made.bytes / 1e6).toFixed(1)} MB)`);

const { server, url } = await serveDist();
const results = [];
for (let r = 0; r < repeats; r++) {
  const browser = await openBrowser({ viewport: { width: 1400, height: 900 } });
  const page = await browser.context.newPage();
  await page.goto(url + 'index.html');
  await page.evaluate(() => window.attnlab.ready);
  await page.waitForTimeout(1000);
  const idle = treeRssKb();
  let peak = idle;
  const sampler = setInterval(() => { peak = Math.max(peak, treeRssKb()); }, 50);
  // Frame timestamps as the page sees them, from before the pick until the scene is drawn.
  await page.evaluate(() => {
    window.__frames = [];
    const step = (t) => { window.__frames.push(t); if (!window.__stopFrames) requestAnimationFrame(step); };
    requestAnimationFrame(step);
  });
  const t0 = await page.evaluate(() => performance.now());
  await page.setInputFiles('#import-file', file);
  await page.waitForFunction(() => ['done', 'error'].includes(window.attnlab.importStatus().state), null, { timeout: 300000, polling: 20 });
  const status = await page.evaluate(() => window.attnlab.importStatus());
  if (status.state !== 'done') throw new Error(status.message);
  const t1 = await page.evaluate(() => performance.now());
  await page.waitForFunction((total) => window.attnlab.getState().import.thumbnailsDone === total, layers * heads,
    { timeout: 300000, polling: 20 });
  const t2 = await page.evaluate(() => performance.now());
  const frames = await page.evaluate(() => { window.__stopFrames = true; return window.__frames; });
  clearInterval(sampler);
  peak = Math.max(peak, treeRssKb());
  const during = frames.filter((t) => t >= t0 && t <= t1);
  const longestGap = (from, to) => {
    let g = 0;
    for (let i = 1; i < frames.length; i++) if (frames[i] >= from && frames[i - 1] <= to) g = Math.max(g, frames[i] - frames[i - 1]);
    return g;
  };
  const gap = longestGap(t0, t2);
  const finish = status.finish;
  if (r === repeats - 1) await page.screenshot({ path: path.join(root, 'build', 'test-artifacts', 'bench-import-model-view.png') });
  results.push({ loadMs: status.ms, framesDuringLoad: during.length, maxFrameGapMs: gap, thumbnailsMs: t2 - t0,
                 finishMs: finish.ms, finishSteps: finish.steps, finishFrames: finish.frames,
                 finishMaxGapMs: longestGap(finish.at, finish.at + finish.ms), finishLongestStepMs: finish.longestStepMs ?? NaN,
                 peakAboveIdleMb: (peak - idle) / 1024, idleMb: idle / 1024 });
  console.error(`repeat ${r + 1}: ${JSON.stringify(results.at(-1))}`);
  await browser.close();
}
server.close();
fs.rmSync(dir, { recursive: true, force: true });

const m = (k) => median(results.map((x) => x[k]));
console.log(`| file | load (ms) | frames during load | longest frame gap (ms) | finish phase (ms, steps, frames) | ` +
            `longest gap in finish (ms) | longest finish step (ms) | all thumbnails (ms) | peak RSS above idle (MB) |`);
console.log('|---|---|---|---|---|---|---|---|---|');
console.log(`| ${layers}x${heads}x${n}x${n} ${json ? 'JSON' : 'float16 .npy'}, ${(made.bytes / 1e6).toFixed(1)} MB | ${m('loadMs').toFixed(0)} | ` +
            `${m('framesDuringLoad')} | ${m('maxFrameGapMs').toFixed(0)} | ${m('finishMs').toFixed(0)}, ${m('finishSteps')}, ` +
            `${m('finishFrames')} | ${m('finishMaxGapMs').toFixed(0)} | ${m('finishLongestStepMs').toFixed(0)} | ` +
            `${m('thumbnailsMs').toFixed(0)} | ${m('peakAboveIdleMb').toFixed(0)} |`);
console.log(`\nmedians of ${repeats} fresh pages; headless Chromium, WebGL2 on SwiftShader, shared 2-core machine (noisy); ${new Date().toISOString()}`);
