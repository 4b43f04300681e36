// The full page's own tools around the lab (web/index.html): the state in the URL hash,
// "Copy link", the embed snippet, saving and loading a session file, the UI language,
// the last session restored after a reload, and the figure's text in an ARIA live region.
//
// Start-up order: a link's hash wins; else the session stored by this browser; else the
// defaults in the browser's language; ?lang=zh or ?lang=en overrides the language. A bad hash or a bad stored
// session leaves the defaults and says why in the notice. The theme follows the reader's colour
// scheme until one is chosen (themeFollower below).

import { PROGRESS_KEY, SESSION_KEY, THEME_KEY } from './crash.mjs';
import { onSchemeChange, schemeTheme, showTheme } from './scheme.mjs';

// The page's elements that carry text: [id, property, string of src/ui/strings.h].
const PAGE_STRINGS = [
  ['sentence', 'placeholder', 'web_sentence_placeholder'],
  ['present', 'title', 'web_present_title'],
  ['train-download', 'textContent', 'web_download_model'],
  ['train-download', 'title', 'web_download_model_title'],
  ['train-load-text', 'textContent', 'web_load_model'],
  ['train-load-label', 'title', 'web_load_model_title'],
  ['import-button', 'textContent', 'web_import'],
  ['import-button', 'title', 'web_import_title'],
  ['import-batch-label', 'textContent', 'web_import_batch'],
  ['import-bf16-label', 'textContent', 'web_import_bf16'],
  ['export-label', 'textContent', 'web_export'],
  ['export-matrix', 'ariaLabel', 'web_export_matrix'],
  ['export-scale-label', 'textContent', 'web_export_scale'],
  ['export-panel', 'textContent', 'web_export_panel'],
  ['export-panel', 'title', 'web_export_panel_title'],
];
// The export choices that are words (Q, K and V are symbols).
const EXPORT_MATRIX_STRINGS = {
  weights: 'web_export_weights', rawScores: 'web_export_raw_scores', scaledScores: 'web_export_scaled_scores',
  output: 'web_export_output',
};

const $ = (id) => document.getElementById(id);

function button(id, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.id = id;
  b.addEventListener('click', onClick);
  return b;
}

function storage() {
  try {
    return window.localStorage;  // null or throwing in some sandboxed iframes and private modes
  } catch {
    return null;
  }
}

// The iframe a course author pastes: this state on one panel, sized by the host's width,
// growing to the height the lab asks for.
export function embedSnippet(pageUrl, fragment) {
  const src = new URL('embed.html', pageUrl);
  src.hash = fragment;
  // Attributes written through a helper, so the page's own source holds no literal source
  // attribute that would look like a file it loads (the offline page is checked for those).
  const attribute = (name, value) => `${name}="${value}"`;
  return `<iframe ${attribute('src', src.href)} title="Attention Lab" loading="lazy" style="width:100%;height:420px;border:0"></iframe>\n` +
    '<script>addEventListener("message",function(e){var d=e.data;if(!d||d.attnlab!==1||d.event!=="height")return;' +
    'document.querySelectorAll("iframe").forEach(function(f){if(f.contentWindow===e.source)f.style.height=d.height+"px";});});</script>';
}

