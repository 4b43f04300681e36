// The lab's choices are written once, in the core's tables: the JS module hands them out
// (choices()), its checks and the CLI's refusals list them, and the shipped declarations'
// unions are written from them by cmake/steps/make-site.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { distDir } from '../support/paths.mjs';
import { cli } from '../support/cli.mjs';

const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
const core = await createAttnlabCore();
const choices = core.choices();
const names = (rows, column) => rows.filter((row) => !column || row[column]).map((row) => row.name);

test('choices(): the tables, a row per value with its columns', () => {
  assert.deepEqual(names(choices.efficientKind), ['exact', 'window', 'strided', 'blocksparse', 'linear', 'performer', 'linformer']);
  assert.deepEqual(names(choices.efficientKind, 'variant'), ['window', 'strided', 'blocksparse', 'linear', 'performer', 'linformer']);
  assert.deepEqual(choices.efficientKind.filter((row) => !row.causal).map((row) => row.name), ['linformer']);
  assert.deepEqual(choices.efficientKind.map((row) => row.parameter), [null, 'window', 'stride', 'block', null, 'features', 'rank']);
  assert.deepEqual(names(choices.positional), ['none', 'sinusoidal', 'rope', 'alibi']);
  assert.deepEqual(names(choices.positional, 'evenDk'), ['rope']);
  assert.deepEqual(names(choices.positional, 'encoding'), ['sinusoidal']);
  assert.deepEqual(names(choices.positional, 'inside'), ['rope', 'alibi']);
  assert.deepEqual(names(choices.ropePairing), ['half', 'interleaved']);
  assert.deepEqual(names(choices.scoreFunction), ['dot', 'cosine', 'additive']);
  assert.deepEqual(names(choices.scoreFunction, 'qk'), ['dot', 'cosine']);
  assert.deepEqual(names(choices.theme), ['dark', 'light', 'high-contrast']);
  // A fresh copy each call: a caller's change does not reach the module's checks.
  core.choices().efficientKind.pop();
  assert.equal(core.choices().efficientKind.length, 7);
});

test('the module checks and refuses by the tables', () => {
  const x = core.randomNormal({ seed: 1, rows: 8, cols: 4 });
  const variants = names(choices.efficientKind, 'variant');
  assert.throws(() => core.efficientAttention({ variant: 'dense', q: x, k: x, v: x, n: 8, dk: 4, dv: 4 }),
    new RegExp(`^RangeError: variant must be one of ${variants.join(', ')}, got 'dense'$`));
  assert.throws(() => core.costChart({ variants: ['dense'] }), new RegExp(`\\(${names(choices.efficientKind).join(', ')}\\)`));
  for (const variant of variants) {
    const r = core.efficientAttention({ variant, q: x, k: x, v: x, n: 8, dk: 4, dv: 4, window: 2, rank: 4, features: 8 });
    assert.equal(r.output.length, 32, variant);
  }
  for (const pairing of names(choices.ropePairing))
    assert.equal(core.attention({ q: x, k: x, v: x, nq: 8, nk: 8, dk: 4, dv: 4, positional: { kind: 'rope', pairing } }).output.length, 32);
  assert.throws(() => core.attention({ q: x, k: x, v: x, nq: 8, nk: 8, dk: 4, dv: 4, positional: { kind: 'rope', pairing: 'x' } }),
    /positional\.pairing must be 'half' or 'interleaved', got 'x'/);
});

test("the CLI's refusals and usage list the tables' names", () => {
  const run = (args) => spawnSync(cli, args, { encoding: 'utf8' });
  // The names are checked before any file is opened: these paths are never read.
  const files = ['--q', 'q.npy', '--k', 'k.npy', '--v', 'v.npy', '--out', 'never-written'];
  const variants = names(choices.efficientKind, 'variant');
  const orJoined = (list) => `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
  assert.equal(run(['variant', '--kind', 'dense', ...files]).stderr.trim(), `attnlab-cli: --kind must be ${orJoined(variants)}, got 'dense'`);
  assert.match(run(['cost-chart', '--kinds', 'dense']).stderr, new RegExp(`unknown kind 'dense' \\(${names(choices.efficientKind).join(', ')}\\)`));
  assert.match(run(['sdpa', '--score', 'additive', ...files]).stderr, new RegExp(`--score must be ${orJoined(names(choices.scoreFunction, 'qk'))}`));
  const usage = run(['--help']).stdout;
  assert.ok(usage.includes(`variant --kind ${variants.join('|')} `), usage);
  assert.ok(usage.includes(`[--rope-pairing ${names(choices.ropePairing).join('|')}]`), usage);
});

test("the shipped declarations' unions are the module's tables", () => {
  const dts = fs.readFileSync(path.join(distDir, 'attnlab-core.d.ts'), 'utf8');
  assert.doesNotMatch(dts, /= string; \/\/ @choices/, 'make-site left a mark unreplaced');
  const union = (type) => {
    const m = dts.match(new RegExp(`^export type ${type} = (.*);$`, 'm'));
    assert.ok(m, `no type ${type}`);
    return m[1].split(' | ').map((name) => JSON.parse(name.replaceAll("'", '"')));
  };
  assert.deepEqual(union('EfficientVariant'), names(choices.efficientKind, 'variant'));
  assert.deepEqual(union('EfficientKind'), names(choices.efficientKind));
  assert.deepEqual(union('RopePairing'), names(choices.ropePairing));
  assert.deepEqual(union('PositionalScheme'), names(choices.positional));
  assert.deepEqual(union('ScoreFunction'), names(choices.scoreFunction));
  assert.deepEqual(union('Theme'), names(choices.theme));
  // The source keeps the mark, not the names.
  const source = fs.readFileSync(new URL('../../web/attnlab-core.d.ts', import.meta.url), 'utf8');
  assert.match(source, /^export type EfficientVariant = string; \/\/ @choices efficientKind variant$/m);
});

test("the embed's themes are the table's, written into the published script", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'asset-manifest.json'), 'utf8'));
  const embed = fs.readFileSync(path.join(distDir, manifest['embed.mjs']), 'utf8');
  assert.doesNotMatch(embed, /= \[\]; \/\/ @choices/, 'make-site left a mark unreplaced');
  const m = embed.match(/^const THEMES = (\[.*\]);$/m);
  assert.ok(m, 'no THEMES in the published embed.mjs');
  assert.deepEqual(JSON.parse(m[1].replaceAll("'", '"')), names(choices.theme));
  // The offline figure carries the same names; the source keeps the mark.
  assert.ok(fs.readFileSync(path.join(distDir, 'attnlab-embed-offline.html'), 'utf8').includes(`const THEMES = ${m[1]};`));
  const source = fs.readFileSync(new URL('../../web/embed.mjs', import.meta.url), 'utf8');
  assert.match(source, /^const THEMES = \[\]; \/\/ @choices theme$/m);
});
