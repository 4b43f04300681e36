// attnlab-core-train.mjs: training the lab's tiny Transformer, as methods merged into the
// API of attnlab-core.mjs (which calls trainApi(wasm) with the raw wasm module).
// A wrong type throws a TypeError here, a value out of range a RangeError from the wasm
// module's check (the training caps are the core's: src/core/train), each naming the argument.
//
// Options shared by trainTask and createTrainer (all optional except task):
//   task     'copy' | 'reverse' | 'sort' | 'previous' | 'induction'
//   layers   1-2 (default 2)        heads  1-4 (default 2)      dModel 1-128, divisible by heads (32)
//   dMlp     0-512, 0 = dModel      batch  1-256 (16)           lr     (0, 1] (0.003), Adam
//   seed     whole number 0 to 2^53-1 (1): weights and data     noScale  true = no 1/sqrt(d_k)
//   init     'unit' (q, k entries of unit variance) | 'small' (N(0, 0.02^2))
//
// trainTask({...options, steps = the task's default, evalSequences = 1000}) -> {task, steps,
//   loss: Float32Array (per step), accuracy: Float32Array (per step, the batch's), finalLoss,
//   heldOut: {sequences, loss, tokenAccuracy, sequenceAccuracy}, heldOutAccuracy,
//   heads: [{layer, head, previousToken, induction, diagonal, label}], config, seconds,
//   stepsPerSecond} (seconds: the training steps alone, without the evaluation). The same run as `attnlab-cli train` with the same options (the loss
//   curves agree to within 1e-3 relative; see docs/TRAINING.md).
// createTrainer(options) -> a Trainer (below), at step 0.
// loadTrainer(bytes: Uint8Array) -> a Trainer from a model file (`attnlab-cli train --out`,
//   or trainer.save()); a corrupt or truncated file throws a RangeError saying what is wrong.
// trainingTasks() -> {tasks: [{name, symbols, vocab, length, context, special, scored,
//   defaultSteps}], thresholds: {previousToken, induction}, defaults}.
//
// A Trainer runs in slices, so a page can train a few steps per animation frame:
//   step(n = 1) -> total steps so far; n whole, 0 to 1e6. Throws if the loss stops being finite.
//   steps -> steps so far.
//   history({from = 0}) -> {from, loss: Float32Array, accuracy: Float32Array}: entries from
//     step `from` on, so a panel can fetch only what is new.
//   evaluate({sequences = 500}) -> {sequences, loss, tokenAccuracy, sequenceAccuracy} on
//     held-out sequences (the same ones at every call, never trained on).
//   headScores() -> [{layer, head, previousToken, induction, diagonal, label}], label
//     'induction' / 'previous-token' / '' by trainingTasks().thresholds.
//   probe() -> {context, tokens, targets, predictions: Int32Array, scored: Uint8Array,
//     layers, heads, weights: [Float32Array (context*context) for layer*heads + head]}: the
//     task's fixed probe sequence and every head's attention on it (row i = query i).
//   config() -> {task, layers, heads, dModel, dMlp, dK, scale, appliedScale, init, batch, lr,
//     seed, vocab, context, parameters}.
//   save({optimizer = true}) -> Uint8Array, the model file; with the optimizer state a
//     loaded run continues exactly as if it had never stopped.
//   dispose() frees the wasm memory; any later call throws.

import { refused } from './attnlab-core-checks.mjs';

const TASKS = ['copy', 'reverse', 'sort', 'previous', 'induction'];
const OPTION_NAMES = new Set(['task', 'layers', 'heads', 'dModel', 'dMlp', 'batch', 'lr', 'seed', 'noScale', 'init']);

function checkNumber(name, value) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${typeof value}`);
}

function checkObject(name, value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new TypeError(`${name} must be an object`);
}

// The options as the wasm side reads them: every field present, task and init as numbers.
function runOptions(options, extra) {
  checkObject('options', options);
  for (const key of Object.keys(options))
    if (!OPTION_NAMES.has(key) && !extra.has(key)) throw new TypeError(`unknown option '${key}'`);
  const {
    task, layers = 2, heads = 2, dModel = 32, dMlp = 0, batch = 16, lr = 0.003, seed = 1, noScale = false,
    init = 'unit',
  } = options;
  if (typeof task !== 'string') throw new TypeError(`task must be a string (${TASKS.join(', ')})`);
  if (!TASKS.includes(task)) throw new RangeError(`task must be one of ${TASKS.join(', ')}, got '${task}'`);
  for (const [name, value] of [['layers', layers], ['heads', heads], ['dModel', dModel], ['dMlp', dMlp], ['batch', batch],
    ['lr', lr], ['seed', seed]]) checkNumber(name, value);
  if (typeof noScale !== 'boolean') throw new TypeError('noScale must be true or false');
  if (init !== 'unit' && init !== 'small') throw new RangeError(`init must be 'unit' or 'small', got '${init}'`);
  return {
    task: TASKS.indexOf(task), layers, heads, dModel, dMlp, batch, lr, seed, scale: !noScale,
    init: init === 'small' ? 1 : 0,
  };
}

function wrapTrainer(handle) {
  let live = true;
  const use = () => {
    if (!live) throw new Error('this trainer was disposed');
    return handle;
  };
  return {
    step(n = 1) {
      checkNumber('n', n);
      const { failure } = refused(use().step(n));
      if (failure) throw new Error(failure);
      return handle.steps();
    },
    get steps() { return use().steps(); },
    history({ from = 0 } = {}) {
      checkNumber('from', from);
      const h = use();
      return { from, loss: refused(h.lossHistory(from)), accuracy: refused(h.accuracyHistory(from)) };
    },
    evaluate({ sequences = 500 } = {}) {
      checkNumber('sequences', sequences);
      return refused(use().evaluate(sequences));
    },
    headScores() { return use().headScores(); },
    probe() { return use().probe(); },
    config() { return use().config(); },
    save({ optimizer = true } = {}) {
      if (typeof optimizer !== 'boolean') throw new TypeError('optimizer must be true or false');
      return use().save(optimizer);
    },
    dispose() {
      if (live) handle.delete();
      live = false;
    },
  };
}

export default function trainApi(wasm) {
  const tasks = wasm.trainingTasks();
  const defaultSteps = Object.fromEntries(tasks.tasks.map((t) => [t.name, t.defaultSteps]));
  return {
    trainingTasks() { return wasm.trainingTasks(); },
    trainTask(options = {}) {
      const run = runOptions(options, new Set(['steps', 'evalSequences']));
      const { steps = defaultSteps[options.task], evalSequences = 1000 } = options;
      checkNumber('steps', steps);
      checkNumber('evalSequences', evalSequences);
      const r = refused(wasm.trainTask(run, steps, evalSequences));
      return {
        ...r, finalLoss: r.loss.length ? r.loss[r.loss.length - 1] : null, heldOutAccuracy: r.heldOut.tokenAccuracy,
        stepsPerSecond: r.seconds > 0 ? steps / r.seconds : 0,
      };
    },
    createTrainer(options = {}) {
      const run = runOptions(options, new Set());
      const handle = new wasm.TrainerHandle();
      const error = handle.reset(run);
      if (error) {
        handle.delete();
        throw new RangeError(error);
      }
      return wrapTrainer(handle);
    },
    loadTrainer(bytes) {
      if (!(bytes instanceof Uint8Array)) throw new TypeError('bytes must be a Uint8Array');
      const handle = new wasm.TrainerHandle();
      const error = handle.load(bytes);
      if (error) {
        handle.delete();
        throw new RangeError(`bytes: ${error}`);
      }
      return wrapTrainer(handle);
    },
  };
}
