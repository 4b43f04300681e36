// Starts the lab in the page: checks what the browser can do, loads the wasm app with
// visible progress, and exposes window.attnlab for tests and host pages:
//   attnlab.ready            promise, resolved after the first frame is drawn
//   attnlab.getState()       the state object (see README, "State")
//   attnlab.setState(patch)  promise, resolved after the change is computed and drawn;
//                            rejected with the reason if the patch is refused (state kept)
//   attnlab.getMatrix(name)  {rows, cols, data: Float32Array} of a current result
//   attnlab.layout()         where each heatmap is (CSS pixels of the page), what is hovered
//   ... and the rest of the handle of api.mjs (links, sessions, on('cursor'), describe()).
//   attnlab.train*(...)      the training lab's files and curves (web/train-ui.mjs)
//   attnlab.lmText           training the language model on a text (web/lm-text-ui.mjs)
//   attnlab.languageModel()  promise: fetches the language model's file, resolved once loaded
//   attnlab.keys()           every key the lab and the page handle, in the UI's language
//                            (src/ui/key_bindings.h; the list of keys shows them: `?`)
//   attnlab.crashed          null, or the LabStoppedError once the module has died (crash.mjs):
//                            the page then shows the crash screen in place of the lab
// Which build runs (with or without WebAssembly SIMD) is builds.mjs's business, where its
// files come from loader.mjs's.
import { bridgeTouch, makeHandle, nextFrame, stepTour } from './api.mjs';
import { chooseBuild } from './builds.mjs';
import { LabStoppedError, isFatal, languageOfLink, renderCrashScreen } from './crash.mjs';
import { compileBuild, firstFrameFonts, giveFirstFrameFonts, loadAsset, startApp } from './loader.mjs';
import { wirePage } from './page.mjs';
import { preAppLanguage, preAppText } from './pre-app-text.mjs';
import { schemeTheme, showTheme } from './scheme.mjs';
import { setupImport } from './import.mjs';
import { setupKeysList } from './keys-overlay.mjs';
import { setupLmText } from './lm-text-ui.mjs';
import { setupOverview } from './overview-ui.mjs';
import { setupTraining } from './train-ui.mjs';

// Emscripten's GLFW listens for keys on `window` in the capture phase and cancels some of
// them, so it would eat keys typed into the page's own fields. This listener, added before
// the app starts, lets the app see key presses only while its canvas has the focus; releases
// always reach it, so a key pressed on the canvas and released elsewhere (Shift of a `?` that
// opened the list of keys) is not left held in the app. The page's own keys (`?`: the list of
// keys, web/keys-overlay.mjs) are taken first, and the app does not see them.
const canvasEl = document.getElementById('canvas');
let pageKey = () => false;  // set once the lab runs
for (const type of ['keydown', 'keyup', 'keypress']) {
  window.addEventListener(type, (event) => {
    if (type === 'keydown' && pageKey(event)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    } else if (type !== 'keyup' && document.activeElement !== canvasEl) {
      event.stopImmediatePropagation();
    }
  }, true);
}
canvasEl.addEventListener('mousedown', () => canvasEl.focus());
let swiped = () => {};
bridgeTouch(canvasEl, (direction) => swiped(direction));  // taps as the app's mouse; swipes step the tour

const statusBox = document.getElementById('status');
const statusText = document.getElementById('status-text');
const statusProgress = document.getElementById('status-progress');
const canvas = canvasEl;
const sentenceField = document.getElementById('sentence');
const notice = document.getElementById('notice');

