// Starts the lab in the page: checks what the browser can do, loads the wasm app with
// visible progress, and exposes window.attnlab for tests and host pages:
//   attnlab.ready            promise, resolved after the first frame is drawn
//   attnlab.getState()       the state object (see README, "State")
//   attnlab.setState(patch)  promise, resolved after the change is computed and drawn;
//                            rejected with the reason if the patch is refused (state kept)
//   attnlab.getMatrix(name)  {rows, cols, data: Float32Array} of a current result
//   attnlab.layout()         where each heatmap is (CSS pixels of the page), what is hovered

// Emscripten's GLFW listens for keys on `window` in the capture phase and cancels some of
// them, so it would eat keys typed into the page's own fields. This listener, added before
// the app starts, lets the app see keys only while its canvas has the focus.
import { setupImport } from './import.mjs';

const canvasEl = document.getElementById('canvas');
for (const type of ['keydown', 'keyup', 'keypress']) {
  window.addEventListener(type, (event) => {
    if (document.activeElement !== canvasEl) event.stopImmediatePropagation();
  }, true);
}
canvasEl.addEventListener('mousedown', () => canvasEl.focus());

const statusBox = document.getElementById('status');
const statusText = document.getElementById('status-text');
const statusProgress = document.getElementById('status-progress');
const canvas = canvasEl;
const sentenceField = document.getElementById('sentence');
const notice = document.getElementById('notice');

function showError(message) {
  statusBox.hidden = false;
  statusBox.classList.add('error');
  statusText.textContent = message;  // text, never HTML
}

function hasWebGL2() {
  try {
    return !!document.createElement('canvas').getContext('webgl2');
  } catch {
    return false;
  }
}

// A minimal module whose one function uses a SIMD128 instruction (i8x16.splat).
function hasWasmSimd() {
  const bytes = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,   // magic, version
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,         // type: () -> v128
    0x03, 0x02, 0x01, 0x00,                           // one function of type 0
    0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b,  // i32.const 0; i8x16.splat
  ]);
  return typeof WebAssembly === 'object' && WebAssembly.validate(bytes);
}

function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

// Downloads the app's wasm with a progress bar (the largest file of the page).
async function fetchWithProgress(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load ${url} (HTTP ${response.status})`);
  const total = Number(response.headers.get('content-length')) || 0;
  if (!total || !response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const bytes = new Uint8Array(total);
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (received + value.length > total) return new Uint8Array(await new Response(bytes.slice(0, received)).arrayBuffer());
    bytes.set(value, received);
    received += value.length;
    statusProgress.value = received / total;
    statusText.textContent = `Loading Attention Lab… ${Math.round((100 * received) / total)}%`;
  }
  return received === total ? bytes : bytes.slice(0, received);
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.appendChild(s);
  });
}

async function start() {
  if (typeof WebAssembly !== 'object') throw new Error('This browser has no WebAssembly, which Attention Lab needs.');
  if (!hasWebGL2()) throw new Error('WebGL2 is not available in this browser (or it is switched off), and Attention Lab draws with it.');
  if (!hasWasmSimd()) throw new Error('This browser lacks WebAssembly SIMD, which this build of Attention Lab needs.');

  const wasmBinary = await fetchWithProgress('attnlab.wasm');
  await loadScript('attnlab.js');
  let fatal = null;
  const module = await globalThis.createAttnlabApp({
    canvas,
    wasmBinary,
    onFatal: (message) => { fatal = message; showError(message); },
    setStatus: (text) => {
      // Emscripten reports "Downloading data... (x/y)" style progress while loading.
      const m = /\((\d+(?:\.\d+)?)\/(\d+)\)/.exec(text || '');
      if (m) statusProgress.value = Number(m[1]) / Number(m[2]);
    },
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
  });
  if (fatal) throw new Error(fatal);

  // Resolves once the app has drawn a frame after `target`.
  async function frameAfter(target) {
    while (module.framesDrawn() <= target) await nextFrame();
  }

  const handle = {
    getState: () => JSON.parse(module.getStateJson()),
    setState: async (patch) => {
      const error = module.setStateJson(JSON.stringify(patch ?? {}));
      if (error) throw new Error(error);
      // The next frame recomputes and draws; wait for the one after it to be safe.
      await frameAfter(module.framesDrawn() + 1);
      return handle.getState();
    },
    getMatrix: (name, head = 0) => module.getMatrix(String(name), head | 0),
    layout: () => {
      const l = module.layout();
      const rect = canvas.getBoundingClientRect();
      const sx = rect.width / Math.max(1, l.framebufferWidth);
      const sy = rect.height / Math.max(1, l.framebufferHeight);
      const heatmaps = {};
      for (const [id, h] of Object.entries(l.heatmaps)) {
        heatmaps[id] = { ...h, x: rect.left + h.x * sx, y: rect.top + h.y * sy, w: h.w * sx, h: h.h * sy };
      }
      return {
        heatmaps, hover: l.hover, playing: l.playing, missingGlyphs: l.missingGlyphs, cjkFont: l.cjkFont,
        framebuffer: { width: l.framebufferWidth, height: l.framebufferHeight },
        devicePixelRatio: window.devicePixelRatio,
      };
    },
    framesDrawn: () => module.framesDrawn(),
    frameMs: () => module.frameMs(),
  };
  await frameAfter(0);
  statusBox.hidden = true;
  bridgeSentenceField(handle);
  setupImport(module, handle);
  loadCjkFont(module);
  return handle;
}

// The sentence is typed into a real text field (IMEs, paste, mobile keyboards), then
// handed to the app; a refused sentence leaves the scene as it was and says why.
function bridgeSentenceField(handle) {
  let composing = false;
  let timer = 0;
  const apply = () => {
    handle.setState({ sentence: sentenceField.value }).then(
      () => { notice.textContent = ''; },
      (error) => { notice.textContent = error.message; });
  };
  sentenceField.value = handle.getState().sentence;
  sentenceField.addEventListener('compositionstart', () => { composing = true; });
  sentenceField.addEventListener('compositionend', () => { composing = false; apply(); });
  sentenceField.addEventListener('input', (event) => {
    if (composing || event.isComposing) return;
    clearTimeout(timer);
    timer = setTimeout(apply, 120);
  });
  // Presets chosen inside the app change the sentence: show it in the field.
  setInterval(() => {
    if (document.activeElement === sentenceField) return;
    const current = handle.getState().sentence;
    if (sentenceField.value !== current) sentenceField.value = current;
  }, 300);
  document.getElementById('present').addEventListener('click', async () => {
    const lab = document.getElementById('lab');
    const on = !document.fullscreenElement;
    try {
      if (on) await lab.requestFullscreen();
      else await document.exitFullscreen();
    } catch {
      // Fullscreen may be refused (iframes, some browsers): presentation mode still applies.
    }
    await handle.setState({ presentation: on });
    canvas.focus();
  });
}

// CJK glyphs come from a font of their own, fetched after the first frame so the page
// never waits for it; the app rebuilds its glyph atlas with the characters in use.
async function loadCjkFont(module) {
  try {
    const response = await fetch('fonts/cjk.ttf');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    module.loadCjkFont(new Uint8Array(await response.arrayBuffer()));
    window.attnlab.cjkFontLoaded = true;
  } catch (error) {
    console.warn(`CJK font not loaded (${error.message}); CJK text will show as boxes`);
  }
}

const ready = start().catch((error) => {
  showError(error.message);
  throw error;
});
window.attnlab = { ready };
ready.then((handle) => Object.assign(window.attnlab, handle), () => {});
