// The Python package (python/attnlab) in a real notebook: the test writes a notebook whose
// cells run torch's nn.MultiheadAttention (need_weights=True, average_attn_weights=False),
// stack the layers' weights as Hugging Face returns them, and show them with attnlab.show;
// Debian's `jupyter nbconvert --execute --to html` runs it headless; the HTML is opened from
// disk in headless Chromium with the network off. Two figures render with the shader's colours
// for the tensor's values, a third cell with a wrong shape shows the import's own message, and
// attnlab.save_html's file renders the same from file://; its theme= shows that theme in a
// browser whose colour scheme is the other one, and the default follows the scheme. Screenshots:
// build/test-artifacts/jupyter-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowser } from '../support/browser.mjs';
import { cellPixel } from '../support/lab.mjs';
import { colorDistance, expectedSequential } from '../support/colors.mjs';
import { decodePng } from '../support/png.mjs';
import { artifactsDir, nativeDir, root } from '../support/paths.mjs';

const CELLS = [
  `import json, numpy as np, torch, attnlab
torch.manual_seed(0)
tokens = "the cat sat on the mat because it was tired".split()
n, E, H, L = len(tokens), 16, 4, 2
layers = [torch.nn.MultiheadAttention(E, H, batch_first=True) for _ in range(L)]
h = 3 * torch.randn(1, n, E)  # large enough for peaked weights
attentions = []
with torch.no_grad():
    for layer in layers:
        out, w = layer(h, h, h, need_weights=True, average_attn_weights=False)  # w: (B, H, n, n)
        h = h + out  # the residual stream, as in a Transformer block
        attentions.append(w)
attentions = tuple(attentions)  # as Hugging Face's output_attentions
json.dump(torch.stack(attentions, 1)[0].tolist(), open("expected.json", "w"))  # (L, H, n, n), for the test
attnlab.show(attentions, tokens)`,
  'attnlab.show(attentions, tokens, layer=1, head=2, height=500)',
  // 5 tokens of labels for a 10 x 10 matrix: the import refuses it, and says so in the figure.
  'attnlab.show(np.full((2, 4, 10, 10), 0.1, dtype=np.float32), tokens[:5], height=300)',
  'attnlab.save_html("figure.html", attentions, tokens, layer=1, head=2)',
];

