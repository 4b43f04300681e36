// The 32k-token overview's row alone, in headless Chromium (bench/overview-page.mjs), without
// the peers: node bench/overview.mjs [SITE], SITE the math module's folder (default
// build/web/site-raw, which scripts/build.sh web writes). Prints one JSON line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');
const core = path.resolve(process.argv[2] ?? path.join(root, 'build', 'web', 'site-raw'));
const { chromium } = await import('playwright-core');
const { startServer } = await import(path.join(root, 'scripts', 'serve.mjs'));

// A site of symlinks: the math module and the page's module, and a page that runs it.
const site = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-overview-site-'));
fs.symlinkSync(core, path.join(site, 'core'));
fs.symlinkSync(path.join(benchDir, 'overview-page.mjs'), path.join(site, 'overview-page.mjs'));
fs.writeFileSync(path.join(site, 'page.html'), '<!doctype html><meta charset="utf-8"><title>overview</title>' +
  "<script type=\"module\">import { overview32k } from './overview-page.mjs'; window.overview32k = overview32k;</script>");
const { server, url } = await startServer({ root: site });
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-overview-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-quic', '--disable-renderer-backgrounding', '--disable-background-timer-throttling'],
});
try {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[chromium] page error: ${e}`));
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  await page.goto(url + 'page.html');
  await page.waitForFunction(() => typeof window.overview32k === 'function');
  const result = await page.evaluate(() => window.overview32k());
  console.log(JSON.stringify({ ...result, chromium: context.browser()?.version() ?? null }));
} finally {
  await context.close();
  server.close();
  fs.rmSync(profile, { recursive: true, force: true });
  fs.rmSync(site, { recursive: true, force: true });
}
