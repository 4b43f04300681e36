// The last line of defence (issue 39): when the WebAssembly module dies anyway (abort(): a
// failed check, out of memory; a trap; the engine's stack overflowing out of a wasm call), it is
// treated as dead: nothing calls into it again, and the page shows what happened, with ways out,
// in place of the canvas. The words come from JS (web/pre-app-text.mjs), since the string table
// lives in the dead module.
//
//   moduleLife()                  {error, die(cause), onDeath(fn)}: one module's life; startApp
//                                 (loader.mjs) gives each module one, as module.attnlabLife
//   lifeHooks(life, module)       the Emscripten module options that report its deaths
//   guardModule(module, life)     its Embind functions refuse once it is dead, and a call that
//                                 dies marks it dead
//   isFatal(error), LabStoppedError
//   renderCrashScreen(container, options)  the screen; languageOfLink(fragment); withoutLink(href, keep)
import { PRE_APP_TEXT } from './pre-app-text.mjs';

// What this browser keeps of the lab: the session, the picked theme and the exercises' progress
// (web/page.mjs) and the training run (web/train-ui.mjs). "Start fresh" clears them all.
export const SESSION_KEY = 'attnlab.session';
// The exercises' progress ([{id, attempts, done}]), stored beside the session (web/page.mjs).
export const PROGRESS_KEY = 'attnlab.exercises';
export const TRAINING_KEY = 'attnlab.training.v1';
// The theme picked on the page (web/page.mjs), which the stored session leaves out: without it
// the page follows the reader's colour scheme.
export const THEME_KEY = 'attnlab.theme';

// Errors after which the module cannot be trusted: a trap or abort() (WebAssembly.RuntimeError),
// and the engine's stack overflow (V8's RangeError, Firefox's InternalError), which leaves the
// module's own stack pointer wherever the unwinding found it.
export function isFatal(error) {
  if (error instanceof LabStoppedError) return true;
  if (typeof WebAssembly === 'object' && error instanceof WebAssembly.RuntimeError) return true;
  if (error instanceof RangeError && /call stack/i.test(error.message)) return true;
  return error?.name === 'InternalError' && /recursion/i.test(error.message);
}

const errorLine = (error) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

// What every call into a dead lab gets: a promise rejected with it, or it thrown.
export class LabStoppedError extends Error {
  constructor(cause) {
    super(`Attention Lab has stopped (${errorLine(cause)}); reload the page to start it again`);
    this.name = 'LabStoppedError';
    this.cause = cause;
  }
}

export function moduleLife() {
  let stopped = null;
  const watchers = [];
  return {
    get error() { return stopped; },
    // Marks the module dead (once) and tells the watchers; returns the LabStoppedError.
    die(cause) {
      if (stopped) return stopped;
      stopped = cause instanceof LabStoppedError ? cause : new LabStoppedError(cause);
      console.error(`${stopped.message}\n${stopped.cause?.stack ?? ''}`);
      for (const fn of watchers.splice(0)) {
        try { fn(stopped); } catch (error) { console.error(error); }
      }
      return stopped;
    },
    onDeath(fn) {
      if (stopped) fn(stopped);
      else watchers.push(fn);
    },
  };
}

// Emscripten's hooks: onAbort hears abort() (the RuntimeError it throws next reaches whoever
// called in); quit hears an error thrown inside the main loop's frame or main() (a trap), which
// Emscripten would otherwise rethrow from the animation frame while the loop stopped silently.
// Exits (ExitStatus) keep Emscripten's own handling. `options` becomes the module.
export function lifeHooks(life, options) {
  return {
    onAbort(what) {
      // Created here, the error's stack shows the wasm frames that called abort().
      life.die(new WebAssembly.RuntimeError(`Aborted(${what || 'the app called abort()'})`));
    },
    quit(status, toThrow) {
      if (toThrow?.name === 'ExitStatus') throw toThrow;
      life.die(toThrow);
      options.pauseMainLoop?.();
    },
  };
}

// Each Embind function of `module` (Embind marks them with argCount) refuses once the module
// is dead, and a call that dies of a fatal error marks it dead. Every caller (the handle, the
// import and training code) then meets one clear error instead of a second crash.
export function guardModule(module, life) {
  for (const name of Object.keys(module)) {
    const fn = module[name];
    if (typeof fn !== 'function' || !('argCount' in fn)) continue;
    module[name] = function guarded(...args) {
      if (life.error) throw life.error;
      try {
        return fn.apply(this, args);
      } catch (error) {
        if (life.error || isFatal(error)) throw life.die(error);
        throw error;
      }
    };
  }
  life.onDeath(() => module.pauseMainLoop?.());  // abort() leaves the loop scheduling empty frames
}

