// The list of keys (web/index.html's #keys-list dialog): every key the lab and the page handle,
// from the app's one table of them (src/ui/key_bindings.h, through the module's keysJson()) in
// the UI's language, so a key added there is listed here by itself. `?` (outside text fields,
// the app's too) and the toolbar's Keys button open it; `?` again, Escape and Close shut it, and
// the focus goes back where it was. The dialog is modal: the focus stays inside while it is open.
//
//   setupKeysList(handle, { keys, typingInField }) -> pageKey(event)
//     keys()            the table: [{action, text, keys: [name], page, pageKeys: [KeyboardEvent.key]}]
//     typingInField()   whether a text field of the app has the keyboard
//     pageKey(event)    web/app.js hands it every keydown first: true when the page took the key
//                       (its own keys, and Tab while the dialog is open)

const $ = (id) => document.getElementById(id);

// Fields where `?` is typed, not obeyed.
const TYPED_INPUTS = new Set(['text', 'search', 'url', 'email', 'tel', 'password', 'number']);
function typedInto(element) {
  if (!element) return false;
  if (element.isContentEditable || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT') return true;
  return element.tagName === 'INPUT' && TYPED_INPUTS.has(element.type);
}

// One table row: the keys, each a <kbd>, and what they do.
function keyRow({ action, text, keys }) {
  const row = document.createElement('tr');
  row.dataset.action = action;
  const keyCell = document.createElement('td');
  keyCell.className = 'keys-keys';
  keys.forEach((name, i) => {
    if (i) keyCell.append(' ');
    const kbd = document.createElement('kbd');
    kbd.textContent = name;
    keyCell.append(kbd);
  });
  const textCell = document.createElement('td');
  textCell.textContent = text;
  row.append(keyCell, textCell);
  return row;
}

export function setupKeysList(handle, { keys, typingInField }) {
  const dialog = $('keys-list');
  const open = document.createElement('button');
  open.type = 'button';
  open.id = 'keys-button';
  open.setAttribute('aria-haspopup', 'dialog');
  open.setAttribute('aria-keyshortcuts', '?');
  $('page-tools').append(open);
  let returnFocus = null;
  let table = [];

  const render = () => {
    table = keys();
    const say = (name) => handle.uiString(name);
    open.textContent = say('web_keys');
    open.title = say('web_keys_button_title');
    $('keys-title').textContent = say('web_keys_title');
    $('keys-close').textContent = say('web_keys_close');
    $('keys-lab-heading').textContent = say('web_keys_lab');
    $('keys-page-heading').textContent = say('web_keys_page');
    for (const cell of dialog.querySelectorAll('th.keys-key')) cell.textContent = say('web_keys_key');
    for (const cell of dialog.querySelectorAll('th.keys-action')) cell.textContent = say('web_keys_action');
    $('keys-lab-rows').replaceChildren(...table.filter((row) => !row.page).map(keyRow));
    $('keys-page-rows').replaceChildren(...table.filter((row) => row.page).map(keyRow));
  };
  const show = () => {
    if (dialog.open) return;
    render();  // in the language of now
    returnFocus = document.activeElement;
    dialog.showModal();
    $('keys-close').focus();
  };
  const hide = () => { if (dialog.open) dialog.close(); };
  // However it closes (Close, Escape, `?`): the focus goes back to what had it, the canvas included.
  dialog.addEventListener('close', () => {
    const back = returnFocus?.isConnected && returnFocus !== document.body ? returnFocus : open;
    returnFocus = null;
    back.focus();
  });
  open.addEventListener('click', show);
  $('keys-close').addEventListener('click', hide);
  // A click on the backdrop (outside the dialog's box) closes it too.
  dialog.addEventListener('click', (event) => { if (event.target === dialog) hide(); });

  let shownLanguage = null;
  handle.on('change', () => {
    const language = handle.getState().language;
    if (language === shownLanguage) return;
    shownLanguage = language;
    render();
  });
  render();

  // What the page does on each of its own actions (the table's rows with page: true).
  const ACTIONS = {
    keysList: () => {
      const focused = document.activeElement;
      if (typedInto(focused) || (focused?.id === 'canvas' && typingInField())) return false;
      if (dialog.open) hide();
      else show();
      return true;
    },
    keysListClose: () => {
      if (!dialog.open) return false;
      hide();
      return true;
    },
  };
  // Tab and Shift+Tab go round the dialog's buttons: the focus never leaves it while it is open.
  const trapTab = (event) => {
    const stops = [...dialog.querySelectorAll('button, [href], [tabindex]:not([tabindex="-1"])')];
    const at = stops.indexOf(document.activeElement);
    const next = at < 0 ? 0 : (at + (event.shiftKey ? -1 : 1) + stops.length) % stops.length;
    stops[next]?.focus();
    return true;
  };
  return (event) => {
    if (dialog.open && event.key === 'Tab') return trapTab(event);
    if (handle.crashed || event.isComposing || event.metaKey || (event.ctrlKey && !event.altKey)) return false;
    const row = table.find((r) => r.page && r.pageKeys.includes(event.key));
    return row && ACTIONS[row.action] ? ACTIONS[row.action]() : false;
  };
}
