// Import and export in the page: a file picker and drag-and-drop onto the lab, with a progress
// bar; the import itself is web/import-core.mjs (slices into the app's memory, .npz members
// inflated by the browser, the app's stepped parse), the same path an embed's importFile
// message takes.
// Export buttons download the focused head's matrix as PNG (at a chosen scale), SVG, CSV,
// JSON or .npy.
//
//   setupImport(module, handle) wires the page's controls and adds to window.attnlab:
//     importFile(file, {batch, bfloat16, stepBytes})  promise of the load's report (file: a File
//                                    or {name, bytes}); rejects with
//                                    the reason (stepBytes caps a finish step's work: tests)
//     importStatus()                 {state: 'idle'|'loading'|'done'|'error', progress, message, ms,
//                                     finish: {steps, frames, ms, at, longestStepMs}} (the last
//                                     load's finish phase: its steps, the frames the app drew
//                                     meanwhile, its length, its start on performance.now()'s
//                                     clock, and its longest step)
//     exportMatrix(name, {format, scale, head})  {bytes: Uint8Array, mime, name} (no download)
//     exportPanel({scale})           the panel window as PNG at scale times the screen's
//                                    pixels: {bytes, mime, name, width, height} (no download)
import { nextFrame } from './api.mjs';
import { importInto, pageText } from './import-core.mjs';

export function setupImport(module, handle) {
  const input = document.getElementById('import-file');
  const button = document.getElementById('import-button');
  const progress = document.getElementById('import-progress');
  const message = document.getElementById('import-message');
  const stage = document.getElementById('stage');
  const batchField = document.getElementById('import-batch');
  const bf16Field = document.getElementById('import-bf16');
  const status = { state: 'idle', progress: 0, message: '', ms: 0, finish: { steps: 0, frames: 0, ms: 0, at: 0, longestStepMs: 0 } };
  let queue = Promise.resolve();
  // The last message as the string table's name and its arguments, so that it is said again in
  // the other language when the UI's changes (an error's text stays as it was given).
  let recipe = null;

  function report(state, fraction, text, said = null) {
    recipe = said;
    status.state = state;
    status.progress = fraction;
    status.message = text;
    progress.hidden = state !== 'loading';
    progress.value = fraction;
    message.textContent = text;  // text, never HTML
    message.classList.toggle('error', state === 'error');
  }

  async function load(file, options = {}) {
    const started = performance.now();
    status.finish = { steps: 0, frames: 0, ms: 0, at: 0, longestStepMs: 0 };
    const say = (state, fraction, ...words) => report(state, fraction, pageText(module, ...words), words);
    say('loading', 0, 'web_import_reading', file.name);
    try {
      await importInto(module, file, {
        batch: options.batch ?? (Number(batchField?.value) || 0),
        bfloat16: options.bfloat16 ?? !!bf16Field?.checked,
        stepBytes: options.stepBytes,
        onProgress: (fraction, text) => report('loading', fraction, text),
        onFinishStep: (figures) => { status.finish = figures; },
        waitFrame: nextFrame,
      });
      await handle.setState({});  // waits until the imported scene has been drawn
      status.ms = performance.now() - started;
      // A file of q and k without weights opened the long-input overview instead of a scene.
      const state = handle.getState(), o = state.figures.overview;
      const s = state.panel === 'overview' && o.loaded && o.name === file.name
        ? { name: o.name, layers: o.layers, heads: o.heads, nQ: o.nq, nK: o.nk, overview: true } : state.import;
      say('done', 1, 'web_import_done', file.name, s.layers, s.heads, s.nQ, s.nK, Math.round(status.ms));
      return { ...s, ms: status.ms };
    } catch (error) {
      report('error', 0, error.localized ?? error.message);
      throw error;
    }
  }

  // One load at a time; a second waits for the first. `file` is a File (or a Blob with a name),
  // or {name, bytes} as the handle's importFile takes.
  function importFile(file, options) {
    const blob = file instanceof Blob ? file : new File([file?.bytes ?? new Uint8Array(0)], String(file?.name ?? 'file'));
    const run = queue.then(() => load(blob, options));
    queue = run.catch(() => {});
    return run;
  }

  function exportMatrix(name, { format = 'png', scale = 1, head } = {}) {
    const h = head ?? handle.getState().head;
    const out = module.exportMatrix(String(name), h | 0, String(format), scale | 0);
    if (out.error) throw Object.assign(new Error(out.error), { localized: module.refusalText('') || out.error });
    return out;
  }

  function exportPanel({ scale = 1 } = {}) {
    const out = module.exportPanel(scale | 0);
    if (out.error) throw Object.assign(new Error(out.error), { localized: module.refusalText('') || out.error });
    return out;
  }

  function download(out) {
    const url = URL.createObjectURL(new Blob([out.bytes], { type: out.mime }));
    const a = document.createElement('a');
    a.href = url;
    a.download = out.name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  // After any change of the state, the message in the UI's language (unchanged text is left alone).
  handle.on('change', () => {
    const text = recipe && pageText(module, ...recipe);
    if (text && text !== message.textContent) message.textContent = status.message = text;
  });

  button.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    const file = input.files && input.files[0];
    if (file) importFile(file).catch(() => {});
    input.value = '';
  });
  stage.addEventListener('dragover', (event) => {
    event.preventDefault();
    stage.classList.add('dropping');
  });
  stage.addEventListener('dragleave', () => stage.classList.remove('dropping'));
  stage.addEventListener('drop', (event) => {
    stage.classList.remove('dropping');
    const file = event.dataTransfer && event.dataTransfer.files[0];
    // A training run (.attnmodel) is the training lab's (web/train-ui.mjs): let it bubble there.
    if (file && /\.attnmodel$/i.test(file.name)) return;
    event.preventDefault();
    if (file) importFile(file).catch(() => {});
  });
  const exportScale = () => Number(document.getElementById('export-scale').value) || 1;
  function exportOnClick(el, make) {
    el.addEventListener('click', () => {
      try {
        download(make());
        message.textContent = '';
      } catch (error) {
        message.textContent = error.localized ?? error.message;
      }
    });
  }
  for (const el of document.querySelectorAll('[data-export]')) {
    exportOnClick(el, () => exportMatrix(document.getElementById('export-matrix').value || 'weights',
      { format: el.dataset.export, scale: exportScale() }));
  }
  exportOnClick(document.getElementById('export-panel'), () => exportPanel({ scale: exportScale() }));

  Object.assign(handle, {
    importFile,
    importStatus: () => ({ ...status }),
    exportMatrix,
    exportPanel,
  });
}
