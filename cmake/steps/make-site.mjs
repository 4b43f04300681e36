// make-site.mjs: turns the raw web build (stable file names) into the published static site.
//   node cmake/steps/make-site.mjs --from build/web/site-raw --to build/web/dist [--imgui DIR]
//
// What it writes (README, "The static site"):
//   1 hashed assets: every file that another file names in a string literal (the wasm, the
//     runtime glue, app.js, style.css, the font, the modules behind attnlab-core.mjs) is
//     renamed NAME.<hash>.EXT, the hash taken over its content after its own references were
//     rewritten (so a change anywhere below renames everything above it). The pages and the
//     documented module entries keep their names: *.html, attnlab-core.mjs,
//     attnlab-core-offthread.mjs, and any file nothing names (it is loaded by a computed name).
//     asset-manifest.json maps each original name to its published one.
//     api.mjs, which the page's own scripts name by its hashed name, is also published as a
//     copy under its stable name, the entry for host pages and the npm package.
//   2 licences: LICENSE, the project's own (MIT, the repository's LICENSE); licenses/, the
//     third-party notices of everything shipped, copied from the machine's Debian copyright
//     files, and the GPL-3.0 text that covers the shipped language model (licenses/README.txt
//     says which file covers what).
//   3 attnlab-offline.html: index.html with everything inlined (styles, the modules bundled
//     into one script, the runtimes as inline scripts, wasm and font base64-encoded in data
//     blocks) and a Content-Security-Policy of hashes: it opens from disk (file://). It has
//     no math module: the math module's files (attnlab-core*), which the shared build table
//     names beside the app's, stay out of it. attnlab-embed-offline.html is embed.html made the
//     same way: one figure in one file, which the Python package (python/attnlab) fills with a
//     file and options in inert data blocks (an iframe's srcdoc, or save_html's page). The web
//     app manifest's link is left out of them.
//   4 package.json: the site as the npm package `attention-lab`, with an exports map
//     ('attention-lab' -> api.mjs's createLab, 'attention-lab/core' -> attnlab-core.mjs,
//     'attention-lab/core/offthread') and the hand-written type declarations (web/*.d.ts)
//     beside each entry. Its version is the repository's (the root package.json, which is
//     private and named otherwise: it only holds the tests' tools). Its licence is an SPDX
//     expression of what it ships: MIT, and GPL-3.0-or-later while the language model is in it.
//     Its `files` are what the entries load at run time (the files their modules name, module
//     after module: the app and math module builds, the fonts, the language model), the
//     declarations and the licences; the pages, the single-file offline pages, the page's own
//     scripts and the examples stay the site's. `engines` names the Node the math module is
//     tested on; README.md is web/package-README.md (the three imports).
//   5 the declarations' unions of the lab's choices: a type written `string; // @choices TABLE
//     [COLUMN]` in web/*.d.ts becomes the union of the names in the core module's choices()
//     TABLE (of the rows whose COLUMN is true), so the names are written once, in the C++
//     tables. Before step 1, a script's `= []; // @choices TABLE [COLUMN]` becomes the array
//     of those names the same way (web/embed.mjs's themes), in a copy of the raw folder that
//     every step reads.
//   6 the state's types: `export type NAME = Record<string, unknown>; // @state-schema WHICH` in
//     api.d.ts becomes the interface of the lab's settings (WHICH 'settings') or of a setState
//     patch ('patch'), written by state-types.mjs from the app's state schema, which the
//     build's small Node program over the app-state library prints (--schema-tool, the
//     attnlab-state-schema target of cmake/targets/site.cmake).
// It is not a general bundler: the modules it bundles use only named imports of local files,
// and it stops with an error on anything else rather than guess.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { stateTypes } from './state-types.mjs';

// ---- 0 arguments ---------------------------------------------------------------------
function parseArgs(argv) {
  const args = { from: null, to: null, imgui: null, 'schema-tool': null };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in args) || argv[i + 1] === undefined) throw new Error(`make-site: unknown or incomplete argument '${argv[i]}'`);
    args[key] = path.resolve(argv[i + 1]);
  }
  if (!args.from || !args.to || !args['schema-tool'])
    throw new Error('make-site: usage: --from RAW_DIR --to SITE_DIR --schema-tool attnlab-state-schema.js [--imgui DIR]');
  return args;
}

