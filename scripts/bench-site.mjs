// Download size and time to first frame of the default page (not part of the test command):
//   node scripts/bench-site.mjs [--repeats N]        (after scripts/build.sh web)
// Each repeat opens build/web/dist/index.html from 127.0.0.1 in a fresh headless Chromium
// (empty cache) and measures, from navigation start, when attnlab.ready resolves (the app has
// drawn its first frame). Download size: every file the page requested up to then, gzipped
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
  console.error('usage: node scripts/bench-site.mjs [--repeats N]');
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
  for (let r = 0; r < repeats; r++) {
    const browser = await openBrowser();
    try {
      const page = await browser.context.newPage();
      await page.addInitScript(RECORD_READY);
      const files = [];
      page.on('requestfinished', (req) => files.push(decodeURIComponent(new URL(req.url()).pathname.slice(1))));
      await page.goto(url + 'index.html');
      await page.waitForFunction(() => window.firstFrameMs !== undefined, null, { timeout: 60000 });
      const { firstFrameMs, downloadedMs } = await page.evaluate(() => ({
        firstFrameMs: window.firstFrameMs,
        // When the app's last file arrived: the rest of the first frame is compile and start-up.
        downloadedMs: Math.max(...performance.getEntriesByType('resource')
          .filter((e) => /\/attnlab[^/]*\.(wasm|js)$/.test(e.name)).map((e) => e.responseEnd)),
      }));
      await page.waitForFunction(() => window.attnlab.cjkFontLoaded === true, null, { timeout: 60000 });
      const fonts = files.filter((f) => f.startsWith('fonts/'));
      const page1 = [...new Set(files.filter((f) => !f.startsWith('fonts/')).map((f) => f || 'index.html'))];
      runs.push({ firstFrameMs, downloadedMs, page: page1, fonts: [...new Set(fonts)] });
      console.log(`run ${r + 1}/${repeats}: first frame ${firstFrameMs.toFixed(0)} ms (app files downloaded at ${downloadedMs.toFixed(0)} ms), ${page1.length} files`);
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
const times = runs.map((x) => x.firstFrameMs);
console.log('\nfiles of the default page (gzip -9):');
for (const { f, raw, gz } of sizes) console.log(`  ${f.padEnd(44)} ${(raw / 1024).toFixed(1).padStart(8)} KiB  ${(gz / 1024).toFixed(1).padStart(8)} KiB gz`);
console.log(`total download: ${(total / MB).toFixed(3)} MB gzip (budget 1.5 MB) ${total <= 1.5 * MB ? 'OK' : 'OVER'}`);
console.log(`lazily loaded font(s), not counted: ${runs[0].fonts.join(', ')} ${(fontGz / MB).toFixed(3)} MB gzip`);
console.log(`first frame: median ${median(times).toFixed(0)} ms over ${repeats} runs (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}) ` +
  `(budget 1500 ms) ${median(times) <= 1500 ? 'OK' : 'OVER'}; app files downloaded at median ${median(runs.map((x) => x.downloadedMs)).toFixed(0)} ms`);