// ---- the theme ----------------------------------------------------------------------------
// The page shows the reader's colour scheme (web/scheme.mjs), live, until a theme is chosen:
// named by the link (theme=, which wins), picked in the lab or by setState (stored in this
// browser under THEME_KEY, and then used wherever a link names none), or named by a session
// file loaded with Load. The followed theme is the reader's, not the state's: the address,
// attnlab.link(), Copy link, Embed, Save and the stored session leave it out, so a link opens in
// each reader's scheme. A chosen theme is always in the address, even the default dark, so a reload keeps it.
// (Picking the theme already shown changes nothing, and so chooses nothing.)
const hasThemeParam = (fragment) => /(?:^#?|&)theme=/.test(fragment);
// Whether a session file (a settings object, already accepted by the app) names the theme.
function namesTheme(text) {
  try {
    return Object.hasOwn(JSON.parse(text), 'theme');
  } catch {
    return false;
  }
}

function themeFollower(handle, store) {
  let following = false;
  let expected = null;  // the theme the page itself last put in the state
  const stored = () => {
    try { return store?.getItem(THEME_KEY) ?? null; } catch { return null; }
  };
  const apply = (theme) => {
    handle.setState({ theme }).catch(() => {});  // applied at once; the promise waits for the frame
    expected = handle.getState().theme;
  };
  onSchemeChange((theme) => { if (following) apply(theme); });
  return {
    // After a link or a session was applied (or refused): its theme, else the stored pick, else the scheme.
    settle(named) {
      const pick = named ? null : stored();
      following = !named && !pick;
      if (named) expected = handle.getState().theme;
      else apply(pick ?? schemeTheme());
      // A stored pick the state refuses (a theme since removed) is dropped, and the scheme followed.
      if (pick && expected !== pick) {
        try { store?.removeItem(THEME_KEY); } catch { /* refused: it is tried again next time */ }
        following = true;
        apply(schemeTheme());
      }
    },
    // On every change of the state: a theme the page did not put there was picked.
    noticeChange() {
      const theme = handle.getState().theme;
      if (theme === expected) return;
      following = false;
      expected = theme;
      try { store?.setItem(THEME_KEY, theme); } catch { /* storage refused: chosen for this page only */ }
    },
    // The app's link as the page writes it: without a followed theme, with a chosen one.
    link(fragment) {
      const parts = fragment.split('&').filter((part) => part && !part.startsWith('theme='));
      if (!following) parts.push(`theme=${handle.getState().theme}`);
      return parts.join('&');
    },
    // A session to save: without a followed theme; `stored` (this browser's copy) never has one,
    // THEME_KEY keeps the pick.
    session(session, { forStorage = false } = {}) {
      if (following || forStorage) delete session.theme;
      return session;
    },
  };
}

// The page's handle (window.attnlab) speaks the page's link: a followed theme is never in it, a
// chosen one always is; a link or a session loaded through it settles the theme as the page's
// own do. Returns the app's own loadSession.
function speakPageLinks(handle, theme) {
  const appLink = handle.link, appLoadLink = handle.loadLink, appLoadSession = handle.loadSession;
  handle.link = () => theme.link(appLink());
  handle.loadLink = (fragment) => {
    const error = appLoadLink(fragment);
    theme.settle(!error && hasThemeParam(String(fragment)));
    return error;
  };
  handle.loadSession = (text) => {
    const error = appLoadSession(text);
    if (!error) theme.settle(namesTheme(text));
    return error;
  };
  return appLoadSession;
}

export function wirePage(handle) {
  const notice = $('notice');
  const say = (text) => { notice.textContent = text; };  // text, never HTML
  const tools = $('page-tools');
  const figureText = $('figure-text');
  const linkField = document.createElement('input');
  linkField.id = 'link-field';
  linkField.readOnly = true;
  linkField.hidden = true;
  const snippet = document.createElement('textarea');
  snippet.id = 'embed-snippet';
  snippet.readOnly = true;
  snippet.rows = 4;
  snippet.hidden = true;
  const fileInput = document.createElement('input');
  fileInput.type = 'file';
  fileInput.accept = '.json,application/json';
  fileInput.hidden = true;
  const language = document.createElement('select');
  language.id = 'language';
  for (const value of ['en', 'zh']) language.add(new Option(value, value));  // labelled by relabel()

  // 1 the starting state
  const params = new URLSearchParams(location.search);
  const store = storage();
  // Why a link or a stored session was refused, said once the language is the page's.
  let startRefusal = null;
  const theme = themeFollower(handle, store);
  const appLoadSession = speakPageLinks(handle, theme);
  if (location.hash.length > 1) {
    const error = handle.loadLink(location.hash);
    if (error) startRefusal = () => handle.refusalText() || error;
  } else if (store?.getItem(SESSION_KEY)) {
    // Stored by an older page, a session may carry the theme, always: it is no choice.
    const error = appLoadSession(store.getItem(SESSION_KEY));
    if (error) {
      startRefusal = () => handle.uiString('web_session_bad').replace('%s', handle.refusalText() || error);
      store.removeItem(SESSION_KEY);
    }
    theme.settle(false);  // the stored session never names the theme: THEME_KEY keeps a pick
  } else {
    theme.settle(false);
  }
  // A first visit (no link, no stored session) opens in the browser's language, or the one
  // ?lang= names; in Chinese its sentence is Chinese too. An explicit ?lang= wins over the link
  // and the stored session.
  const firstVisit = !(location.hash.length > 1) && !store?.getItem(SESSION_KEY);
  const asked = params.get('lang');
  const lang = asked === 'zh' || asked === 'en' ? asked
    : firstVisit && navigator.language.toLowerCase().startsWith('zh') ? 'zh' : null;
  if (lang) handle.setState({ language: lang }).catch(() => {});
  if (lang === 'zh' && firstVisit) handle.setState({ sentence: handle.uiString('default_sentence_zh') }).catch(() => {});
  if (startRefusal) say(startRefusal());

  // 2 the buttons (labels from the app's string table, in the chosen language)
  const copy = button('copy-link', async () => {
    linkField.value = location.href;
    linkField.hidden = false;
    linkField.select();
    try {
      await navigator.clipboard.writeText(location.href);
      say(handle.uiString('web_link_copied'));
    } catch {
      // No clipboard (permissions, sandboxed frames): the selected field lets the user copy.
    }
  });
  const embed = button('embed-button', () => {
    snippet.value = embedSnippet(location.href, handle.link());
    snippet.hidden = !snippet.hidden;
    if (!snippet.hidden) snippet.select();
  });
  const save = button('save-session', () => {
    const blob = new Blob([JSON.stringify(theme.session(handle.session()), null, 2)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'attention-lab-session.json';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  const load = button('load-session', () => fileInput.click());
  fileInput.addEventListener('change', async () => {
    const file = fileInput.files[0];
    fileInput.value = '';
    if (!file) return;
    const tooLarge = file.size > (2 << 20);
    const error = tooLarge ? handle.uiString('web_session_too_large') : handle.loadSession(await file.text());
    say(error ? handle.uiString('web_file_bad').replace('%s', tooLarge ? error : handle.refusalText() || error) : '');
  });
  language.addEventListener('change', () => handle.setState({ language: language.value }).catch((e) => say(e.localized ?? e.message)));
  const languageLabel = document.createElement('label');
  languageLabel.htmlFor = 'language';
  tools.append(copy, embed, save, load, languageLabel, language, fileInput);
  $('toolbar').after(linkField, snippet);

  const relabel = () => {
    const state = handle.getState();
    language.value = state.language;
    showTheme(state.theme);
    document.documentElement.lang = state.language === 'zh' ? 'zh-Hans' : 'en';
    copy.textContent = handle.uiString('web_copy_link');
    embed.textContent = handle.uiString('web_embed');
    save.textContent = handle.uiString('web_save_session');
    load.textContent = handle.uiString('web_load_session');
    languageLabel.textContent = handle.uiString('web_language');
    $('present').textContent = handle.uiString('web_present');
    $('sentence-label').textContent = handle.uiString('web_sentence');
    language.options[0].text = handle.uiString('web_language_english');
    language.options[1].text = handle.uiString('web_language_chinese');
    // The page's own elements (index.html), each from the app's string table.
    for (const [id, property, name] of PAGE_STRINGS) {
      const element = $(id);
      if (element) element[property] = handle.uiString(name);
    }
    for (const option of $('export-matrix')?.options ?? []) {
      const name = EXPORT_MATRIX_STRINGS[option.value];
      if (name) option.text = handle.uiString(name);
    }
  };

  // 3 keep the hash, the stored session and the labels current
  let shownLanguage = null;
  let saveTimer = 0;
  const storeSession = () => {
    saveTimer = 0;
    try {
      store?.setItem(SESSION_KEY, JSON.stringify(theme.session(handle.session(), { forStorage: true })));
    } catch {
      // Storage full or refused: the session is not kept, the page goes on.
    }
  };
  // The exercises' progress (done, attempts), beside the session and never in a link: loaded
  // once, stored after every answer. A damaged copy is dropped.
  try {
    const stored = store?.getItem(PROGRESS_KEY);
    if (stored && handle.loadExerciseProgress(stored)) store.removeItem(PROGRESS_KEY);
  } catch {
    // Storage refused: progress lives as long as the page.
  }
  const storeProgress = () => {
    try {
      store?.setItem(PROGRESS_KEY, JSON.stringify(handle.exerciseProgress()));
    } catch {
      // Storage full or refused: the progress is not kept, the page goes on.
    }
  };
  handle.on('answer', storeProgress);
  handle.on('progress', storeProgress);  // loaded or cleared through the handle
  // A change made just before the tab is closed or reloaded is stored too.
  window.addEventListener('pagehide', () => {
    if (!saveTimer) return;
    clearTimeout(saveTimer);
    storeSession();
  });
  handle.on('change', (appLink) => {
    theme.noticeChange();
    showTheme(handle.getState().theme);
    const link = theme.link(appLink);
    history.replaceState(null, '', '#' + link);
    if (!snippet.hidden) snippet.value = embedSnippet(location.href, link);
    clearTimeout(saveTimer);
    saveTimer = setTimeout(storeSession, 300);
    const lang = handle.getState().language;
    if (lang !== shownLanguage) {
      shownLanguage = lang;
      relabel();
    }
  });
  window.addEventListener('hashchange', () => {
    if (handle.crashed || location.hash.slice(1) === handle.link()) return;
    const error = handle.loadLink(location.hash);
    // An explicit ?lang= wins over the link here too (a refused link gives the defaults,
    // English among them); set before the notice is read, so the notice speaks it.
    if (asked === 'zh' || asked === 'en') handle.setState({ language: asked }).catch(() => {});
    say(error ? handle.refusalText() || error : '');
  });
  handle.on('describe', (text) => { figureText.textContent = text; });
  relabel();
  handle.poll();
}
