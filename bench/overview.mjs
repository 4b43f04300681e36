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
const { onBenchPage } = await import('./chromium.mjs');

// A site of symlinks: the math module and the page's module, and a page that runs it.
const site = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-overview-site-'));
fs.symlinkSync(core, path.join(site, 'core'));
fs.symlinkSync(path.join(benchDir, 'overview-page.mjs'), path.join(site, 'overview-page.mjs'));
fs.writeFileSync(path.join(site, 'page.html'), '<!doctype html><meta charset="utf-8"><title>overview</title>' +
  "<script type=\"module\">import { overview32k } from './overview-page.mjs'; window.overview32k = overview32k;</script>");
try {
  const result = await onBenchPage({ site, pagePath: 'page.html', log: console.error }, async (page, context) => {
    await page.waitForFunction(() => typeof window.overview32k === 'function');
    return { ...(await page.evaluate(() => window.overview32k())), chromium: context.browser()?.version() ?? null };
  });
  console.log(JSON.stringify(result));
} finally {
  fs.rmSync(site, { recursive: true, force: true });
}
