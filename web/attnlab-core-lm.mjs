// attnlab-core-lm.mjs: the lab's character-level language model (src/core/lm), as a method
// merged into the API of attnlab-core.mjs (which calls lmApi(wasm) with the raw wasm module).
// A wrong type throws a TypeError here, a value out of range a RangeError from the wasm
// module's check, naming the argument; a corrupt model file throws a RangeError saying what
// is wrong.
//
// loadLanguageModel(bytes: Uint8Array) -> a model:
//   vocabulary -> {size, characters: string[] (the characters, in token order from id 2;
//     id 0 is '<s>', the start of a text, id 1 '<unk>'), unknownClasses}
//   config -> {vocab, context, layers, heads, dModel, dMlp, parameters, steps, notes, curve,
//     samples: [{language, text}] (held-out text the file carries)}
//   encode(text) -> {tokens: Int32Array (one per character), unknown: string[] (characters
//     outside the vocabulary, each mapped to '<unk>')}
//   generate({prompt, tokens = 20, temperature = 0, topK = 0, seed = 1, ...math}) ->
//     [{token, id, top: [{token, id, p}] (the model's 10 most probable), cacheBytes, keys,
//     attention: [Float32Array (keys) per layer * heads + head]}], one entry per new token;
//     temperature 0 is greedy (the same tokens as `attnlab-cli lm-generate`).
//   evaluate(text, math) -> {bitsPerToken, tokens}: bits per character of the text read after
//     the start token (the same figure as `attnlab-cli lm-eval --text`).
//   attention(text, math) -> {tokens: string[], ids: Int32Array, layers, heads, weights:
//     [Float32Array (n * n) per layer * heads + head] (row i = query i), labels: [{layer, head,
//     label, score, scores}], next: [{token, id, p}], unknown: string[]}.
//   dispose() frees the wasm memory; any later call throws.
//
// createLanguageModelTrainer({text, seed, heldOutFraction = 0.1, preset = 'page', layers,
//   heads, dModel, context, steps}) -> a trainer on one plain text (core/lm/text_trainer.h):
//   the held-out part starts at the first line break at or after 90% of the characters;
//   the preset gives the shape and the schedule, and a given layers/heads/dModel/context/
//   steps replaces its value. The same text, seed, preset and steps give the bytes
//   `attnlab-cli lm-train --text FILE` writes.
//   info -> {steps (planned), preset, characters, trainCharacters, heldOutCharacters,
//     language, vocab, layers, heads, dModel, context, batch, evalEvery (steps between evaluation
//     points)}; steps: the planned total
//   step(k) -> {step (done so far), trainBits (mean of these k steps, bits per token),
//     heldOutBits (only where an evaluation point fell in them)}; runs synchronously
//   evaluate() -> {heldOutBits, bigramBits, tokens}: the whole held-out part as lm-eval scores
//     it, and the text's interpolated character bigram fitted on the training part
//   model() -> a LanguageModel as loadLanguageModel gives (a new object to dispose)
//   save() -> Uint8Array, the .attnlm file (float16 weights; notes on the text, no copy of it)
//   dispose()
// languageModelTextPresets() -> [{name, layers, heads, dModel, context, steps, default}]
//
// math, the switches that break a trained model (all optional): noScale (no 1/sqrt(d_k)),
//   noCausal, fill: '-inf' | '-1e9', half (attention in float16), attentionTemperature
//   (0.05 to 20), ablate: ['L.H' or 'L', ...] (a head, or every head of a layer; from 0).

import { refused } from './attnlab-core-checks.mjs';

const MATH = new Set(['noScale', 'noCausal', 'fill', 'half', 'attentionTemperature', 'ablate']);

