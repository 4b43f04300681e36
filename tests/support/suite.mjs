// The set-up browser test files share: the site served on 127.0.0.1 and one headless
// Chromium for the whole file, closed after its last test.
//   const suite = labSuite();                  then suite.openLab(query) opens a lab page
//   const suite = labSuite({ sharedPage: true })   also one lab page for every test of the
//                                              file (suite.page), which must end the file
//                                              with no console error
//   await suite.ready                          in a before() hook of the file: the above done
import { after, afterEach, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, serveDist } from './browser.mjs';
import { openLab } from './lab.mjs';

export function labSuite({ viewport = { width: 1400, height: 900 }, sharedPage = false, deviceScaleFactor = 1 } = {}) {
  // The pages a test opened with suite.openLab are closed when it ends: one it leaves open
  // would go on drawing (and costing CPU) until the file's last test.
  const opened = [];
  const suite = {
    openLab: async (query = '') => {
      const lab = await openLab(suite.browser, suite.url, query);
      opened.push(lab.page);
      return lab;
    },
  };
  afterEach(async () => {
    for (const page of opened.splice(0)) await page.close().catch(() => {});
  });
  // The file's own before() hooks may run alongside this one (node:test starts a file's
  // top-level hooks together): they wait for `suite.ready`.
  let ready;
  suite.ready = new Promise((resolve, reject) => { ready = { resolve, reject }; });
  suite.ready.catch(() => {});  // a failed set-up fails the hook below; nobody need await this
  before(async () => {
    try {
      ({ server: suite.server, url: suite.url } = await serveDist());
      suite.browser = await openBrowser({ viewport, deviceScaleFactor });
      if (sharedPage) ({ page: suite.page, errors: suite.errors } = await openLab(suite.browser, suite.url));
      ready.resolve(suite);
    } catch (error) {
      ready.reject(error);
      throw error;
    }
  });
  after(async () => {
    if (sharedPage) assert.deepEqual(suite.errors, []);
    await suite.browser.close();
    suite.server.close();
  });
  return suite;
}
