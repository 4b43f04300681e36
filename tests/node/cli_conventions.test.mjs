// attnlab-cli's conventions, for every command: `COMMAND --help`, `COMMAND -h` and `help COMMAND`
// print that command's usage on stdout and exit 0; `--version` prints package.json's version;
// `--name=value` is `--name value`; exit code 2 only for the command line itself (an unknown
// command or option, a missing or bad value), 1 for everything else (a missing or refused file,
// an output that cannot be written); results on stdout, progress and notes on stderr.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from '../support/cli.mjs';
import { writeNpy } from '../support/npy.mjs';
import { root } from '../support/paths.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-cli-conventions-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (args) => spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26 });

// The whole listing's blocks: a command's usage is its lines from "  NAME ..." up to the next
// command's first line (continuation lines are indented further).
const listing = run(['--help']);
const usages = new Map();
for (const line of listing.stdout.split('\n')) {
  const first = line.match(/^ {2}([a-z][a-z0-9-]*)(?: |$)/);
  if (first) usages.set(first[1], '');
  if (usages.size > 0 && line.startsWith('  ')) {
    const name = [...usages.keys()].at(-1);
    usages.set(name, usages.get(name) + line + '\n');
  }
}
const commands = [...usages.keys()];

test('--help lists the commands on stdout and exits 0; no command at all is a usage error', () => {
  assert.equal(listing.status, 0, listing.stderr);
  assert.match(listing.stdout, /^usage: attnlab-cli COMMAND/);
  assert.ok(commands.length >= 20, `commands found: ${commands.join(', ')}`);
  for (const name of ['sdpa', 'mha', 'softmax', 'train', 'lm-train', 'export', 'rollout', 'variant', 'kv-cache']) {
    assert.ok(commands.includes(name), `${name} is not listed`);
  }
  for (const args of [['help'], ['-h']]) assert.equal(run(args).stdout, listing.stdout, args.join(' '));
  const none = run([]);
  assert.equal(none.status, 2);
  assert.equal(none.stdout, '');
  assert.match(none.stderr, /^usage: attnlab-cli COMMAND/);
});

for (const name of commands) {
  test(`${name}: --help, -h and help ${name} print its usage and exit 0`, () => {
    const forms = [[name, '--help'], [name, '-h'], ['help', name]];
    const outputs = forms.map((args) => {
      const r = run(args);
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr, '', args.join(' '));
      assert.ok(r.stdout.startsWith(`usage: attnlab-cli ${name} `), `${args.join(' ')}:\n${r.stdout}`);
      assert.ok(r.stdout.includes(usages.get(name)), `${args.join(' ')} lacks the usage lines:\n${r.stdout}`);
      // More than the listing's lines: what the command does.
      assert.ok(r.stdout.length > usages.get(name).length + 80, `${args.join(' ')} says nothing more:\n${r.stdout}`);
      return r.stdout;
    });
    assert.equal(outputs[1], outputs[0]);
    assert.equal(outputs[2], outputs[0]);
  });

  test(`${name}: an unknown option is a usage error (exit 2, one line, nothing on stdout)`, () => {
    const r = run([name, '--no-such-option']);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, "attnlab-cli: unknown option '--no-such-option'\n");
  });
}

test('help for an unknown command, an unknown command: exit 2', () => {
  for (const args of [['help', 'frobnicate'], ['frobnicate'], ['frobnicate', '--help']]) {
    const r = run(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stderr, "attnlab-cli: unknown command 'frobnicate' (see attnlab-cli --help)\n");
  }
});

test('--help wins over a bad option before it', () => {
  const r = run(['random', '--bogus', '--help']);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.startsWith('usage: attnlab-cli random '));
});

test("--version prints package.json's version", () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const r = run(['--version']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^attnlab-cli \d+\.\d+\.\d+\n$/);
  assert.equal(r.stdout, `attnlab-cli ${version}\n`);
  assert.equal(run(['--version', 'extra']).status, 2);
});

// A small sdpa problem.
const q = path.join(dir, 'q.npy'), k = path.join(dir, 'k.npy'), v = path.join(dir, 'v.npy');
writeNpy(q, [2, 4], [1, 0, 0, 1, 1, 1, 0, 0]);
writeNpy(k, [3, 4], Array(12).fill(0.5).map((x, i) => x * (i % 5)));
writeNpy(v, [3, 2], [1, 2, 3, 4, 5, 6]);

test('--name=value is --name value', () => {
  const random = (args) => {
    const r = run(['random', ...args]);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  assert.equal(random(['--seed=7', '--rows=2', '--cols=3']), random(['--seed', '7', '--rows', '2', '--cols', '3']));

  const sdpa = (args) => {
    const out = path.join(dir, 'sdpa-' + Math.random().toString(36).slice(2));
    const r = run(['sdpa', ...args(out)]);
    assert.equal(r.status, 0, r.stderr);
    return ['scores.npy', 'weights.npy', 'output.npy'].map((f) => fs.readFileSync(path.join(out, f)).toString('hex'));
  };
  assert.deepEqual(sdpa((out) => [`--q=${q}`, `--k=${k}`, `--v=${v}`, '--scale=0.25', '--causal', `--out=${out}`]),
    sdpa((out) => ['--q', q, '--k', k, '--v', v, '--scale', '0.25', '--causal', '--out', out]));

  const kv = (args) => {
    const r = run(['kv-cache', ...args, '--measurements', '1']);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout).bytesPerToken;
  };
  assert.equal(kv(['--heads=16', '--kv-heads=4', '--dk=32', '--n=8']), kv(['--heads', '16', '--kv-heads', '4', '--dk', '32', '--n', '8']));

  // A value that itself starts with "--", or holds "=", passes through the = form.
  const patch = run(['lm-patch', '--model=' + path.join(dir, 'none.attnlm'), '--clean=a=b', '--corrupt=--help', '--answer=a', '--foil=b']);
  assert.equal(patch.status, 1, patch.stderr);
  assert.match(patch.stderr, /none\.attnlm: no such file/);
});

