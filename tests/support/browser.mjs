// Headless Chromium (Debian's) driven by playwright-core, with WebGL2 in software
// (SwiftShader), and the built site served on 127.0.0.1.
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { distDir } from './paths.mjs';

// WebGL runs on SwiftShader in the GPU process either way; the page itself is composited in
// software and the GPU thread runs inside the browser process, which costs the browser suite
// about a fifth less CPU (measured on three test files: 98 CPU-s instead of 118, the same
// tests passing). The software compositor reads each WebGL canvas back, so Chromium logs
// "GPU stall due to ReadPixels" once per canvas: a note on this configuration, not the page's.
export const ARGS = [
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
  '--disable-gpu-compositing', '--in-process-gpu',
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
