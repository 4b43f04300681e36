// Import on the desktop (Xvfb): `attnlab --import FILE` opens a file numpy wrote (an .npz
// compressed with deflate, inflated by zlib) and the model view shows its weights in the
// shader's colours; the panel exports as a PNG at scale 1 and 2; a damaged, non-finite or
// missing file is refused with a message naming the file and the reason, not a crash.
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
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-desktop-import-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const xvfb = ['-a', '-s', '-screen 0 1280x800x24', app, '--width', '1280', '--height', '800'];

// Cross-attention weights (2 layers, 2 heads, 3 queries, 4 keys): softmax rows of fixed
// scores, written by numpy with np.savez_compressed beside a member the lab ignores, and the
// same values handed back to the test.
const npz = path.join(tmp, 'small.npz');
const weights = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `
import json, sys
import numpy as np
s = np.arange(2 * 2 * 3 * 4, dtype=np.float64).reshape(2, 2, 3, 4)
s = np.sin(s * 1.7) * 3.0
w = (np.exp(s) / np.exp(s).sum(-1, keepdims=True)).astype(np.float32)
np.savez_compressed(sys.argv[1], attentions=w, query_tokens=np.array(["<s>", "le", "chat"]),
                    key_tokens=np.array(["the", "cat", "sat", "down"]), input_ids=np.zeros(3))
print(json.dumps(w.tolist()))
`, npz], { encoding: 'utf8' }));

// xvfb-run itself exits 5 when it cannot remove its temporary directory (this test saw status 5
// on a loaded machine, beside the browser suite's own X server; the app exits 0, 1 or 2): then
// the app's status is lost, and the run is made again, once.
function run(args) {
  const r = spawnSync('xvfb-run', [...xvfb, ...args], { encoding: 'utf8', timeout: 120000 });
  if (r.status === 5 && /problem while cleaning up temporary directory/.test(r.stderr)) {
    console.log(`# xvfb-run could not clean up after ${args.join(' ')}: run again`);
    return spawnSync('xvfb-run', [...xvfb, ...args], { encoding: 'utf8', timeout: 120000 });
  }
  return r;
}

// The focused head's cell (i, j), sampled 30% into the cell.
const cellAt = (png, p, i, j, dx = 0, dy = 0, s = 1) =>
  png.pixel((p.x - dx + (j + 0.3) * (p.w / p.cols)) * s, (p.y - dy + (i + 0.3) * (p.h / p.rows)) * s);

test('desktop --import opens an .npz: the model view shows layer 0, head 0 in the shader colours', () => {
  const out = path.join(artifactsDir, 'desktop-import-model-view.png');
  fs.rmSync(out, { force: true });
  const r = run(['--import', npz, '--frames', '8', '--screenshot', out]);
  assert.equal(r.status, 0, r.stderr);
  const png = decodePng(fs.readFileSync(out));
  const layout = JSON.parse(fs.readFileSync(out + '.json', 'utf8'));
  const focus = layout.heatmaps['model/focus'];
  assert.ok(focus, `no focused head in ${Object.keys(layout.heatmaps)}`);
  assert.deepEqual([focus.rows, focus.cols], [3, 4]);
  // A thumbnail per layer and head (the grid of the model view).
  // Each in the colours of its own head's weights: the last one drawn too (its draw once
  // inherited the clip rectangle of the command before it and showed no colour at all).
  for (let l = 0; l < 2; l++)
    for (let h = 0; h < 2; h++) {
      const thumb = layout.heatmaps[`model/${l}/${h}`];
      assert.ok(thumb, `no thumbnail ${l}/${h}`);
      assert.deepEqual([thumb.rows, thumb.cols], [3, 4]);
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 4; j++) {
          const want = expectedSequential(weights[l][h][i][j]);
          const got = cellAt(png, thumb, i, j);
          assert.ok(colorDistance(got, want) <= 3, `thumbnail ${l}/${h} cell (${i}, ${j}) ${weights[l][h][i][j]}: ${got} vs ${want}`);
        }
    }
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 4; j++) {
      const want = expectedSequential(weights[0][0][i][j]);
      const got = cellAt(png, focus, i, j);
      assert.ok(colorDistance(got, want) <= 3, `cell (${i}, ${j}) ${weights[0][0][i][j]}: ${got} vs ${want}`);
    }
});

test('desktop --export-panel: the panel as PNG, at scale 2 twice the pixels each way', () => {
  const shots = [1, 2].map((scale) => {
    const out = path.join(artifactsDir, `desktop-import-panel-x${scale}.png`);
    fs.rmSync(out, { force: true });
    const r = run(['--import', npz, '--frames', '8', '--export-panel', out, '--export-scale', String(scale),
      '--screenshot', path.join(tmp, `screen-${scale}.png`)]);
    assert.equal(r.status, 0, r.stderr);
    return decodePng(fs.readFileSync(out));
  });
  const [one, two] = shots;
  // The whole 1280 x 800 window: the model view reads none of the scene's settings, so the
  // controls fold away.
  assert.deepEqual([one.width, one.height], [1280, 800]);
  assert.deepEqual([two.width, two.height], [2560, 1600]);
  const layout = JSON.parse(fs.readFileSync(path.join(tmp, 'screen-1.png.json'), 'utf8'));
  const focus = layout.heatmaps['model/focus'];
  for (const [i, j] of [[0, 0], [1, 2], [2, 3]]) {
    const want = expectedSequential(weights[0][0][i][j]);
    const a = cellAt(one, focus, i, j, 0, 0, 1);
    const b = cellAt(two, focus, i, j, 0, 0, 2);
    assert.ok(colorDistance(a, want) <= 3, `scale 1 cell (${i}, ${j}): ${a} vs ${want}`);
    assert.ok(colorDistance(b, want) <= 3, `scale 2 cell (${i}, ${j}): ${b} vs ${want}`);
  }
  const r = spawnSync(app, ['--export-panel', path.join(tmp, 'x.png'), '--export-scale', '5'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--export-scale needs a whole number from 1 to 4/);
});

test('desktop --import refuses a damaged, non-finite or missing file with the reason', () => {
  const damaged = path.join(tmp, 'damaged.npz');
  const bytes = fs.readFileSync(npz);
  fs.writeFileSync(damaged, bytes.subarray(0, bytes.length - 30));
  let r = run(['--import', damaged, '--frames', '2']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^attnlab: damaged\.npz: \.npz: not a zip archive: no end-of-central-directory record$/m);

  const nan = path.join(tmp, 'nan.npy');
  execFileSync('/usr/bin/python3', ['-c', `
import sys
import numpy as np
w = np.full((1, 1, 4, 4), 0.25, dtype=np.float16)
w[0, 0, 2, 1] = np.inf
np.save(sys.argv[1], w)
`, nan]);
  r = run(['--import', nan, '--frames', '2']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^attnlab: nan\.npy: 'the array' contains NaN or Inf at flat index 9$/m);

  r = run(['--import', path.join(tmp, 'missing.npz'), '--frames', '2']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /missing\.npz: cannot open \(No such file or directory\)/);
});
