// The desktop app under Xvfb: it starts, draws the heatmap with the right colours,
// and refuses bad arguments with a clear message.
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
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-desktop-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('desktop --screenshot of the worked example shows its weights in the shader colours', () => {
  const stateFile = path.join(tmp, 'state.json');
  fs.writeFileSync(stateFile, JSON.stringify({ source: 'worked-example', panel: 'token', cursor: -1 }));
  const out = path.join(artifactsDir, 'desktop-worked-example.png');
  fs.rmSync(out, { force: true });
  execFileSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24', app, '--width', '1280', '--height', '800',
    '--state', stateFile, '--screenshot', out], { stdio: 'pipe', timeout: 60000 });
  const png = decodePng(fs.readFileSync(out));
  assert.equal(png.width, 1280);
  assert.equal(png.height, 800);
  // The layout at 1280x800: heatmap right of the 330 px panel. Find the matrix by its
  // first cell colour rather than trusting fixed coordinates: scan the middle row.
  const weights = [[0.3302, 0.6698], [0.6698, 0.3302]];
  const low = expectedSequential(weights[0][0]);
  let left = -1;
  for (let x = 360; x < 1280; x++) if (colorDistance(png.pixel(x, 150), low) <= 2) { left = x; break; }
  assert.ok(left > 0, 'no cell with the colour of 0.330 on row y=150');
  let right = left;
  const high = expectedSequential(weights[0][1]);
  while (right < 1279 && colorDistance(png.pixel(right + 1, 150), high) > 2) right++;
  // right+1 is the first pixel of cell (0,1); a cell is (right + 1 - left) wide.
  const cell = right + 1 - left;
  assert.ok(cell > 100, `cell width ${cell}`);
  let top = 150;
  while (top > 0 && colorDistance(png.pixel(left + 20, top - 1), low) <= 2) top--;
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++) {
      const got = png.pixel(left + j * cell + cell * 0.2, top + i * cell + cell * 0.2);
      const want = expectedSequential(weights[i][j]);
      assert.ok(colorDistance(got, want) <= 2, `cell (${i},${j}): ${got} vs ${want}`);
    }
});

test('desktop app refuses a bad state file and unknown arguments', () => {
  const bad = path.join(tmp, 'bad.json');
  fs.writeFileSync(bad, '{"heads": 0}');
  let r = spawnSync(app, ['--state', bad], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /'heads' must be between 1 and 16/);
  r = spawnSync(app, ['--state', path.join(tmp, 'missing.json')], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /cannot read state file/);
  const huge = path.join(tmp, 'huge.json');
  fs.writeFileSync(huge, '{"sentence": "' + 'a '.repeat(1 << 20) + '"}');
  r = spawnSync(app, ['--state', huge], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /state file .*huge\.json is 2097168 bytes; at most 1048576 are read/);
  r = spawnSync(app, ['--frobnicate'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown argument '--frobnicate'/);
});
