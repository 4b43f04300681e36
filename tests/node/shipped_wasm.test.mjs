// The shipped WebAssembly really contains SIMD128 arithmetic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { distFile } from '../support/paths.mjs';

for (const file of ['attnlab-core-wasm.wasm', 'attnlab.wasm']) {
  test(`${file} contains f32x4 instructions`, () => {
    const listing = execFileSync('wasm-objdump', ['-d', distFile(file)], { maxBuffer: 1 << 30, encoding: 'utf8' });
    const count = (listing.match(/f32x4\./g) ?? []).length;
    assert.ok(count > 0, `no f32x4 instruction in ${file}`);
  });
}

// The builds for browsers without SIMD (web/loader.mjs, attnlab-core.mjs choose them) must
// validate there: not one SIMD128 instruction, while the same code above has many.
for (const file of ['attnlab-core-wasm-nosimd.wasm', 'attnlab-nosimd.wasm']) {
  test(`${file} has no SIMD128 instruction`, () => {
    const listing = execFileSync('wasm-objdump', ['-d', distFile(file)], { maxBuffer: 1 << 30, encoding: 'utf8' });
    const functions = (listing.match(/^[0-9a-f]+ func\[/gm) ?? []).length;
    const simd = listing.match(/\b(v128|[if](8x16|16x8|32x4|64x2))\.\w+/g) ?? [];
    assert.ok(functions > 100, `${file}: only ${functions} functions disassembled`);
    assert.deepEqual(simd.slice(0, 5), [], `${file} holds ${simd.length} SIMD instructions`);
  });
}
