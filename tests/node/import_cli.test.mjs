// attnlab-cli export: files written by numpy/torch (tests/python/import_fixtures.py) exported
// as .npy (checked by numpy: shape and values), SVG (one cell element per visible cell), PNG
// (scale 2 = twice the pixels each way), CSV; bad files and options refused with one line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from '../support/cli.mjs';
import { decodePng } from '../support/png.mjs';
import { root } from '../support/paths.mjs';

const PYTHON = '/usr/bin/python3';
const FIXTURES = path.join(root, 'tests', 'python', 'import_fixtures.py');
let dir;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-import-cli-'));
  execFileSync(PYTHON, [FIXTURES, 'fixtures', dir]);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(args) {
  return spawnSync(cli, ['export', ...args], { encoding: 'utf8' });
}

test('export .npy of a deflate-compressed cross-attention file loads in numpy with its values', () => {
  const out = path.join(dir, 'l1h2.npy');
  const r = run(['--in', path.join(dir, 'cross_f32.npz'), '--layer', '1', '--head', '2', '--format', 'npy', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  const line = JSON.parse(r.stdout);
  assert.deepEqual([line.rows, line.cols, line.layer, line.head], [4, 6, 1, 2]);
  const check = JSON.parse(execFileSync(PYTHON, [FIXTURES, 'check-npy', out, path.join(dir, 'cross_f32.npz'), 'attentions', '1', '2'], { encoding: 'utf8' }));
  assert.deepEqual(check.shape, [4, 6]);
  assert.equal(check.max_abs_diff, 0);
});

test('export float16 batch entry: SVG cells, PNG scale, CSV header, hidden special tokens', () => {
  const input = path.join(dir, 'self_f16_batch.npz');
  const svg = path.join(dir, 'x.svg');
  assert.equal(run(['--in', input, '--batch', '1', '--format', 'svg', '--hide-special', '--out', svg]).status, 0);
  assert.equal((fs.readFileSync(svg, 'utf8').match(/<rect class="cell"/g) || []).length, 9);  // a dog ran: 3 x 3
  const sizes = [1, 2].map((scale) => {
    const png = path.join(dir, `x${scale}.png`);
    const r = run(['--in', input, '--batch', '1', '--layer', '2', '--format', 'png', '--scale', String(scale), '--out', png]);
    assert.equal(r.status, 0, r.stderr);
    const img = decodePng(fs.readFileSync(png));
    return [img.width, img.height];
  });
  assert.deepEqual(sizes, [[56, 56], [112, 112]]);
  const csv = path.join(dir, 'x.csv');
  assert.equal(run(['--in', input, '--batch', '1', '--format', 'csv', '--out', csv]).status, 0);
  assert.equal(fs.readFileSync(csv, 'utf8').split('\n')[0], 'query\\key,[CLS],a,dog,ran,[SEP],[PAD],[PAD]');
});

test('export refuses bad files and options with one line, writing nothing', () => {
  const out = path.join(dir, 'never.npy');
  for (const [args, pattern, code] of [
    [['--in', path.join(dir, 'not_attention.npz'), '--format', 'npy'], /not_attention\.npz: \.npz: not a zip archive/, 1],
    [['--in', path.join(dir, 'missing.npz'), '--format', 'npy'], /missing\.npz: cannot open/, 1],
    [['--in', path.join(dir, 'cross_f32.npz'), '--format', 'gif'], /export format must be/, 2],
    [['--in', path.join(dir, 'cross_f32.npz'), '--format', 'npy', '--layer', '5'], /--layer 5: the file has 2 layers/, 1],
    [['--in', path.join(dir, 'cross_f32.npz'), '--format', 'npy', '--matrix', 'rawScores'], /score matrices need q, k and v/, 1],
    [['--in', path.join(dir, 'self_f16_batch.npz'), '--format', 'npy', '--batch', '2'], /batch 2 does not exist/, 1],
  ]) {
    const r = run([...args, '--out', out]);
    assert.equal(r.status, code, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr.trim(), pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.equal(fs.existsSync(out), false);
  }
});
