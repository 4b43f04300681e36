// A headless Chromium the browser test files share (tests/support/browser.mjs connects to it
// where ATTNLAB_CHROMIUM_WS names it), launched with the same arguments as a file's own.
// Prints its WebSocket address as its first line of output, then runs until its standard
// input closes or it is sent SIGTERM or SIGINT, and closes the browser on the way out.
//   exec 3< <(node tests/support/chromium_server.mjs)   then   read -r -u 3 endpoint
import { chromium } from 'playwright-core';
import { ARGS } from './browser.mjs';

const server = await chromium.launchServer({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
process.stdout.write(server.wsEndpoint() + '\n');

let closing = false;
async function stop() {
  if (closing) return;
  closing = true;
  await server.close().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
