// attnlab-cli refuses bad input with one line on stderr naming the file and the problem, exit
// code 1 (2 when the command line itself is wrong), and leaves no partial output behind.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nativeDir } from '../support/paths.mjs';
import { cli, cliRunner } from '../support/cli.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-cli-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

// A minimal .npy writer for the tests (float32 or bool, C order, version 1.0).
function npy(name, shape, values, descr = '<f4') {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(pre);
  pre.writeUInt16LE(header.length, 8);
  const data = descr === '|b1' ? Buffer.from(values.map((v) => (v ? 1 : 0))) : Buffer.from(new Float32Array(values).buffer);
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), data]));
  return file;
}

const q = npy('q.npy', [2, 4], [1, 0, 0, 1, 1, 1, 0, 0]);
const k = npy('k.npy', [3, 4], Array(12).fill(0.5));
const v = npy('v.npy', [3, 2], [1, 2, 3, 4, 5, 6]);

const { cliRun, expectRefusal, expectUsageError } = cliRunner(dir);

test('sdpa writes the three outputs for good input', () => {
  const r = cliRun(['sdpa', '--q', q, '--k', k, '--v', v]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(fs.readdirSync(r.out).sort(), ['output.npy', 'scores.npy', 'weights.npy']);
});

test('wrong shapes name the file', () => {
  expectRefusal(['sdpa', '--q', q, '--k', npy('k5.npy', [3, 5], Array(15).fill(0)), '--v', v], /k5\.npy: last dimension 5 must equal Q's d_k 4/);
  expectRefusal(['sdpa', '--q', q, '--k', k, '--v', npy('v4.npy', [4, 2], Array(8).fill(0))], /v4\.npy: has 4 rows, K has n_k = 3/);
  expectRefusal(['sdpa', '--q', q, '--k', k, '--v', v, '--mask', npy('m.npy', [2, 2], [1, 1, 1, 1], '|b1')], /m\.npy: shape \(2, 2\) does not end in \(n_q, n_k\)/);
});

test('NaN, unsupported dtype, truncated and malformed files, missing files', () => {
  expectRefusal(['sdpa', '--q', npy('nan.npy', [2, 4], [1, NaN, 0, 0, 0, 0, 0, 0]), '--k', k, '--v', v], /nan\.npy contains NaN or Inf at index 1/);
  expectRefusal(['sdpa', '--q', npy('i8.npy', [2, 4], [0, 0, 0, 0, 0, 0, 0, 0], '<c8'), '--k', k, '--v', v], /i8\.npy: unsupported dtype '<c8'/);
  const trunc = path.join(dir, 'trunc.npy');
  fs.writeFileSync(trunc, fs.readFileSync(q).subarray(0, 70));
  expectRefusal(['sdpa', '--q', trunc, '--k', k, '--v', v], /trunc\.npy: truncated/);
  const junk = path.join(dir, 'junk.npy');
  fs.writeFileSync(junk, 'this is not numpy');
  expectRefusal(['sdpa', '--q', junk, '--k', k, '--v', v], /junk\.npy: /);
  expectRefusal(['sdpa', '--q', path.join(dir, 'missing.npy'), '--k', k, '--v', v], /missing\.npy: cannot open/);
});

test('mha: d_model not divisible by heads, bad options', () => {
  const x = npy('x.npy', [1, 2, 6], Array(12).fill(0.1));
  const w = npy('w.npy', [18, 6], Array(108).fill(0.01));
  const wo = npy('wo.npy', [6, 6], Array(36).fill(0.01));
  expectRefusal(['mha', '--query', x, '--heads', '4', '--in-proj-weight', w, '--out-proj-weight', wo], /embed dim 6 \(from .*x\.npy\) is not divisible by 4 heads/);
  expectUsageError(['mha', '--query', x, '--heads', 'two', '--in-proj-weight', w, '--out-proj-weight', wo], /--heads needs a whole number/);
  expectRefusal(['mha', '--query', x, '--heads', '2', '--in-proj-weight', wo, '--out-proj-weight', wo], /wo\.npy: shape \(6, 6\) must be \(3E, E\) = \(18, 6\)/);
  const r = cliRun(['mha', '--query', x, '--heads', '2', '--in-proj-weight', w, '--out-proj-weight', wo]);
  assert.equal(r.status, 0, r.stderr);
});

test('unknown commands and options', () => {
  expectUsageError(['sdpa', '--q', q, '--k', k, '--v', v, '--bogus', '1'], /unknown option '--bogus'/);
  expectUsageError(['frobnicate'], /unknown command 'frobnicate'/);
  expectUsageError(['sdpa', '--q', q, '--k', k, '--v', v, '--scale', 'nan'], /--scale needs a finite number/);
});

test('rollout writes (L, n, n) for self-attention and refuses cross-attention, bad pools and shares', () => {
  // Two layers of one head on two tokens: rows of [[1, 0], [0.5, 0.5]].
  const w = npy('w.npy', [2, 1, 2, 2], [1, 0, 0.5, 0.5, 1, 0, 0.5, 0.5]);
  const r = cliRun(['rollout', '--in', w, '--residual', '0']);
  assert.equal(r.status, 0, r.stderr);
  const bytes = fs.readFileSync(r.out);
  const headerLength = bytes.readUInt16LE(8);
  assert.match(bytes.subarray(10, 10 + headerLength).toString('latin1'), /'descr': '<f4'.*'shape': \(2, 2, 2\)/);
  const values = Array.from(new Float32Array(bytes.buffer.slice(bytes.byteOffset + 10 + headerLength, bytes.byteOffset + bytes.length)));
  // With no residual, R_1 = A A: the second row becomes [0.75, 0.25].
  assert.deepEqual(values, [1, 0, 0.5, 0.5, 1, 0, 0.75, 0.25]);
  assert.deepEqual(JSON.parse(r.stdout), { out: r.out, layers: 2, heads: 1, n: 2, pool: 'mean', residual: 0, batch: 0 });
  const cross = npy('cross.npy', [1, 1, 2, 3], Array(6).fill(1 / 3));
  expectRefusal(['rollout', '--in', cross], /cross\.npy: rollout needs self-attention; this file has 2 queries and 3 keys \(cross-attention\)/);
  expectUsageError(['rollout', '--in', w, '--heads', 'median'], /--heads must be mean or max, not 'median'/);
  expectUsageError(['rollout', '--in', w, '--residual', '1.5'], /--residual must be a number from 0 to 1/);
  expectUsageError(['rollout', '--in', w, '--residual', 'half'], /--residual must be a number from 0 to 1/);
  expectRefusal(['rollout', '--in', path.join(dir, 'missing.npy')], /missing\.npy/);
});