const where = { search: location.search, hash: location.hash, language: navigator.language };
// Until the app runs (web/page.mjs then shows the state's theme): the link's theme, else the
// reader's colour scheme.
showTheme(/(?:^#|&)theme=([\w-]+)/.exec(location.hash)?.[1] ?? schemeTheme());
const loadingText = preAppText('web_loading', where);
statusText.textContent = loadingText;

function showError(message) {
  statusBox.hidden = false;
  statusBox.classList.add('error');
  statusText.textContent = message;  // text, never HTML
}

// ---- when the module dies (crash.mjs) ------------------------------------------------------
// The crash screen replaces the lab (its toolbars and canvas), in the lab's language as last
// seen in its link, else the language the page opens in. "Open the lab without this link"
// keeps ?lang= and drops the rest of the query and the hash.
let labModule = null, labHandle = null, labLanguage = null, chosenBuild = 'unknown';
function stopLab(error) {
  const stopped = labHandle ? labHandle.crash(error) : error instanceof LabStoppedError ? error : new LabStoppedError(error);
  if (window.attnlab) window.attnlab.crashed = stopped;
  const lab = document.getElementById('lab');
  if (lab.classList.contains('crashed')) return;
  lab.classList.add('crashed');
  statusBox.hidden = true;
  const language = labLanguage ?? preAppLanguage(where.search, where.hash, where.language);
  renderCrashScreen(document.getElementById('stage'), { error: stopped, language, build: chosenBuild, keepQuery: ['lang'] });
}
// A trap in a callback the page does not call itself (an input event into the app).
window.addEventListener('error', (event) => {
  if (typeof WebAssembly !== 'object' || !(event.error instanceof WebAssembly.RuntimeError)) return;
  if (labModule) labModule.attnlabLife.die(event.error);
  else stopLab(event.error);
});

// The lab's WebGL2 context, created at once on its own canvas: the browser sets up its GPU
// side (hundreds of milliseconds with a software rasteriser) while the app downloads, and
// creating it is also the check that WebGL2 works. Emscripten's GLFW later asks this canvas
// for 'webgl2' and receives this same context (a canvas has one), so the attributes are the
// ones main_web.cpp's window hints ask for. The canvas gets its final size first: resizing
// a context's drawing buffer later costs as much again (main_web.cpp opens its window at the
// canvas's size).
function createGLContext() {
  const rect = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  if (rect.width > 0 && rect.height > 0) {
    canvas.width = Math.round(rect.width * dpr);
    canvas.height = Math.round(rect.height * dpr);
  }
  try {
    return canvas.getContext('webgl2', { alpha: true, depth: false, stencil: false, antialias: false });
  } catch {
    return null;
  }
}

async function start() {
  if (typeof WebAssembly !== 'object') throw new Error(preAppText('web_no_wasm', where));
  // The download and compile start first and run while the context is made (which holds
  // the main thread); performance marks time the phases for bench/site.mjs.
  const build = chooseBuild();
  chosenBuild = build;
  const compiling = compileBuild(build, (fraction) => {
    statusProgress.value = fraction;
    statusText.textContent = `${loadingText} ${Math.round(100 * fraction)}%`;
  });
  compiling.catch(() => {});  // awaited below, unless WebGL2 is missing
  const fonts = firstFrameFonts();  // beside the wasm; never rejects
  if (!createGLContext()) throw new Error(preAppText('web_no_webgl2', where));
  performance.mark('attnlab:context');
  const compiled = await compiling;
  performance.mark('attnlab:compiled');
  const fontBytes = await fonts;
  let fatal = null;
  const module = await startApp(compiled, {
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
  labModule = module;
  module.attnlabLife.onDeath(stopLab);
  if (fatal) throw new Error(fatal);
  performance.mark('attnlab:started');
  giveFirstFrameFonts(module, fontBytes);

  // Resolves once the app has drawn a frame after `target`.
  async function frameAfter(target) {
    while (module.framesDrawn() <= target) await nextFrame();
  }

  const handle = makeHandle({ module: () => module, canvas: () => canvas, frames: () => 0 });
  handle.build = build;  // 'simd' or 'scalar': which WebAssembly build runs
  labHandle = handle;
  module.attnlabLife.onDeath((error) => handle.crash(error));
  handle.on('change', (link) => { labLanguage = languageOfLink(link); });
  swiped = (direction) => stepTour(handle, direction);
  // The page's state (link, stored session, language) and its labels are set before the
  // first frame, so that frame is already the chosen one, in the chosen language.
  wirePage(handle);
  handle.keys = () => JSON.parse(module.keysJson());  // the table the list of keys shows
  pageKey = setupKeysList(handle, { keys: handle.keys, typingInField: () => module.typingInField() });
  bridgeSentenceField(handle);
  await frameAfter(0);
  performance.mark('attnlab:first-frame');
  statusBox.hidden = true;
  setupTraining(module, handle, { notice, dropTarget: document.getElementById('lab'), frameAfter });
  setupImport(module, handle);
  setupLmText(module, handle, { dropTarget: document.getElementById('lab') });
  setupOverview(module);
  loadCjkFontWhenNeeded(module, handle);
  loadLanguageModelWhenWanted(module, handle);
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
      (error) => { notice.textContent = error.localized ?? error.message; });
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
  const showSentence = setInterval(() => {
    if (document.activeElement === sentenceField) return;
    const current = handle.getState().sentence;
    if (sentenceField.value !== current) sentenceField.value = current;
  }, 300);
  handle.on('crash', () => clearInterval(showSentence));
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
// never waits for it, and only once the app says the figure draws characters beyond the
// default font (src/ui/font_coverage.h; the controls' preset buttons alone do); the app
// rebuilds its glyph atlas with the characters in use.
function loadCjkFontWhenNeeded(module, handle) {
  let asked = false;
  const check = async () => {
    if (asked || !module.needsCjkFont()) return;
    asked = true;
    try {
      module.loadCjkFont(await loadAsset('fonts/cjk.ttf'));
      window.attnlab.cjkFontLoaded = true;
    } catch (error) {
      console.warn(`CJK font not loaded (${error.message}); CJK text will show as boxes`);
    }
  };
  handle.on('change', check);
  check();
}

// The language model (about 1.8 MB) is fetched only when its scene is first asked for (the
// scene's button, a link or setState with source 'language'): the first frame's download
// is unchanged. attnlab.languageModel() fetches it now and resolves once it is loaded.
function loadLanguageModelWhenWanted(module, handle) {
  let loading = null;
  const load = () => {
    if (!loading) {
      loading = (async () => {
        if (location.protocol === 'file:') {
          module.languageModelUnavailable();  // its steps and exercises say so
          throw new Error('the offline page has no model file beside it');
        }
        const error = module.loadLanguageModel(await loadAsset('models/fortunes-lm.attnlm'), 'fortunes-lm');
        if (error) throw new Error(error);
        window.attnlab.languageModelLoaded = true;
      })();
      loading.catch((error) => console.warn(`language model not loaded (${error.message})`));
    }
    return loading;
  };
  handle.on('change', () => { if (module.languageModelWanted()) load().catch(() => {}); });
  if (module.languageModelWanted()) load().catch(() => {});
  handle.languageModel = load;
}

const ready = start().catch((error) => {
  if (isFatal(error) || labHandle?.crashed) stopLab(error);
  else showError(error.message);
  throw error;
});
window.attnlab = { ready };
ready.then((handle) => Object.assign(window.attnlab, handle), () => {});
