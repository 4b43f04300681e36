// The lab as a JavaScript module for host pages and embeds.
//
//   import { createLab } from '<lab folder>/api.mjs';
//   const lab = await createLab(document.getElementById('figure'), { state: { panel: 'token', cursor: 2 } });
//   lab.getState();                      // the state object (README, "State")
//   await lab.setState({ cursor: 3 });   // resolves once drawn; rejects with the reason if refused
//   lab.on('cursor', ({ cursor, token }) => ...);
//
//   await lab.destroy();                 // unmounts it: loop, observers, module, canvas gone
//
// Options: state (a settings object) or fragment (a link's '#v=3&...'), controls / tabs
// (false hides the controls window / the panel tabs), releaseOffscreen (give up the WebGL
// context while the lab is scrolled out of view, and come back when it returns). The app's files
// are found beside this module (loader.mjs); the CJK font among them only when the figure
// shows CJK text.
//
// makeHandle() is the handle itself over a running module; web/app.js uses it for the
// full page's window.attnlab. Every value goes through the app's C++ validation.
import { chooseBuild } from './builds.mjs';
import { importInto } from './import-core.mjs';
import { LabStoppedError, isFatal, languageOfLink, renderCrashScreen } from './crash.mjs';
import { compileBuild, firstFrameFonts, giveFirstFrameFonts, loadAsset, startApp } from './loader.mjs';

export const MESSAGE_VERSION = 1;

// What every method of a destroyed lab throws, or rejects with (lab.destroy()).
export class LabDestroyedError extends Error {
  constructor() {
    super('this Attention Lab was destroyed (lab.destroy()); create a new one with createLab');
    this.name = 'LabDestroyedError';
  }
}

// Resolves at the browser's next animation frame (the page's other scripts wait with it too).
export function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

// ---- text for the module ----------------------------------------------------------------