// (.webmanifest: the page's web app manifest names its icon, which gets a hashed name.)
const TEXT = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.webmanifest']);
const ENTRY_MODULES = new Set(['attnlab-core.mjs', 'attnlab-core-offthread.mjs']);
// The math module: its entries, the modules behind them, its runtime glue and wasm.
const isMathModule = (name) => /^attnlab-core[.-]/.test(name);
const isText = (name) => TEXT.has(path.extname(name));
const sha256 = (data, encoding = 'hex') => crypto.createHash('sha256').update(data).digest(encoding);

function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

// ---- 1 references and hashed names -----------------------------------------------------
// A reference is a quoted literal ('x', "x" or `x`) that names a file of the site, relative
// to the file that holds it, with or without './'.
const LITERAL = /(["'`])((?:\.\/|\.\.\/)*[A-Za-z0-9_][A-Za-z0-9_.\-/]*\.[A-Za-z0-9]+)\1/g;

function referencesIn(file, text, files) {
  const refs = [];
  for (const m of text.matchAll(LITERAL)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[2]));
    if (files.has(target) && target !== file) refs.push({ index: m.index + 1, literal: m[2], target });
  }
  return refs;
}

// Files in an order where each comes after every file it names; a cycle is an error.
function dependencyOrder(files, refsOf) {
  const order = [];
  const state = new Map();  // 1 visiting, 2 done
  const visit = (file, trail) => {
    if (state.get(file) === 2) return;
    if (state.get(file) === 1) throw new Error(`make-site: files name each other in a cycle: ${[...trail, file].join(' -> ')}`);
    state.set(file, 1);
    for (const r of refsOf.get(file)) visit(r.target, [...trail, file]);
    state.set(file, 2);
    order.push(file);
  };
  for (const file of files) visit(file, []);
  return order;
}

function hashedName(file, content) {
  const ext = path.posix.extname(file);
  return `${file.slice(0, -ext.length)}.${sha256(content).slice(0, 12)}${ext}`;
}

