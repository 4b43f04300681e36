// loader.mjs: fetches the build of the app this browser can run (builds.mjs chooses it) and
// its other assets.
//
// Assets are named relative to this file, so a page in a subfolder loads the same ones; in the
// published site (cmake/steps/make-site.mjs) every name becomes its content-hashed name. The
// single-file offline page carries the assets inline (data blocks and inline scripts) and this
// loader takes them from there instead of the network.
//
//   compileBuild(build, onProgress)
//                                 {wasm: WebAssembly.Module, factory, build}: the build compiled
//                                 as it downloads, and its Emscripten factory
//   startApp(compiled, options)   promise of the Emscripten module of a compiled build
//   loadAppFactory(build)         the Emscripten factory of that build (its glue script loaded)
//   loadAsset(name, onProgress)   Uint8Array of an asset; onProgress(fraction) while downloading
//   dataBlockBytes(element)       the bytes of a base64 data block of the page
//   firstFrameFonts()             promise of {ui, uiZh}: the fonts every first frame draws with
//   giveFirstFrameFonts(module, fonts)  hands them to a started app, before its first frame

import { BUILDS } from './builds.mjs';
import { guardModule, isFatal, lifeHooks, moduleLife } from './crash.mjs';

// The bytes of a non-executed data block (<script type="application/octet-stream">), base64.
export function dataBlockBytes(block) {
  const text = atob(block.textContent.replace(/\s+/g, ''));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

// The offline page keeps each binary asset base64-encoded in a non-executed data block.
function inlineAsset(name) {
  const block = document.querySelector(`script[type="application/octet-stream"][data-asset="${CSS.escape(name)}"]`);
  return block ? dataBlockBytes(block) : null;
}

export async function loadAsset(name, onProgress = () => {}) {
  const inline = inlineAsset(name);
  if (inline) return inline;
  return readBody(await fetchAsset(name), onProgress);
}

// The UI font (DejaVu Sans, cut to Latin, Greek and the math signs) and the glyphs of the
// Chinese UI strings (about 50 KB gzip each), fetched once per page beside the wasm: the
// first frame is drawn in the UI font and, in Chinese, already in Chinese. A font that does
// not load leaves Dear ImGui's built-in font (or boxes for hanzi), with a warning.
let fonts = null;
export function firstFrameFonts() {
  const load = (name) => loadAsset(name).catch((error) => {
    console.warn(`${name} not loaded (${error.message}); the built-in font is used`);
    return null;
  });
  if (!fonts) fonts = Promise.all([load('fonts/ui.ttf'), load('fonts/ui-zh.ttf')]).then(([ui, uiZh]) => ({ ui, uiZh }));
  return fonts;
}
export function giveFirstFrameFonts(module, { ui, uiZh }) {
  if (ui) module.loadUiFont(ui);
  if (uiZh) module.loadCjkFont(uiZh);
}

async function fetchAsset(name) {
  const response = await fetch(new URL(name, import.meta.url));
  if (!response.ok) throw new Error(`could not load ${name} (HTTP ${response.status})`);
  return response;
}

// Reads a stream to its end, telling onProgress the fraction of `total` bytes received; its
// bytes, or null when only counted (`keep` false).
async function readStream(stream, total, onProgress, keep = true) {
  const reader = stream.getReader();
  const chunks = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (keep) chunks.push(value);
    received += value.length;
    if (total) onProgress(Math.min(1, received / total));
  }
  if (!keep) return null;
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

async function readBody(response, onProgress) {
  const total = Number(response.headers.get('content-length')) || 0;
  if (!total || !response.body) return new Uint8Array(await response.arrayBuffer());
  return readStream(response.body, total, onProgress);
}

// Compiles a WebAssembly asset while it downloads: the compiler takes the bytes as they
// arrive, off the page's main thread, so the page's own start-up work (its WebGL context)
// overlaps both. The compiler's copy of the stream goes in a Response typed application/wasm
// of our own, so whatever content type the static host sends does not matter; the other copy
// is counted for the progress bar.
async function compileAsset(name, onProgress) {
  const inline = inlineAsset(name);
  if (inline) return WebAssembly.compile(inline);
  const response = await fetchAsset(name);
  const total = Number(response.headers.get('content-length')) || 0;
  if (typeof WebAssembly.compileStreaming !== 'function' || !response.body) {
    return WebAssembly.compile(await readBody(response, onProgress));
  }
  const [forCompiler, forProgress] = response.body.tee();
  readStream(forProgress, total, onProgress, false).catch(() => {});  // the compile reports failures
  return WebAssembly.compileStreaming(new Response(forCompiler, { headers: { 'content-type': 'application/wasm' } }));
}

export async function compileBuild(build, onProgress = () => {}) {
  const [wasm, factory] = await Promise.all([compileAsset(BUILDS[build].app.wasm, onProgress), loadAppFactory(build)]);
  return { wasm, factory, build };
}

// Starts a compiled build: the factory's promise of the Emscripten module, made with
// `options`, instantiating the module compileBuild compiled. A failure to instantiate
// rejects it (Emscripten leaves that to whoever supplies instantiateWasm). The module carries
// its life (crash.mjs: module.attnlabLife.onDeath(fn)); one that dies while starting rejects
// with a LabStoppedError. module.attnlabRemoveGlobalListeners() takes away the listeners its
// runtime left on window and document (after module.stop(), for a module let go).
export function startApp({ wasm, factory }, options) {
  const life = moduleLife();
  let removeGlobalListeners = () => {};
  return new Promise((resolve, reject) => {
    const moduleOptions = {
      ...options,
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(wasm, imports).then((instance) => {
          removeGlobalListeners = whileRecordingGlobalListeners(() => receive(instance, wasm));
        }, (error) => reject(new Error(`Attention Lab could not start its WebAssembly module: ${error.message}`)));
        return {};
      },
    };
    Object.assign(moduleOptions, lifeHooks(life, moduleOptions));
    factory(moduleOptions).then((module) => {
      if (life.error) throw life.error;
      guardModule(module, life);
      module.attnlabLife = life;
      module.attnlabRemoveGlobalListeners = () => removeGlobalListeners();
      resolve(module);
    }).catch((error) => reject(life.error || isFatal(error) ? life.die(error) : error));
  });
}