// Emscripten 3.1.6 turns a lone UTF-16 surrogate into another character (joined with the next
// code unit) when it hands a string to C++, so the strict UTF-8 check of the lab's doors would
// never see it (docs/INPUT.md). Text that reaches the module as a string keeps each lone
// surrogate in a form those doors refuse: JSON's \uXXXX escape (no JSON the lab reads) or, in
// a link, the percent-encoding of its bytes (not UTF-8). setState needs neither:
// JSON.stringify escapes lone surrogates itself.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export function jsonForModule(text) {
  return String(text).replace(LONE_SURROGATE, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
export function linkForModule(text) {
  const hex = (b) => `%${b.toString(16).toUpperCase()}`;
  return String(text).replace(LONE_SURROGATE, (c) => {
    const u = c.charCodeAt(0);  // what a lenient encoder writes: ED A0..BF 80..BF
    return hex(0xe0 | (u >> 12)) + hex(0x80 | ((u >> 6) & 0x3f)) + hex(0x80 | (u & 0x3f));
  });
}

// ---- the handle -------------------------------------------------------------------------

// `source`: { module() -> the running Emscripten module or null, canvas(),
//             frames() -> frames before this module,
//             use(fn) -> runs fn with the module running, bringing a released lab back for
//               it (optional: a lab that is never released runs fn at once),
//             visible() -> false when known to be off-screen (optional),
//             destroy() -> undoes what the owner started (optional; may return a promise) }
export function makeHandle(source) {
  const listeners = new Map();  // event -> Set of functions
  let snapshot = null;  // the state while the module is released
  let imports = Promise.resolve();  // importFile calls, one after another
  let last = {};
  let stopped = null;  // the LabStoppedError once the module has died (crash.mjs)
  let ended = null;  // the LabDestroyedError once destroy() was called
  const live = () => (stopped ? null : source.module());
  const use = source.use ?? ((fn) => fn());

  // Waits until the lab has drawn a frame after `target`. Browsers give no animation frames
  // to hidden documents and off-screen cross-origin frames: there the change is computed
  // already (the app computes on setState) and drawing waits until the lab is seen.
  const frameAfter = async (target) => {
    while (live() && live().framesDrawn() <= target && !document.hidden && source.visible?.() !== false)
      await Promise.race([nextFrame(), new Promise((resolve) => setTimeout(resolve, 100))]);
  };
  const emit = (event, value) => {
    for (const fn of listeners.get(event) ?? []) {
      try { fn(value); } catch (error) { console.error(error); }
    }
  };

  const handle = {
    getState: () => (live() ? JSON.parse(live().getStateJson()) : snapshot),
    setState: (patch) => use(async () => {
      const module = live();
      const refused = module.setStateJson(JSON.stringify(patch ?? {}));
      if (refused) {
        // The message is English (what scripts read); `localized` is the lab's language.
        const error = new Error(refused);
        error.localized = module.refusalText('') || refused;
        throw error;
      }
      // The next frame recomputes and draws; wait for the one after it to be safe.
      await frameAfter(module.framesDrawn() + 1);
      handle.poll();
      return handle.getState();
    }),
    getMatrix: (name, head = 0) => live()?.getMatrix(String(name), head | 0) ?? null,
    layout: () => {
      const l = live().layout();
      const rect = source.canvas().getBoundingClientRect();
      const sx = rect.width / Math.max(1, l.framebufferWidth);
      const sy = rect.height / Math.max(1, l.framebufferHeight);
      const toPage = (r) => ({ ...r, x: rect.left + r.x * sx, y: rect.top + r.y * sy, w: r.w * sx, h: r.h * sy });
      const heatmaps = {};
      for (const [id, h] of Object.entries(l.heatmaps)) heatmaps[id] = toPage(h);
      const tabs = {};
      for (const [panel, t] of Object.entries(l.tabs)) tabs[panel] = toPage(t);
      const nav = (l.nav ?? []).map((n) => ({ ...toPage(n), textWidth: n.textWidth * sx, right: rect.left + n.right * sx }));
      const plots = {};
      for (const [id, p] of Object.entries(l.plots ?? {})) plots[id] = toPage(p);
      const tour = l.tour.step ? {
        ...toPage(l.tour), highlightBox: toPage(l.tour.highlightBox), backBox: toPage(l.tour.backBox), nextBox: toPage(l.tour.nextBox),
      } : { step: 0 };
      const x = l.exercise ?? { id: 0 };
      const exercise = x.id ? {
        ...toPage(x),
        veiled: Object.fromEntries(Object.entries(x.veiled).map(([id, r]) => [id, toPage(r)])),
        choiceBoxes: x.choiceBoxes.map(toPage), inputBox: toPage(x.inputBox), checkBox: toPage(x.checkBox),
        showBox: toPage(x.showBox), nextBox: toPage(x.nextBox),
      } : { id: 0 };
      return {
        tour, exercise, font: l.font,
        randomNote: l.randomNote ? toPage(l.randomNote) : null,
        textFaults: (l.textFaults ?? []).map(toPage),
        heatmaps, tabs, plots, nav, controls: l.controls, hover: l.hover, playing: l.playing, missingGlyphs: l.missingGlyphs, cjkFont: l.cjkFont,
        framebuffer: { width: l.framebufferWidth, height: l.framebufferHeight },
        devicePixelRatio: window.devicePixelRatio,
      };
    },
    tourSteps: () => JSON.parse(live().tourSteps()),  // [{panel, patch, highlight}]: the guided tour
    // The exercises (src/app/exercises.h): [{id, chapter, panel, kind, question: {en, zh},
    // tolerance?: {absolute}, choices?: [{en, zh}]}]; setState({exercise: id}) shows one.
    exercises: () => JSON.parse(live().exercisesJson()),
    // Answers the shown exercise: {row, col} for 'cell', the option's index for 'choice', a
    // number for 'number'. Resolves to {correct, expected, explanation} (expected in the
    // value's form; for a cell every accepted {row, col}); a value of the wrong form, or no
    // exercise shown, rejects with a TypeError and counts nothing. Listeners of 'answer' hear
    // {exercise, correct, attempts}.
    answer: (value) => use(async () => {
      let module = live();
      const text = (value === undefined ? 'null' : JSON.stringify(value)) ?? 'null';
      let r = JSON.parse(module.answerExerciseJson(text));
      if (!r.ok && r.waiting && handle.languageModel) {
        // The exercise reads the language model's scene: load it, then answer.
        await handle.languageModel();
        await handle.setState({});
        module = live();
        r = JSON.parse(module.answerExerciseJson(text));
      }
      if (!r.ok) {
        const error = r.typeError ? new TypeError(r.error) : new Error(r.error);
        error.localized = module.refusalText('') || r.error;
        throw error;
      }
      // Heard at once (a lab out of view is released after this call, before any poll).
      last.answers = module.exerciseAnswerCount();
      emit('answer', { exercise: r.exercise, correct: r.correct, attempts: r.attempts });
      await frameAfter(module.framesDrawn() + 1);
      return { correct: r.correct, expected: r.expected, explanation: r.explanation };
    }),
    // The learner's progress ([{id, attempts, done}]), kept by the page beside the stored
    // session (never in links); loadExerciseProgress returns '' or why it refused the copy.
    exerciseProgress: () => (live() ? JSON.parse(live().exerciseProgressJson()) : []),
    loadExerciseProgress: (progress) => {
      const refused = live().loadExerciseProgress(typeof progress === 'string' ? progress : JSON.stringify(progress ?? null));
      if (!refused) emit('progress', handle.exerciseProgress());
      return refused;
    },
    clearExerciseProgress: () => {
      live()?.clearExerciseProgress();
      emit('progress', []);
    },
    // Every string the next frame draws (widgets and figures), as text: for tests.
    drawnText: () => use(async () => {
      const module = live();
      module.captureDrawnText();
      await frameAfter(module.framesDrawn() + 1);
      return module.drawnText();
    }),
    // After a crash: the frames drawn as last seen (the poll reads them every frame).
    framesDrawn: () => {
      if (live()) last.frames = source.frames() + live().framesDrawn();
      else if (!stopped) last.frames = source.frames();
      return last.frames ?? 0;
    },
    heapStats: () => (live() ? live().heapStats() : null),
    frameMs: () => live()?.frameMs() ?? 0,
    // Where the CPU time of frames went: the last frame, and the last one that recomputed
    // (after a setState that changed the math): {computeMs, uiMs, uploadMs, drawMs, totalMs, frame}.
    frameTimings: () => live()?.frameTimings() ?? null,
    // Links and sessions: the settings as a URL fragment / JSON, and loading them back
    // (a bad link gives the defaults and a notice; a bad session changes nothing).
    link: () => live()?.fragment() ?? '',
    loadLink: (fragment) => live().loadFragment(linkForModule(fragment)),
    session: () => (live() ? JSON.parse(live().settingsJson()) : snapshot),
    loadSession: (text) => live().loadSettings(jsonForModule(text)),
    describe: () => live()?.describe() ?? last.text ?? '',
    schema: () => JSON.parse(live().schema()),
    // The panel registry (src/app/panel_registry.h): id, chapter, title, the state keys each reads.
    panels: () => JSON.parse(live().panels()),
    uiString: (name) => live()?.uiString(String(name)) ?? '',
    // The last refusal (of loadLink, loadSession, setState, an import or export) in the lab's
    // language, `label` (a file's name) before it; and the notice of the link the lab started
    // from (an embed's), likewise.
    refusalText: (label = '') => live()?.refusalText(String(label)) ?? '',
    noticeText: () => handle.noticeLocalized || (live()?.noticeText() ?? ''),
    // The height the layout asks for, in CSS pixels (embeds tell their host).
    preferredHeight: () => {
      if (live()) last.height = live().preferredHeight() / window.devicePixelRatio;
      return last.height ?? 0;
    },
    // An attention file (.npy, .npz, JSON: docs/IMPORT.md) shown as the lab's scene, by the
    // same import as a dropped file (web/import-core.mjs): `file` a File (or a Blob with a
    // name), or {name, bytes}; options {batch, bfloat16}. One at a time; resolves once drawn
    // to getState().import, rejects with the import's reason (the previous scene stays).
    importFile(file, options = {}) {
      const run = imports.then(() => use(async () => {
        const blob = file instanceof Blob ? file : new File([file?.bytes ?? new Uint8Array(0)], String(file?.name ?? 'file'));
        await importInto(live(), blob, { batch: options.batch, bfloat16: options.bfloat16, waitFrame: nextFrame });
        await handle.setState({});
        return handle.getState().import;
      }));
      imports = run.catch(() => {});
      return run;
    },
    // A postMessage message parsed and checked by the app (src/app/messages.h).
    parseMessage: (text) => use(() => JSON.parse(live().parseMessage(jsonForModule(text)))),
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(fn);
      return () => listeners.get(event).delete(fn);
    },
    // Compares what the page shows with what it showed, and tells listeners:
    // 'cursor' {cursor, token}, 'change' (the link), 'describe' (the figure's text).
    // The cursor is read every frame (one integer); the link and the text only when the
    // cursor moved, after setState, or every few frames (full = true).
    poll(full = true) {
      const module = live();
      if (!module) return;
      last.frames = source.frames() + module.framesDrawn();
      const cursor = module.cursor();
      if (cursor !== last.cursor) {
        last.cursor = cursor;
        full = true;
        emit('cursor', { cursor, token: module.cursorToken() });
      }
      // An answer to an exercise, given in the card or through answer(): one integer a frame.
      const answers = module.exerciseAnswerCount();
      if (answers !== last.answers) {
        const first = last.answers === undefined;
        last.answers = answers;
        const answer = JSON.parse(module.lastAnswerJson());
        if (!first && answer) emit('answer', answer);
      }
      if (!full) return;
      const link = module.fragment();
      if (link !== last.link) {
        last.link = link;
        emit('change', link);
      }
      const text = module.describe();
      if (text !== last.text) {
        last.text = text;
        emit('describe', text);
      }
    },
    // Used by createLab when the module goes away and comes back.
    release() {
      snapshot = JSON.parse(live().getStateJson());
      handle.releasedProgress = live().exerciseProgressJson();  // given to the module that comes back
    },
    // Test hook (tests/browser/crash_screen.test.mjs): ends the module as a bug would:
    // 'abort' (abort() now), 'trap' (a trap in the next frame), 'stack' (a stack overflow now).
    debugCrash: (kind) => use(async () => live().debugCrash(String(kind))),
    // The module died (its owner says so, from module.attnlabLife): from now on every method
    // that needs it throws, or rejects with, this LabStoppedError, the per-frame poll stops,
    // and 'crash' listeners hear it once. handle.crashed is the error.
    crash(error) {
      if (stopped || ended) return stopped ?? ended;
      stopped = error instanceof LabStoppedError ? error : new LabStoppedError(error);
      handle.crashed = stopped;
      emit('crash', stopped);
      return stopped;
    },
    crashed: null,
    // Unmounts the lab: the per-frame poll ends, listeners are dropped, and the owner undoes
    // what it started (createLab: the module stopped and let go, its canvas and element
    // removed, its observer disconnected). Resolves once done; calling it again does nothing.
    // From then on every other method throws, or rejects with, a LabDestroyedError.
    async destroy() {
      if (ended) return ended.done;
      ended = new LabDestroyedError();
      listeners.clear();
      snapshot = null;
      ended.done = Promise.resolve(source.destroy?.()).then(() => {});
      return ended.done;
    },
  };
  // Once stopped, what needs the module refuses with the one clear error; what reads only what
  // the page already knows (frames drawn so far, the last height) still answers. Once
  // destroyed, everything refuses but destroy() itself.
  const ANSWERS_WHEN_STOPPED = new Set(['on', 'poll', 'crash', 'framesDrawn', 'preferredHeight']);
  const ASYNC = new Set(['setState', 'drawnText', 'importFile', 'parseMessage', 'debugCrash', 'answer']);
  for (const [name, fn] of Object.entries(handle)) {
    if (typeof fn !== 'function' || name === 'destroy' || name === 'crash') continue;
    const refusal = () => ended ?? (ANSWERS_WHEN_STOPPED.has(name) ? null : stopped);
    handle[name] = ASYNC.has(name)
      ? (...args) => (refusal() ? Promise.reject(refusal()) : fn(...args))
      : (...args) => {
        if (refusal()) throw refusal();
        return fn(...args);
      };
  }
  // The poll runs every animation frame, and every 100 ms while the app's loop idles on its
  // timer (so an idle page asks for no animation frames at all).
  (async () => {
    for (let frame = 0; !stopped && !ended; frame++) {
      if (live()?.loopIdle()) await new Promise((resolve) => setTimeout(resolve, 100));
      else await nextFrame();
      if (ended) break;
      try {
        handle.poll(frame % 12 === 0);
      } catch (error) {
        if (!stopped && !ended) throw error;
      }
    }
  })();
  return handle;
}

