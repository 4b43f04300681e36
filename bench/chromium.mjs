// A benchmark page in headless Chromium (Debian's, via playwright-core): `site` served on
// 127.0.0.1, a fresh profile, the flags that keep a background tab from being throttled.
// onPage(page, context) runs once `pagePath` has loaded; everything is closed afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function onBenchPage({ site, pagePath, log = console.log }, onPage) {
  const { chromium } = await import('playwright-core');
  const { startServer } = await import(path.join(root, 'scripts', 'serve.mjs'));
  const { server, url } = await startServer({ root: site });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-quic', '--disable-renderer-backgrounding', '--disable-background-timer-throttling'],
  });
  try {
    const page = await context.newPage();
    page.on('console', (m) => log(`[chromium] ${m.text()}`));
    page.on('pageerror', (e) => log(`[chromium] page error: ${e}`));
    await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
    await page.goto(url + pagePath);
    return await onPage(page, context);
  } finally {
    await context.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
