// Import and export in the page: a file picker and drag-and-drop onto the lab, the file
// read in 4 MiB slices straight into the app's memory (the frame loop keeps running between
// slices, a progress bar shows how far it is), .npz members compressed with deflate inflated
// by the browser's DecompressionStream, then parsed by the app (src/core/io/import_job.h):
// the headers at once, the data (a JSON file's text, checksums, the move into place, the
// NaN/Inf check) in steps of about 8 ms, one per animation frame, so the lab keeps drawing
// through the load.
// Export buttons download the focused head's matrix as PNG (at a chosen scale), SVG, CSV,
// JSON or .npy.
//
//   setupImport(module, handle) wires the page's controls and adds to window.attnlab:
//     importFile(file, {batch, bfloat16, stepBytes})  promise of the load's report; rejects with
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

const SLICE_BYTES = 4 << 20;
const STEP_MS = 8;  // the finish phase's work per animation frame

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

  function report(state, fraction, text) {
    status.state = state;
    status.progress = fraction;
    status.message = text;
    progress.hidden = state !== 'loading';
    progress.value = fraction;
    message.textContent = text;  // text, never HTML
    message.classList.toggle('error', state === 'error');
  }

  // Reads the slices into the app's buffer; the view is fetched again for every slice
  // because the wasm heap may have grown (detaching older views) while we awaited.
  // Resolves to the format the app reads from the first slice ('npz', 'npy', 'json' or ''):
  // the format's rule lives in the app alone. An archive's share of the bar is smaller
  // (inflating its members follows).
  async function readInto(file) {
    let format = '';
    for (let offset = 0; offset < file.size; offset += SLICE_BYTES) {
      const chunk = new Uint8Array(await file.slice(offset, offset + SLICE_BYTES).arrayBuffer());
      module.importFileView().set(chunk, offset);
      if (offset === 0) format = module.importFormat(chunk.length);
      const share = format === 'npz' ? 0.4 : 0.5;
      report('loading', (share * (offset + chunk.length)) / file.size, `Reading ${file.name}…`);
    }
    return format;
  }

  async function inflateMembers(file, members) {
    const packed = members.filter((m) => m.method === 8);
    let done = 0;
    for (const m of packed) {
      const index = module.importMemberBegin(m.offset, m.uncompressedSize);
      if (index < 0) throw new Error(`${file.name}: the archive inflates to more than the import limit`);
      const stream = file.slice(m.offset, m.offset + m.compressedSize).stream()
        .pipeThrough(new DecompressionStream('deflate-raw'));
      const reader = stream.getReader();
      let at = 0;
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        if (at + value.length > m.uncompressedSize) {
          await reader.cancel();
          throw new Error(`${file.name}: member ${m.name} inflates to more than the ${m.uncompressedSize} bytes it announces`);
        }
        module.importMemberView(index).set(value, at);
        at += value.length;
      }
      if (at !== m.uncompressedSize) throw new Error(`${file.name}: member ${m.name} inflates to ${at} bytes, not ${m.uncompressedSize}`);
      done += 1;
      report('loading', 0.4 + (0.35 * done) / packed.length, `Inflating ${m.name}…`);
    }
  }

  // The app checks and moves the data in steps, one per animation frame; the scene changes
  // after the last. `from` is the progress bar's share already used.
  async function finish(file, options, from) {
    const error = module.importFinishBegin(file.name, options.batch ?? (Number(batchField?.value) || 0),
      options.bfloat16 ?? !!bf16Field?.checked);
    if (error) throw new Error(error);
    const started = performance.now(), framesBefore = module.framesDrawn();
    let steps = 0, longestStepMs = 0;
    for (;;) {
      const stepStarted = performance.now();
      const r = module.importFinishStep(STEP_MS, options.stepBytes ?? 0);
      steps += 1;
      longestStepMs = Math.max(longestStepMs, performance.now() - stepStarted);
      status.finish = { steps, frames: module.framesDrawn() - framesBefore, ms: performance.now() - started, at: started, longestStepMs };
      if (r.error) throw new Error(r.error);
      if (r.done) return;
      report('loading', from + (1 - from) * r.progress, `Checking ${file.name}…`);
      await nextFrame();
    }
  }

  async function load(file, options = {}) {
    const started = performance.now();
    status.finish = { steps: 0, frames: 0, ms: 0, at: 0, longestStepMs: 0 };
    report('loading', 0, `Reading ${file.name}…`);
    try {
      const refused = module.importBegin(file.size);
      if (refused) throw new Error(`${file.name}: ${refused}`);
      const zip = (await readInto(file)) === 'npz';
      if (zip) {
        const members = module.importMembers();
        if (members.error) throw new Error(`${file.name}: ${members.error}`);
        if (members.some((m) => m.method === 8) && typeof DecompressionStream !== 'function') {
          throw new Error('This browser has no DecompressionStream: save the archive with np.savez (not _compressed)');
        }
        await inflateMembers(file, members);
      }
      await finish(file, options, zip ? 0.75 : 0.5);
      await handle.setState({});  // waits until the imported scene has been drawn
      status.ms = performance.now() - started;
      const s = handle.getState().import;
      report('done', 1, `${file.name}: ${s.layers} layers × ${s.heads} heads, ${s.nQ} × ${s.nK} tokens (${Math.round(status.ms)} ms)`);
      return { ...s, ms: status.ms };
    } catch (error) {
      module.importBegin(0);  // frees the partial buffers
      report('error', 0, error.message);
      throw error;
    }
  }

  // One load at a time; a second waits for the first.
  function importFile(file, options) {
    const run = queue.then(() => load(file, options));
    queue = run.catch(() => {});
    return run;
  }

  function exportMatrix(name, { format = 'png', scale = 1, head } = {}) {
    const h = head ?? handle.getState().head;
    const out = module.exportMatrix(String(name), h | 0, String(format), scale | 0);
    if (out.error) throw new Error(out.error);
    return out;
  }

  function exportPanel({ scale = 1 } = {}) {
    const out = module.exportPanel(scale | 0);
    if (out.error) throw new Error(out.error);
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
        message.textContent = error.message;
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