// ---- touch ---------------------------------------------------------------------------------

// Touch as the app's mouse: Emscripten's GLFW turns a touch into a button press without
// moving its pointer (it reads positions only from mouse events), so a tap would click
// wherever the mouse last was. Registered before the app starts, this replaces GLFW's touch
// handling: the first finger moves the pointer, presses and releases; the pointer stays
// where the finger lifted, so a tap shows what hovering shows (a cell's derivation) and
// selects what a click selects. preventDefault keeps the browser from adding its own
// mouse events after the tap.
// `onSwipe(direction)` hears a quick sideways swipe: +1 to the left (next), -1 to the right.
export function bridgeTouch(canvas, onSwipe = () => {}) {
  const mouse = (type, touch) => canvas.dispatchEvent(new MouseEvent(type, {
    bubbles: true, cancelable: true, clientX: touch.clientX, clientY: touch.clientY, button: 0, buttons: type === 'mouseup' ? 0 : 1,
  }));
  let finger = null, start = null;
  const handlers = {
    touchstart(event) {
      if (finger !== null) return;
      const t = event.changedTouches[0];
      finger = t.identifier;
      start = { x: t.clientX, y: t.clientY, time: performance.now() };
      canvas.focus();
      mouse('mousemove', t);
      mouse('mousedown', t);
    },
    touchmove(event) {
      const t = [...event.changedTouches].find((x) => x.identifier === finger);
      if (t) mouse('mousemove', t);
    },
    touchend(event) {
      const t = [...event.changedTouches].find((x) => x.identifier === finger);
      if (!t) return;
      finger = null;
      mouse('mouseup', t);
      const dx = t.clientX - start.x, dy = t.clientY - start.y;
      if (event.type === 'touchend' && Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy) && performance.now() - start.time < 800)
        onSwipe(dx < 0 ? 1 : -1);
    },
  };
  handlers.touchcancel = handlers.touchend;
  for (const [type, fn] of Object.entries(handlers)) {
    canvas.addEventListener(type, (event) => {
      event.stopImmediatePropagation();  // GLFW's own touch listener comes after this one
      event.preventDefault();
      fn(event);
    }, { capture: true, passive: false });
  }
}

