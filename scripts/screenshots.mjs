// Screenshots to look at (not part of the test command): the first panel of every chapter and
// three steps of the guided tour, at 1280 x 800, DPR 1 and 2, in English and Chinese, from the
// built site (build/web/dist). Writes OUT/<lang>-dpr<N>-<chapter>.png and
// OUT/<lang>-dpr<N>-tour-<step>.png (OUT: build/screenshots by default).
//   node scripts/screenshots.mjs [OUT]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const top = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(top, 'build', 'screenshots'));
const dist = process.env.ATTNLAB_DIST_DIR || path.join(top, 'build', 'web', 'dist');
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`screenshots: no site in ${dist}; build it first (bash scripts/build.sh web)`);
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
const { server, url } = await startServer({ root: dist });
const TOUR_STEPS = [1, 3, 8];
let count = 0;
try {
  for (const dpr of [1, 2]) {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium', headless: true,
      args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox'],
    });
    for (const lang of ['en', 'zh']) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: dpr, colorScheme: 'dark' });
      const page = await context.newPage();
      await page.goto(`${url}index.html?lang=${lang}`);
      await page.evaluate(() => window.attnlab.ready);
      if (lang === 'zh') await page.waitForFunction(() => window.attnlab.cjkFontLoaded === true, null, { timeout: 60000 });
      const settle = async () => {
        await page.mouse.move(1279, 799);
        await page.evaluate(async () => {
          const target = window.attnlab.framesDrawn() + 4;
          while (window.attnlab.framesDrawn() < target) await new Promise((r) => requestAnimationFrame(r));
        });
      };
      const panels = await page.evaluate(() => window.attnlab.panels());
      const chapters = [...new Set(panels.map((p) => p.chapter))];
      for (const chapter of chapters) {
        const first = panels.find((p) => p.chapter === chapter).id;
        await page.evaluate((p) => window.attnlab.setState({ panel: p, tour: 0 }), first);
        await settle();
        await page.screenshot({ path: path.join(out, `${lang}-dpr${dpr}-${chapter}.png`) });
        count++;
      }
      for (const step of TOUR_STEPS) {
        await page.evaluate((s) => window.attnlab.loadLink(`#v=3&tour=${s}&language=${document.documentElement.lang.startsWith('zh') ? 'zh' : 'en'}`), step);
        await settle();
        await page.screenshot({ path: path.join(out, `${lang}-dpr${dpr}-tour-${step}.png`) });
        count++;
      }
      await context.close();
    }
    await browser.close();
  }
} finally {
  server.close();
}
console.log(`screenshots: ${count} pictures in ${out}`);
