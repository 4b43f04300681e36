// The full page itself (issue 44): its theme follows the reader's colour scheme until one is
// chosen, and the followed theme is in no link, address or stored session; the list of keys
// (`?`, the toolbar's Keys button) shows every row of the app's table of keys
// (src/ui/key_bindings.h), in English and in Chinese, and gives the focus back; the page's
// description, link-preview tags, theme colours and web app manifest. Screenshots:
// page-light-scheme.png, overlay-en.png (DPR 1), overlay-zh-dpr2.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser, serveDist } from '../support/browser.mjs';
import { frames, openLab, screenshot, waitFor } from '../support/lab.mjs';
import { latinGluedToHanzi, latinWordsBeyond } from '../support/latin_words.mjs';
import { root } from '../support/paths.mjs';

let server, url;
before(async () => ({ server, url } = await serveDist()));
after(() => server.close());

const luma = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

// What the page shows and keeps of the theme.
function themeSeen(page) {
  return page.evaluate(() => ({
    theme: window.attnlab.getState().theme,
    shown: document.documentElement.dataset.theme,
    hash: location.hash,
    link: window.attnlab.link(),
    stored: JSON.parse(localStorage.getItem('attnlab.session') ?? 'null'),
    pick: localStorage.getItem('attnlab.theme'),
  }));
}