// The UI language of a running lab from its link: the link lists what differs from the
// defaults, and English is the default.
export function languageOfLink(fragment) {
  return /(?:^#?|&)language=zh(?:&|$)/.test(String(fragment ?? '')) ? 'zh' : 'en';
}

// `href` without its link (the hash); `keep`: the query's names to keep ('all' keeps it whole).
export function withoutLink(href, keep = 'all') {
  const url = new URL(href);
  url.hash = '';
  if (keep !== 'all') {
    const kept = new URLSearchParams();
    for (const [name, value] of url.searchParams) if (keep.includes(name)) kept.append(name, value);
    url.search = kept.toString();
  }
  return url.href;
}

// The text to paste into a bug report: build, error, stack, where and when.
export function crashReport(error, { build = 'unknown' } = {}) {
  const cause = error instanceof LabStoppedError ? error.cause : error;
  const stack = cause instanceof Error && cause.stack ? cause.stack : '';
  return [
    'Attention Lab stopped',
    `build: ${build}`,
    `error: ${errorLine(cause)}`,
    `page: ${location.origin}${location.pathname}${location.search}`,
    `link: ${location.hash.slice(0, 2000) || '(none)'}`,
    `browser: ${navigator.userAgent}`,
    `time: ${new Date().toISOString()}`,
    ...(stack ? ['', stack] : []),
  ].join('\n');
}

function storage() {
  try {
    return window.localStorage;  // null or throwing in some sandboxed iframes and private modes
  } catch {
    return null;
  }
}

// Clears what this browser keeps of the lab; storage may be missing or refuse.
export function clearStoredLab() {
  for (const key of [SESSION_KEY, PROGRESS_KEY, TRAINING_KEY, THEME_KEY]) {
    try {
      storage()?.removeItem(key);
    } catch {
      // Nothing stored can be cleared: opening without the link is all that is left.
    }
  }
}

function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;  // text, never HTML
  return e;
}

// Shows the crash screen in `container` (once), which gets the class attnlab-crashed: its
// canvas is hidden by the style sheets. options: error, language ('en' | 'zh'), build,
// keepQuery (the query names "Open without this link" keeps, or 'all').
export function renderCrashScreen(container, { error, language = 'en', build, keepQuery = 'all' }) {
  const existing = container.querySelector(':scope > .attnlab-crash');
  if (existing) return existing;
  const text = PRE_APP_TEXT[language] ?? PRE_APP_TEXT.en;
  const screen = element('section', 'attnlab-crash');
  screen.setAttribute('role', 'alert');
  screen.lang = language === 'zh' ? 'zh-Hans' : 'en';
  const box = element('div', 'attnlab-crash-box');
  const title = element('h2', 'attnlab-crash-title', text.web_crash_title);
  const body = element('p', 'attnlab-crash-body', text.web_crash_body);
  const actions = element('div', 'attnlab-crash-actions');
  const button = (name, label, hint, onClick) => {
    const b = element('button', `attnlab-crash-${name}`, label);
    b.type = 'button';
    if (hint) b.title = hint;
    b.addEventListener('click', onClick);
    actions.append(b);
  };
  const target = () => withoutLink(location.href, keepQuery);
  button('open', text.web_crash_open, text.web_crash_open_title, () => location.assign(target()));
  button('reload', text.web_crash_reload, '', () => location.reload());
  button('fresh', text.web_crash_fresh, text.web_crash_fresh_title, () => {
    clearStoredLab();
    location.assign(target());
  });
  const reportId = `attnlab-crash-report-${Math.random().toString(36).slice(2, 8)}`;
  const label = element('label', 'attnlab-crash-label', text.web_crash_report);
  label.htmlFor = reportId;
  const report = element('textarea', 'attnlab-crash-report');
  report.id = reportId;
  report.readOnly = true;
  report.spellcheck = false;
  report.rows = 7;
  report.lang = 'en';
  report.value = crashReport(error, { build });
  box.append(title, body, actions, label, report);
  screen.append(box);
  container.classList.add('attnlab-crashed');
  container.append(screen);
  return screen;
}