// Emscripten's runtime adds listeners to window and document while the app's main() runs: GLFW's
// keys (which the app's stop() removes) and its Browser library's pointer-lock watchers (which
// nothing removes). Each holds the module, and so its memory, for the page's life. main() runs
// inside receive() when nothing defers it (no run dependency is left then; a `setStatus` option
// would put it in a timer, and createLab passes none), so what is added during that call is this
// module's. Runs fn recording those additions; returns the function that removes them.
function whileRecordingGlobalListeners(fn) {
  const added = [];
  const targets = [window, document].map((target) => ({ target, own: Object.getOwnPropertyDescriptor(target, 'addEventListener') }));
  for (const { target } of targets) {
    const add = target.addEventListener;
    target.addEventListener = function recorded(...args) {
      added.push([target, args]);
      return add.apply(this, args);
    };
  }
  try {
    fn();
  } finally {
    for (const { target, own } of targets) {
      if (own) Object.defineProperty(target, 'addEventListener', own);
      else delete target.addEventListener;
    }
  }
  return () => {
    for (const [target, [type, listener, options]] of added.splice(0)) target.removeEventListener(type, listener, options);
  };
}

function loadScript(name) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = new URL(name, import.meta.url).href;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${name}`));
    document.head.appendChild(script);
  });
}

export async function loadAppFactory(build) {
  const { script, factory } = BUILDS[build].app;
  // The offline page defines the factories in inline scripts before this module runs.
  if (typeof globalThis[factory] !== 'function') await loadScript(script);
  if (typeof globalThis[factory] !== 'function') throw new Error(`${script} did not define ${factory}`);
  return globalThis[factory];
}
