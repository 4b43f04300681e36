// The short soak (the full one: scripts/soak.mjs, 5,000 actions): randomised typing
// (emoji, CJK, hostile markup, 10,000-character pastes), mask edits, panel switches, math
// and model changes, imports (good and junk files), resizes, keys and hostile state
// patches, in batches. After each batch: no console error, frames still advance, nothing
// ran from a typed string; after a reset the app's live heap bytes (mallinfo), the JS heap
// and the live GL objects stay bounded near their baseline and do not grow batch after batch.
import { test, before, after } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser, serveDist } from '../support/browser.mjs';
import { openLab } from '../support/lab.mjs';
import { artifactsDir } from '../support/paths.mjs';
import { checkSoak, glCounterScript, soak } from '../support/soak.mjs';

let server, url, browser;
before(async () => {
  ({ server, url } = await serveDist());
  browser = await openBrowser();
  await browser.context.addInitScript(glCounterScript);
});
after(async () => {
  await browser.close();
  server.close();
});

test('short soak: 150 random actions in 3 batches leave no error, no runaway heap and no leaked GL objects', async () => {
  const { page, errors } = await openLab(browser, url);
  const cdp = await browser.context.newCDPSession(page);
  const result = await soak(page, cdp, { actions: 150, batch: 50, seed: 7, errors });
  fs.writeFileSync(path.join(artifactsDir, 'soak-short.json'), JSON.stringify(result, null, 1));
  checkSoak(result);
  await page.close();
});
