// An embedded figure (web/embed.html): one panel, its state from the hash, released while
// scrolled out of view, its preferred height told to the host page, and the postMessage
// API of src/app/messages.h answered for the origins the host listed (?origins=...).
//
// A page without a URL of its own (an iframe's srcdoc: the Python package's notebook figures
// and save_html files, python/attnlab) carries its options and its file in inert blocks:
//   <script type="application/json" id="attnlab-figure">{"controls": false, "tabs": true,
//     "release": false, "state": {...a settings patch, applied after the file...}}</script>
//   <script type="application/octet-stream" id="attnlab-file" data-name="attn.npz"
//     data-batch="0">BASE64</script>
// The file goes through the same import as a dropped file; a refused one leaves the figure's
// default scene and says why in the notice, as the page's import bar would.
//
// A lab that stops (its module died: crash.mjs) shows the crash screen in the frame, posts
// {attnlab: 1, type: 'event', event: 'error', message} to each origin of origins=, and answers
// every later message of ours with {ok: false, error}.
import { createLab, MESSAGE_VERSION } from './api.mjs';
import { isFatal } from './crash.mjs';
import { dataBlockBytes } from './loader.mjs';
import { onSchemeChange, schemeTheme, showTheme } from './scheme.mjs';

const params = new URLSearchParams(location.search);
const figureBlock = document.getElementById('attnlab-figure');
// A damaged block (a hand-edited saved page) leaves the figure's defaults, and says so below.
let figureBlockError = '';
const figure = (() => {
  try {
    const parsed = figureBlock ? JSON.parse(figureBlock.textContent) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    figureBlockError = 'the figure\'s options are not a JSON object';
  } catch (error) {
    figureBlockError = `the figure's options are not JSON (${error.message})`;
  }
  return {};
})();
const option = (name, fallback) => (name in figure ? figure[name] : fallback);
const allowed = new Set((params.get('origins') ?? '').split(',').map((s) => s.trim()).filter(Boolean));
const notice = document.getElementById('notice');
const inFrame = window.parent !== window;

// The theme: the query's theme= wins (over the hash too); otherwise the figure follows the
// reader's colour scheme (web/scheme.mjs), so it is light on a light course page.
// The themes are the state's (app/view_choices.h): cmake/steps/make-site.mjs writes their names here.
const THEMES = []; // @choices theme
const queryTheme = params.get('theme');
const themeError = queryTheme !== null && !THEMES.includes(queryTheme);
const theme = queryTheme !== null && !themeError ? queryTheme : schemeTheme();
showTheme(theme);

// ---- when the lab stops ------------------------------------------------------------------
let stopped = null;  // the LabStoppedError
// An event of ours to each host origin of origins= (only inside a frame).
function tellHosts(event) {
  if (!inFrame) return;
  for (const origin of allowed) {
    try {
      window.parent.postMessage({ attnlab: MESSAGE_VERSION, type: 'event', ...event }, origin);
    } catch {
      // Not an origin (postMessage refuses it): that host hears nothing.
    }
  }
}
function labStopped(error) {
  if (stopped) return;
  stopped = error;
  notice.textContent = '';
  tellHosts({ event: 'error', message: error.message });
}
// A message of a listed origin, once stopped: one of ours is refused with the reason (its id
// echoed when it is a number or a short string; the app that checked ids is gone).
function refuseStopped(event) {
  let data = event.data;
  if (typeof data === 'string' && data.length <= 4096) {
    try { data = JSON.parse(data); } catch { return; }
  }
  if (data?.attnlab !== MESSAGE_VERSION || data.type === 'reply' || data.type === 'event') return;
  event.source.postMessage({ attnlab: MESSAGE_VERSION, type: 'reply', id: echoedId(data), ok: false, error: stopped.message }, event.origin);
}
// The id a reply echoes when the app could not read the message's own (it was no JSON the lab
// reads, or the app is gone): the host's, when it is one the protocol allows (src/app/messages.h).
function echoedId(data) {
  const id = data?.id;
  return (typeof id === 'number' && Number.isInteger(id)) || (typeof id === 'string' && id.length <= 64) ? id : null;
}
window.addEventListener('message', (event) => {
  if (stopped && allowed.has(event.origin) && event.source) refuseStopped(event);
});

let lab = null;
try {
  lab = await createLab(document.getElementById('embed'), {
    fragment: location.hash || '#',
    state: { theme },
    controls: option('controls', params.get('controls') !== '0'),
    tabs: option('tabs', params.get('tabs') === '1'),
    // #tour=N shows that step of the tour with Back and Next (the whole tour from there);
    // ?tour=one shows the step alone.
    tourNavigation: option('tourNavigation', params.get('tour') !== 'one'),
    // An imported file lives in the running module only: a figure that shows one stays live.
    releaseOffscreen: option('release', params.get('release') !== '0'),
  });
} catch (error) {
  if (!isFatal(error)) throw error;
  labStopped(error);  // createLab left the crash screen in #embed
}
if (lab) wireLab(lab);