function publishHashed(from, to) {
  const names = listFiles(from);
  const files = new Set(names);
  const raw = new Map(names.map((f) => [f, fs.readFileSync(path.join(from, f))]));
  const refsOf = new Map(names.map((f) => [f, isText(f) ? referencesIn(f, raw.get(f).toString('utf8'), files) : []]));
  const named = new Set([...refsOf.values()].flat().map((r) => r.target));
  const keepsName = (f) => f.endsWith('.html') || ENTRY_MODULES.has(f) || !named.has(f);
  // A file that keeps its name needs no rewriting where it is named, and imposes no order:
  // pages may name each other (the course pages link to one another).
  for (const [file, refs] of refsOf) refsOf.set(file, refs.filter((r) => !keepsName(r.target)));

  const published = new Map();  // original name -> published name
  for (const file of dependencyOrder(names, refsOf)) {
    let content = raw.get(file);
    const refs = refsOf.get(file);
    if (refs.length) {
      // Rewrite from the end so earlier indices stay valid; the literal keeps its folder part.
      let text = content.toString('utf8');
      for (const r of [...refs].sort((a, b) => b.index - a.index)) {
        const renamed = r.literal.slice(0, r.literal.length - path.posix.basename(r.target).length) + path.posix.basename(published.get(r.target));
        text = text.slice(0, r.index) + renamed + text.slice(r.index + r.literal.length);
      }
      content = Buffer.from(text, 'utf8');
    }
    const name = keepsName(file) ? file : hashedName(file, content);
    published.set(file, name);
    fs.mkdirSync(path.dirname(path.join(to, name)), { recursive: true });
    fs.writeFileSync(path.join(to, name), content);
  }
  const manifest = Object.fromEntries([...published].sort());
  fs.writeFileSync(path.join(to, 'asset-manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

// Entries that the site's own files name by hashed names, copied under their stable names too.
const ENTRY_COPIES = ['api.mjs'];
function publishEntryCopies(to, manifest) {
  for (const name of ENTRY_COPIES) {
    if (!manifest[name]) throw new Error(`make-site: ${name} is not in the site`);
    if (manifest[name] !== name) fs.copyFileSync(path.join(to, manifest[name]), path.join(to, name));
  }
}

// ---- 2 licence notices ---------------------------------------------------------------
// The language model (assets/fortunes-lm.attnlm) is Attention Lab's own but licensed
// GPL-3.0-or-later (docs/LANGUAGE-MODEL.md, assets/fortunes-lm.attnlm.license); the site carries
// it in models/ and inside both offline pages.
const LANGUAGE_MODEL = 'models/fortunes-lm.attnlm';
const OWN_LICENSE = 'MIT';
const LANGUAGE_MODEL_LICENSE = 'GPL-3.0-or-later';

// The SPDX expression of what the site (and the npm package) ships.
function siteLicense(manifest) {
  return manifest[LANGUAGE_MODEL] ? `${OWN_LICENSE} AND ${LANGUAGE_MODEL_LICENSE}` : OWN_LICENSE;
}

function writeLicenses(to, imguiDir) {
  fs.copyFileSync(new URL('../../LICENSE', import.meta.url), path.join(to, 'LICENSE'));
  const imguiCopyright = [path.join(imguiDir ?? '', 'debian-copyright'), path.join(imguiDir ?? '', 'LICENSE.txt')]
    .find((f) => imguiDir && fs.existsSync(f));
  const notices = [
    ['eigen.txt', 'Eigen 3.4 (libeigen3-dev): the matrix library compiled into every .wasm', '/usr/share/doc/libeigen3-dev/copyright'],
    ['dear-imgui.txt', 'Dear ImGui 1.86 with its stb_truetype, stb_rect_pack and stb_textedit (imgui source package): the UI, in attnlab*.wasm', imguiCopyright],
    ['emscripten.txt', "Emscripten 3.1.6: the runtime glue (attnlab*.js, attnlab-core-wasm*.mjs) with its GLFW and WebGL libraries, Embind, and the C/C++ libraries in every .wasm (musl, libc++, libc++abi, compiler-rt, dlmalloc)", '/usr/share/doc/emscripten/copyright'],
    ['nlohmann-json.txt', 'JSON for Modern C++ (nlohmann-json3-dev): the state parser in attnlab*.wasm', '/usr/share/doc/nlohmann-json3-dev/copyright'],
    ['zlib.txt', 'zlib 1.2.13 (zlib source package, the same notice as zlib1g-dev): CRC-32 in every .wasm, and the PNG export\'s deflate in attnlab*.wasm', '/usr/share/doc/zlib1g-dev/copyright'],
    ['stb.txt', 'stb_image_write.h (libstb-dev): the PNG export, in attnlab*.wasm', '/usr/share/doc/libstb-dev/copyright'],
    ['fast-float.txt', 'fast_float 3.9 (libfast-float-dev): the numbers of the JSON import, in attnlab*.wasm', '/usr/share/doc/libfast-float-dev/copyright'],
    ['wqy-microhei.txt', 'WenQuanYi Micro Hei (fonts-wqy-microhei): fonts/cjk.ttf and fonts/ui-zh.ttf are subsets of it', '/usr/share/doc/fonts-wqy-microhei/copyright'],
    ['dejavu.txt', 'DejaVu Sans (fonts-dejavu-core): fonts/ui.ttf, the UI font, is a subset of it', '/usr/share/doc/fonts-dejavu-core/copyright'],
    ['gpl-3.0.txt', `The GNU General Public License, version 3: the language model ${LANGUAGE_MODEL} (also inside attnlab-offline.html and attnlab-embed-offline.html) is Attention Lab's own, trained on fortunes-zh (GPL-3+) and fortunes (BSD), and licensed ${LANGUAGE_MODEL_LICENSE}`, '/usr/share/common-licenses/GPL-3'],
  ];
  const dir = path.join(to, 'licenses');
  fs.mkdirSync(dir, { recursive: true });
  const index = ["Attention Lab's own code is under the MIT licence (LICENSE, beside this folder). Below: the third-party software",
    'shipped in this site, the licence of the shipped language model, and where each notice comes from.', ''];
  for (const [name, what, source] of notices) {
    if (!source || !fs.existsSync(source)) throw new Error(`make-site: licence notice for ${name} not found (${source ?? 'no imgui folder given'}); run scripts/setup.sh`);
    fs.copyFileSync(source, path.join(dir, name));
    // The imgui notice lies in the checkout's build-deps folder: named as the source package
    // has it, not by this machine's path.
    const from = source === imguiCopyright ? `the imgui source package's ${path.basename(source)} (in build-deps/imgui)` : source;
    index.push(`${name}\n  ${what}\n  copied from ${from}`, '');
  }
  fs.writeFileSync(path.join(dir, 'README.txt'), index.join('\n'));
  return notices.map(([name]) => name);
}

// ---- 3 the single-file offline page -------------------------------------------------
// Modules become functions in one script: `import {a, b as c} from './m.mjs'` turns into
// `const {a, b: c} = __m0;` where __m0 is m's exports.
const IMPORT = /^[ \t]*import\s+(\{[^}]*\}|\*\s+as\s+[\w$]+)\s+from\s+(['"])(\.{1,2}\/[^'"]+)\2\s*;?[ \t]*$/gm;
const EXPORT_DECL = /^export\s+((?:async\s+)?function\*?|const|let|var|class)\s+([\w$]+)/gm;

function bundleModules(from, entry) {
  const ids = new Map();
  const parts = [];
  const add = (file) => {
    if (ids.has(file)) return ids.get(file);
    let text = fs.readFileSync(path.join(from, file), 'utf8');
    text = text.replace(IMPORT, (all, what, quote, spec) => {
      const dep = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const id = add(dep);
      if (what.startsWith('*')) return `const ${what.replace(/^\*\s+as\s+/, '')} = ${id};`;
      return `const ${what.replace(/([\w$]+)\s+as\s+([\w$]+)/g, '$1: $2')} = ${id};`;
    });
    // (`importFile,` in an object literal is not an import: the keyword needs a space or a quote after it.)
    if (/^\s*(import(\s+[\w$*{]|\s*['"{*])|export\s+(default|\{|\*))/m.test(text) || /\bimport\s*\(\s*['"]\./.test(text))
      throw new Error(`make-site: ${file} uses an import or export form the offline bundle does not handle`);
    const exported = [];
    text = text.replace(EXPORT_DECL, (all, kind, name) => { exported.push(name); return `${kind} ${name}`; });
    const id = `__attnlab_module${ids.size}`;
    ids.set(file, id);
    parts.push(file === entry ? text : `const ${id} = (() => {\n${text}\nreturn { ${exported.join(', ')} };\n})();`);
    return id;
  };
  add(entry);
  return { code: parts.join('\n'), files: [...ids.keys()] };
}

// Inline script text must not close its element or open an HTML comment.
function inlineScriptText(text, file) {
  if (text.includes('<!--')) throw new Error(`make-site: ${file} contains '<!--', which cannot be inlined safely`);
  return text.replace(/<\/script/gi, '<\\/script');
}

const cspHash = (text) => `'sha256-${sha256(Buffer.from(text, 'utf8'), 'base64')}'`;

// page: the page to inline (index.html, embed.html); out: the single file's name.
function writeOfflinePage(from, to, page, out) {
  let html = fs.readFileSync(path.join(from, page), 'utf8');
  const files = new Set(listFiles(from));
  const scriptHashes = [];
  const styleHashes = [];

  html = html.replace(/<link rel="stylesheet" href="([^"]+)">/g, (all, href) => {
    const css = fs.readFileSync(path.join(from, href), 'utf8').replace(/<\/style/gi, '<\\/style');
    styleHashes.push(cspHash(css));
    return `<style>${css}</style>`;
  });
  html = html.replace(/<link rel="icon" href="([^"]+\.svg)"/g, (all, href) =>
    `<link rel="icon" href="data:image/svg+xml;base64,${fs.readFileSync(path.join(from, href)).toString('base64')}"`);
  // A file opened from disk is no installable web app (and its policy allows no manifest).
  html = html.replace(/^[ \t]*<link rel="manifest" href="[^"]+">\n/m, '');

  const module = /<script type="module" src="([^"]+)"><\/script>/.exec(html);
  if (!module) throw new Error(`make-site: ${page} has no <script type="module" src=...>`);
  const bundle = bundleModules(from, module[1]);
  const mathInBundle = bundle.files.filter(isMathModule);
  if (mathInBundle.length) throw new Error(`make-site: the page imports the math module (${mathInBundle.join(', ')}), which the offline page does not carry`);
  // What the bundled modules name: runtime scripts run inline, other files travel as data.
  const named = new Set();
  for (const f of bundle.files)
    for (const r of referencesIn(f, fs.readFileSync(path.join(from, f), 'utf8'), files)) named.add(r.target);
  const blocks = [];
  for (const target of [...named].sort()) {
    if (bundle.files.includes(target) || target.endsWith('.html') || isMathModule(target)) continue;
    if (target.endsWith('.mjs')) throw new Error(`make-site: ${target} is loaded as a module at run time; the offline page cannot carry it`);
    if (target.endsWith('.js')) {
      const code = inlineScriptText(fs.readFileSync(path.join(from, target), 'utf8'), target);
      scriptHashes.push(cspHash(code));
      blocks.push(`<script>${code}</script>`);
    } else {
      blocks.push(`<script type="application/octet-stream" data-asset="${target}">${fs.readFileSync(path.join(from, target)).toString('base64')}</script>`);
    }
  }
  const code = inlineScriptText(bundle.code, module[1]);
  scriptHashes.push(cspHash(code));
  html = html.replace(module[0], () => `${blocks.join('\n')}\n<script type="module">${code}</script>`);

  const policy = `default-src 'none'; script-src ${scriptHashes.join(' ')} 'wasm-unsafe-eval'; style-src ${styleHashes.join(' ')}; ` +
    "img-src data:; object-src 'none'; base-uri 'none'; form-action 'none'";
  const csp = /<meta http-equiv="Content-Security-Policy" content="[^"]*">/;
  if (!csp.test(html)) throw new Error(`make-site: ${page} has no Content-Security-Policy meta element`);
  html = html.replace(csp, () => `<meta http-equiv="Content-Security-Policy" content="${policy}">`);
  html = html.replace(/<title>([^<]*)<\/title>/, '<title>$1 (offline)</title>');
  fs.writeFileSync(path.join(to, out), html);
}

// ---- 4 the npm package -------------------------------------------------------------
// Each export: the module (under its published name) and its declarations, which must exist.
const PACKAGE_EXPORTS = [
  ['.', 'api.mjs', 'api.d.ts'],
  ['./core', 'attnlab-core.mjs', 'attnlab-core.d.ts'],
  ['./core/offthread', 'attnlab-core-offthread.mjs', 'attnlab-core-offthread.d.ts'],
];

// The offline pages: the site's, never the package's (about 12 MB each).
const OFFLINE_PAGES = ['attnlab-offline.html', 'attnlab-embed-offline.html'];
const PACKAGE_README = new URL('../../web/package-README.md', import.meta.url);

// What the entries load at run time: every file their modules name (the references of step 1,
// by published names), followed from file to file; then the declarations, the licences and the
// README. Sorted, as package.json's `files`.
function packageFiles(to) {
  const files = new Set(listFiles(to));
  const loaded = new Set();
  const visit = (file) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    if (isText(file)) for (const r of referencesIn(file, fs.readFileSync(path.join(to, file), 'utf8'), files)) visit(r.target);
  };
  for (const [, module] of PACKAGE_EXPORTS) visit(module);
  const pages = OFFLINE_PAGES.filter((page) => loaded.has(page));
  if (pages.length) throw new Error(`make-site: the package's entries name ${pages.join(', ')}, which the package must not carry`);
  return [...loaded, ...PACKAGE_EXPORTS.map(([, , types]) => types), 'LICENSE', 'licenses/', 'README.md'].sort();
}

