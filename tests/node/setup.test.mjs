// scripts/setup.sh by purpose: the run command's purposes install none of the tests' tools,
// and the test purpose installs everything both of them do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from '../support/paths.mjs';

const setup = path.join(root, 'scripts', 'setup.sh');
const list = (purpose) => execFileSync('bash', [setup, '--list', purpose], { encoding: 'utf8' }).trim().split('\n');
const TEST_ONLY = ['catch2', 'chromium', 'xvfb', 'imagemagick', 'python3-torch', 'python3-numpy', 'clang', 'libclang-rt-dev', 'wabt',
  'jupyter-nbconvert', 'python3-ipykernel', 'python3-build', 'python3-wheel', 'python3-pytest', 'mypy'];

test('setup.sh --list: web and desktop leave out the tests\' tools; test covers both', () => {
  const web = list('web'), desktop = list('desktop'), all = list('test');
  for (const pkg of TEST_ONLY) {
    assert.ok(!web.includes(pkg), `the web purpose installs ${pkg}`);
    assert.ok(!desktop.includes(pkg), `the desktop purpose installs ${pkg}`);
    assert.ok(all.includes(pkg), `the test purpose lacks ${pkg}`);
  }
  for (const pkg of ['emscripten', 'libharfbuzz-bin', 'libeigen3-dev']) assert.ok(web.includes(pkg), `web lacks ${pkg}`);
  for (const pkg of ['g++', 'libglfw3-dev', 'libeigen3-dev']) assert.ok(desktop.includes(pkg), `desktop lacks ${pkg}`);
  assert.ok(!desktop.includes('emscripten'), 'the desktop purpose installs Emscripten');
  for (const pkg of [...web, ...desktop]) assert.ok(all.includes(pkg), `test lacks ${pkg}, which ${web.includes(pkg) ? 'web' : 'desktop'} installs`);
});

test('setup.sh refuses an unknown purpose with a message and exit code 2', () => {
  const r = spawnSync('bash', [setup, 'webb'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown purpose 'webb' \(web, desktop, test or lm\)/);
});

test('setup.sh --list lm: the native build and the fortune files, no browser or Emscripten', () => {
  const lm = list('lm');
  for (const pkg of ['fortunes', 'fortunes-min', 'fortunes-zh', 'g++', 'libeigen3-dev']) assert.ok(lm.includes(pkg), `lm lacks ${pkg}`);
  for (const pkg of ['emscripten', 'chromium', 'python3-torch']) assert.ok(!lm.includes(pkg), `lm installs ${pkg}`);
});