// The running figure: its notice, theme, file, height and messages.
function wireLab(lab) {
  lab.on('crash', labStopped);
  if (lab.crashed) labStopped(lab.crashed);
  const themeArgs = [queryTheme?.slice(0, 40), THEMES.join(', ')];  // the asked name, then the themes
  const themeNotice = themeError
    ? (lab.uiString('web_theme_bad') || 'theme=%s is not a theme (%s): the colour scheme\'s is used')
      .replace(/%s/g, () => themeArgs.shift() ?? '') : '';
  notice.textContent = [lab.noticeText(), themeNotice, figureBlockError].filter(Boolean).join(' ');  // a broken link or theme: why
  window.attnlab = lab;
  lab.on('change', () => showTheme(lab.getState().theme));
  // Exercises: ?exercise=N shows one (as #exercise=N does); each answer, given in the figure
  // or through answer(), goes to the host origins: {event: 'answer', exercise, correct, attempts}.
  const askedExercise = params.get('exercise');
  if (askedExercise !== null) {
    lab.setState({ exercise: Number(askedExercise) }).catch((error) => {
      notice.textContent = [notice.textContent, error.localized ?? error.message].filter(Boolean).join(' ');
    });
  }
  lab.on('answer', (answer) => tellHosts({ event: 'answer', exercise: answer.exercise, correct: answer.correct, attempts: answer.attempts }));
  if (queryTheme === null || themeError) {
    onSchemeChange((followed) => { lab.setState({ theme: followed }).catch(() => {}); });
  }

  // ---- the figure's own file ------------------------------------------------------------------
  // Resolves when the figure shows what its blocks ask (lab.figureReady, for tests and hosts).
  async function loadFigureFile() {
    const block = document.getElementById('attnlab-file');
    try {
      if (block) {
        const file = new File([dataBlockBytes(block)], block.dataset.name || 'attention.npz');
        await lab.importFile(file, { batch: Number(block.dataset.batch) || 0 });
      }
      if (figure.state) await lab.setState(figure.state);
      return { ok: true };
    } catch (error) {
      notice.textContent = error.localized ?? error.message;  // text, never HTML
      return { ok: false, error: error.message };
    }
  }
  lab.figureReady = loadFigureFile();

  // ---- auto-height ----------------------------------------------------------------------------
  let postedHeight = 0;
  function postHeight() {
    const height = Math.ceil(lab.preferredHeight());
    if (inFrame && height > 0 && Math.abs(height - postedHeight) > 1) {
      postedHeight = height;
      window.parent.postMessage({ attnlab: MESSAGE_VERSION, type: 'event', event: 'height', height }, '*');
    }
  }
  new ResizeObserver(postHeight).observe(document.documentElement);
  lab.on('change', postHeight);
  postHeight();
  // A figure that started out of view learns its height at its first frame in view.
  setInterval(postHeight, 500);
  if (inFrame) window.parent.postMessage({ attnlab: MESSAGE_VERSION, type: 'event', event: 'ready' }, '*');

  // ---- postMessage ----------------------------------------------------------------------------
  const subscribers = { cursor: new Map(), state: new Map() };  // event -> (window -> origin)
  const send = (target, origin, message) => target.postMessage({ attnlab: MESSAGE_VERSION, ...message }, origin);
  lab.on('cursor', (c) => {
    for (const [target, origin] of subscribers.cursor) send(target, origin, { type: 'event', event: 'cursor', ...c });
  });
  lab.on('change', () => {
    for (const [target, origin] of subscribers.state) send(target, origin, { type: 'event', event: 'state', state: lab.session() });
  });

  window.addEventListener('message', async (event) => {
    if (stopped || !allowed.has(event.origin) || !event.source) return;  // only the origins the host listed
    // importFile's bytes travel beside the JSON: the app checks the message with their count.
    const data = event.data;
    const bytes = data?.bytes instanceof ArrayBuffer ? new Uint8Array(data.bytes)
      : ArrayBuffer.isView(data?.bytes) ? new Uint8Array(data.bytes.buffer, data.bytes.byteOffset, data.bytes.byteLength) : null;
    const described = bytes ? { ...data, bytes: bytes.byteLength } : data;
    let text;
    try {
      text = typeof described === 'string' ? described : JSON.stringify(described ?? null);
    } catch (error) {
      // Structured clone carries what JSON cannot (a cycle, a BigInt): ours is refused with why.
      if (data?.attnlab === MESSAGE_VERSION && data.type !== 'reply' && data.type !== 'event')
        send(event.source, event.origin, { type: 'reply', id: echoedId(data), ok: false, error: `the message is not JSON (${error.message})` });
      return;
    }
    let m;
    try {
      m = await lab.parseMessage(text ?? '');
    } catch (error) {
      if (stopped) return refuseStopped(event);  // the lab stopped on this message
      throw error;
    }
    if (m.type === 'not-ours') return;
    const id = m.id ?? (typeof data === 'object' ? echoedId(data) : null);
    const reply = (body) => send(event.source, event.origin, { type: 'reply', id, ...body });
    try {
      if (m.type === 'invalid') reply({ ok: false, error: m.error });
      else if (m.type === 'getState') reply({ ok: true, state: lab.getState() });
      else if (m.type === 'setState') reply({ ok: true, state: await lab.setState(m.state) });
      else if (m.type === 'subscribe') {
        subscribers[m.event].set(event.source, event.origin);
        reply({ ok: true });
      } else if (m.type === 'unsubscribe') {
        subscribers[m.event].delete(event.source);
        reply({ ok: true });
      } else if (m.type === 'importFile') {
        const summary = await lab.importFile({ name: m.name, bytes }, { batch: m.batch, bfloat16: m.bfloat16 });
        notice.textContent = '';
        reply({ ok: true, import: summary, state: lab.getState() });
      }
    } catch (error) {
      if (m.type === 'importFile') notice.textContent = error.localized ?? error.message;
      reply({ ok: false, error: error.message });
    }
  });
}
