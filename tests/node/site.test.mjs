// The published static site (build/web/dist, written by cmake/steps/make-site.mjs): hashed asset
// names that match their content, references that all resolve, the licence notices, the
// single-file page needing nothing beside it, and no HTML built from strings in web/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { distDir, root } from '../support/paths.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'asset-manifest.json'), 'utf8'));
const read = (name) => fs.readFileSync(path.join(distDir, name));
const TEXT = /\.(html|js|mjs|css|json|svg)$/;

test('every asset name carries the hash of its content; pages and API entries keep their names', () => {
  for (const stable of ['index.html', 'attnlab-core.mjs', 'attnlab-core-offthread.mjs'])
    assert.equal(manifest[stable], stable);
  const hashed = Object.entries(manifest).filter(([from, to]) => from !== to);
  for (const name of ['attnlab.wasm', 'attnlab.js', 'attnlab-nosimd.wasm', 'attnlab-nosimd.js', 'app.js', 'loader.mjs',
    'style.css', 'attnlab-core-wasm.wasm', 'attnlab-core-wasm-relaxed.wasm', 'attnlab-core-wasm-nosimd.wasm', 'fonts/cjk.ttf'])
    assert.ok(hashed.some(([from]) => from === name), `${name} is not published under a hashed name`);
  for (const [from, to] of hashed) {
    const ext = path.extname(from);
    const digest = crypto.createHash('sha256').update(read(to)).digest('hex').slice(0, 12);
    assert.equal(to, `${from.slice(0, -ext.length)}.${digest}${ext}`);
  }
  // Nothing else lies in dist/ (no stale files from an earlier build).
  const listed = new Set([...Object.values(manifest), 'asset-manifest.json', 'attnlab-offline.html', 'attnlab-embed-offline.html', 'package.json', 'api.mjs',
    'LICENSE', 'README.md']);
  const walk = (dir) => fs.readdirSync(path.join(distDir, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]);
  const extra = walk('').filter((f) => !listed.has(f) && !f.startsWith('licenses/'));
  assert.deepEqual(extra, []);
});

test('published files name only published files (no original name of a hashed asset is left)', () => {
  const renamed = Object.entries(manifest).filter(([from, to]) => from !== to).map(([from]) => path.basename(from));
  for (const file of Object.values(manifest).filter((f) => TEXT.test(f))) {
    const text = read(file).toString('utf8');
    for (const original of renamed)
      for (const q of ['"', "'", '`'])
        assert.ok(!text.includes(`${q}${original}${q}`) && !text.includes(`${q}./${original}${q}`),
          `${file} still names ${original}`);
  }
  // What index.html loads exists under the name it uses.
  const html = read('index.html').toString('utf8');
  const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(refs.length >= 3, `index.html references: ${refs}`);
  for (const ref of refs) assert.ok(fs.existsSync(path.join(distDir, ref)), `index.html names ${ref}, which is missing`);
});

test('LICENSE is the project\'s (MIT); licenses/ carries the notices of everything shipped and the model\'s GPL', () => {
  assert.equal(read('LICENSE').toString('utf8'), fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'));
  assert.match(read('LICENSE').toString('utf8'), /^MIT License\n\nCopyright \(c\) 2026 Attention Lab\n/);
  const expected = {
    'gpl-3.0.txt': /GNU GENERAL PUBLIC LICENSE\s+Version 3, 29 June 2007/,
    'dejavu.txt': /Bitstream Vera/,
    'eigen.txt': /Mozilla Public License|MPL-2\.0/,
    'dear-imgui.txt': /Omar Cornut/,
    'emscripten.txt': /Emscripten Authors[\s\S]*musl/,
    'nlohmann-json.txt': /Niels Lohmann/,
    'zlib.txt': /Jean-loup Gailly and Mark Adler/,
    'stb.txt': /Sean Barrett/,
    'fast-float.txt': /Daniel Lemire/,
    'wqy-microhei.txt': /WenQuanYi/,
  };
  const index = read('licenses/README.txt').toString('utf8');
  for (const [file, pattern] of Object.entries(expected)) {
    const text = read(`licenses/${file}`).toString('utf8');
    assert.match(text, pattern, `licenses/${file}`);
    assert.ok(index.includes(file), `licenses/README.txt does not list ${file}`);
  }
  assert.match(index, /models\/fortunes-lm\.attnlm[^\n]*licensed GPL-3\.0-or-later/);
  assert.match(index, /^Attention Lab's own code is under the MIT licence \(LICENSE, beside this folder\)/);
});

test('the single-file pages (the lab, one figure) name no file beside them and allow no eval or inline code beyond their own', () => {
  for (const page of ['attnlab-offline.html', 'attnlab-embed-offline.html']) {
    const html = read(page).toString('utf8');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(refs.filter((r) => !r.startsWith('data:')), []);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
    assert.ok(csp, 'no Content-Security-Policy');
    assert.doesNotMatch(csp[1], /'unsafe-eval'|'unsafe-inline'|\*/);
    // One hash per inline script: each script element's text is allowed by exactly its hash.
    const scripts = [...html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    assert.ok(scripts.length >= 3, `${scripts.length} inline scripts`);
    for (const code of scripts) {
      const hash = crypto.createHash('sha256').update(code, 'utf8').digest('base64');
      assert.ok(csp[1].includes(`'sha256-${hash}'`), `${page}: an inline script is not in the policy`);
    }
    for (const asset of ['attnlab.wasm', 'attnlab-nosimd.wasm', 'fonts/cjk.ttf'])
      assert.ok(html.includes(`data-asset="${asset}"`), `${page}: ${asset} is not inlined`);
  }
});

test('attnlab-core.mjs in Node loads the SIMD build', async () => {
  const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
  const core = await createAttnlabCore();
  assert.equal(core.build, 'simd');
  assert.equal(core.kernelInfo().isa, 'simd128');
});

test('web/ builds no HTML from strings (innerHTML and its relatives): text goes in as text', () => {
  const sinks = /\.(innerHTML|outerHTML)\s*[+]?=|insertAdjacentHTML|document\.write(ln)?\s*\(|createContextualFragment/;
  const offenders = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) walk(file);
      else if (/\.(html|js|mjs)$/.test(e.name))
        fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
          if (sinks.test(line)) offenders.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
        });
    }
  };
  walk(path.join(root, 'web'));
  assert.deepEqual(offenders, []);
});
