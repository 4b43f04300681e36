// The shipped WebAssembly really contains SIMD128 arithmetic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { distDir } from '../support/paths.mjs';

for (const file of ['attnlab-core-wasm.wasm', 'attnlab.wasm']) {
  test(`${file} contains f32x4 instructions`, () => {
    const listing = execFileSync('wasm-objdump', ['-d', path.join(distDir, file)], { maxBuffer: 1 << 30, encoding: 'utf8' });
    const count = (listing.match(/f32x4\./g) ?? []).length;
    assert.ok(count > 0, `no f32x4 instruction in ${file}`);
  });
}
