// An embedded figure (web/embed.html): one panel, its state from the hash, released while
// scrolled out of view, its preferred height told to the host page, and the postMessage
// API of src/app/messages.h answered for the origins the host listed (?origins=...).
import { createLab, MESSAGE_VERSION } from './api.mjs';

const params = new URLSearchParams(location.search);
const allowed = new Set((params.get('origins') ?? '').split(',').map((s) => s.trim()).filter(Boolean));
const notice = document.getElementById('notice');
const inFrame = window.parent !== window;

const lab = await createLab(document.getElementById('embed'), {
  fragment: location.hash || '#',
  controls: params.get('controls') !== '0',
  tabs: params.get('tabs') === '1',
  releaseOffscreen: params.get('release') !== '0',
});
notice.textContent = lab.notice;  // a broken link: the defaults are shown, and why
window.attnlab = lab;

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
  if (!allowed.has(event.origin) || !event.source) return;  // only the origins the host listed
  const text = typeof event.data === 'string' ? event.data : JSON.stringify(event.data ?? null);
  const m = await lab.parseMessage(text ?? '');
  if (m.type === 'not-ours') return;
  const reply = (body) => send(event.source, event.origin, { type: 'reply', id: m.id, ...body });
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
    }
  } catch (error) {
    reply({ ok: false, error: error.message });
  }
});