function writePackageJson(to, manifest) {
  // Entries keep their names (ENTRY_MODULES, ENTRY_COPIES); the declarations too (nothing names them).
  const repo = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const exports = {};
  for (const [entry, module, types] of PACKAGE_EXPORTS) {
    if (!fs.existsSync(path.join(to, module))) throw new Error(`make-site: the package's entry ${module} is not in the site`);
    if (manifest[types] !== types) throw new Error(`make-site: the declarations ${types} are missing from the site (web/*.d.ts)`);
    exports[entry] = { types: `./${types}`, default: `./${module}` };
  }
  const pkg = {
    name: 'attention-lab',
    version: repo.version,
    description: 'Attention Lab: an interactive lab for scaled dot-product attention (WebAssembly + WebGL2), and its math as an ES module',
    type: 'module',
    exports,
    types: exports['.'].types,
    license: siteLicense(manifest),
    engines: { node: '>=20' },  // the math module's entry is tested on Node 20 (createLab needs a browser)
    files: packageFiles(to),
  };
  fs.copyFileSync(PACKAGE_README, path.join(to, 'README.md'));
  fs.writeFileSync(path.join(to, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
}

// ---- 5 the unions of the lab's choices ---------------------------------------------------
// `= string; // @choices TABLE [COLUMN]` in a declaration, `= []; // @choices TABLE [COLUMN]`
// in a script: each becomes the names of the table's rows (whose COLUMN is true), quoted.
const UNION_MARK = /= string; \/\/ @choices (\w+)(?: (\w+))?$/gm;
const ARRAY_MARK = /= \[\]; \/\/ @choices (\w+)(?: (\w+))?$/gm;

async function loadChoices(from) {
  const { default: createAttnlabCore } = await import(pathToFileURL(path.join(from, 'attnlab-core.mjs')).href);
  return (await createAttnlabCore()).choices();
}

function fillChoiceMarks(choices, dir, file, mark, write) {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  const written = text.replace(mark, (all, table, column) => {
    const rows = choices[table];
    if (!Array.isArray(rows)) throw new Error(`make-site: ${file}: choices() has no table '${table}'`);
    if (column && !rows.every((row) => typeof row[column] === 'boolean'))
      throw new Error(`make-site: ${file}: choices().${table} has no true/false column '${column}'`);
    return write(rows.filter((row) => !column || row[column]).map((row) => `'${row.name}'`));
  });
  if (written !== text) fs.writeFileSync(path.join(dir, file), written);
}

function writeChoiceUnions(choices, to) {
  for (const file of fs.readdirSync(to).filter((f) => f.endsWith('.d.ts')))
    fillChoiceMarks(choices, to, file, UNION_MARK, (names) => `= ${names.join(' | ')};`);
}

// A copy of the raw folder whose scripts carry the names (step 0, before anything reads them).
function copyWithChoiceArrays(choices, from, copy) {
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(from, copy, { recursive: true });
  for (const file of listFiles(copy).filter((f) => /\.m?js$/.test(f)))
    fillChoiceMarks(choices, copy, file, ARRAY_MARK, (names) => `= [${names.join(', ')}];`);
}

// ---- 6 the state's types ------------------------------------------------------------------
const STATE_MARK = /^export type (\w+) = Record<string, unknown>; \/\/ @state-schema (settings|patch)$/gm;

// The schema as the app's table gives it (state_schema_json()), printed by the build's program.
function loadStateSchema(tool) {
  const run = spawnSync(process.execPath, ['--no-experimental-fetch', tool], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`make-site: ${tool} failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout);
}

function writeStateTypes(schema, to) {
  const file = path.join(to, 'api.d.ts');
  const types = stateTypes(schema);
  const written = new Set();
  const text = fs.readFileSync(file, 'utf8').replace(STATE_MARK, (all, name, which) => {
    written.add(which);
    return `export interface ${name} {\n${types[which]}\n}`;
  });
  if (written.size !== 2) throw new Error("make-site: api.d.ts lacks a '// @state-schema settings' or '// @state-schema patch' mark");
  fs.writeFileSync(file, text);
}

// ---- main ----------------------------------------------------------------------------
const args = parseArgs(process.argv.slice(2));
const staging = `${args.to}.tmp`;
const from = `${args.to}.raw`;
const choices = await loadChoices(args.from);
copyWithChoiceArrays(choices, args.from, from);
fs.rmSync(staging, { recursive: true, force: true });
fs.mkdirSync(staging, { recursive: true });
const manifest = publishHashed(from, staging);
publishEntryCopies(staging, manifest);
writeLicenses(staging, args.imgui);
writeOfflinePage(from, staging, 'index.html', 'attnlab-offline.html');
writeOfflinePage(from, staging, 'embed.html', 'attnlab-embed-offline.html');
writePackageJson(staging, manifest);
writeChoiceUnions(choices, staging);
writeStateTypes(loadStateSchema(args['schema-tool']), staging);
fs.rmSync(from, { recursive: true, force: true });
fs.rmSync(args.to, { recursive: true, force: true });
fs.renameSync(staging, args.to);
const hashed = Object.entries(manifest).filter(([from, to]) => from !== to).length;
console.log(`make-site: ${Object.keys(manifest).length} files (${hashed} hashed), licenses/, attnlab-offline.html, attnlab-embed-offline.html, package.json, README.md -> ${args.to}`);
