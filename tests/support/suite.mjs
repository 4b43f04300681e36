// The set-up browser test files share: the site served on 127.0.0.1 and one headless
// Chromium for the whole file, closed after its last test.
//   const suite = labSuite();                  then suite.openLab(query) opens a lab page
//   const suite = labSuite({ sharedPage: true })   also one lab page for every test of the
//                                              file (suite.page), which must end the file
//                                              with no console error
//   await suite.ready                          in a before() hook of the file: the above done
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, serveDist } from './browser.mjs';
import { openLab } from './lab.mjs';

export function labSuite({ viewport = { width: 1400, height: 900 }, sharedPage = false, deviceScaleFactor = 1 } = {}) {
  const suite = { openLab: (query = '') => openLab(suite.browser, suite.url, query) };
  // The file's own before() hooks may run alongside this one (node:test starts a file's
  // top-level hooks together): they wait for `suite.ready`.
  let ready;
  suite.ready = new Promise((resolve, reject) => { ready = { resolve, reject }; });
  suite.ready.catch(() => {});  // a failed set-up fails the hook below; nobody need await this
  before(async () => {
    try {
      ({ server: suite.server, url: suite.url } = await serveDist());
      suite.browser = await openBrowser({ viewport, deviceScaleFactor });
      if (sharedPage) ({ page: suite.page, errors: suite.errors } = await suite.openLab());
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
