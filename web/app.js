// Starts the lab in the page: checks what the browser can do, loads the wasm app with
// visible progress, and exposes window.attnlab for tests and host pages:
//   attnlab.ready            promise, resolved after the first frame is drawn
//   attnlab.getState()       the state object (see README, "State")
//   attnlab.setState(patch)  promise, resolved after the change is computed and drawn;
//                            rejected with the reason if the patch is refused (state kept)
//   attnlab.getMatrix(name)  {rows, cols, data: Float32Array} of a current result
//   attnlab.layout()         where the heatmap is, in CSS pixels of the page

const statusBox = document.getElementById('status');
const statusText = document.getElementById('status-text');
const statusProgress = document.getElementById('status-progress');
const canvas = document.getElementById('canvas');

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

  await loadScript('attnlab.js');
  let fatal = null;
  const module = await globalThis.createAttnlabApp({
    canvas,
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
    getMatrix: (name) => module.getMatrix(String(name)),
    layout: () => {
      const l = module.layout();
      const rect = canvas.getBoundingClientRect();
      const sx = rect.width / Math.max(1, l.framebufferWidth);
      const sy = rect.height / Math.max(1, l.framebufferHeight);
      return {
        heatmap: { x: rect.left + l.heatmap.x * sx, y: rect.top + l.heatmap.y * sy,
                   w: l.heatmap.w * sx, h: l.heatmap.h * sy },
        framebuffer: { width: l.framebufferWidth, height: l.framebufferHeight },
        devicePixelRatio: window.devicePixelRatio,
      };
    },
    framesDrawn: () => module.framesDrawn(),
  };
  await frameAfter(0);
  statusBox.hidden = true;
  canvas.focus();
  return handle;
}

const ready = start().catch((error) => {
  showError(error.message);
  throw error;
});
window.attnlab = { ready };
ready.then((handle) => Object.assign(window.attnlab, handle), () => {});
