// The page's side of "Train on your text": the text box, the file picker and a dropped .txt
// file, the size, Train / Pause / Resume / Stop / Save, and the Worker that trains
// (attnlab-core-offthread.mjs's createLanguageModelTrainerWorker, the math module with SIMD in
// its own thread). The app checks each text before anything starts (lmTextCheck: a refusal in
// the UI's language, the run and the model kept) and draws what this file reports of the run
// (lmTextReport: steps, curves, heads, a sample); when the run pauses or ends, its model
// becomes the language-model scene's (loadLanguageModel), so every panel of that scene reads it.
//
// The bar shows while the "Train on your text" panel does. The offline single-file page (file://)
// and a browser without module Workers do not train: the panel says so.
//
// Adds to window.attnlab (for tests and course pages):
//   lmText.use(text, name = '')   promise: checks and takes a text (a string, or UTF-8 bytes);
//                                 rejects with the reason (in the UI's language), nothing lost
//   lmText.train(preset?)         promise, resolved when the run has started
//   lmText.pause(), resume(), stop()
//   lmText.save()                 promise of the model's .attnlm bytes (also downloaded by Save)
//   lmText.finished               promise of the current run's end: {step, stopped, evaluation}

import { downloadBytes, enterLanguageScene, takeFiles } from './train-ui.mjs';

// The math module's Worker entry: an entry of the site, so its name is kept (make-site.mjs).
const OFFTHREAD = 'attnlab-core-offthread.mjs';
// The core's cap is 4,000,000 characters, at most 4 bytes each: a larger file is refused
// before it is read.
const MAX_TEXT_FILE_BYTES = 16 << 20;
// How often the app hears of the run: the Worker reports a slice of steps about every 0.1 s;
// one report a frame at most is plenty (software WebGL draws about 5 frames a second).
const REPORT_MS = 150;

const $ = (id) => document.getElementById(id);

// "%s" and "%d" of a string of the app's table, filled in order.
function fill(format, ...values) {
  let i = 0;
  return format.replace(/%(\d*)[sd]/g, () => String(values[i++]));
}

function duration(seconds, module) {
  const s = Math.max(1, Math.round(seconds));
  return s >= 60 ? fill(module.uiString('lm_text_min_sec'), Math.floor(s / 60), String(s % 60).padStart(2, '0'))
    : fill(module.uiString('lm_text_sec'), s);
}