let work, browser;
before(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-jupyter-'));
  const notebook = {
    nbformat: 4, nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: CELLS.map((source, i) => ({ cell_type: 'code', id: `cell-${i}`, metadata: {}, execution_count: null, outputs: [], source })),
  };
  fs.writeFileSync(path.join(work, 'figures.ipynb'), JSON.stringify(notebook));
});
after(async () => {
  await browser?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

// Opens `file` from disk with the network off; every request that is not file: or data: is
// refused and recorded.
async function openOffline(file) {
  browser = browser ?? await openBrowser({ viewport: { width: 1100, height: 900 } });
  const page = await browser.context.newPage();
  const refused = [];
  await page.route(/^(https?|wss?):/, (route) => {
    refused.push(route.request().url());
    return route.abort();
  });
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(pathToFileURL(file).href);
  return { page, refused, errors };
}

// The figure in `frameElement` once its blocks are read: its state, import summary and result.
async function figureIn(frameElement) {
  const frame = await frameElement.contentFrame();
  await frame.waitForFunction(() => window.attnlab?.figureReady, null, { timeout: 120000, polling: 200 });
  const ready = await frame.evaluate(() => window.attnlab.figureReady);
  await frame.waitForFunction(() => window.attnlab.framesDrawn() > 3, null, { timeout: 30000 });
  const state = await frame.evaluate(() => window.attnlab.getState());
  const notice = await frame.evaluate(() => document.getElementById('notice').textContent);
  return { frame, ready, state, notice };
}

// The focused head's heatmap in a screenshot of the figure: each cell the shader's colour of
// the tensor's value (as torch computed it, float32 within 1e-6 of what the lab holds).
async function assertFigureShows(frameElement, frame, expected, layer, head, shot) {
  await frameElement.scrollIntoViewIfNeeded();
  const { m, p } = await frame.evaluate((h) => {
    const x = window.attnlab.getMatrix('weights', h);
    return { m: { rows: x.rows, cols: x.cols, data: Array.from(x.data) }, p: window.attnlab.layout().heatmaps['model/focus'] };
  }, head);
  const want = expected[layer][head];
  assert.equal(m.rows, want.length);
  for (let i = 0; i < m.rows; i++)
    for (let j = 0; j < m.cols; j++)
      assert.ok(Math.abs(m.data[i * m.cols + j] - want[i][j]) < 1e-6, `layer ${layer} head ${head} (${i},${j}) ${m.data[i * m.cols + j]} vs ${want[i][j]}`);
  assert.ok(p && p.w > 50, 'the figure shows its focused head');
  const png = decodePng(await frameElement.screenshot({ path: path.join(artifactsDir, shot) }));
  png.cssScale = 1;
  for (let i = 0; i < m.rows; i++)
    for (let j = 0; j < m.cols; j++) {
      const got = cellPixel(png, p, i, j), colour = expectedSequential(want[i][j]);
      assert.ok(colorDistance(got, colour) <= 3, `cell ${i},${j}: got ${got}, want ${colour}`);
    }
}

test('a notebook executed by nbconvert shows two live figures offline and the import\'s message for a wrong shape', async () => {
  const env = { ...process.env, PYTHONPATH: path.join(root, 'python'), PATH: `/usr/bin:${process.env.PATH}` };
  const run = spawnSync('/usr/bin/jupyter-nbconvert', ['--execute', '--to', 'html', '--output', 'figures.html', 'figures.ipynb'],
    { cwd: work, env, encoding: 'utf8', timeout: 300000 });
  assert.equal(run.status, 0, `nbconvert failed:\n${run.stderr}`);
  const expected = JSON.parse(fs.readFileSync(path.join(work, 'expected.json'), 'utf8'));
  const { page, refused, errors } = await openOffline(path.join(work, 'figures.html'));
  const frames = await page.$$('iframe.attnlab-figure');
  assert.equal(frames.length, 3, 'three figures in the executed notebook');

  const first = await figureIn(frames[0]);
  assert.deepEqual(first.ready, { ok: true });
  assert.equal(first.state.panel, 'model');
  assert.equal(first.state.import.layers, 2);
  assert.equal(first.state.import.heads, 4);
  assert.equal(first.state.import.nQ, 10);
  await assertFigureShows(frames[0], first.frame, expected, first.state.layer, first.state.head, 'jupyter-figure-1.png');

  const second = await figureIn(frames[1]);
  assert.deepEqual(second.ready, { ok: true });
  assert.equal(second.state.layer, 1);
  assert.equal(second.state.head, 2);
  await assertFigureShows(frames[1], second.frame, expected, 1, 2, 'jupyter-figure-2.png');

  // The wrong shape: the lab's import refuses it with the message the CLI (the same C++
  // import) gives for the same file.
  const third = await figureIn(frames[2]);
  assert.equal(third.ready.ok, false);
  assert.equal(third.notice, third.ready.error);
  const npz = path.join(work, 'wrong.npz');
  execFileSync('/usr/bin/python3', ['-c',
    'import numpy as np; np.savez_compressed("wrong.npz", attentions=np.full((2, 4, 10, 10), 0.1, dtype=np.float32), tokens=np.array("the cat sat on the".split()))'],
  { cwd: work });
  const cli = spawnSync(path.join(nativeDir, 'attnlab-cli'), ['export', '--in', npz, '--format', 'csv', '--out', path.join(work, 'x.csv')], { encoding: 'utf8' });
  assert.equal(cli.status, 1);
  const reason = cli.stderr.trim().replace(/^attnlab-cli: [^:]*wrong\.npz: /, '');
  assert.ok(reason.length > 10 && third.notice.endsWith(reason), `figure: '${third.notice}', CLI: '${cli.stderr.trim()}'`);
  await frames[2].screenshot({ path: path.join(artifactsDir, 'jupyter-wrong-shape.png') });
  await page.screenshot({ path: path.join(artifactsDir, 'jupyter-notebook.png'), fullPage: true });

  // nbconvert's template asks the network for require.js and MathJax; nothing of ours asks anything.
  assert.ok(refused.every((u) => !/attnlab|\.wasm|cjk/i.test(u)), `refused: ${refused.join(', ')}`);
  assert.deepEqual(errors.filter((e) => !/require|MathJax/i.test(e)), []);
});

test('attnlab.save_html writes one file that renders the same from file://, with no network', async () => {
  const file = path.join(work, 'figure.html');
  assert.ok(fs.existsSync(file), 'the notebook wrote figure.html');
  const expected = JSON.parse(fs.readFileSync(path.join(work, 'expected.json'), 'utf8'));
  const { page, refused, errors } = await openOffline(file);
  await page.waitForFunction(() => window.attnlab?.figureReady, null, { timeout: 120000, polling: 200 });
  assert.deepEqual(await page.evaluate(() => window.attnlab.figureReady), { ok: true });
  await page.waitForFunction(() => window.attnlab.framesDrawn() > 3);
  const state = await page.evaluate(() => window.attnlab.getState());
  assert.equal(state.layer, 1);
  assert.equal(state.head, 2);
  await assertFigureShows(await page.$('html'), page.mainFrame(), expected, 1, 2, 'jupyter-save-html.png');
  assert.deepEqual(refused, []);
  assert.deepEqual(errors, []);
});

test('save_html(theme="light") shows the light theme where the browser\'s scheme is dark; the default follows the scheme', async () => {
  const write = spawnSync('/usr/bin/python3', ['-c', `
import numpy as np, attnlab
a = np.eye(3, dtype=np.float32)
attnlab.save_html("light.html", a, ["a", "b", "c"], theme="light")
attnlab.save_html("auto.html", a, ["a", "b", "c"])`],
  { cwd: work, env: { ...process.env, PYTHONPATH: path.join(root, 'python') }, encoding: 'utf8' });
  assert.equal(write.status, 0, write.stderr);
  // The browser's scheme is dark (openBrowser's default).
  for (const [file, theme, light] of [['light.html', 'light', true], ['auto.html', 'dark', false]]) {
    const { page, refused, errors } = await openOffline(path.join(work, file));
    await page.waitForFunction(() => window.attnlab?.figureReady, null, { timeout: 120000, polling: 200 });
    assert.deepEqual(await page.evaluate(() => window.attnlab.figureReady), { ok: true });
    await page.waitForFunction(() => window.attnlab.framesDrawn() > 3);
    const shown = await page.evaluate(() => ({ state: window.attnlab.getState().theme, page: document.documentElement.dataset.theme }));
    assert.deepEqual(shown, { state: theme, page: theme }, file);
    // The lab's background, below the heatmaps: light grey in the light theme, dark otherwise.
    const png = decodePng(await page.screenshot({ path: path.join(artifactsDir, `jupyter-theme-${theme}.png`) }));
    const [r, g, b] = png.pixel(png.width - 20, png.height - 20);
    const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    assert.ok(light ? luminance > 200 : luminance < 80, `${file}: background (${r}, ${g}, ${b})`);
    assert.deepEqual(refused, []);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

