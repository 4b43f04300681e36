// The shipped language model (assets/fortunes-lm.attnlm) through the native CLI and the wasm
// module: it loads, scores text below its bigram baseline's figure recorded beside it,
// greedy generation writes the same tokens in both, the broken-math switches give the same
// figures in both (and --no-scale and ablating the highest-ranked head cost bits), bad input
// is refused with a clear message, and a tiny training run from a fortune-like file works.
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
const modelPath = path.join(root, 'assets', 'fortunes-lm.attnlm');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-lm-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function runCli(args) {
  return spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
}
function cliLines(args) {
  const r = runCli(args);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
}
// Exit code 1 for a refused file or prompt, 2 when the command line itself is wrong.
function expectRefusal(args, pattern, code = 1) {
  const r = runCli(args);
  assert.equal(r.status, code, `exit code for ${args.join(' ')}: ${r.stderr}`);
  assert.match(r.stderr.trim(), pattern);
}
function writeText(name, text) {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

const model = core.loadLanguageModel(new Uint8Array(fs.readFileSync(modelPath)));
const english = 'The cat sat on the mat because it was tired.';
const chinese = '床前明月光，疑是地上霜。\n举头望明月，低头思故乡。';

test('the shipped model loads with its vocabulary, notes and curve', () => {
  assert.equal(model.config.layers, 2);
  assert.equal(model.config.heads, 4);
  assert.equal(model.vocabulary.size, model.vocabulary.characters.length + 2);
  for (const ch of [...'etaoin 的一是明月，。']) assert.ok(model.vocabulary.characters.includes(ch), `vocabulary has ${ch}`);
  assert.match(model.config.notes, /GPL-3\+/);
  assert.ok(model.config.curve.length >= 5);
  const last = model.config.curve[model.config.curve.length - 1];
  assert.ok(last.heldOutEnglish < model.config.curve[0].heldOutEnglish);
  assert.ok(fs.statSync(modelPath).size <= 2 * 1024 * 1024, 'at most 2 MB');
});

test('greedy generation: the same tokens natively and in wasm, probabilities that match', () => {
  for (const prompt of ['The meaning of life is', '白日依山尽，']) {
    const native = cliLines(['lm-generate', '--model', modelPath, '--prompt', prompt, '--tokens', '20', '--temperature', '0']);
    const web = model.generate({ prompt, tokens: 20, temperature: 0 });
    assert.equal(native.length, 20);
    assert.deepEqual(web.map((s) => s.id), native.map((s) => s.id), `tokens after '${prompt}'`);
    for (let i = 0; i < 20; i++) {
      const sum = web[i].top.reduce((a, t) => a + t.p, 0);
      assert.ok(sum <= 1 + 1e-6 && sum > 0, `top-10 sum ${sum}`);
      assert.equal(web[i].top[0].id, web[i].id, 'greedy takes the most probable');
      for (let j = 0; j < 10; j++) assert.ok(Math.abs(web[i].top[j].p - native[i].top[j].p) < 1e-5);
      assert.equal(web[i].cacheBytes, native[i].cacheBytes);
    }
    assert.ok(web[19].cacheBytes > web[0].cacheBytes, 'the cache grows a row per token');
  }
});

test('sampling with a seed repeats; a different seed may differ', () => {
  const a = model.generate({ prompt: 'Love is', tokens: 30, temperature: 0.8, topK: 20, seed: 5 });
  const b = model.generate({ prompt: 'Love is', tokens: 30, temperature: 0.8, topK: 20, seed: 5 });
  assert.deepEqual(a.map((s) => s.id), b.map((s) => s.id));
  const native = cliLines(['lm-generate', '--model', modelPath, '--prompt', 'Love is', '--tokens', '30',
    '--temperature', '0.8', '--top-k', '20', '--seed', '5']);
  assert.deepEqual(a.map((s) => s.id), native.map((s) => s.id));
});

test('break the math: the CLI and the page agree, and scale and the top head matter', () => {
  const textFile = writeText('en.txt', english.repeat(6));
  const text = english.repeat(6);
  const base = cliLines(['lm-eval', '--model', modelPath, '--text', textFile, '--rank-heads'])[0];
  const web = model.evaluate(text);
  assert.equal(web.tokens, base.tokens);
  assert.ok(Math.abs(web.bitsPerToken - base.bitsPerToken) < 1e-4, `${web.bitsPerToken} vs ${base.bitsPerToken}`);
  const noScale = cliLines(['lm-eval', '--model', modelPath, '--text', textFile, '--no-scale'])[0];
  assert.ok(noScale.bitsPerToken > base.bitsPerToken + 0.05, `no scale ${noScale.bitsPerToken} vs ${base.bitsPerToken}`);
  assert.ok(Math.abs(model.evaluate(text, { noScale: true }).bitsPerToken - noScale.bitsPerToken) < 1e-4);
  const top = base.ablation[0];
  assert.ok(top.rise > 0, 'ablating the highest-ranked head costs bits');
  const ablated = cliLines(['lm-eval', '--model', modelPath, '--text', textFile, '--ablate', `${top.layer}.${top.head}`])[0];
  assert.ok(Math.abs(ablated.bitsPerToken - top.bitsPerToken) < 1e-9);
  assert.ok(Math.abs(model.evaluate(text, { ablate: [`${top.layer}.${top.head}`] }).bitsPerToken - ablated.bitsPerToken) < 1e-4);
  const noCausal = cliLines(['lm-eval', '--model', modelPath, '--text', textFile, '--no-causal'])[0];
  assert.ok(Number.isFinite(noCausal.bitsPerToken) && noCausal.bitsPerToken !== base.bitsPerToken);
  assert.ok(Math.abs(model.evaluate(text, { noCausal: true }).bitsPerToken - noCausal.bitsPerToken) < 1e-4);
});

test('the heads on a sentence and on a poem: labels with scores, rows that sum to 1', () => {
  for (const text of [english, chinese]) {
    const a = model.attention(text);
    assert.equal(a.tokens.length, [...text].length + 1);
    assert.equal(a.weights.length, 8);
    const n = a.tokens.length;
    for (const w of a.weights) {
      assert.equal(w.length, n * n);
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += w[i * n + j];
        assert.ok(Math.abs(s - 1) < 1e-4);
        assert.equal(w[i * n + n - 1] === 0 || i === n - 1, true, 'causal: the last key is seen by the last query only');
      }
    }
    const native = cliLines(['lm-heads', '--model', modelPath, '--text', writeText('h.txt', text)]);
    assert.deepEqual(a.labels.map((l) => l.label), native.map((l) => l.label));
    for (let i = 0; i < 8; i++) assert.ok(Math.abs(a.labels[i].score - native[i].score) < 1e-5);
  }
});

