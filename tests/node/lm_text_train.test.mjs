// Training the language model on a text of one's own (core/lm/text_trainer.h) through the math
// module in Node and through `attnlab-cli lm-train --text`: the held-out bits fall below the
// start, the saved file loads and scores the held-out part to the same bits, the CLI and the
// module agree on the same text, seed, preset and steps, and bad texts and options are
// refused with their reason. The text is the GPL's (Debian's base-files ships it).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distDir, nativeDir } from '../support/paths.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();
const cli = path.join(nativeDir, 'attnlab-cli');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-lm-text-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const GPL = fs.readFileSync('/usr/share/common-licenses/GPL-3', 'utf8');
// The held-out part by the rule: from the character trainCharacters on.
const heldOutPart = (text, info) => Array.from(text).slice(info.trainCharacters).join('');

test('the presets come from the core table; page is the default', () => {
  const presets = core.languageModelTextPresets();
  assert.deepEqual(presets.map((p) => p.name), ['quick', 'page', 'large']);
  assert.deepEqual(presets.filter((p) => p.default).map((p) => p.name), ['page']);
  const t = core.createLanguageModelTrainer({ text: GPL, seed: 1 });
  assert.equal(t.info.preset, 'page');
  const page = presets.find((p) => p.name === 'page');
  assert.deepEqual([t.steps, t.info.layers, t.info.heads, t.info.dModel, t.info.context],
    [page.steps, page.layers, page.heads, page.dModel, page.context]);
  t.dispose();
});

test('a short training in Node: the held-out bits fall, and the saved file scores the same', () => {
  const t = core.createLanguageModelTrainer({ text: GPL, seed: 2, preset: 'quick', steps: 100 });
  const info = t.info;
  assert.equal(info.characters, Array.from(GPL).length);
  assert.equal(info.trainCharacters + info.heldOutCharacters, info.characters);
  assert.equal(Array.from(GPL)[info.trainCharacters], '\n', 'the held-out part starts at a line break');
  assert.equal(info.language, 'english');
  const before = t.evaluate();
  const first = t.step(50);
  assert.equal(first.step, 50);
  assert.ok(first.trainBits > 0 && Number.isFinite(first.heldOutBits), JSON.stringify(first));
  assert.equal(t.step(10).heldOutBits, undefined, 'no evaluation point in steps 51 to 60');
  assert.equal(t.step(1000).step, 100, 'capped at the planned steps');
  const end = t.evaluate();
  assert.ok(end.heldOutBits < before.heldOutBits - 1, `held-out ${before.heldOutBits} -> ${end.heldOutBits}`);
  assert.equal(end.tokens, info.heldOutCharacters);
  assert.ok(end.bigramBits > 2 && end.bigramBits < 5, `bigram ${end.bigramBits}`);

  const bytes = t.save();
  const loaded = core.loadLanguageModel(bytes);
  assert.equal(loaded.evaluate(heldOutPart(GPL, info)).bitsPerToken, end.heldOutBits);
  assert.match(loaded.config.notes, new RegExp(`${info.characters} characters`));
  assert.equal(loaded.config.notes.includes('GNU'), false, 'the notes carry no copy of the text');
  assert.deepEqual(loaded.config.samples, []);
  const model = t.model();
  assert.equal(model.evaluate(heldOutPart(GPL, info)).bitsPerToken, end.heldOutBits);
  assert.ok(model.attention('the program').weights.length === info.layers * info.heads);
  model.dispose();
  loaded.dispose();
  t.dispose();
  assert.throws(() => t.step(1), /disposed/);
});

test('attnlab-cli lm-train --text and the module agree on the same text, seed, preset and steps', () => {
  const text = GPL.slice(0, 12000);
  const file = path.join(dir, 'gpl-start.txt');
  fs.writeFileSync(file, text);
  const out = path.join(dir, 'cli.attnlm');
  const r = spawnSync(cli, ['lm-train', '--text', file, '--preset', 'quick', '--steps', '60', '--seed', '5', '--out', out],
    { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  const t = core.createLanguageModelTrainer({ text, seed: 5, preset: 'quick', steps: 60 });
  const curve = [];
  while (curve.length === 0 || curve.at(-1).step < 60) curve.push(t.step(50));
  const mine = t.save();
  const theirs = new Uint8Array(fs.readFileSync(out));
  const e = t.evaluate();
  assert.equal(report.characters, t.info.characters);
  assert.equal(report.trainCharacters, t.info.trainCharacters);
  assert.equal(report.vocabulary, t.info.vocab);
  // The same bytes; where not, the message names the first evaluation point whose training
  // loss differs and the held-out bits of both.
  const differing = report.curve.find((p, i) => p.trainBits !== curve[i]?.trainBits);
  assert.ok(Buffer.from(mine).equals(Buffer.from(theirs)),
    `different files: first differing point step ${differing?.step}; held-out bits CLI ${report.heldOut.model}, module ${e.heldOutBits}`);
  assert.equal(report.heldOut.model, e.heldOutBits);
  assert.equal(report.heldOut.bigram, e.bigramBits, 'the same bigram line');
  t.dispose();
});

test('refusals: a short text, an unknown preset, bad numbers; the CLI says why', () => {
  assert.throws(() => core.createLanguageModelTrainer({ text: 'too short', seed: 1 }), /9 characters; training needs at least 2000/);
  assert.throws(() => core.createLanguageModelTrainer({ text: GPL, seed: 1, preset: 'huge' }), /unknown preset 'huge'; the presets are quick, page, large/);
  assert.throws(() => core.createLanguageModelTrainer({ text: GPL, seed: 1, heldOutFraction: 0.7 }), /heldOutFraction must be a number from/);
  assert.throws(() => core.createLanguageModelTrainer({ text: GPL, seed: -1 }), /seed must be a whole number/);
  assert.throws(() => core.createLanguageModelTrainer({ text: GPL }), /seed must be a number/);
  assert.throws(() => core.createLanguageModelTrainer({ text: GPL, seed: 1, epochs: 3 }), /unknown option 'epochs'/);
  const bad = path.join(dir, 'latin1.txt');
  fs.writeFileSync(bad, Buffer.concat([Buffer.from(GPL.slice(0, 3000)), Buffer.from([0xe9, 0x20])]));
  const r = spawnSync(cli, ['lm-train', '--text', bad, '--out', path.join(dir, 'x.attnlm')], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /latin1\.txt: the text is not valid UTF-8 \(byte 3000\)/);
  assert.equal(fs.existsSync(path.join(dir, 'x.attnlm')), false);
  const mixed = spawnSync(cli, ['lm-train', '--text', bad, '--files', 'tang300', '--out', path.join(dir, 'y.attnlm')], { encoding: 'utf8' });
  assert.equal(mixed.status, 2);
  assert.match(mixed.stderr, /--files is for training on the fortune files/);
});