function checkBoolean(name, value) {
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false`);
}

// The switches as the wasm side reads them.
function mathOptions(options, config, extra = new Set()) {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError('options must be an object');
  for (const key of Object.keys(options))
    if (!MATH.has(key) && !extra.has(key)) throw new TypeError(`unknown option '${key}'`);
  const { noScale = false, noCausal = false, fill = '-inf', half = false, attentionTemperature = 1, ablate = [] } = options;
  checkBoolean('noScale', noScale);
  checkBoolean('noCausal', noCausal);
  checkBoolean('half', half);
  if (fill !== '-inf' && fill !== '-1e9') throw new RangeError(`fill must be '-inf' or '-1e9', got '${fill}'`);
  if (typeof attentionTemperature !== 'number') throw new TypeError('attentionTemperature must be a number');
  if (!Array.isArray(ablate)) throw new TypeError("ablate must be an array of 'LAYER.HEAD' or 'LAYER' strings");
  const off = new Uint8Array(config.layers * config.heads);
  for (const item of ablate) {
    const m = typeof item === 'string' ? /^(\d+)(?:\.(\d+))?$/.exec(item) : null;
    if (!m) throw new TypeError(`ablate entries are 'LAYER.HEAD' or 'LAYER' strings, got ${JSON.stringify(item)}`);
    const layer = Number(m[1]);
    const head = m[2] === undefined ? -1 : Number(m[2]);
    if (layer >= config.layers || head >= config.heads)
      throw new RangeError(`cannot ablate ${item}: the model has ${config.layers} layers of ${config.heads} heads`);
    for (let h = 0; h < config.heads; h++) if (head < 0 || h === head) off[layer * config.heads + h] = 1;
  }
  return { scale: !noScale, causal: !noCausal, largeNegativeFill: fill === '-1e9', half, attentionTemperature, ablate: off };
}

function checkText(name, text) {
  if (typeof text !== 'string') throw new TypeError(`${name} must be a string`);
}

function wrapModel(handle, info) {
  let live = true;
  const use = () => {
    if (!live) throw new Error('this language model was disposed');
    return handle;
  };
  const characters = Array.from(info.characters);
  return {
    vocabulary: { size: info.vocab, characters, unknownClasses: info.unknownClasses },
    config: info,
    encode(text) {
      checkText('text', text);
      return refused(use().encode(text));
    },
    generate(options = {}) {
      const extra = new Set(['prompt', 'tokens', 'temperature', 'topK', 'seed']);
      const run = mathOptions(options, info, extra);
      const { prompt, tokens = 20, temperature = 0, topK = 0, seed = 1 } = options;
      checkText('prompt', prompt);
      for (const [name, value] of [['tokens', tokens], ['temperature', temperature], ['topK', topK], ['seed', seed]])
        if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
      return refused(use().generate(prompt, { tokens, temperature, topK, seed }, run)).steps;
    },
    evaluate(text, math = {}) {
      checkText('text', text);
      return refused(use().evaluate(text, mathOptions(math, info)));
    },
    attention(text, math = {}) {
      checkText('text', text);
      return refused(use().attention(text, mathOptions(math, info)));
    },
    dispose() {
      if (live) handle.delete();
      live = false;
    },
  };
}

const TRAINER_OPTIONS = new Set(['text', 'seed', 'heldOutFraction', 'preset', 'layers', 'heads', 'dModel', 'context', 'steps']);

function wrapTrainer(handle, info, load) {
  let live = true;
  const use = () => {
    if (!live) throw new Error('this trainer was disposed');
    return handle;
  };
  return {
    info,
    steps: info.steps,
    step(k = 1) {
      if (typeof k !== 'number') throw new TypeError('k must be a number');
      if (!Number.isInteger(k) || k < 1 || k > 100000) throw new RangeError(`k must be a whole number from 1 to 100000, got ${k}`);
      return refused(use().step(k));
    },
    evaluate() {
      return refused(use().evaluate());
    },
    save() {
      return refused(use().save());
    },
    model() {
      return load(this.save());
    },
    dispose() {
      if (live) handle.delete();
      live = false;
    },
  };
}

export default function lmApi(wasm) {
  const api = {
    loadLanguageModel(bytes) {
      if (!(bytes instanceof Uint8Array)) throw new TypeError('bytes must be a Uint8Array (the .attnlm file)');
      const handle = new wasm.LanguageModelHandle();
      const info = handle.load(bytes);
      if (info?.error !== undefined) {
        handle.delete();
        throw new RangeError(info.error);
      }
      return wrapModel(handle, info);
    },
    languageModelTextPresets() {
      return wasm.languageModelTextPresets();
    },
    createLanguageModelTrainer(options) {
      if (options === null || typeof options !== 'object' || Array.isArray(options))
        throw new TypeError('options must be an object');
      for (const key of Object.keys(options))
        if (!TRAINER_OPTIONS.has(key)) throw new TypeError(`unknown option '${key}'`);
      const { text, seed, heldOutFraction = 0.1, preset = 'page', layers = 0, heads = 0, dModel = 0, context = 0, steps = 0 } = options;
      checkText('text', text);
      if (typeof preset !== 'string') throw new TypeError('preset must be a string');
      for (const [name, value] of [['seed', seed], ['heldOutFraction', heldOutFraction], ['layers', layers],
        ['heads', heads], ['dModel', dModel], ['context', context], ['steps', steps]])
        if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
      const handle = new wasm.LanguageModelTrainerHandle();
      const info = handle.reset(text, { seed, heldOutFraction, preset, layers, heads, dModel, context, steps });
      if (info?.error !== undefined) {
        handle.delete();
        throw new RangeError(info.error);
      }
      return wrapTrainer(handle, info, api.loadLanguageModel);
    },
  };
  return api;
}
