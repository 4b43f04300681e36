// The published site as the npm package `attention-lab` (build/web/dist/package.json, written
// by cmake/steps/make-site.mjs), as a user gets it: packed with `npm pack` and installed from the
// tarball into a scratch project (the packed size printed). It carries what its entries load and
// none of the site's pages (its `files`), names its engines and has a README with the three
// imports; its 'attention-lab/core' export computes the tutorial's worked example in plain Node,
// in each of its builds; and the type declarations compile a course author's script
// (tests/types/example.ts) with `tsc --noEmit --strict`, while a misnamed argument, a misspelled
// state key or a name the state's choices lack does not compile.
// tests/browser/package_files.test.mjs compares the pack with what the entries fetch in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { distDir, root } from '../support/paths.mjs';
import { packAndInstall, run } from '../support/package.mjs';

const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const example = fs.readFileSync(path.join(root, 'tests', 'types', 'example.ts'), 'utf8');
const tsconfig = fs.readFileSync(path.join(root, 'tests', 'types', 'tsconfig.json'), 'utf8');

// One scratch project for the file: a course author's, with the package installed from its tarball.
const { scratch, installed, pack, install, packed } = packAndInstall();
console.log(`attention-lab: ${packed()}`);

// The course author's script and its misspelled copies, compiled together in one tsc program
// (loading TypeScript's own libraries is most of a run, and six runs took about 30 s): each
// copy is a module of its own (example-NAME.ts), so an error in one names that file only.
// Misspelled copies are added below, before the first test asks for the result.
const variants = new Map([['ok', example]]);
function misspelled(name, from, to) {
  assert.ok(example.includes(from), `the example has no '${from}'`);
  variants.set(name, example.replace(from, to));
}
let checked = null;
// tsc's messages for each variant ('' for one that compiles) and its exit status.
function typeCheck() {
  if (checked) return checked;
  const files = [...variants.keys()].map((name) => `example-${name}.ts`);
  for (const [name, source] of variants) fs.writeFileSync(path.join(scratch, `example-${name}.ts`), source);
  fs.writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify({ ...JSON.parse(tsconfig), files }));
  const result = run(process.execPath, [tsc, '-p', 'tsconfig.json'], scratch);
  const messages = new Map([...variants.keys()].map((name) => [name, '']));
  // An error starts with its file, "example-NAME.ts(line,col): error TS...", and may go on in
  // indented lines (an overload's reasons).
  let current = null;
  for (const line of result.stdout.split('\n')) {
    const m = /^example-([\w-]+)\.ts\(/.exec(line);
    if (m) current = messages.has(m[1]) ? m[1] : null;
    else if (!/^\s/.test(line)) current = null;
    if (current) messages.set(current, messages.get(current) + line + '\n');
  }
  checked = { status: result.status, stdout: result.stdout + result.stderr, messages };
  return checked;
}

test('dist/package.json names the package, its three entries and their declarations', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(distDir, 'package.json'), 'utf8'));
  const repo = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'attention-lab');
  assert.notEqual(repo.name, pkg.name, 'the repository root is another, private package');
  assert.equal(repo.private, true);
  assert.equal(pkg.version, repo.version);
  assert.equal(pkg.type, 'module');
  assert.deepEqual(Object.keys(pkg.exports), ['.', './core', './core/offthread']);
  assert.equal(pkg.exports['.'].default, './api.mjs');
  assert.equal(pkg.exports['./core'].default, './attnlab-core.mjs');
  // The stable api.mjs is the hashed one the page's scripts import, byte for byte.
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'asset-manifest.json'), 'utf8'));
  assert.notEqual(manifest['api.mjs'], 'api.mjs');
  assert.ok(fs.readFileSync(path.join(distDir, 'api.mjs')).equals(fs.readFileSync(path.join(distDir, manifest['api.mjs']))));
  for (const entry of Object.values(pkg.exports)) {
    assert.ok(fs.existsSync(path.join(distDir, entry.default)), `${entry.default} is missing`);
    assert.match(entry.types, /\.d\.ts$/);
    assert.ok(fs.existsSync(path.join(distDir, entry.types)), `${entry.types} is missing`);
  }
});

