// The page's side of the training lab: the model file's download button, file picker and
// drop target, the saved session (the run and its held-out curve survive a reload), and
// the shipped trained model for the explorer's "trained" scene. The training itself runs
// inside the wasm app, a slice per frame; this file only moves bytes in and out of it.
//
// Load model (the button, or a file dropped on the lab) takes a training run (.attnmodel) and
// a language model (.attnlm: the shipped one, one attnlab-cli lm-train wrote, or one trained
// on a text of one's own); a language model becomes the "Language model" scene.
//
// Adds to window.attnlab:
//   trainReset('training' | 'scaling')   back to step 0, paused
//   trainSave()                          the live run as .attnmodel bytes (Uint8Array)
//   trainLoad(bytes)                     promise; rejects with the reason, the run unchanged
//                                        (a language model's bytes: its scene, as above)
//   trainCurves()                        {loss, accuracy, scaled, unscaled} per step (Float32Array)
//   trainProbe(layer, head)              {rows, cols, data, step}: a head's probe attention
//   persistTraining()                    saves the session now (it is also saved every 2 s)
//   trainedModelReady                    promise: the trained scene can be chosen

import { TRAINING_KEY as STORAGE_KEY } from './crash.mjs';

// The largest file Load model reads (the largest model the training caps allow, with its
// optimizer state, is under 8 MB).
const MAX_MODEL_FILE_BYTES = 64 << 20;

function toBase64(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(text) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

// Downloads `bytes` as the file `name`.
export function downloadBytes(bytes, name) {
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// The file chosen in `picker`, or dropped on `dropTarget` with a name `pattern` matches, goes to
// `open(file)`; a dropped file of another kind is left to the page's other drop listeners.
export function takeFiles(picker, dropTarget, pattern, open) {
  picker.addEventListener('change', () => {
    if (picker.files.length) open(picker.files[0]);
    picker.value = '';  // choosing the same file again fires again
  });
  dropTarget.addEventListener('dragover', (event) => {
    if ([...event.dataTransfer.types].includes('Files')) event.preventDefault();
  });
  dropTarget.addEventListener('drop', (event) => {
    const file = event.dataTransfer.files[0];
    if (!file || !pattern.test(file.name)) return;
    event.preventDefault();
    open(file);
  });
}

// Opens the language-model scene on the model just loaded. A model with a short context (the
// quick size reads 31 characters) cannot read a longer sentence: the sentence is cut to what it
// reads rather than the scene refused.
export async function enterLanguageScene(handle) {
  const state = handle.getState();
  const reads = state.figures.lm.context - 1;
  const characters = [...state.sentence];
  const patch = { source: 'language' };
  if (reads > 0 && characters.length > reads) patch.sentence = characters.slice(0, reads).join('');
  await handle.setState(patch);
}

export function setupTraining(module, handle, { notice, dropTarget, frameAfter }) {
  const showError = (message) => {
    notice.textContent = message;  // text, never HTML
  };

  // ---- the saved session ---------------------------------------------------------------
  let savedRevision = -1;
  const persist = () => {
    if (handle.crashed) return;  // the module is dead: what was saved stays as it was
    const revision = module.trainRevision();
    if (revision === savedRevision) return;
    try {
      const record = { model: toBase64(module.trainSave()), heldOut: module.trainHeldOutJson(), savedAt: Date.now() };
      localStorage.setItem(STORAGE_KEY, JSON.stringify(record));
      savedRevision = revision;
    } catch (error) {
      // A full or disabled storage costs the saved session, not the lab.
      console.warn(`training session not saved: ${error.message}`);
    }
  };
  const restore = () => {
    let stored = null;
    try {
      stored = localStorage.getItem(STORAGE_KEY);
    } catch {
      return;
    }
    if (!stored) return;
    let error = '';
    try {
      const record = JSON.parse(stored);
      error = module.trainLoad(fromBase64(record.model), String(record.heldOut ?? '')) && module.refusalText('');
    } catch (e) {
      error = e.message;
    }
    if (error) {
      showError(String(module.uiString('web_training_restore_bad')).replace('%s', error));
      localStorage.removeItem(STORAGE_KEY);
    }
  };
  restore();
  savedRevision = module.trainRevision();
  setInterval(persist, 2000);
  window.addEventListener('pagehide', persist);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') persist(); });

  // ---- files in and out ------------------------------------------------------------------
  const load = async (bytes, name) => {
    const language = module.isLanguageModelFile(bytes);
    const error = language ? module.loadLanguageModel(bytes, name) : module.trainLoad(bytes, '');
    if (error) {
      showError(String(module.uiString('web_model_bad')).replace('%s', module.refusalText(name) || error));
      throw new Error(error);
    }
    notice.textContent = '';
    if (language) {
      handle.languageModelLoaded = true;
      await enterLanguageScene(handle);  // its scene
      return;
    }
    await frameAfter(module.framesDrawn() + 1);
    persist();
  };
  // A model file is a few MB: a larger one is refused before it is read into memory (a file
  // of gigabytes copied into the module would exhaust it).
  const loadFile = (file) => {
    if (file.size > MAX_MODEL_FILE_BYTES) {
      showError(String(module.uiString('web_model_too_large')).replace('%s', file.name));
      return Promise.resolve();
    }
    return file.arrayBuffer().then((buffer) => load(new Uint8Array(buffer), file.name)).catch(() => {});
  };

  document.getElementById('train-download').addEventListener('click', () => {
    const state = handle.getState();
    downloadBytes(module.trainSave(), `attnlab-${state.training.task}-step${state.figures.training.steps}.attnmodel`);
  });
  // Attention files (.npy, .npz, .json) are the importer's (web/import.mjs), text files
  // "Train on your text"'s (web/lm-text-ui.mjs).
  takeFiles(document.getElementById('train-load'), dropTarget, /\.(attnmodel|attnlm)$/i, loadFile);

  // ---- the shipped trained model (the explorer's "trained" scene) --------------------------
  const trainedModelReady = (async () => {
    // The single-file offline page (file://) carries no model file and may fetch nothing.
    if (location.protocol === 'file:') throw new Error('the offline page has no model file beside it');
    const response = await fetch('models/induction-2l.attnmodel');
    if (!response.ok) throw new Error(`the trained model could not be fetched (HTTP ${response.status})`);
    const error = module.loadTrainedModel(new Uint8Array(await response.arrayBuffer()), 'induction-2l (shipped model)');
    if (error) throw new Error(error);
  })();
  trainedModelReady.catch((error) => console.warn(`no trained scene: ${error.message}`));

  Object.assign(handle, {
    trainReset: async (which = 'training') => {
      const error = module.trainReset(String(which));
      if (error) throw new Error(error);
      await frameAfter(module.framesDrawn() + 1);
      return handle.getState();
    },
    trainSave: () => module.trainSave(),
    trainLoad: (bytes) => load(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), 'the model file'),
    trainCurves: () => module.trainCurves(),
    trainProbe: (layer = 0, head = 0) => module.trainProbe(layer | 0, head | 0),
    persistTraining: persist,
    trainedModelReady,
  });
}
