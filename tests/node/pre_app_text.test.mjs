// The page's words before the app loads (web/pre-app-text.mjs) are the string table's
// (src/ui/strings.h), and the language they come in follows ?lang=, the link, the browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../support/paths.mjs';
import { PRE_APP_TEXT, preAppLanguage, preAppText } from '../../web/pre-app-text.mjs';

// X(name, "English", "中文") entries of the table, unescaped.
function tableEntry(table, name) {
  const m = new RegExp(`X\\(${name}, \\\\\\n\\s*"((?:[^"\\\\]|\\\\.)*)", \\\\\\n\\s*"((?:[^"\\\\]|\\\\.)*)"\\)`).exec(table);
  assert.ok(m, `${name} is not in src/ui/strings.h`);
  const unescape = (s) => JSON.parse(`"${s}"`);
  return { en: unescape(m[1]), zh: unescape(m[2]) };
}

test('the words shown before the app loads are the string table\'s, in both languages', () => {
  const table = fs.readFileSync(path.join(root, 'src/ui/strings.h'), 'utf8');
  const names = Object.keys(PRE_APP_TEXT.en);
  assert.deepEqual(Object.keys(PRE_APP_TEXT.zh), names);
  assert.ok(names.length >= 3);
  for (const name of names) {
    const entry = tableEntry(table, name);
    assert.equal(PRE_APP_TEXT.en[name], entry.en, name);
    assert.equal(PRE_APP_TEXT.zh[name], entry.zh, name);
  }
  // The static text of the page before any script ran is the English one.
  const html = fs.readFileSync(path.join(root, 'web/index.html'), 'utf8');
  assert.ok(html.includes(`<p id="status-text">${PRE_APP_TEXT.en.web_loading}</p>`));
});

test('the language before the app loads: ?lang= first, then the link, then the browser', () => {
  assert.equal(preAppLanguage('?lang=zh', '#language=en', 'en-GB'), 'zh');
  assert.equal(preAppLanguage('?lang=en', '', 'zh-CN'), 'en');
  assert.equal(preAppLanguage('', '#panel=dot&language=zh', 'en-US'), 'zh');
  assert.equal(preAppLanguage('', '#language=en', 'zh-TW'), 'en');
  assert.equal(preAppLanguage('', '', 'zh-CN'), 'zh');
  assert.equal(preAppLanguage('?lang=fr', '#languages=zh', 'de'), 'en');
  assert.equal(preAppText('web_loading', { search: '?lang=zh' }), '正在载入注意力实验室…');
});
