// The full browser soak: node scripts/soak.mjs [--actions 5000] [--batch 250] [--seed 1]
// Serves build/web/dist, runs the randomised actions of tests/support/soak.mjs in headless
// Chromium, prints one line per batch (live heap bytes, wasm memory, JS heap, GL objects,
// errors), then per kind of action how many ran, were refused and hit (clicks), and writes the
// series to build/test-artifacts/soak.json; exits 1 if a check fails.
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser, serveDist, watchErrors } from '../tests/support/browser.mjs';
import { artifactsDir } from '../tests/support/paths.mjs';
import { checkActions, checkSoak, glCounterScript, soak } from '../tests/support/soak.mjs';

const args = { actions: 5000, batch: 250, seed: 1 };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  const value = Number(process.argv[i + 1]);
  if (!(key in args) || !Number.isInteger(value) || value < 1) {
    console.error(`usage: node scripts/soak.mjs [--actions N] [--batch N] [--seed N] (bad: ${process.argv[i]})`);
    process.exit(2);
  }
  args[key] = value;
}

const { server, url } = await serveDist();
const browser = await openBrowser();
await browser.context.addInitScript(glCounterScript);
let failed = false;
try {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(url + 'index.html');
  await page.evaluate(() => window.attnlab.ready);
  const cdp = await browser.context.newCDPSession(page);
  const started = Date.now();
  const result = await soak(page, cdp, {
    ...args, errors,
    log: (s) => console.log(`${String(s.actions).padStart(5)} actions  live ${s.liveBytes} B  wasm ${s.wasmBytes} B  ` +
      `js ${s.jsHeap} B  gl ${s.gl}  errors ${s.errors}  (${((Date.now() - started) / 1000).toFixed(0)} s)`),
  });
  fs.writeFileSync(path.join(artifactsDir, 'soak.json'), JSON.stringify({ ...args, ...result, errorTexts: errors }, null, 1));
  console.log(`baseline: live ${result.baseline.liveBytes} B, js ${result.baseline.jsHeap} B, gl ${result.baseline.gl}`);
  try {
    for (const [kind, k] of Object.entries(result.kinds))
      console.log(`${kind.padEnd(14)} ran ${k.ran}  refused ${k.refused}  hit ${k.hit}`);
    checkSoak(result);
    checkActions(result);
    console.log('soak passed');
  } catch (error) {
    console.log(`soak FAILED: ${error.message}`);
    failed = true;
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