test('usage errors: a missing value, a switch given a value, a repeat, a bad number, a missing required option (exit 2)', () => {
  for (const [args, reason] of [
    [['random', '--seed', '1', '--rows', '2', '--cols'], /--cols needs a value/],
    [['sdpa', `--q=${q}`, `--k=${k}`, `--v=${v}`, '--causal=yes', '--out', dir], /--causal is a switch and takes no value/],
    [['random', '--seed', '1', '--seed=2', '--rows', '2', '--cols', '2'], /--seed is given twice/],
    [['random', '--seed', 'one', '--rows', '2', '--cols', '2'], /--seed needs a whole number from 0 to \d+, got 'one'/],
    [['random', '--seed', '1', '--rows', '2'], /random needs --cols/],
    [['sdpa', '--q', q, '--k', k, '--v', v], /sdpa needs --out/],
    [['sdpa', '--q', q, '--k', k, '--v', v, '--score', 'additive', '--out', dir], /--score must be/],
  ]) {
    const r = run(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.split('\n').length, 2, r.stderr);
    assert.match(r.stderr, reason);
  }
});

test('runtime errors: a missing file, a refused file, an output that cannot be written (exit 1, one line)', () => {
  const garbage = path.join(dir, 'garbage.npy');
  fs.writeFileSync(garbage, Buffer.from('\x00\x01 these bytes are not a NumPy file \xff\xfe'.repeat(8), 'latin1'));
  const aFile = path.join(dir, 'a-file');
  fs.writeFileSync(aFile, 'x');
  const weights = path.join(dir, 'weights.npy');
  writeNpy(weights, [1, 1, 2, 2], [1, 0, 0.5, 0.5]);
  for (const [args, reason] of [
    [['sdpa', '--q', path.join(dir, 'missing.npy'), '--k', k, '--v', v, '--out', path.join(dir, 'o1')], /missing\.npy: cannot open/],
    [['sdpa', '--q', garbage, '--k', k, '--v', v, '--out', path.join(dir, 'o2')], /garbage\.npy: /],
    [['softmax', '--in', garbage, '--out', path.join(dir, 'o3')], /garbage\.npy: /],
    [['rollout', '--in', garbage, '--out', path.join(dir, 'r.npy')], /garbage\.npy/],
    [['model-info', '--in', path.join(dir, 'missing.attnmodel')], /missing\.attnmodel: no such file/],
    [['model-info', '--in', garbage], /garbage\.npy: /],
    [['lm-heads', '--model', garbage, '--text', garbage], /garbage\.npy: /],
    [['rollout', '--in', weights, '--out', path.join(dir, 'no-such-folder', 'r.npy')], /no-such-folder/],
    [['export', '--in', weights, '--format', 'csv', '--out', path.join(dir, 'no-such-folder', 'w.csv')], /no-such-folder.*cannot write/],
    [['sdpa', '--q', q, '--k', k, '--v', v, '--out', path.join(aFile, 'sub')], /a-file/],
    [['train', '--task', 'copy', '--steps', '1', '--out', path.join(dir, 'no-such-folder', 'm.attnmodel')], /the folder does not exist/],
    [['lm-train', '--text', path.join(dir, 'missing.txt'), '--out', path.join(dir, 'x.attnlm')], /missing\.txt: no such file/],
  ]) {
    const r = run(args);
    assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '', args.join(' '));
    assert.equal(r.stderr.split('\n').length, 2, r.stderr);
    assert.match(r.stderr, reason);
  }
  assert.equal(fs.existsSync(path.join(dir, 'no-such-folder')), false);
});

test('train: progress on stderr, one JSON line on stdout', () => {
  const out = path.join(dir, 'copy.attnmodel');
  const r = run(['train', '--task', 'copy', '--steps', '20', '--log-every', '10', '--eval', '10', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, r.stdout);
  assert.equal(JSON.parse(lines[0]).steps, 20);
  assert.match(r.stderr, /^training copy: /);
  assert.equal(r.stderr.match(/^step +\d+ +loss /gm).length, 2, r.stderr);
});

test('scaling-experiment: each run and the table on stderr, one JSON line on stdout', () => {
  const r = run(['scaling-experiment', '--d-model', '8', '--heads', '1', '--control-heads', '2', '--steps', '10',
    '--window', '5', '--seeds', '1']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, r.stdout);
  assert.equal(JSON.parse(lines[0]).runs.length, 4);
  assert.match(r.stderr, /^scaling experiment: /);
  assert.equal(r.stderr.match(/^d_k +\d+ +seed /gm).length, 4, r.stderr);
  assert.match(r.stderr, /median steps to loss/);
});

test('lm-train --text: progress on stderr, the report as one JSON line on stdout', () => {
  const text = path.join(dir, 'gpl.txt');
  fs.copyFileSync('/usr/share/common-licenses/GPL-3', text);
  const r = run(['lm-train', '--text', text, '--preset', 'quick', '--steps', '4', '--out', path.join(dir, 'gpl.attnlm')]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, r.stdout);
  assert.equal(JSON.parse(lines[0]).steps, 4);
  assert.match(r.stderr, /^lm-train: .*gpl\.txt: \d+ characters/m);
  assert.match(r.stderr, /^lm-train: step 4\/4 /m);
});
