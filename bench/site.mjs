// Download size and time to first frame of the default page (not part of the test command):
//   node bench/site.mjs [--repeats N]        (after scripts/build.sh web)
// Each repeat opens build/web/dist/index.html from 127.0.0.1 in a fresh headless Chromium
// (empty profile, so an empty cache) and measures, from navigation start, when attnlab.ready
// resolves (the app has drawn its first frame). Twice per repeat: in a browser that is already
// running (launched, then left 2 s to settle: how a reader opens a link) and in one launched
// that instant (its GPU process still starting, which can add a second on these machines). Download size: every file the page requested up to then, gzipped
// at level 9 as a static host would serve it; the CJK font, fetched after the first frame,
// is reported on its own. Budget (issue 8): at most 1.5 MB gzip and 1.5 s. WebGL runs on
// SwiftShader (a CPU rasteriser) on these shared 2-core machines: times are pessimistic.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { openBrowser, serveDist } from '../tests/support/browser.mjs';
import { distDir } from '../tests/support/paths.mjs';

const argv = process.argv.slice(2);
let repeats = 7;
if (argv[0] === '--repeats' && /^\d+$/.test(argv[1] ?? '') && Number(argv[1]) > 0) repeats = Number(argv[1]);
else if (argv.length) {
  console.error('usage: node bench/site.mjs [--repeats N]');
  process.exit(2);
}

const MB = 1e6;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length;

// The moment attnlab.ready resolves, recorded inside the page (window.attnlab is assigned
// once by app.js; the setter hooks its promise).
const RECORD_READY = () => {
  let value;
  Object.defineProperty(window, 'attnlab', {
    configurable: true,
    get: () => value,
    set: (v) => {
      value = v;
      if (v && v.ready) v.ready.then(() => { window.firstFrameMs = performance.now(); }, () => {});
    },
  });
};

const { server, url } = await serveDist();
const runs = [];
try {
  for (let r = 0; r < repeats * 2; r++) {
    const running = r % 2 === 0;
    const browser = await openBrowser();
    if (running) await new Promise((resolve) => setTimeout(resolve, 2000));
    try {
      const page = await browser.context.newPage();
      await page.addInitScript(RECORD_READY);
      const files = [];
      page.on('requestfinished', (req) => files.push(decodeURIComponent(new URL(req.url()).pathname.slice(1))));
      await page.goto(url + 'index.html');
      await page.waitForFunction(() => window.firstFrameMs !== undefined, null, { timeout: 60000 });
      const { firstFrameMs, downloadedMs, marks } = await page.evaluate(() => ({
        firstFrameMs: window.firstFrameMs,
        // app.js's marks: the context made, the app compiled, main() done, frame 1.
        marks: Object.fromEntries(performance.getEntriesByType('mark')
          .filter((m) => m.name.startsWith('attnlab:')).map((m) => [m.name.slice(8), m.startTime])),
        // When the app's last file arrived: the rest of the first frame is compile and start-up.
        downloadedMs: Math.max(...performance.getEntriesByType('resource')
          .filter((e) => /\/attnlab[^/]*\.(wasm|js)$/.test(e.name)).map((e) => e.responseEnd)),
      }));
      await page.waitForFunction(() => window.attnlab.cjkFontLoaded === true, null, { timeout: 60000 });
      const fonts = files.filter((f) => f.startsWith('fonts/'));
      const page1 = [...new Set(files.filter((f) => !f.startsWith('fonts/')).map((f) => f || 'index.html'))];
      runs.push({ running, firstFrameMs, downloadedMs, marks, page: page1, fonts: [...new Set(fonts)] });
      console.log(`run ${(r >> 1) + 1}/${repeats} (${running ? 'running browser' : 'just launched'}): first frame ${firstFrameMs.toFixed(0)} ms (app files downloaded at ${downloadedMs.toFixed(0)} ms), ${page1.length} files`);
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}

const files = runs[0].page;
const sizes = files.map((f) => ({ f, raw: fs.statSync(path.join(distDir, f)).size, gz: gzipSize(f) })).sort((a, b) => b.gz - a.gz);
const total = sizes.reduce((s, x) => s + x.gz, 0);
const fontGz = runs[0].fonts.reduce((s, f) => s + gzipSize(f), 0);
console.log('\nfiles of the default page (gzip -9):');
for (const { f, raw, gz } of sizes) console.log(`  ${f.padEnd(44)} ${(raw / 1024).toFixed(1).padStart(8)} KiB  ${(gz / 1024).toFixed(1).padStart(8)} KiB gz`);
console.log(`total download: ${(total / MB).toFixed(3)} MB gzip (budget 1.5 MB) ${total <= 1.5 * MB ? 'OK' : 'OVER'}`);
console.log(`lazily loaded font(s), not counted: ${runs[0].fonts.join(', ')} ${(fontGz / MB).toFixed(3)} MB gzip`);
const phases = ['context', 'compiled', 'started', 'first-frame'];
for (const running of [true, false]) {
  const these = runs.filter((x) => x.running === running);
  const times = these.map((x) => x.firstFrameMs);
  console.log(`first frame, ${running ? 'running browser' : 'browser just launched'}: median ${median(times).toFixed(0)} ms over ` +
    `${these.length} runs (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}) (budget 1500 ms) ` +
    `${median(times) <= 1500 ? 'OK' : 'OVER'}; app files downloaded at median ${median(these.map((x) => x.downloadedMs)).toFixed(0)} ms`);
  console.log('  phases (median ms from navigation start): ' +
    phases.map((p) => `${p} ${median(these.map((x) => x.marks[p] ?? NaN)).toFixed(0)}`).join(', '));
}