test('bad input: unknown characters, empty and long prompts, corrupt files, wrong files', () => {
  const enc = model.encode('a☃b');
  assert.deepEqual(enc.unknown, ['☃']);
  assert.equal(enc.tokens[1], 1);
  assert.throws(() => model.generate({ prompt: '', tokens: 5 }), /the prompt is empty/);
  assert.throws(() => model.generate({ prompt: 'x'.repeat(10000), tokens: 5 }), /the prompt has 10000 characters; the model reads at most 127/);
  assert.throws(() => model.generate({ prompt: 'x', tokens: 0 }), /tokens must be a whole number from 1/);
  assert.throws(() => model.attention('x', { attentionTemperature: 100 }), /attention temperature must be from 0.05 to 20/);
  assert.throws(() => model.attention('x', { ablate: ['7.0'] }), /cannot ablate 7.0/);
  assert.throws(() => model.attention('x', { fill: 'zero' }), /fill must be/);
  const bytes = new Uint8Array(fs.readFileSync(modelPath));
  bytes[1000] ^= 0xff;
  assert.throws(() => core.loadLanguageModel(bytes), /checksum does not match/);
  assert.throws(() => core.loadLanguageModel(bytes.subarray(0, 500)), /truncated/);
  const task = path.join(root, 'assets', 'induction-2l.attnmodel');
  assert.throws(() => core.loadLanguageModel(new Uint8Array(fs.readFileSync(task))), /task model file/);
  expectRefusal(['lm-eval', '--model', task, '--text', writeText('t.txt', 'abc')], /task model file \(ATTNLABM\), not a language model/);
  const corrupt = writeText('corrupt.attnlm', Buffer.from(bytes));
  expectRefusal(['lm-generate', '--model', corrupt, '--prompt', 'a'], /checksum does not match/);
  expectRefusal(['lm-generate', '--model', modelPath, '--prompt', ''], /the prompt is empty/);
  expectRefusal(['lm-eval', '--model', modelPath, '--text', writeText('bad.txt', Buffer.from([0x61, 0xff]))], /not valid UTF-8/);
  expectRefusal(['lm-eval', '--model', modelPath, '--text', textPath(), '--ablate', '9.9'], /--ablate needs LAYER.HEAD/, 2);
  // The model still answers after the refusals.
  assert.equal(model.generate({ prompt: 'a', tokens: 2 }).length, 2);
});

function textPath() {
  return writeText('plain.txt', english);
}

test('a tiny training run writes a model the page loads', () => {
  let fortunes = '';
  for (let i = 0; i < 60; i++) fortunes += `${['The cat sat.', 'A dog ran.', '明月光。'][i % 3]}\n%\n`;
  fs.mkdirSync(path.join(dir, 'data'));
  fs.writeFileSync(path.join(dir, 'data', 'tiny'), fortunes);
  const out = path.join(dir, 'tiny.attnlm');
  const report = cliLines(['lm-train', '--out', out, '--data-dir', path.join(dir, 'data'), '--steps', '40',
    '--context', '16', '--d-model', '16', '--d-mlp', '32', '--heads', '2', '--batch', '4', '--min-count', '2',
    '--eval-every', '20', '--eval-characters', '100'])[0];
  assert.equal(report.steps, 40);
  assert.ok(report.curve[1].trainBits < report.curve[0].trainBits, 'the loss falls');
  // 40 steps learn the alphabet's frequencies: fewer bits than a uniform guess.
  assert.ok(report.heldOut_english.model < Math.log2(report.vocabulary), JSON.stringify(report.heldOut_english));
  const tiny = core.loadLanguageModel(new Uint8Array(fs.readFileSync(out)));
  assert.equal(tiny.config.context, 16);
  assert.ok(Math.abs(tiny.evaluate('The cat sat.').bitsPerToken -
    cliLines(['lm-eval', '--model', out, '--text', writeText('c.txt', 'The cat sat.')])[0].bitsPerToken) < 1e-4);
});