// The tour one step on (+1) or back (-1), when it is on.
export function stepTour(handle, direction) {
  const step = handle.getState()?.tour ?? 0;
  if (step > 0) handle.setState({ tour: Math.max(1, step + direction) }).catch(() => {});
}

// ---- loading the app ----------------------------------------------------------------------

// One compiled module per build, shared by every lab of the page. Which build (with or
// without WebAssembly SIMD) is builds.mjs's business, the files' published names loader.mjs's.
let compiled = null;

function compileApp() {
  if (!compiled) compiled = compileBuild(chooseBuild());
  return compiled;
}

async function startModule(canvas) {
  let fatal = null;
  const [build, fonts] = await Promise.all([compileApp(), firstFrameFonts()]);
  const module = await startApp(build, {
    canvas,
    onFatal: (message) => { fatal = message; },
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
  });
  if (fatal) throw new Error(fatal);
  giveFirstFrameFonts(module, fonts);
  return module;
}

// ---- off-screen turns -----------------------------------------------------------------------

// Work on a lab that is out of view (its first start, a change or a message while it is
// released) needs its module, and so a WebGL context, for a moment. Such moments take turns:
// one at a time across every frame of this origin on the page (a Web Lock; each embed is a
// document of its own), so the labs out of view hold at most one context between them, and a
// page of 20 figures that all start at once stays within the browser's limit (16 in Chromium).
// Where Web Locks are missing or refused (plain http from another host; a sandbox without
// allow-same-origin) the turns are kept within this document only.
let localTurns = Promise.resolve();
function localTurn(fn) {
  const turn = localTurns.then(() => fn());
  localTurns = turn.catch(() => {});
  return turn;
}
function offscreenTurn(fn) {
  if (!navigator.locks) return localTurn(fn);
  let ran = false;
  return navigator.locks.request('attnlab-offscreen-context', () => {
    ran = true;
    return fn();
  }).catch((error) => {
    if (ran) throw error;
    return localTurn(fn);
  });
}

