// Headless Chromium (Debian's) driven by playwright-core, with WebGL2 in software
// (SwiftShader), and the built site served on 127.0.0.1.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { distDir } from './paths.mjs';

// Headless Chromium 156 opens each new page in a hidden browser window, and each window starts
// a WebUI renderer of its own for the address bar's popup (chrome://omnibox-popup.top-chrome),
// which the tests never see: a trace of one lab's start gave that renderer 1.5 CPU-s beside the
// lab's own 1.8, and the browser process 0.4 CPU-s more for it. Turning off the two features
// that make it (both are needed) took a lab's start from 4.2-4.6 to 2.6-3.1 CPU-s and from
// 2.2-2.4 to 1.5-1.7 s (8 pages a run, two runs each; a shared 2-core machine).
// Chromium keeps only the last --disable-features switch on its command line, and Playwright
// passes its own list first, so ours is Playwright's list with those two added. Its list is
// read from the Playwright the tests run (package.json pins it); if it can no longer be found
// there, this says so rather than drop Playwright's choices silently.
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];
function playwrightDisabledFeatures() {
  const bundle = createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle');
  const list = fs.readFileSync(bundle, 'utf8').match(/\bdisabledFeatures = \[([^\]]*)\]/);
  const names = list && [...list[1].matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
  if (!names?.length) throw new Error(`no list of disabled features in ${bundle}: tests/support/browser.mjs reads Playwright's to add to it`);
  return names;
}

// WebGL runs on SwiftShader in the GPU process either way; the page itself is composited in
// software and the GPU thread runs inside the browser process, which costs the browser suite
// about a fifth less CPU (measured on three test files: 98 CPU-s instead of 118, the same
// tests passing). The software compositor reads each WebGL canvas back, so Chromium logs
// "GPU stall due to ReadPixels" once per canvas: a note on this configuration, not the page's.
export const ARGS = [
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
  '--disable-gpu-compositing', '--in-process-gpu',
  `--disable-features=${[...playwrightDisabledFeatures(), ...OMNIBOX_POPUP_FEATURES].join(',')}`,
];
export const COMPOSITOR_READBACK_NOTE = /GPU stall due to ReadPixels/;

// Opens a browser with a fresh profile: a new browser context (its own storage, cache and
// cookies, as a new profile has) in a Chromium process the calls of one test process share.
// Launching Chromium and its GPU process costs more than a page does (4.3 s against 2.4 s for
// a context and its first page, 1.4 s for a later page: SwiftShader compiles its shaders again
// in each new GPU process), and a test file opens up to seven browsers. The process is shared
// by the calls with the same `extraArgs` and closes when the last of their browsers is closed.
// Where ATTNLAB_CHROMIUM_WS names a running Chromium server (tests/support/chromium_server.mjs,
// which scripts/test.sh starts for the whole browser suite), the calls without `extraArgs`
// connect to it instead of launching one per test file: that saves each file about 2.4 CPU-s
// and 1.5 s (measured on four files: 45.5 CPU-s and 26.9 s launching, 35.8 and 21.1
// connected). Contexts keep the files apart as before; if the server cannot be reached the
// file launches its own, with a note on stderr.
// `extraArgs` e.g. ['--disable-webgl2']; `contextOptions` e.g. { hasTouch: true, locale:
// 'zh-CN', colorScheme: 'light' }. The colour scheme is dark unless asked (embeds follow it:
// the pixel tests were written against the dark theme).
const launched = new Map();  // extraArgs joined -> { browser: Promise of a Browser, users }
export async function openBrowser({ extraArgs = [], deviceScaleFactor = 1, viewport = { width: 1280, height: 800 },
  contextOptions = {} } = {}) {
  const key = extraArgs.join(' ');
  let shared = launched.get(key);
  if (!shared) {
    shared = { users: 0, browser: key === '' && process.env.ATTNLAB_CHROMIUM_WS ? connectShared(process.env.ATTNLAB_CHROMIUM_WS) : launch(extraArgs) };
    launched.set(key, shared);
  }
  shared.users++;
  let context;
  try {
    context = await (await shared.browser).newContext({ viewport, deviceScaleFactor, colorScheme: 'dark', ...contextOptions });
  } catch (error) {
    await release(key, shared);
    throw error;
  }
  let closed = false;
  return {
    context,
    async close() {
      if (closed) return;
      closed = true;
      await context.close();
      await release(key, shared);
    },
  };
}

function launch(extraArgs) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...ARGS, ...extraArgs] });
}

async function connectShared(wsEndpoint) {
  try {
    return await chromium.connect(wsEndpoint, { timeout: 10000 });
  } catch (error) {
    process.stderr.write(`the shared Chromium at ${wsEndpoint} did not answer (${error.message.split('\n')[0]}); launching one\n`);
    return launch([]);
  }
}

async function release(key, shared) {
  if (--shared.users > 0) return;
  if (launched.get(key) === shared) launched.delete(key);
  const browser = await shared.browser.catch(() => null);
  await browser?.close();
}

export function serveDist() {
  return startServer({ root: distDir });
}

// Collects console errors and uncaught page errors, which every test asserts are absent.
export function watchErrors(page) {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  return errors;
}
