// Training under Node (the wasm module) against the native CLI: the same run gives the same
// loss curve, model files travel both ways, bad arguments and bad files are refused clearly,
// and the shipped trained model loads and has its induction head.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distDir, nativeDir, root } from '../support/paths.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();
const cli = path.join(nativeDir, 'attnlab-cli');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-train-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function runCli(args) {
  return spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
}

// The last stdout line of a successful CLI run, parsed.
function cliJson(args) {
  const r = runCli(args);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

// Exit code 1 for a refused file or setting, 2 when the command line itself is wrong.
function expectRefusal(args, pattern, code = 1) {
  const r = runCli(args);
  assert.equal(r.status, code, `exit code for ${args.join(' ')}: ${r.stderr}`);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got: ${r.stderr}`);
  assert.match(lines[0], pattern);
}

function maxRelativeDifference(a, b) {
  assert.equal(a.length, b.length, 'curve lengths');
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.abs(b[i]));
  return worst;
}

for (const [task, seed] of [['copy', 7], ['induction', 3]]) {
  test(`${task}: wasm and native give the same loss for the first 100 steps (relative 1e-3)`, (t) => {
    const out = path.join(dir, `${task}-100.attnmodel`);
    const native = cliJson(['train', '--task', task, '--steps', '100', '--seed', String(seed), '--curve', '--quiet', '--out', out]);
    const web = core.trainTask({ task, steps: 100, seed });
    assert.equal(native.lossCurve.length, 100);
    assert.equal(web.loss.length, 100);
    const diff = maxRelativeDifference(Array.from(web.loss), native.lossCurve);
    t.diagnostic(`max relative difference over 100 steps: ${diff.toExponential(2)}; loss ${native.lossCurve[0].toFixed(4)} -> ${native.lossCurve[99].toFixed(4)}; steps/s native ${native.stepsPerSecond.toFixed(0)}, wasm ${web.stepsPerSecond.toFixed(0)}`);
    assert.ok(diff < 1e-3, `max relative difference ${diff}`);
    // The run really trained: the loss fell.
    assert.ok(native.lossCurve[99] < native.lossCurve[0]);
  });
}

test('a model file made natively loads in wasm, with its history and the same held-out result', () => {
  const out = path.join(dir, 'native.attnmodel');
  const native = cliJson(['train', '--task', 'reverse', '--steps', '40', '--seed', '2', '--layers', '1', '--curve', '--quiet', '--out', out]);
  const trainer = core.loadTrainer(new Uint8Array(fs.readFileSync(out)));
  try {
    assert.equal(trainer.steps, 40);
    const c = trainer.config();
    assert.equal(c.task, 'reverse');
    assert.equal(c.layers, 1);
    assert.equal(c.seed, 2);
    assert.deepEqual(Array.from(trainer.history().loss), native.lossCurve.map((x) => Math.fround(x)));
    const info = cliJson(['model-info', '--in', out, '--eval', '200']);
    const e = trainer.evaluate({ sequences: 200 });
    assert.ok(Math.abs(e.loss - info.heldOut.loss) <= 1e-3 * info.heldOut.loss, `${e.loss} vs ${info.heldOut.loss}`);
    // Continuing in wasm matches continuing natively.
    trainer.step(10);
    const resumed = path.join(dir, 'native-resumed.attnmodel');
    const more = cliJson(['train', '--resume', out, '--steps', '10', '--curve', '--quiet', '--out', resumed]);
    const diff = maxRelativeDifference(Array.from(trainer.history({ from: 40 }).loss), more.lossCurve.slice(40));
    assert.ok(diff < 1e-3, `resumed curves differ by ${diff}`);
  } finally {
    trainer.dispose();
  }
});

test('a model trained in wasm downloads, loads natively and in wasm, nothing lost', () => {
  const trainer = core.createTrainer({ task: 'previous', layers: 1, heads: 1, dModel: 16, seed: 4 });
  for (let i = 0; i < 4; i++) trainer.step(5);  // slices, as the app runs them
  const bytes = trainer.save();
  const file = path.join(dir, 'web.attnmodel');
  fs.writeFileSync(file, bytes);
  const info = cliJson(['model-info', '--in', file, '--curve']);
  assert.equal(info.steps, 20);
  assert.equal(info.config.dModel, 16);
  assert.deepEqual(info.lossCurve.map((x) => Math.fround(x)), Array.from(trainer.history().loss));
  const again = core.loadTrainer(bytes);
  assert.deepEqual(again.save(), bytes);
  // The loaded copy continues exactly like the original.
  trainer.step(3);
  again.step(3);
  assert.deepEqual(again.history().loss, trainer.history().loss);
  // Slices change nothing: one call of 23 steps gives the same curve.
  const whole = core.trainTask({ task: 'previous', layers: 1, heads: 1, dModel: 16, seed: 4, steps: 23 });
  assert.deepEqual(whole.loss, trainer.history().loss);
  trainer.dispose();
  again.dispose();
  assert.throws(() => trainer.step(), /this trainer was disposed/);
});

test('probe, head scores and history slices have the documented shapes', () => {
  const trainer = core.createTrainer({ task: 'copy', layers: 2, heads: 2 });
  trainer.step(2);
  const p = trainer.probe();
  assert.equal(p.context, 33);
  assert.ok(p.tokens instanceof Int32Array && p.tokens.length === 33);
  assert.ok(p.scored instanceof Uint8Array);
  assert.equal(p.weights.length, 4);
  for (const w of p.weights) {
    assert.equal(w.length, 33 * 33);
    for (let i = 0; i < 33; i++) {
      let sum = 0;
      for (let j = 0; j < 33; j++) {
        sum += w[i * 33 + j];
        if (j > i) assert.equal(w[i * 33 + j], 0);  // causal: nothing after the query
      }
      assert.ok(Math.abs(sum - 1) < 1e-5);
    }
  }
  const scores = trainer.headScores();
  assert.equal(scores.length, 4);
  for (const s of scores) assert.ok(s.previousToken >= 0 && s.previousToken <= 1 && typeof s.label === 'string');
  const h = trainer.history({ from: 1 });
  assert.equal(h.loss.length, 1);
  assert.equal(trainer.history({ from: 5 }).loss.length, 0);
  const info = core.trainingTasks();
  assert.deepEqual(info.tasks.map((t) => t.name), ['copy', 'reverse', 'sort', 'previous', 'induction']);
  assert.equal(info.thresholds.induction, 0.5);
  trainer.dispose();
});

test('bad JavaScript arguments throw TypeError / RangeError naming the argument', () => {
  assert.throws(() => core.trainTask({ task: 'nope' }), { name: 'RangeError', message: /task must be one of copy/ });
  assert.throws(() => core.trainTask({}), { name: 'TypeError', message: /task must be a string/ });
  assert.throws(() => core.trainTask({ task: 'copy', layers: 3 }), { name: 'RangeError', message: /layers must be a whole number from 1 to 2, got 3/ });
  assert.throws(() => core.trainTask({ task: 'copy', layers: '2' }), { name: 'TypeError', message: /layers must be a number/ });
  assert.throws(() => core.trainTask({ task: 'copy', dModel: 30, heads: 4 }), { name: 'RangeError', message: /dModel 30 is not divisible by heads 4/ });
  assert.throws(() => core.trainTask({ task: 'copy', steps: -1 }), { name: 'RangeError', message: /steps must be a whole number/ });
  assert.throws(() => core.trainTask({ task: 'copy', lr: NaN }), { name: 'RangeError', message: /lr must be in \(0, 1\]/ });
  assert.throws(() => core.trainTask({ task: 'copy', seed: 2 ** 60 }), { name: 'RangeError', message: /seed must be a whole number/ });
  assert.throws(() => core.trainTask({ task: 'copy', noScale: 1 }), { name: 'TypeError', message: /noScale must be true or false/ });
  assert.throws(() => core.trainTask({ task: 'copy', init: 'big' }), { name: 'RangeError', message: /init must be 'unit' or 'small'/ });
  assert.throws(() => core.trainTask({ task: 'copy', steps: 1, colour: 'red' }), { name: 'TypeError', message: /unknown option 'colour'/ });
  assert.throws(() => core.createTrainer(null), { name: 'TypeError', message: /options must be an object/ });
  const trainer = core.createTrainer({ task: 'copy', layers: 1 });
  assert.throws(() => trainer.step(1.5), { name: 'RangeError', message: /n must be a whole number/ });
  assert.throws(() => trainer.evaluate({ sequences: 0 }), { name: 'RangeError', message: /sequences must be a whole number/ });
  assert.throws(() => trainer.history({ from: -1 }), { name: 'RangeError', message: /from must be a whole number/ });
  trainer.dispose();
});

test('corrupt, truncated or foreign model files are refused with the reason', () => {
  const good = fs.readFileSync(path.join(dir, 'web.attnmodel'));
  assert.throws(() => core.loadTrainer([1, 2, 3]), { name: 'TypeError', message: /bytes must be a Uint8Array/ });
  assert.throws(() => core.loadTrainer(new Uint8Array(good.subarray(0, good.length - 7))), { name: 'RangeError', message: /^bytes: truncated: the file has/ });
  const flipped = new Uint8Array(good);
  flipped[200] ^= 1;
  assert.throws(() => core.loadTrainer(flipped), { name: 'RangeError', message: /^bytes: checksum mismatch/ });
  const foreign = new Uint8Array(good);
  foreign[0] = 0x93;
  assert.throws(() => core.loadTrainer(foreign), { name: 'RangeError', message: /bad magic/ });
  // The same files natively: exit 2 and one line naming the file.
  const cut = path.join(dir, 'cut.attnmodel');
  fs.writeFileSync(cut, good.subarray(0, 100));
  expectRefusal(['model-info', '--in', cut], /cut\.attnmodel: truncated: the file has 100 bytes, its header says \d+/);
  const bad = path.join(dir, 'flipped.attnmodel');
  fs.writeFileSync(bad, flipped);
  expectRefusal(['train', '--resume', bad, '--steps', '1', '--out', path.join(dir, 'never.attnmodel')], /flipped\.attnmodel: checksum mismatch/);
  assert.equal(fs.existsSync(path.join(dir, 'never.attnmodel')), false);
});

test('attnlab-cli train refuses bad options with exit 2 and one line', () => {
  const out = path.join(dir, 'refused.attnmodel');
  expectRefusal(['train', '--task', 'nope', '--out', out], /--task must be copy, reverse, sort, previous or induction, got 'nope'/, 2);
  expectRefusal(['train', '--task', 'copy', '--layers', '3', '--out', out], /--layers needs a whole number from 1 to 2, got '3'/, 2);
  expectRefusal(['train', '--task', 'copy', '--d-model', '30', '--heads', '4', '--out', out], /--d-model 30 is not divisible by --heads 4/);
  expectRefusal(['train', '--task', 'copy', '--steps', 'ten', '--out', out], /--steps needs a whole number/, 2);
  expectRefusal(['train', '--task', 'copy'], /train needs --out FILE/, 2);
  expectRefusal(['train', '--task', 'copy', '--out', path.join(dir, 'no-such-folder', 'm.attnmodel')], /the folder does not exist/);
  expectRefusal(['train', '--task', 'copy', '--lr', '-1', '--out', out], /--lr needs a number in \(0, 1\]/, 2);
  expectRefusal(['train', '--resume', out, '--layers', '1', '--steps', '1', '--out', out], /--layers cannot be combined with --resume/, 2);
  expectRefusal(['model-info', '--in', path.join(dir, 'missing.attnmodel')], /missing\.attnmodel: no such file/);
  assert.equal(fs.existsSync(out), false);
});

test('scaling-experiment runs every (d_k, seed, scaled) combination and summarises them', () => {
  const csv = path.join(dir, 'curves.csv');
  const r = cliJson(['scaling-experiment', '--d-model', '8', '--heads', '1', '--control-heads', '2', '--steps', '20',
    '--window', '5', '--seeds', '2', '--target-loss', '2.5', '--quiet', '--curves', csv]);
  assert.equal(r.runs.length, 8);
  assert.deepEqual(r.summary.map((s) => [s.dK, s.scaled]), [[8, true], [8, false], [4, true], [4, false]]);
  const lines = fs.readFileSync(csv, 'utf8').trim().split('\n');
  assert.equal(lines.length, 21);  // a header and one line per step
  assert.equal(lines[0].split(',').length, 9);
  expectRefusal(['scaling-experiment', '--d-model', '8', '--control-heads', '3'], /--d-model 8 is not divisible by --control-heads 3/);
});

test('the shipped trained model loads, is accurate and has an induction head', () => {
  const assets = path.join(root, 'assets');
  const file = path.join(assets, 'induction-2l.attnmodel');
  const command = fs.readFileSync(path.join(assets, 'induction-2l.command.txt'), 'utf8');
  assert.match(command, /attnlab-cli train --task induction/);
  const trainer = core.loadTrainer(new Uint8Array(fs.readFileSync(file)));
  const e = trainer.evaluate({ sequences: 1000 });
  assert.ok(e.tokenAccuracy >= 0.99, `held-out accuracy ${e.tokenAccuracy}`);
  const heads = trainer.headScores();
  assert.ok(heads.some((h) => h.label === 'induction'), JSON.stringify(heads));
  trainer.dispose();
});