// ---- createLab ----------------------------------------------------------------------------

const kShowing = 0.001;  // the fraction of a lab in view from which it runs

// The canvas's size comes from a style sheet: Emscripten removes inline width and height
// from the canvas whenever it sets the backing store. A constructed sheet needs no inline
// <style> (a Content-Security-Policy may forbid those). The crash screen (crash.mjs) takes the
// lab's place; its looks are embed.css's, or the host page's.
function addCanvasStyle() {
  const rule = '.attnlab-canvas{display:block;width:100%;height:100%;outline:none;touch-action:none}' +
    '.attnlab-crashed>.attnlab-canvas{display:none}' +
    '.attnlab-crash{position:absolute;inset:0;overflow:auto;box-sizing:border-box;padding:0.8em 1em}';
  if (document.attnlabStyled) return;
  document.attnlabStyled = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(rule);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

export async function createLab(container, options = {}) {
  if (!(container instanceof Element)) throw new TypeError('createLab needs a container element');
  addCanvasStyle();
  const root = document.createElement('div');
  root.className = 'attnlab-lab';
  root.style.cssText = 'position:relative;width:100%;height:100%;min-height:8em';
  const live = document.createElement('div');  // the figure's text, read by screen readers
  live.className = 'attnlab-figure-text';
  live.setAttribute('aria-live', 'polite');
  live.style.cssText = 'position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap';
  root.append(live);
  container.append(root);

  // visible: undefined until the first IntersectionObserver report, then true or false.
  let module = null, canvas = null, framesBefore = 0, reviving = null, visible, startError = '';
  const newCanvas = () => {
    canvas = document.createElement('canvas');
    canvas.tabIndex = 0;  // keyboard operable; focus comes only from a click or Tab, never from us
    canvas.setAttribute('aria-label', options.label ?? 'Attention Lab figure');
    canvas.className = 'attnlab-canvas';
    canvas.addEventListener('mousedown', () => canvas.focus());
    bridgeTouch(canvas, (direction) => stepTour(handle, direction));
    root.prepend(canvas);
  };
  // A lab made here has no text field of the page's: its controls edit the sentence.
  const chrome = () => {
    module.setChrome(options.controls !== false, options.tabs !== false, false);
    module.setTourNavigation(options.tourNavigation !== false);
  };

  // fn with the module running: at once for a lab in view, else in an off-screen turn after
  // which the lab is released again (unless it came into view meanwhile).
  let turnActive = false;
  const use = async (fn) => {
    if (visible !== false) {
      await resume();
      return fn();
    }
    return offscreenTurn(async () => {
      turnActive = true;
      try {
        await resume();
        return await fn();
      } finally {
        turnActive = false;
        if (visible === false) suspend();
      }
    });
  };
  const handle = makeHandle({
    module: () => module,
    canvas: () => canvas,
    frames: () => framesBefore,
    use,
    visible: () => visible,
    destroy,
  });
  handle.on('describe', (text) => { live.textContent = text; });

  // A module that dies (crash.mjs) leaves the crash screen in the lab's place, in the lab's
  // language: the link's (each change), else the one it was started in. Its canvas and
  // WebGL context are given up; nothing brings the lab back but the screen's buttons.
  let language = options.state?.language === 'zh' || options.state?.language === 'en' ? options.state.language
    : languageOfLink(options.fragment);
  handle.on('change', (link) => { language = languageOfLink(link); });
  let observer = null;
  handle.on('crash', (error) => {
    observer?.disconnect();
    live.textContent = '';
    if (canvas) {
      canvas.getContext('webgl2')?.getExtension('WEBGL_lose_context')?.loseContext();
      canvas.remove();
    }
    renderCrashScreen(root, { error, language, build: chooseBuild() });
  });

  async function resume() {
    if (destroyed) throw new LabDestroyedError();
    if (handle.crashed) throw handle.crashed;
    if (module) return;
    if (reviving) return reviving;
    reviving = (async () => {
      try {
        newCanvas();
        let m;
        try {
          m = await startModule(canvas);
        } catch (error) {
          if (isFatal(error)) throw handle.crash(error);
          throw error;
        }
        m.attnlabLife.onDeath((error) => handle.crash(error));
        if (destroyed) {  // destroy() waits for this start, then lets the module go
          module = m;
          return;
        }
        const saved = handle.getState();  // null on the first start
        if (saved) {
          const error = m.loadSettings(JSON.stringify(saved));
          if (error) console.warn(`state not restored: ${error}`);
          if (handle.releasedProgress) m.loadExerciseProgress(handle.releasedProgress);
        } else {
          if (options.fragment) {
            handle.notice = m.loadFragment(linkForModule(options.fragment)) || '';
            handle.noticeLocalized = handle.notice ? m.noticeText() : '';
          }
          if (options.state) startError = m.setStateJson(JSON.stringify(options.state));
        }
        module = m;
        chrome();
        giveFont();
        if (model && m.languageModelWanted()) loadLanguageModelIfWanted();
        handle.suspended = false;
      } finally {
        reviving = null;
      }
    })();
    return reviving;
  }

  // Gives the WebGL context back at once (browsers cap live contexts, ~16 in Chromium).
  function suspend() {
    if (!module || reviving || handle.crashed) return;
    handle.release();
    letModuleGo();
    handle.suspended = true;
  }

  // Stops the module (its main loop, its GLFW listeners, the app's memory) unless it died, and
  // lets go of it with its context and canvas: nothing of the page holds it any more, so its
  // instance and memory can be collected.
  function letModuleGo() {
    if (module && !handle.crashed) {
      framesBefore += module.framesDrawn();
      module.stop();
    }
    module?.attnlabRemoveGlobalListeners();
    canvas?.getContext('webgl2')?.getExtension('WEBGL_lose_context')?.loseContext();
    canvas?.remove();
    module = null;
    canvas = null;
  }

  // lab.destroy(): after a start under way, the module let go, the observer disconnected, the
  // fetched font and model dropped, the lab's element removed from the container.
  let destroyed = false;
  async function destroy() {
    destroyed = true;
    observer?.disconnect();
    await reviving?.catch(() => {});
    letModuleGo();
    cjk = null;
    model = null;
    root.remove();
  }

  // CJK glyphs come from a font of their own (about 1 MB gzip), fetched only when the app says
  // the figure draws characters beyond the default font (src/ui/font_coverage.h: the Chinese
  // UI, such characters in the sentence or the tokens, or the controls, whose preset buttons
  // name Chinese sentences); asked whenever the link changes, and given again to a lab that
  // comes back.
  let cjk = null;
  const loadCjkFontIfNeeded = async () => {
    if (cjk || !module?.needsCjkFont()) return;
    cjk = loadAsset('fonts/cjk.ttf');
    try {
      const bytes = await cjk;
      module?.loadCjkFont(bytes);
      handle.cjkFontLoaded = true;
    } catch (error) {
      console.warn(`CJK font not loaded (${error.message}); CJK text will show as boxes`);
    }
  };
  const giveFont = () => cjk?.then((bytes) => module?.loadCjkFont(bytes), () => {});

  // The language model (about 1.8 MB) likewise: fetched once something asks for its scene (a
  // link, setState, an exercise or a tour step), given to the module then and again to a lab
  // that comes back. The offline single-file pages carry no model: its scene says so.
  let model = null;
  const loadLanguageModelIfWanted = async () => {
    if (!module?.languageModelWanted()) return;
    if (location.protocol === 'file:') {
      module.languageModelUnavailable();  // the offline pages carry no model: its steps say so
      return;
    }
    if (!model) model = loadAsset('models/fortunes-lm.attnlm');
    try {
      const bytes = await model;
      const error = module?.loadLanguageModel(bytes, 'fortunes-lm');
      if (error) throw new Error(error);
      handle.languageModelLoaded = true;
      await handle.setState({});  // the scene it waited for, drawn
    } catch (error) {
      if (!destroyed) console.warn(`language model not loaded (${error.message})`);
    }
  };
  handle.languageModel = loadLanguageModelIfWanted;

  // Labs out of view are released at once; a lab that starts out of view starts in an
  // off-screen turn (so that its state is known) and is released after it.
  if (options.releaseOffscreen) {
    let firstReport;
    const reported = new Promise((resolve) => { firstReport = resolve; });
    // In view means some area in view: an element whose edge only touches the viewport's
    // counts as intersecting but shows nothing (and gets no animation frames). The second
    // threshold reports the step from touching to showing.
    observer = new IntersectionObserver((entries) => {
      visible = entries[entries.length - 1].intersectionRatio >= kShowing;
      firstReport();
      if (visible) resume().catch(() => {});  // a failed start rejects createLab or the call that needed it
      else if (turnActive) return;  // the turn releases the lab when it ends
      else if (reviving) reviving.then(() => { if (!visible && !turnActive) suspend(); });
      else suspend();
    }, { threshold: [0, kShowing] });
    observer.observe(root);
    await reported;
  } else {
    visible = true;
  }

  handle.on('change', loadCjkFontIfNeeded);
  handle.on('change', () => { loadLanguageModelIfWanted(); });
  // A lab that does not start, or refuses its starting state, leaves nothing running behind
  // the rejection (no handle reaches it); one whose module died leaves its crash screen.
  try {
    await use(() => {
      handle.poll();
      loadCjkFontIfNeeded();
      loadLanguageModelIfWanted();
    });
    if (startError) throw new Error(startError);
  } catch (error) {
    if (!handle.crashed) await handle.destroy();
    throw error;
  }
  handle.element = root;
  handle.canvas = () => canvas;
  return handle;
}