test('the installed tarball: attention-lab/core computes the worked example in plain Node', () => {
  assert.equal(install.status, 0, `npm install failed:\n${install.stdout}\n${install.stderr}`);
  assert.ok(!fs.lstatSync(installed).isSymbolicLink(), 'the package is a copy, not a link to the build');
  const script = `
    import createAttnlabCore from 'attention-lab/core';
    const core = await createAttnlabCore();
    const r = core.attention({ q: new Float32Array([1, 2, 2, 1]), k: new Float32Array([2, 1, 1, 2]),
      v: new Float32Array([3, 0, 0, 3]), nq: 2, nk: 2, dk: 2, dv: 2 });
    console.log(JSON.stringify({ build: core.build, scores: [...r.scores], weights: [...r.weights], output: [...r.output] }));`;
  const node = run(process.execPath, ['--input-type=module', '-e', script], scratch);
  assert.equal(node.status, 0, node.stderr);
  const got = JSON.parse(node.stdout);
  assert.equal(got.build, 'simd');
  // By hand: q1 = (1, 2) against k1 = (2, 1) and k2 = (1, 2) gives 4 and 5, over sqrt(2);
  // softmax puts 1 / (1 + e^(1/sqrt 2)) on the first key; the output mixes v1 = (3, 0), v2 = (0, 3).
  const s = [4 / Math.SQRT2, 5 / Math.SQRT2, 5 / Math.SQRT2, 4 / Math.SQRT2];
  const w1 = 1 / (1 + Math.exp(1 / Math.SQRT2));
  const w = [w1, 1 - w1, 1 - w1, w1];
  const o = [3 * w1, 3 * (1 - w1), 3 * (1 - w1), 3 * w1];
  for (const [name, expected] of [['scores', s], ['weights', w], ['output', o]])
    expected.forEach((e, i) => assert.ok(Math.abs(got[name][i] - e) < 1e-6, `${name}[${i}]: ${got[name][i]} vs ${e}`));
});

test('the installed package\'s licence is an SPDX expression of what it ships, with the texts inside', () => {
  assert.equal(install.status, 0, `npm install failed:\n${install.stdout}\n${install.stderr}`);
  const pkg = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  // The language model (GPL-3.0-or-later, docs/LANGUAGE-MODEL.md) ships in models/ and inside
  // the offline pages; the rest of the project's own files are MIT.
  const model = fs.existsSync(path.join(installed, 'models'))
    ? fs.readdirSync(path.join(installed, 'models')).filter((f) => /^fortunes-lm\.[0-9a-f]{12}\.attnlm$/.test(f)) : [];
  const inPages = ['attnlab-offline.html', 'attnlab-embed-offline.html'].filter((f) => fs.existsSync(path.join(installed, f)) &&
    fs.readFileSync(path.join(installed, f), 'utf8').includes('data-asset="models/fortunes-lm.attnlm"'));
  const shipsModel = model.length + inPages.length > 0;
  assert.equal(pkg.license, shipsModel ? 'MIT AND GPL-3.0-or-later' : 'MIT');
  assert.equal(fs.readFileSync(path.join(installed, 'LICENSE'), 'utf8'), fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'));
  if (shipsModel) assert.match(fs.readFileSync(path.join(installed, 'licenses', 'gpl-3.0.txt'), 'utf8'), /GNU GENERAL PUBLIC LICENSE\s+Version 3, 29 June 2007/);
  // Today the package carries the model in models/ (the offline pages are the site's only).
  assert.equal(model.length, 1);
  assert.deepEqual(inPages, []);
});

test("the pack: its `files` keep what the entries load and leave out the site's pages; engines; a README", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(distDir, 'package.json'), 'utf8'));
  assert.deepEqual(pkg.engines, { node: '>=20' });
  assert.ok(Array.isArray(pkg.files) && pkg.files.length > 0, 'package.json has no files');
  const files = pack.files.map((f) => f.path);
  // No page at all: the single-file offline pages (about 12 MB each), the lab's and the course's.
  assert.deepEqual(files.filter((f) => f.endsWith('.html')), []);
  // The entries, their declarations, each build's wasm, the fonts and the language model.
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'asset-manifest.json'), 'utf8'));
  for (const name of ['api.mjs', 'api.d.ts', 'attnlab-core.mjs', 'attnlab-core.d.ts', 'attnlab-core-offthread.mjs', 'attnlab-core-offthread.d.ts',
    'attnlab.wasm', 'attnlab.js', 'attnlab-nosimd.wasm', 'attnlab-nosimd.js', 'attnlab-core-wasm.wasm', 'attnlab-core-wasm-nosimd.wasm',
    'attnlab-core-wasm-relaxed.wasm', 'attnlab-core-worker.mjs', 'fonts/ui.ttf', 'fonts/ui-zh.ttf', 'fonts/cjk.ttf', 'models/fortunes-lm.attnlm',
    'LICENSE', 'licenses/gpl-3.0.txt'])
    assert.ok(files.includes(name) || files.includes(manifest[name]), `the pack lacks ${name}`);
  // The page's own scripts and the course examples are the site's.
  for (const name of ['app.js', 'page.mjs', 'embed.mjs', 'style.css', 'asset-manifest.json'])
    assert.ok(!files.includes(name) && !files.includes(manifest[name]), `the pack carries the site's ${name}`);
  assert.ok(!files.some((f) => f.startsWith('examples/')), 'the pack carries the course examples');
  // The README: what it is and the three imports.
  const readme = fs.readFileSync(path.join(installed, 'README.md'), 'utf8');
  for (const entry of ["from 'attention-lab'", "from 'attention-lab/core'", "from 'attention-lab/core/offthread'"])
    assert.ok(readme.includes(entry), `README.md lacks the import ${entry}`);
  // The whole site packed was 17.1 MB (36.3 MB unpacked, 73 files) with both offline pages in it.
  assert.ok(pack.size < 8e6, packed());
});

