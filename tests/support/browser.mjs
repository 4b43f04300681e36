// Headless Chromium (Debian's) driven by playwright-core, with WebGL2 in software
// (SwiftShader), and the built site served on 127.0.0.1.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { distDir } from './paths.mjs';

const ARGS = [
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
];

// Opens a browser with a fresh profile. `extraArgs` e.g. ['--disable-webgl2']; `contextOptions`
// e.g. { hasTouch: true, locale: 'zh-CN', colorScheme: 'light' }. The colour scheme is dark
// unless asked (embeds follow it: the pixel tests were written against the dark theme).
export async function openBrowser({ extraArgs = [], deviceScaleFactor = 1, viewport = { width: 1280, height: 800 },
  contextOptions = {} } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, args: [...ARGS, ...extraArgs],
    viewport, deviceScaleFactor, colorScheme: 'dark', ...contextOptions,
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
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