test('the page follows the reader\'s colour scheme until a theme is chosen; the followed one is in no link and no stored session', async () => {
  const browser = await openBrowser({ contextOptions: { colorScheme: 'light' } });
  try {
    const { page, errors } = await openLab(browser, url);
    // 1 a light system: the lab and the page are light, and nothing written says so.
    await page.evaluate(() => window.attnlab.setState({ cursor: 2 }));
    await waitFor(page, () => JSON.parse(localStorage.getItem('attnlab.session') ?? '{}').cursor === 2);
    let seen = await themeSeen(page);
    assert.equal(seen.theme, 'light');
    assert.equal(seen.shown, 'light');
    assert.doesNotMatch(seen.hash, /theme=/);
    assert.doesNotMatch(seen.link, /theme=/);
    assert.ok(!('theme' in seen.stored), 'the stored session leaves the followed theme out');
    assert.equal(seen.pick, null);
    await page.click('#copy-link');
    assert.doesNotMatch(await page.inputValue('#link-field'), /theme=/);
    await page.click('#embed-button');
    assert.doesNotMatch(await page.inputValue('#embed-snippet'), /theme=/);
    await page.click('#embed-button');
    await frames(page, 3);
    const png = await screenshot(page, 'page-light-scheme.png');
    // The figure's ground (what most of a grid of samples below the toolbars shows) and the toolbar.
    const counts = new Map();
    for (let gy = 4; gy < 20; gy++)
      for (let gx = 1; gx < 20; gx++) {
        const key = Math.round(luma(png.pixel(Math.floor((gx * png.width) / 20), Math.floor((gy * png.height) / 20))) / 8) * 8;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    const ground = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
    assert.ok(ground > 200, `the lab's ground is light (luma ${ground})`);
    assert.ok(luma(png.pixel(png.width - 3, 3)) > 200, 'the toolbar is light');
    assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('meta[name="theme-color"]')].map((m) => m.content)),
      ['#e4e4ea', '#e4e4ea'], 'the browser\'s bars in the light toolbar\'s colour');

    // 2 the scheme changes: the page follows, live, and still writes no theme.
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitFor(page, () => window.attnlab.getState().theme === 'dark' && document.documentElement.dataset.theme === 'dark');
    seen = await themeSeen(page);
    assert.doesNotMatch(seen.hash, /theme=/);
    await page.emulateMedia({ colorScheme: 'light' });
    await waitFor(page, () => window.attnlab.getState().theme === 'light');

    // 3 a theme picked: the page stops following; the pick is stored and in the address.
    await page.evaluate(() => window.attnlab.setState({ theme: 'high-contrast' }));
    await waitFor(page, () => /(^#|&)theme=high-contrast(&|$)/.test(location.hash) && localStorage.getItem('attnlab.theme') === 'high-contrast');
    await page.emulateMedia({ colorScheme: 'dark' });
    await frames(page, 5);
    assert.equal((await themeSeen(page)).theme, 'high-contrast', 'a picked theme stays when the scheme changes');
    // Dark, the default, picked on a light system is named in the address too (a link's default
    // is otherwise left out), so the link and a reload keep it.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => window.attnlab.setState({ theme: 'dark' }));
    await waitFor(page, () => /(^#|&)theme=dark(&|$)/.test(location.hash) && localStorage.getItem('attnlab.theme') === 'dark');
    await frames(page, 5);
    seen = await themeSeen(page);
    assert.equal(seen.theme, 'dark');
    assert.match(seen.link, /(^|&)theme=dark(&|$)/);
    // Opened again without the link, on the light system: the stored pick, not the scheme.
    await page.goto(`${url}index.html`);
    await page.evaluate(() => window.attnlab.ready);
    await frames(page, 3);
    seen = await themeSeen(page);
    assert.equal(seen.theme, 'dark');
    assert.equal(seen.stored.cursor, 2, 'the stored session was restored');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await browser.close();
  }

  // 4 a link's theme=dark wins over a light system (a fresh profile: nothing stored).
  const fresh = await openBrowser({ contextOptions: { colorScheme: 'light' } });
  try {
    const { page, errors } = await openLab(fresh, url, '#v=4&theme=dark&cursor=1');
    await frames(page, 3);
    let seen = await themeSeen(page);
    assert.equal(seen.theme, 'dark');
    assert.match(seen.hash, /(^#|&)theme=dark(&|$)/);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    await frames(page, 5);
    seen = await themeSeen(page);
    assert.equal(seen.theme, 'dark', 'the link\'s theme stays when the scheme changes');
    assert.equal(seen.pick, null, 'a link\'s theme is not stored as the reader\'s pick');
    assert.deepEqual(errors, []);
  } finally {
    await fresh.close();
  }
});

// The list's rows as the page shows them: lab rows first, then the page's.
function listedRows(page) {
  return page.evaluate(() => [...document.querySelectorAll('#keys-list tr[data-action]')].map((tr) => ({
    action: tr.dataset.action, keys: [...tr.querySelectorAll('kbd')].map((k) => k.textContent), text: tr.cells[1].textContent,
  })));
}
const tableRows = (table) => [...table.filter((r) => !r.page), ...table.filter((r) => r.page)]
  .map(({ action, keys, text }) => ({ action, keys, text }));

// The open list is readable: inside the window, nothing scrolled out of it, text at 14 CSS px or more.
async function assertReadable(page) {
  const box = await page.evaluate(() => {
    const d = document.getElementById('keys-list');
    const r = d.getBoundingClientRect();
    return { x: r.x, y: r.y, right: r.right, bottom: r.bottom, scrolls: d.scrollHeight > d.clientHeight + 1,
      font: parseFloat(getComputedStyle(d.querySelector('td:last-child')).fontSize), w: innerWidth, h: innerHeight };
  });
  assert.ok(box.x >= 0 && box.y >= 0 && box.right <= box.w && box.bottom <= box.h, `the list inside the window: ${JSON.stringify(box)}`);
  assert.ok(!box.scrolls, 'every row shows without scrolling');
  assert.ok(box.font >= 14, `text at ${box.font} px`);
}

test('the list of keys in English at DPR 1: the app\'s table, row for row; ? toggles it, Escape closes it, the Keys button opens it, the focus comes back; ? typed in a field is typed', async () => {
  const browser = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    const { page, errors } = await openLab(browser, url, '?lang=en');
    // The table is the C++ one: an entry for every action of ATTNLAB_KEY_ACTIONS, in its order.
    const table = await page.evaluate(() => window.attnlab.keys());
    const header = fs.readFileSync(path.join(root, 'src/ui/key_bindings.h'), 'utf8');
    const actions = [...header.matchAll(/^\s*X\(\w+, "(\w+)", \w+\)/gm)].map((m) => m[1]);
    assert.ok(actions.length >= 10, `actions read from the header: ${actions}`);
    assert.deepEqual(table.map((r) => r.action), actions);
    for (const r of table) assert.ok(r.keys.length > 0 && r.text.length > 3, JSON.stringify(r));
    assert.deepEqual(table.filter((r) => r.page).map((r) => r.pageKeys), [['?'], ['Escape']]);

    // ? on the canvas opens the list; the app does not act on it.
    await page.evaluate(() => window.attnlab.setState({ heads: 2, head: 0 }));
    const link = await page.evaluate(() => window.attnlab.link());
    await page.focus('#canvas');
    await page.keyboard.press('?');
    await waitFor(page, () => document.getElementById('keys-list').open);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'keys-close');
    assert.deepEqual(await listedRows(page), tableRows(table));
    assert.equal(await page.textContent('#keys-title'), 'Keyboard keys');
    await assertReadable(page);
    await screenshot(page, 'overlay-en.png');
    // The focus stays inside while it is open.
    for (let k = 0; k < 3; k++) {
      await page.keyboard.press('Tab');
      assert.ok(await page.evaluate(() => document.getElementById('keys-list').contains(document.activeElement)), 'Tab stays in the list');
    }
    // Escape closes it and gives the canvas its focus back, and the app takes its keys again.
    await page.keyboard.press('Escape');
    await waitFor(page, () => !document.getElementById('keys-list').open);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'canvas');
    assert.equal(await page.evaluate(() => window.attnlab.link()), link, 'the app did not act on ?');
    await page.keyboard.press('h');
    await waitFor(page, () => window.attnlab.getState().head === 1);

    // The toolbar's button opens it, ? closes it, and the focus goes back to the button.
    await page.click('#keys-button');
    await waitFor(page, () => document.getElementById('keys-list').open);
    await page.keyboard.press('?');
    await waitFor(page, () => !document.getElementById('keys-list').open);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'keys-button');
    // Close does the same.
    await page.click('#keys-button');
    await page.click('#keys-close');
    assert.equal(await page.evaluate(() => document.getElementById('keys-list').open), false);

    // ? in the page's sentence field is typed there.
    await page.focus('#sentence');
    await page.keyboard.press('End');
    await page.keyboard.type('?');
    await frames(page, 3);
    assert.equal(await page.evaluate(() => document.getElementById('keys-list').open), false);
    assert.match(await page.inputValue('#sentence'), /\?$/);
    // ... and in the app's own field (an exercise's answer), too.
    const exercise = (await page.evaluate(() => window.attnlab.exercises())).find((x) => x.kind === 'number');
    await page.evaluate((id) => window.attnlab.setState({ exercise: id }), exercise.id);
    await frames(page, 3);
    const input = (await page.evaluate(() => window.attnlab.layout().exercise)).inputBox;
    await page.mouse.click(input.x + input.w / 2, input.y + input.h / 2);
    await frames(page, 3);
    await page.keyboard.press('?');
    await frames(page, 3);
    assert.equal(await page.evaluate(() => document.getElementById('keys-list').open), false, '? typed in the app\'s field');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

// The names printed on the keys themselves, the same on a Chinese keyboard.
const KEY_LEGENDS = new Set(['H', 'P', 'Ctrl', 'Z', 'Y', 'Esc']);

test('the list of keys in Chinese at DPR 2: every row in Chinese, no English word beyond the allowed ones and the keys\' legends', async () => {
  const browser = await openBrowser({ deviceScaleFactor: 2, viewport: { width: 1280, height: 800 }, contextOptions: { locale: 'zh-CN' } });
  try {
    const { page, errors } = await openLab(browser, url, '?lang=zh');
    assert.equal(await page.textContent('#keys-button'), '按键');
    await page.click('#keys-button');
    await waitFor(page, () => document.getElementById('keys-list').open);
    const table = await page.evaluate(() => window.attnlab.keys());
    assert.deepEqual(await listedRows(page), tableRows(table));
    for (const r of table) assert.match(r.text, /[\u4e00-\u9fff]/, `${r.action}: ${r.text}`);
    // The words: title, headings, column heads, Close and every row's text; then the keys.
    const words = await page.evaluate(() => {
      const d = document.getElementById('keys-list');
      return [...d.querySelectorAll('h2, h3, th, button, td:last-child')].map((e) => e.textContent).join('\n');
    });
    assert.match(words, /键盘按键/);
    assert.deepEqual(latinWordsBeyond(words), [], 'English words in the Chinese list');
    assert.deepEqual(latinGluedToHanzi(words), []);
    const keys = table.flatMap((r) => r.keys).join('\n');
    assert.deepEqual(latinWordsBeyond(keys, KEY_LEGENDS), [], 'English key names in the Chinese list');
    assert.deepEqual(latinGluedToHanzi(keys), []);
    assert.ok(table.flatMap((r) => r.keys).includes('空格键'));
    await assertReadable(page);
    const png = await screenshot(page, 'overlay-zh-dpr2.png');
    assert.equal(png.width, 2560);
    // The language switched while it is closed: the next opening speaks English.
    await page.keyboard.press('Escape');
    await page.evaluate(() => window.attnlab.setState({ language: 'en' }));
    await page.click('#keys-button');
    await waitFor(page, () => document.getElementById('keys-title').textContent === 'Keyboard keys');
    assert.deepEqual(await listedRows(page), tableRows(await page.evaluate(() => window.attnlab.keys())));
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('the page\'s description, link-preview tags, theme colours and web app manifest', async () => {
  const browser = await openBrowser();
  try {
    const { page, errors } = await openLab(browser, url);
    const head = await page.evaluate(() => {
      const meta = (selector) => [...document.querySelectorAll(selector)].map((m) => ({ content: m.content, media: m.media }));
      return {
        description: meta('meta[name="description"]'),
        og: Object.fromEntries([...document.querySelectorAll('meta[property^="og:"]')].map((m) => [m.getAttribute('property'), m.content])),
        themeColor: meta('meta[name="theme-color"]'),
        manifest: document.querySelector('link[rel="manifest"]')?.href,
      };
    });
    assert.equal(head.description.length, 1);
    assert.ok(head.description[0].content.length > 60);
    for (const p of ['og:type', 'og:title', 'og:description', 'og:image']) assert.ok(head.og[p], `${p} is set`);
    assert.deepEqual(head.themeColor.map((t) => t.media), ['(prefers-color-scheme: light)', '(prefers-color-scheme: dark)']);
    // The image and the manifest are files the site ships (under their published names).
    assert.equal((await page.request.get(new URL(head.og['og:image'], page.url()).href)).status(), 200);
    const response = await page.request.get(head.manifest);
    assert.equal(response.status(), 200);
    const manifest = await response.json();
    assert.equal(manifest.name, 'Attention Lab');
    assert.equal(manifest.start_url, '.');
    assert.ok(manifest.short_name && manifest.display && manifest.background_color && manifest.theme_color);
    for (const icon of manifest.icons) assert.equal((await page.request.get(new URL(icon.src, head.manifest).href)).status(), 200, icon.src);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
