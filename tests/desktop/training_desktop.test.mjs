// The training lab on the desktop (Xvfb): a saved run opened with --load-run shows its
// probe attention in the Training panel, the shipped model is the trained scene, and a
// corrupt or truncated model file is refused before any window opens.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifactsDir, nativeDir } from '../support/paths.mjs';
import { decodePng } from '../support/png.mjs';
import { colorDistance, expectedSequential } from '../support/colors.mjs';

const app = path.join(nativeDir, 'attnlab');
const cli = path.join(nativeDir, 'attnlab-cli');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-desktop-train-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function screenshot(name, state, extra = []) {
  const stateFile = path.join(tmp, `${name}.json`);
  fs.writeFileSync(stateFile, JSON.stringify(state));
  const out = path.join(artifactsDir, name);
  fs.rmSync(out, { force: true });
  execFileSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24', app, '--width', '1280', '--height', '800',
    '--state', stateFile, ...extra, '--screenshot', out], { stdio: 'pipe', timeout: 120000 });
  return { png: decodePng(fs.readFileSync(out)), layout: JSON.parse(fs.readFileSync(out + '.json', 'utf8')) };
}

// A causal head's first query sees only itself (weight 1) and no later key (weight 0).
function assertCausalCorner(png, p) {
  const at = (i, j) => png.pixel(p.x + (j + 0.5) * (p.w / p.cols), p.y + (i + 0.5) * (p.h / p.rows));
  assert.ok(colorDistance(at(0, 0), expectedSequential(1)) <= 3, `cell (0,0) ${at(0, 0)}`);
  assert.ok(colorDistance(at(0, 1), expectedSequential(0)) <= 3, `cell (0,1) ${at(0, 1)}`);
  assert.ok(colorDistance(at(1, 2), expectedSequential(0)) <= 3, `cell (1,2) ${at(1, 2)}`);
}

const run = path.join(tmp, 'run.attnmodel');
execFileSync(cli, ['train', '--task', 'previous', '--layers', '1', '--steps', '40', '--seed', '2', '--quiet', '--out', run]);

test('desktop --load-run opens a saved run in the Training panel with its probe attention', () => {
  const { png, layout } = screenshot('desktop-training-run.png', { panel: 'training' }, ['--load-run', run]);
  for (const id of ['train/L0H0', 'train/L0H1']) {
    const p = layout.heatmaps[id];
    assert.ok(p, `no heatmap ${id}`);
    assert.equal(p.rows, 32);
    assertCausalCorner(png, p);
  }
});

test('desktop: the shipped model is the trained scene; its layer 1 heads on the probe sequence', () => {
  const { png, layout } = screenshot('desktop-trained-scene.png', { source: 'trained', panel: 'heads', layer: 1, cursor: -1 });
  const p = layout.heatmaps['heads/0'];
  assert.ok(p && layout.heatmaps['heads/1'] && !layout.heatmaps['heads/2']);
  assert.equal(p.rows, 22);  // the shipped model's probe: 11 symbols and their repeat
  assertCausalCorner(png, p);
});

test('desktop refuses a corrupt or truncated model file with the reason', () => {
  const bytes = fs.readFileSync(run);
  const corrupt = path.join(tmp, 'corrupt.attnmodel');
  const flipped = Buffer.from(bytes);
  flipped[200] ^= 1;
  fs.writeFileSync(corrupt, flipped);
  let r = spawnSync(app, ['--load-run', corrupt], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /corrupt\.attnmodel: model file: checksum mismatch/);
  const cut = path.join(tmp, 'cut.attnmodel');
  fs.writeFileSync(cut, bytes.subarray(0, 1000));
  r = spawnSync(app, ['--trained-model', cut], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--trained-model .*cut\.attnmodel: cut\.attnmodel: truncated: the file has 1000 bytes/);
});
