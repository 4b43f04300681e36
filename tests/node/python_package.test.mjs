// The Python package (python/attnlab) without a browser: its version is the site's, Hugging
// Face's tuple of per-layer tensors becomes the import's (B, L, H, n, n) member with the tokens,
// inputs over the import's caps are refused naming the cap, and a package without its page
// says where the page comes from. Runs Debian's /usr/bin/python3 (numpy, torch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from '../support/paths.mjs';

function python(code, pythonPath = path.join(root, 'python')) {
  const r = spawnSync('/usr/bin/python3', ['-c', code], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: pythonPath } });
  return { status: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
}

test('attnlab.__version__ is the site\'s version (package.json)', () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const r = python('import attnlab; print(attnlab.__version__)');
  assert.equal(r.status, 0, r.err);
  assert.equal(r.out, version);
});

test('a tuple of per-layer torch tensors becomes attentions (B, L, H, n, n) with tokens; a pair of lists is cross-attention', () => {
  const r = python(`
import io, json, numpy as np, torch, attnlab
layers = tuple(torch.softmax(torch.randn(2, 3, 4, 4), -1) for _ in range(5))
z = np.load(io.BytesIO(attnlab.to_npz_bytes(layers, ["a", "b", "c", "d"])))
same = bool(np.allclose(z["attentions"][:, 3], layers[3].numpy()))
x = np.load(io.BytesIO(attnlab.to_npz_bytes(np.ones((1, 1, 2, 3), np.float64), (["q1", "q2"], ["k1", "k2", "k3"]))))
print(json.dumps({"shape": z["attentions"].shape, "dtype": str(z["attentions"].dtype), "tokens": z["tokens"].tolist(),
                  "same": same, "cross": [x["query_tokens"].tolist(), x["key_tokens"].tolist(), str(x["attentions"].dtype)]}))`);
  assert.equal(r.status, 0, r.err);
  assert.deepEqual(JSON.parse(r.out), {
    shape: [2, 5, 3, 4, 4], dtype: 'float32', tokens: ['a', 'b', 'c', 'd'], same: true,
    cross: [['q1', 'q2'], ['k1', 'k2', 'k3'], 'float32'],
  });
});

test('inputs over the import\'s caps and bad options are refused with the cap named', () => {
  const cases = [
    ['attnlab.to_npz_bytes(np.zeros((1, 1, 1025, 1025), np.float16))', /1025 tokens on a side; the lab's import takes at most 1024/],
    ['attnlab.to_npz_bytes(np.zeros((1, 600, 256, 1000), np.float16))', /the lab's import takes at most 134,217,728 \(128 Mi\)/],
    ['attnlab.figure(np.eye(3), height=20)', /height must be a whole number of pixels from 100 to 4000/],
    ['attnlab.figure(np.eye(3), batch=-1)', /batch must be a whole number >= 0/],
    ['attnlab.to_npz_bytes(np.array([object()]))', /holds Python objects/],
  ];
  for (const [call, message] of cases) {
    const r = python(`import numpy as np, attnlab\ntry:\n    ${call}\nexcept attnlab.AttnlabError as e:\n    print(e)`);
    assert.equal(r.status, 0, r.err);
    assert.match(r.out, message, call);
  }
});

test('without its page the package says where the page comes from; with it, the figure carries the file', () => {
  const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-python-'));
  try {
    fs.cpSync(path.join(root, 'python', 'attnlab', '__init__.py'), path.join(bare, 'attnlab', '__init__.py'), { recursive: true });
    const missing = python('import numpy as np, attnlab\ntry:\n    attnlab.figure(np.eye(2)).page()\nexcept attnlab.AttnlabError as e:\n    print(e)', bare);
    assert.equal(missing.status, 0, missing.err);
    assert.match(missing.out, /attnlab-embed-offline\.html is missing\. It is copied there by the web build/);
  } finally {
    fs.rmSync(bare, { recursive: true, force: true });
  }
  const r = python(`
import base64, io, re, numpy as np, attnlab
page = attnlab.figure(np.eye(3, dtype=np.float32), ["x", "y", "z"], layer=0, head=0).page()
block = re.search(r'<script type="application/octet-stream" id="attnlab-file" data-name="attention.npz" data-batch="0">([^<]+)</script>', page)
print(np.load(io.BytesIO(base64.b64decode(block.group(1))))["attentions"].tolist(), '"state": {"panel": "model", "layer": 0, "head": 0}' in page)`);
  assert.equal(r.status, 0, r.err);
  assert.equal(r.out, '[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] True');
});

test('pip install --no-build-isolation ./python in a virtual environment installs the package with its page', () => {
  const venv = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-venv-'));
  try {
    // The system's numpy is the package's one requirement; nothing is fetched (--no-index).
    const make = spawnSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', venv], { encoding: 'utf8' });
    assert.equal(make.status, 0, make.stderr);
    // From a copy: setuptools builds in the source folder (build/, *.egg-info), which stays clean.
    const source = path.join(venv, 'source');
    fs.cpSync(path.join(root, 'python'), source, { recursive: true, filter: (f) => !f.includes('__pycache__') });
    const pip = spawnSync(path.join(venv, 'bin', 'pip'), ['install', '--no-build-isolation', '--no-index', '--quiet', source],
      { encoding: 'utf8', cwd: venv });
    assert.equal(pip.status, 0, pip.stderr);
    const r = spawnSync(path.join(venv, 'bin', 'python'), ['-c',
      'import attnlab, pathlib; print(attnlab.__file__.startswith(' + JSON.stringify(venv) + '), len(attnlab.offline_page()) > 1000000)'],
    { encoding: 'utf8', cwd: venv, env: { ...process.env, PYTHONPATH: '' } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'True True');
  } finally {
    fs.rmSync(venv, { recursive: true, force: true });
  }
});
