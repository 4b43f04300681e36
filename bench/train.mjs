// Training speed of the lab's default model, in the browser app and natively (not part of
// the test command):
//   node bench/train.mjs [--repeats 5] [--seconds 4] [--task induction]
// (after scripts/build.sh native and web).
//
// Browser: the page's Training panel runs the default model (2 layers, 2 heads, d_model 32,
// batch 16) in its per-frame slices; each repeat resets the run, trains for --seconds and
// reads (a) steps per second of wall time (what a user sees, limited by the slice budget
// per frame) and (b) steps per second of time spent inside the training steps (the wasm
// build's speed). Native: `attnlab-cli train --steps 300` per repeat, its stepsPerSecond
// (training time only). Medians over the repeats, with the load average beside each,
// because the machine is shared.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { openBrowser, serveDist } from '../tests/support/browser.mjs';
import { nativeDir } from '../tests/support/paths.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const repeats = Number(option('--repeats', 5));
const seconds = Number(option('--seconds', 4));
const task = option('--task', 'induction');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => os.loadavg()[0].toFixed(2);

// ---- browser ----------------------------------------------------------------------------
const { server, url } = await serveDist();
const browser = await openBrowser({ viewport: { width: 1400, height: 900 } });
const page = await browser.context.newPage();
await page.goto(url + 'index.html');
await page.evaluate(() => window.attnlab.ready);
await page.evaluate((t) => window.attnlab.setState({ panel: 'training', training: { task: t, layers: 2, heads: 2, dModel: 32, seed: 1 } }), task);
const web = [];
for (let r = 0; r < repeats; r++) {
  await page.evaluate(() => window.attnlab.trainReset('training'));
  const result = await page.evaluate(async (ms) => {
    const a = window.attnlab;
    await a.setState({ training: { running: true } });
    // Skip the first half second (the tier-up of the wasm code, the meter's first window).
    await new Promise((resolve) => setTimeout(resolve, 500));
    const s0 = a.getState().figures.training.steps, f0 = a.framesDrawn(), t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const s1 = a.getState().figures.training.steps, f1 = a.framesDrawn(), t1 = performance.now();
    const compute = a.getState().figures.training.computeStepsPerSecond;
    await a.setState({ training: { running: false } });
    return { wall: (s1 - s0) / ((t1 - t0) / 1000), fps: (f1 - f0) / ((t1 - t0) / 1000), compute };
  }, seconds * 1000);
  web.push({ ...result, load: load() });
  console.error(`browser repeat ${r + 1}: ${result.wall.toFixed(0)} steps/s wall, ${result.compute.toFixed(0)} compute, ${result.fps.toFixed(1)} fps, load ${load()}`);
}
const version = browser.context.browser()?.version() ?? 'Chromium';
await browser.close();
server.close();

// ---- native -----------------------------------------------------------------------------
const cli = path.join(nativeDir, 'attnlab-cli');
const native = [];
for (let r = 0; r < repeats; r++) {
  const out = execFileSync(cli, ['train', '--task', task, '--steps', '300', '--seed', '1', '--quiet', '--eval', '10',
    '--out', path.join(os.tmpdir(), 'attnlab-bench-train.attnmodel')], { encoding: 'utf8' });
  const json = JSON.parse(out.trim().split('\n').at(-1));
  native.push({ rate: json.stepsPerSecond, load: load() });
  console.error(`native repeat ${r + 1}: ${json.stepsPerSecond.toFixed(0)} steps/s, load ${load()}`);
}

console.log(`Task ${task}, default model (2 layers, 2 heads, d_model 32, batch 16), ${repeats} repeats, medians:`);
console.log('| build | steps/s (training time) | steps/s (wall, the live UI) | frames/s | load average (1 min) per repeat |');
console.log('|---|---|---|---|---|');
console.log(`| wasm in ${version} (headless, SwiftShader) | ${median(web.map((w) => w.compute)).toFixed(0)} | ${median(web.map((w) => w.wall)).toFixed(0)} | ${median(web.map((w) => w.fps)).toFixed(1)} | ${web.map((w) => w.load).join(', ')} |`);
console.log(`| native attnlab-cli | ${median(native.map((n) => n.rate)).toFixed(0)} | - | - | ${native.map((n) => n.load).join(', ')} |`);
console.log(`\n${new Date().toISOString()}, ${os.cpus().length} cores shared with other builds`);
