// attnlab-cli lm-patch on the shipped language model (assets/fortunes-lm.attnlm): the JSON's
// shape for both grids, the properties that can be checked from outside (the residual grid's
// first row restores only at the changed character, its last row only at the last position,
// nothing before the change moves; a last-layer head at the last position alone is its
// every-position cell; the same prompt twice gives null everywhere), and each refusal with
// exit code 2 and one line on stderr. Needs the native build only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { nativeDir, root } from '../support/paths.mjs';

const cli = path.join(nativeDir, 'attnlab-cli');
const model = path.join(root, 'assets', 'fortunes-lm.attnlm');
// "mat" against "hat": the m is position 20 (position 0 is the start token), the last is 22.
const pair = ['--model', model, '--clean', 'The cat sat on the mat', '--corrupt', 'The cat sat on the hat', '--answer', ' ', '--foil', 's'];
const changed = 20;
const last = 22;

function patch(args) {
  const r = spawnSync(cli, ['lm-patch', ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}
// Exit code 2 when the command line itself is wrong, 1 when the model or the prompts refuse.
function expectRefusal(args, pattern, code = 1) {
  const r = spawnSync(cli, ['lm-patch', ...args], { encoding: 'utf8' });
  assert.equal(r.status, code, `exit code for ${args.join(' ')}: ${r.stderr}`);
  assert.equal(r.stdout, '');
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got: ${r.stderr}`);
  assert.match(lines[0], pattern);
}

test('lm-patch by head: the differences and a layers x heads grid', () => {
  const r = patch(pair);
  assert.deepEqual(Object.keys(r).sort(), ['by', 'cleanDiff', 'cleanTokens', 'cols', 'corruptDiff', 'corruptTokens', 'grid', 'position', 'rows']);
  assert.equal(r.by, 'head');
  assert.equal(r.position, null);
  assert.equal(r.rows, 2);
  assert.equal(r.cols, 4);
  assert.equal(r.grid.length, 2);
  for (const row of r.grid) {
    assert.equal(row.length, 4);
    for (const v of row) assert.ok(Number.isFinite(v), `cell ${v}`);
  }
  assert.ok(Math.abs(r.cleanDiff - r.corruptDiff) > 1, `${r.cleanDiff} vs ${r.corruptDiff}`);
  assert.equal(r.cleanTokens.length, last + 1);
  assert.equal(r.cleanTokens[0], '<s>');
  assert.equal(r.cleanTokens[changed], 'm');
  assert.equal(r.corruptTokens[changed], 'h');
  // A last-layer head at the last position alone: its every-position cell (its other rows
  // reach no later layer).
  const atLast = patch([...pair, '--position', String(last)]);
  assert.equal(atLast.position, last);
  assert.deepEqual(atLast.grid[1], r.grid[1]);
  assert.equal(atLast.cleanDiff, r.cleanDiff);
  // At the start token nothing differs between the runs.
  assert.deepEqual(patch([...pair, '--position', '0']).grid, [[0, 0, 0, 0], [0, 0, 0, 0]]);
});

test('lm-patch by residual: (layers + 1) x positions, restored where the properties say', () => {
  const r = patch([...pair, '--by', 'residual']);
  assert.equal(r.by, 'residual');
  assert.equal(r.rows, 3);
  assert.equal(r.cols, last + 1);
  for (let p = 0; p <= last; p++) {
    // Entering layer 0 (the embeddings): only the changed character differs, and patching it
    // makes the input the clean one.
    assert.ok(Math.abs(r.grid[0][p] - (p === changed ? 1 : 0)) < 1e-5, `row 0, position ${p}: ${r.grid[0][p]}`);
    // After the last layer: the difference is read at the last position alone.
    assert.ok(Math.abs(r.grid[2][p] - (p === last ? 1 : 0)) < 1e-5, `row 2, position ${p}: ${r.grid[2][p]}`);
    if (p < changed) for (const row of r.grid) assert.equal(row[p], 0, `position ${p} comes before the change`);
  }
});

test('lm-patch: the same prompt twice has no fraction (null)', () => {
  const r = patch(['--model', model, '--clean', 'The cat', '--corrupt', 'The cat', '--answer', ' ', '--foil', 's', '--by', 'residual']);
  assert.equal(r.cleanDiff, r.corruptDiff);
  assert.ok(r.grid.flat().every((v) => v === null));
});

test('lm-patch refuses bad input with one line and exit code 2', () => {
  const base = { '--model': model, '--clean': 'The cat', '--corrupt': 'The cot', '--answer': ' ', '--foil': 's' };
  const args = (change) => Object.entries({ ...base, ...change }).filter(([, v]) => v !== undefined).flat();
  expectRefusal(args({ '--corrupt': 'The cats' }), /the clean prompt has 7 characters and the corrupted prompt 8: patching needs prompts of the same length/);
  expectRefusal(args({ '--clean': '' }), /the clean prompt: the prompt is empty/);
  expectRefusal(args({ '--clean': 'x'.repeat(130), '--corrupt': 'y'.repeat(130) }), /the clean prompt: the prompt has 130 characters; the model reads at most 127/);
  expectRefusal(args({ '--corrupt': 'The c\u{1F600}t' }), /the corrupted prompt: '😀' \(U\+1F600\) is not in the model's vocabulary/);
  expectRefusal(args({ '--answer': 'ab' }), /the answer: must be exactly one character; 'ab' has 2/);
  expectRefusal(args({ '--foil': '\u{1F600}' }), /the foil: '😀' \(U\+1F600\) is not in the model's vocabulary/);
  expectRefusal(args({ '--foil': ' ' }), /the answer and the foil are both ' '/);
  expectRefusal(args({ '--by': 'mlp' }), /unknown patching grid 'mlp'; the grids are head, residual/, 2);
  expectRefusal(args({ '--position': '8' }), /the position must be from 0 \(the start token\) to 7 \(the last character\), got 8/);
  expectRefusal(args({ '--position': '-1' }), /--position needs a whole number from 0/, 2);
  expectRefusal(args({ '--position': '3', '--by': 'residual' }), /a position applies to the head grid only/);
  expectRefusal(args({ '--foil': undefined }), /lm-patch needs --model FILE, --clean TEXT, --corrupt TEXT, --answer C and --foil C/, 2);
  expectRefusal(args({ '--model': path.join(root, 'no-such.attnlm') }), /no-such\.attnlm: no such file/);
  expectRefusal(args({ '--model': path.join(root, 'assets', 'induction-2l.attnmodel') }), /task model file/);
  expectRefusal([...args({}), '--bogus', '1'], /unknown option '--bogus'/, 2);
});

test('attnlab-cli --help lists lm-patch', () => {
  const r = spawnSync(cli, ['--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /\n {2}lm-patch --model FILE --clean TEXT --corrupt TEXT --answer C --foil C \[--by head\|residual\]\n {11}\[--position P\]\n/);
});
