// The knob-to-picture latency (issue 23): setState({temperature}) on the full lab in headless
// Chromium, resolved once the new picture is drawn, at n = 64, 256 and 1024 tokens with 4
// heads, on the pipeline panel (every stage of the focused head drawn as a heatmap).
//
//   node bench/latency.mjs DIST_DIR [--rounds N] [--json OUT]    (standalone)
//   latencySuite({distDir, rounds, log}) -> {chromiumVersion, rows, scoreRows}   (from bench/run.mjs)
//
// scoreRows: the same for a change that scores anew, at n = 256 and 1024: setState({score:
// 'additive'}) from the dot score (timed, except the first, which warms the kernel up), and
// back (not timed). Unlike a temperature change,
// which rescales the kept raw scores, this projects and scores every head again, so it shows
// what the scoring kernels cost.
//
// Each round sets a new temperature (alternating 1.0 and 1.6) and times
//   end to end  performance.now() around `await lab.setState(...)`: the promise resolves
//               after the frame that recomputed and one more (api.mjs), so it includes the
//               wait for the browser's animation frames (about 16.7 ms each);
//   setState    its synchronous part: the lab computes the change there, before drawing;
//   the split   of the frame that recomputed, from lab.frameTimings(): compute (the results),
//               upload (matrices to textures), ui (the widgets), draw (ImGui::Render and the
//               GL calls). A build without frameTimings() (an older one, for a "before"
//               column) gives the end to end time, setState's part and the largest frame CPU
//               time (frameMs, without the compute, which ran in setState) only.
// WebGL in headless Chromium runs on SwiftShader, a CPU rasteriser, on a shared 2-core
// machine: the GPU's share is CPU time in another process, and absolute times are noisy.
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

export const LATENCY_SIZES = [64, 256, 1024];
const SCORE_SIZES = [256, 1024];
const word = (i) => 'w' + [...i.toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join('');
const sentence = (n) => Array.from({ length: n }, (_, i) => word(i)).join(' ');

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

// One scene in the page: `rounds` timed changes of one knob.
async function measureScene(page, n, rounds, knob = 'temperature') {
  await page.evaluate((state) => window.attnlab.setState(state),
    { sentence: sentence(n), heads: 4, dModel: 64, panel: 'pipeline', cursor: Math.floor(n / 2), temperature: 1.0, score: 'dot' });
  return page.evaluate(async ({ count, knob }) => {
    // Round r (round 0 warms up) sets changeOf(r); it is timed when isTimed(r).
    const changeOf = knob === 'score' ? (r) => ({ score: r % 2 ? 'additive' : 'dot' }) : (r) => ({ temperature: r % 2 ? 1.0 : 1.6 });
    const isTimed = knob === 'score' ? (r) => r % 2 === 1 && r > 1 : () => true;
    const lab = window.attnlab;
    const samples = [];
    for (let r = 0; samples.length < count; r++) {
      // The frame CPU times as they come, to find the one that recomputed without frameTimings().
      const frames = [];
      let watching = true;
      const watch = () => { if (!watching) return; frames.push(lab.frameMs()); requestAnimationFrame(watch); };
      requestAnimationFrame(watch);
      const t0 = performance.now();
      const pending = lab.setState(changeOf(r));
      const sync = performance.now() - t0;  // setState computes before its first await
      await pending;
      const endToEnd = performance.now() - t0;
      watching = false;
      const split = lab.frameTimings ? lab.frameTimings().lastRecompute : null;
      if (r > 0 && isTimed(r)) samples.push({ endToEnd, sync, frameMs: split ? split.totalMs : Math.max(0, ...frames), split });
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    return samples;
  }, { count: rounds, knob });
}

// The medians of a scene's samples, as a row of the report.
function summarise(n, samples) {
  const part = (key) => (samples[0].split ? median(samples.map((s) => s.split[key])) : null);
  return {
    n, heads: 4, rounds: samples.length, endToEndMs: median(samples.map((s) => s.endToEnd)),
    frameMs: median(samples.map((s) => s.frameMs)), setStateSyncMs: median(samples.map((s) => s.sync)),
    computeMs: part('computeMs'), uploadMs: part('uploadMs'), uiMs: part('uiMs'), drawMs: part('drawMs'),
  };
}

function describe(label, row) {
  return `[latency] ${label} n=${row.n}: end to end ${row.endToEndMs.toFixed(1)} ms, setState's own part ${row.setStateSyncMs.toFixed(1)} ms, frame ${row.frameMs.toFixed(1)} ms` +
    (row.computeMs === null ? '' : ` (compute ${row.computeMs.toFixed(1)}, upload ${row.uploadMs.toFixed(1)}, ui ${row.uiMs.toFixed(1)}, draw ${row.drawMs.toFixed(1)})`);
}

export async function latencySuite({ distDir, rounds = 7, log = () => {} }) {
  const { chromium } = await import('playwright-core');
  const { startServer } = await import(path.join(root, 'scripts', 'serve.mjs'));
  const { server, url } = await startServer({ root: distDir });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-latency-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-renderer-backgrounding', '--disable-background-timer-throttling', '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader', ...(process.env.LATENCY_JS_FLAGS ? [`--js-flags=${process.env.LATENCY_JS_FLAGS}`] : [])],
  });
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => log(`[latency] page error: ${e}`));
    await page.goto(url + 'index.html');
    await page.evaluate(() => window.attnlab.ready);
    const rows = [], scoreRows = [];
    for (const n of LATENCY_SIZES) {
      rows.push(summarise(n, await measureScene(page, n, rounds)));
      log(describe('temperature', rows.at(-1)));
    }
    for (const n of SCORE_SIZES) {
      scoreRows.push(summarise(n, await measureScene(page, n, rounds, 'score')));
      log(describe('score -> additive', scoreRows.at(-1)));
    }
    return { chromiumVersion: context.browser()?.version() ?? '', rows, scoreRows };
  } finally {
    await context.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  if (!args[0] || args[0].startsWith('--')) {
    console.error('usage: node bench/latency.mjs DIST_DIR [--rounds N] [--json OUT]');
    process.exit(2);
  }
  const distDir = path.resolve(args[0]);
  if (!fs.existsSync(path.join(distDir, 'index.html'))) {
    console.error(`bench/latency.mjs: ${distDir} has no index.html (build the site first: scripts/build.sh web)`);
    process.exit(2);
  }
  const result = await latencySuite({ distDir, rounds: Number(option('--rounds', '7')), log: console.log });
  if (option('--json', null)) fs.writeFileSync(option('--json', null), JSON.stringify(result, null, 1));
}