test('the installed package runs each build of the math module in Node (SIMD, scalar, relaxed SIMD)', () => {
  assert.equal(install.status, 0, 'npm install failed (see the first test)');
  const script = `
    import createAttnlabCore from 'attention-lab/core';
    const out = {};
    for (const build of ['simd', 'scalar', 'relaxed']) {
      const core = await createAttnlabCore({ build });
      out[build] = core.softmax([0, Math.log(3)]).weights[1];
    }
    console.log(JSON.stringify(out));`;
  const node = run(process.execPath, ['--experimental-wasm-relaxed-simd', '--input-type=module', '-e', script], scratch);
  assert.equal(node.status, 0, node.stderr);
  for (const [build, weight] of Object.entries(JSON.parse(node.stdout))) assert.ok(Math.abs(weight - 0.75) < 1e-6, `${build}: ${weight}`);
});

// attention's nq written nQ; createLab's controls written control; the trainer's dModel as dmodel.
const ARGUMENTS = [
  ['nq', 'nq: 2, nk: 2, dk: 2, dv: 2, causal: false', 'nQ: 2, nk: 2, dk: 2, dv: 2, causal: false', "'nQ'"],
  ['controls', 'controls: true, tabs: false', 'control: true, tabs: false', "'control'"],
  ['dModel', 'heads: 1, dModel: 16', 'heads: 1, dmodel: 16', "'dmodel'"],
];
const UNIONS = [
  ['variant', "variant: 'window'", "variant: 'windw'", 'EfficientVariant'],
  ['kind', "variants: ['exact', 'linear']", "variants: ['exact', 'quadratic']", 'EfficientKind'],
];
// The state's keys, typed from the app's schema: a top-level key, a nested one and a name.
const STATE_KEYS = [
  ['cursor', 'setState({ cursor: 4 })', 'setState({ cursr: 4 })', "'cursr'"],
  ['lm-tokens', 'lm: { tokens: 8 }', 'lm: { tokns: 8 }', "'tokns'"],
];
const STATE_NAMES = [['theme', "theme: 'light' }", "theme: 'lihgt' }", '"lihgt"']];
for (const [name, from, to] of [...ARGUMENTS, ...UNIONS, ...STATE_KEYS, ...STATE_NAMES]) misspelled(name, from, to);

test('the declarations compile a script that calls every exported function (tsc --noEmit --strict)', () => {
  assert.equal(install.status, 0, 'npm install failed (see the test above)');
  const { messages, stdout } = typeCheck();
  assert.equal(messages.get('ok'), '', `tsc:\n${stdout}`);
  // The misspelled copies make tsc fail; every line it printed belongs to one of them.
  assert.ok([...messages.values()].join('').length > 0 && stdout.trim().split('\n').every((line) => /^example-|^\s/.test(line)),
    `tsc printed something about no variant:\n${stdout}`);
});

test('a misnamed argument fails the type check, naming the argument', () => {
  assert.equal(install.status, 0, 'npm install failed (see the test above)');
  const { messages, status } = typeCheck();
  assert.notEqual(status, 0);
  for (const [name, , to, word] of [...ARGUMENTS, ...STATE_KEYS]) {
    const said = messages.get(name);
    assert.ok(said, `tsc accepted ${to}`);
    assert.ok(said.includes(`Object literal may only specify known properties, but ${word} does not exist`),
      `tsc's message does not name ${word}:\n${said}`);
  }
});

test("a variant or pairing the core's tables do not name fails the type check (the unions make-site wrote)", () => {
  assert.equal(install.status, 0, 'npm install failed (see the test above)');
  for (const [name, , to, type] of UNIONS) {
    const said = typeCheck().messages.get(name);
    assert.ok(said, `tsc accepted ${to}`);
    assert.ok(said.includes(`is not assignable to type '${type}'`), `tsc's message does not name ${type}:\n${said}`);
  }
});

test("a state key the schema lacks, or a name its choices lack, fails the type check (the types make-site wrote from the schema)", () => {
  assert.equal(install.status, 0, 'npm install failed (see the test above)');
  const dts = fs.readFileSync(path.join(installed, 'api.d.ts'), 'utf8');
  assert.doesNotMatch(dts, /@state-schema/, 'make-site left a mark unreplaced');
  assert.match(dts, /export interface LabSettings \{/);
  assert.match(dts, /export interface LabSettingsPatch \{/);
  for (const [name, , to, word] of STATE_NAMES) {
    const said = typeCheck().messages.get(name);
    assert.ok(said, `tsc accepted ${to}`);
    assert.ok(said.includes(`'${word}' is not assignable to type`) && said.includes('"light"'), `tsc's message does not list the themes:\n${said}`);
  }
});