export function setupLmText(module, handle, { dropTarget }) {
  const bar = $('lm-text-bar');
  const input = $('lm-text-input');
  const picker = $('lm-text-file');
  const presetMenu = $('lm-text-preset');
  const buttons = { train: $('lm-text-train'), pause: $('lm-text-pause'), stop: $('lm-text-stop'), save: $('lm-text-save') };
  const message = $('lm-text-message');
  const canTrain = location.protocol !== 'file:' && typeof Worker === 'function';
  if (!canTrain) return;  // the panel says where training runs
  module.lmTextAvailable();

  const presets = JSON.parse(module.lmTextPresetsJson());
  for (const p of presets) presetMenu.add(new Option(p.name, p.name, p.default, p.default));

  // ---- the run ----------------------------------------------------------------------------
  let text = null;  // the accepted text: {string, bytes, name}
  let worker = null;
  let run = null;   // {phase: 'training' | 'paused' | 'stopped' | 'done', step, name, finished}
  let queued = [];  // progress not yet told to the app, in order (each one a point of the curves)
  let reportTimer = 0;
  const say = (text_) => { message.textContent = text_; };  // text, never HTML

  const report = (fields) => {
    const error = module.lmTextReport(JSON.stringify(fields));
    if (error) console.warn(`lmTextReport: ${error}`);
  };
  const flush = () => {
    clearTimeout(reportTimer);
    reportTimer = 0;
    for (const p of queued) report(p);
    queued = [];
  };
  // The Worker reports a slice of steps about every 0.1 s; the app hears them in order, a batch
  // at most every REPORT_MS.
  const onProgress = (p) => {
    if (!run) return;
    run.step = p.step;
    if (buttons.save.disabled && p.step > 0) enable();  // a model to save from the first step
    const fields = { step: p.step, steps: p.steps, charactersPerSecond: p.charactersPerSecond, seconds: p.seconds };
    if (p.trainBits !== undefined) fields.trainBits = p.trainBits;
    if (p.heldOutBits !== undefined) fields.heldOutBits = p.heldOutBits;
    if (p.look?.error) console.warn(`no look at step ${p.step}: ${p.look.error}`);
    else if (p.look) Object.assign(fields, { heads: p.look.heads, headsStep: p.step, sample: p.look.sample });
    queued.push(fields);
    if (!reportTimer) reportTimer = setTimeout(flush, REPORT_MS);
  };

  const relabelButtons = () => {
    const s = (name) => module.uiString(name);
    buttons.train.textContent = s('web_lm_text_train');
    buttons.pause.textContent = s(run?.phase === 'paused' ? 'web_lm_text_resume' : 'web_lm_text_pause');
    buttons.stop.textContent = s('web_lm_text_stop');
    buttons.save.textContent = s('web_lm_text_save');
    buttons.save.title = s('web_lm_text_save_title');
    $('lm-text-open-text').textContent = s('web_lm_text_open');
    $('lm-text-preset-label').textContent = s('web_lm_text_preset');
    input.placeholder = s('web_lm_text_placeholder');
    input.ariaLabel = s('web_lm_text_input');
    for (const option of presetMenu.options) {
      const p = presets.find((q) => q.name === option.value);
      option.text = fill(s('web_lm_text_preset_option'), p.name, p.layers, p.heads, p.dModel, p.context, p.steps,
        duration(p.seconds, module));
    }
  };
  const enable = () => {
    const live = run?.phase === 'training' || run?.phase === 'paused';
    buttons.train.disabled = !text || live;
    buttons.pause.disabled = !live;
    buttons.stop.disabled = !live;
    buttons.save.disabled = !run || run.step === 0;
    input.disabled = live;
    picker.disabled = live;
    presetMenu.disabled = live;
    relabelButtons();
  };

  // The run's model into the language-model scene (every panel of it reads the new model).
  const loadIntoScene = async () => {
    const bytes = await worker.save();
    const error = module.loadLanguageModel(bytes, run.name);
    if (error) throw new Error(error);
    handle.languageModelLoaded = true;
    await enterLanguageScene(handle);  // its scene, as Load model opens it
    return bytes;
  };
  // Where the run paused or stopped: its model into the scene, and the report's fields for it
  // (modelLoaded, the heads and a sample of the model as it is, or the error).
  const handOver = async (fields) => {
    try {
      await loadIntoScene();  // answered after every progress the Worker sent before it
      fields.modelLoaded = true;
      const { step, look } = await worker.look();
      if (!look.error) Object.assign(fields, { heads: look.heads, headsStep: step, sample: look.sample });
    } catch (error) {
      fields.error = error.message;
    }
    return fields;
  };

  // ---- the text ---------------------------------------------------------------------------
  const use = (value, name = '') => {
    if (run?.phase === 'training' || run?.phase === 'paused') return Promise.reject(new Error('stop the training first'));
    const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : new Uint8Array(value);
    const error = module.lmTextCheck(bytes, String(name), presetMenu.value);
    if (error) {
      const localized = module.refusalText(name) || error;
      say(localized);
      return Promise.reject(Object.assign(new Error(error), { localized }));
    }
    text = { bytes, string: new TextDecoder('utf-8').decode(bytes), name: String(name) };
    run = null;
    say('');
    enable();
    return Promise.resolve(handle.getState().figures.lmText);
  };
  let typing = 0;
  input.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => { if (input.value) use(input.value).catch(() => {}); }, 300);
  });
  const openFile = (file) => {
    if (file.size > MAX_TEXT_FILE_BYTES) {
      say(fill(module.uiString('web_lm_text_too_large'), file.name));
      return Promise.resolve();
    }
    return file.arrayBuffer().then((buffer) => {
      input.value = '';
      return use(new Uint8Array(buffer), file.name);
    }).catch(() => {});
  };
  takeFiles(picker, dropTarget, /\.txt$/i, (file) => {
    handle.setState({ panel: 'lm-train' }).catch(() => {});  // a dropped text opens its panel
    return openFile(file);
  });
  presetMenu.addEventListener('change', () => {
    if (text) use(text.bytes, text.name).catch(() => {});  // the run's steps follow the size
  });

  // ---- the buttons --------------------------------------------------------------------------
  const train = async () => {
    if (!text || run?.phase === 'training' || run?.phase === 'paused') return;
    const preset = presetMenu.value;
    if (module.lmTextCheck(text.bytes, text.name, preset)) return;  // a fresh record of the run
    if (!worker) {
      try {
        const { createLanguageModelTrainerWorker } = await import(new URL(OFFTHREAD, document.baseURI).href);
        worker = createLanguageModelTrainerWorker({ url: new URL('attnlab-core-worker.mjs', document.baseURI), onProgress });
      } catch (error) {
        say(fill(module.uiString('web_lm_text_worker_failed'), error.message));
        return;
      }
    }
    const name = text.name ? text.name.replace(/\.txt$/i, '') : 'your-text';
    run = { phase: 'training', step: 0, name };
    enable();
    let info;
    try {
      info = await worker.start({ text: text.string, seed: 1, preset });
    } catch (error) {
      run = null;
      report({ phase: 'stopped', error: error.message });
      enable();
      return;
    }
    report({ phase: 'training', preset, step: 0, steps: info.steps });
    const thisRun = run;
    run.finished = worker.run().then(async (result) => {
      flush();
      if (run !== thisRun) return result;
      run.phase = result.stopped ? 'stopped' : 'done';
      const final = { phase: run.phase, step: result.step };
      if (result.evaluation) final.heldOutFinal = result.evaluation.heldOutBits;
      report(await handOver(final));
      enable();
      return result;
    }, (error) => {
      if (run === thisRun) run.phase = 'stopped';
      report({ phase: 'stopped', error: error.message });
      enable();
      throw error;
    });
    run.finished.catch(() => {});
  };
  const pauseOrResume = async () => {
    if (!run) return;
    if (run.phase === 'training') {
      worker.pause();
      run.phase = 'paused';
      enable();
      const fields = await handOver({ phase: 'paused' });
      flush();
      report(fields);
    } else if (run.phase === 'paused') {
      worker.resume();
      run.phase = 'training';
      report({ phase: 'training' });
      enable();
    }
  };
  const stop = () => {
    if (run?.phase === 'training' || run?.phase === 'paused') worker.stop();
  };
  const save = async () => {
    if (!run || !worker) throw new Error('no model has been trained yet');
    const bytes = await worker.save();
    downloadBytes(bytes, `${run.name}-step${run.step}.attnlm`);
    return bytes;
  };
  buttons.train.addEventListener('click', () => { train(); });
  buttons.pause.addEventListener('click', () => { pauseOrResume(); });
  buttons.stop.addEventListener('click', stop);
  buttons.save.addEventListener('click', () => { save().catch((error) => say(error.message)); });

  // ---- the bar follows its panel; its labels follow the language ---------------------------
  let shownLanguage = null;
  const follow = () => {
    const state = handle.getState();
    bar.hidden = state.panel !== 'lm-train';
    if (state.language !== shownLanguage) {
      shownLanguage = state.language;
      relabelButtons();
    }
  };
  handle.on('change', follow);
  follow();
  enable();

  handle.lmText = {
    use,
    train: async (preset) => {
      if (preset !== undefined) {
        if (!presets.some((p) => p.name === preset)) throw new RangeError(`unknown preset '${preset}'`);
        presetMenu.value = preset;
      }
      await train();
    },
    pause: () => { if (run?.phase === 'training') return pauseOrResume(); return Promise.resolve(); },
    resume: () => { if (run?.phase === 'paused') return pauseOrResume(); return Promise.resolve(); },
    stop,
    save,
    get finished() { return run?.finished ?? Promise.resolve(null); },
  };
}
