// Frame-time benchmark of the explorer in headless Chromium (not part of the test command):
//   node bench/frames.mjs            (after scripts/build.sh web)
// For each scene: 300 frames; reports the median and 95th percentile of (a) the interval
// between animation frames as the page sees it and (b) the CPU time of the app's frame()
// (recompute when needed + UI + GL calls). Chromium's WebGL runs on SwiftShader here, a
// CPU rasteriser on a shared 2-core machine: absolute times are noisy and pessimistic.
import { openBrowser, serveDist } from '../tests/support/browser.mjs';

const FRAMES = 300;
const word = (i) => 'w' + [...i.toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join('');
const sentence = (n) => Array.from({ length: n }, (_, i) => word(i)).join(' ');
const scenes = [
  { name: 'n = 64, 4 heads, pipeline', state: { sentence: sentence(64), heads: 4, dModel: 64, panel: 'pipeline', cursor: 10 } },
  { name: 'n = 64, 4 heads, token by token', state: { sentence: sentence(64), heads: 4, dModel: 64, panel: 'token', cursor: 10 } },
  { name: 'n = 1024, 4 heads, token by token', state: { sentence: sentence(1024), heads: 4, dModel: 64, panel: 'token', cursor: 500 } },
  { name: 'n = 1024, 4 heads, pipeline', state: { sentence: sentence(1024), heads: 4, dModel: 64, panel: 'pipeline', cursor: 500 } },
];

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
};

const { server, url } = await serveDist();
const browser = await openBrowser({ viewport: { width: 1400, height: 900 } });
const page = await browser.context.newPage();
await page.goto(url + 'index.html');
await page.evaluate(() => window.attnlab.ready);
const rows = [];
for (const scene of scenes) {
  await page.evaluate((s) => window.attnlab.setState(s), scene.state);
  const r = await page.evaluate((frames) => new Promise((resolve) => {
    const intervals = [], cpu = [];
    let last = 0, seen = window.attnlab.framesDrawn();
    const step = (t) => {
      if (last) intervals.push(t - last);
      last = t;
      const drawn = window.attnlab.framesDrawn();
      if (drawn !== seen) { cpu.push(window.attnlab.frameMs()); seen = drawn; }
      if (intervals.length < frames) requestAnimationFrame(step);
      else resolve({ intervals, cpu });
    };
    requestAnimationFrame(step);
  }), FRAMES);
  rows.push({ scene: scene.name, frames: r.intervals.length, intervalMedian: pct(r.intervals, 0.5), intervalP95: pct(r.intervals, 0.95),
              cpuMedian: pct(r.cpu, 0.5), cpuP95: pct(r.cpu, 0.95) });
  console.error(`done: ${scene.name}`);
}
console.log('| scene | frames | frame interval median / p95 (ms) | app frame() CPU median / p95 (ms) |');
console.log('|---|---|---|---|');
for (const r of rows)
  console.log(`| ${r.scene} | ${r.frames} | ${r.intervalMedian.toFixed(1)} / ${r.intervalP95.toFixed(1)} | ${r.cpuMedian.toFixed(2)} / ${r.cpuP95.toFixed(2)} |`);
console.log(`\nChromium ${await browser.context.browser()?.version?.() ?? ''} headless, WebGL2 on SwiftShader (CPU), ${new Date().toISOString()}`);
await browser.close();
server.close();
