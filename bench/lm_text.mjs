// Training the language model on a text of one's own: characters per second in headless
// Chromium (the Worker of attention-lab/core/offthread, SIMD build) against the native trainer
// on one thread (`attnlab-cli lm-train --text`), the same preset and steps, measured side by
// side in each repeat (not part of the test command):
//   node bench/lm_text.mjs [--repeats 3] [--steps 200] [--preset page] [--text FILE]
// (after scripts/build.sh native and web; the text defaults to the GPL, which Debian's
// base-files ships). Characters per second = steps x the batch's windows x the context / training
// seconds (pauses and the page's start excluded). Medians over the repeats, with the load
// average beside them, because the machine is shared.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBrowser, serveDist } from '../tests/support/browser.mjs';
import { nativeDir } from '../tests/support/paths.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const repeats = Number(option('--repeats', 3));
const steps = Number(option('--steps', 200));
const preset = option('--preset', 'page');
const textFile = option('--text', '/usr/share/common-licenses/GPL-3');
const text = fs.readFileSync(textFile, 'utf8');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function native() {
  const out = path.join(os.tmpdir(), `attnlab-bench-lm-${process.pid}.attnlm`);
  const report = JSON.parse(execFileSync(path.join(nativeDir, 'attnlab-cli'),
    ['lm-train', '--text', textFile, '--preset', preset, '--steps', String(steps), '--out', out],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  fs.rmSync(out, { force: true });
  return (report.steps * report.batch * report.context) / report.trainSeconds;
}

async function browser(page) {
  return page.evaluate(async ({ text, steps, preset }) => {
    const { createLanguageModelTrainerWorker } = await import('./attnlab-core-offthread.mjs');
    let last = null;
    const worker = createLanguageModelTrainerWorker({ onProgress: (p) => { last = p; } });
    await worker.start({ text, seed: 1, preset, steps });
    await worker.run();
    worker.terminate();
    return last.charactersPerSecond;
  }, { text, steps, preset });
}

const { server, url } = await serveDist();
const b = await openBrowser();
const page = await b.context.newPage();
await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
await page.goto(url + 'asset-manifest.json');
const rows = { browser: [], native: [] };
for (let r = 0; r < repeats; r++) {
  rows.native.push(native());
  rows.browser.push(await browser(page));
}
await b.close();
server.close();
const [nat, web] = [median(rows.native), median(rows.browser)];
console.log(`lm-train --text ${path.basename(textFile)}, preset ${preset}, ${steps} steps, ${repeats} repeats ` +
  `(load average ${os.loadavg()[0].toFixed(2)}; a shared machine, times are noisy):`);
console.log(`  native, one thread:       ${nat.toFixed(0)} characters/s (${rows.native.map((x) => x.toFixed(0)).join(', ')})`);
console.log(`  Chromium worker, SIMD:    ${web.toFixed(0)} characters/s (${rows.browser.map((x) => x.toFixed(0)).join(', ')})`);
console.log(`  the page at ${((100 * web) / nat).toFixed(0)}% of native`);
