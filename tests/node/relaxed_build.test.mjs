// The math module's relaxed-SIMD build (cmake/targets/site.cmake, web/builds.mjs):
//   1 cmake/steps/relaxed-simd-opcodes.mjs renumbers the draft multiply-add and nothing else
//   2 the shipped attnlab-core-wasm-relaxed.wasm: each hot kernel holds f32x4.relaxed_madd
//     under the standard opcode, and no draft opcode is left
//   3 run in Node with relaxed SIMD switched on and asked for by name, it gives the SIMD
//     build's results; it is never chosen unasked, and without the flag asking for it is a
//     clear error
// Speed is measured by scripts/bench.sh, never here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { renumberRelaxedMadd } from '../../cmake/steps/relaxed-simd-opcodes.mjs';
import { artifactsDir, distDir, distFile, root } from '../support/paths.mjs';
import { wasmFunctions } from '../support/wasm.mjs';

// ---- 1 the renumbering ------------------------------------------------------------------

// A module of one function () -> v128 whose body is `code` (no locals).
function moduleWith(code) {
  const body = [0x00, ...code, 0x0b];
  const entry = [body.length, ...body];
  const section = [0x01, ...entry];
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,  // type () -> v128
    0x03, 0x02, 0x01, 0x00,                    // one function
    0x0a, section.length, ...section]);
}
const splat0 = [0x41, 0x00, 0xfd, 0x0f];  // i32.const 0; i8x16.splat

test('relaxed-simd-opcodes renumbers the draft relaxed_madd and leaves look-alike bytes alone', () => {
  // A v128.const whose immediate bytes spell the draft opcode twice, then a draft madd: only
  // the madd may change.
  const constant = [0xfd, 0x0c, 0xfd, 0xaf, 0x01, 0xfd, 0xaf, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const code = [...constant, ...splat0, ...splat0, 0xfd, 0xaf, 0x01];
  const bytes = moduleWith(code);
  const before = Uint8Array.from(bytes);
  assert.equal(WebAssembly.validate(bytes), false, 'the draft opcode should not validate in Node');
  const counts = renumberRelaxedMadd(bytes);
  assert.deepEqual(counts, { renumbered: 1, standard: 0, functions: 1 });
  const changed = [...bytes.keys()].filter((i) => bytes[i] !== before[i]);
  assert.equal(changed.length, 2, `bytes changed at ${changed}`);
  const at = bytes.length - 3;  // fd 85 02, then end
  assert.deepEqual([...bytes.subarray(at - 1, at + 3)], [0xfd, 0x85, 0x02, 0x0b]);
  assert.deepEqual([...bytes.subarray(0, changed[0])], [...before.subarray(0, changed[0])]);
  // A second pass finds the standard opcode and changes nothing.
  const again = Uint8Array.from(bytes);
  assert.deepEqual(renumberRelaxedMadd(again), { renumbered: 0, standard: 1, functions: 1 });
  assert.deepEqual(again, bytes);
});

test('relaxed-simd-opcodes refuses what it does not map: other draft opcodes, unknown opcodes, other files', () => {
  // The draft's relaxed_fms (0xb0) has no mapping.
  assert.throws(() => renumberRelaxedMadd(moduleWith([...splat0, ...splat0, ...splat0, 0xfd, 0xb0, 0x01])),
    /draft relaxed-SIMD opcode 0xb0/);
  assert.throws(() => renumberRelaxedMadd(moduleWith([0xff])), /unknown opcode 0xff/);
  assert.throws(() => renumberRelaxedMadd(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9])), /not a WebAssembly module/);
  // A body cut short.
  const cut = moduleWith([0x44, 0x00, 0x00]);  // f64.const with 3 of its 8 bytes (the last is the body's end)
  assert.throws(() => renumberRelaxedMadd(cut), /unexpected end/);
  // The command: exit 1 with the file named, and the file untouched.
  const file = path.join(artifactsDir, 'relaxed-opcodes-bad.wasm');
  fs.writeFileSync(file, moduleWith([0xff]));
  let failure = null;
  try {
    execFileSync(process.execPath, [path.join(root, 'cmake', 'steps', 'relaxed-simd-opcodes.mjs'), file], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    failure = error;
  }
  assert.ok(failure, 'the command accepted an unknown opcode');
  assert.equal(failure.status, 1);
  assert.match(failure.stderr, /relaxed-opcodes-bad\.wasm: unknown opcode 0xff/);
  assert.deepEqual(new Uint8Array(fs.readFileSync(file)), moduleWith([0xff]));
});

// ---- 2 the shipped module -----------------------------------------------------------------

test('attnlab-core-wasm-relaxed.wasm: the hot kernels multiply-add with f32x4.relaxed_madd, under the standard opcode', () => {
  const file = distFile('attnlab-core-wasm-relaxed.wasm');
  const bytes = new Uint8Array(fs.readFileSync(file));
  const counts = renumberRelaxedMadd(Uint8Array.from(bytes));
  assert.equal(counts.renumbered, 0, 'draft opcodes are left in the shipped module');
  assert.ok(counts.standard >= 100, `only ${counts.standard} relaxed_madd`);
  const functions = wasmFunctions(file);
  const named = (kernel) => functions.get([...functions.keys()].find((n) => n.startsWith(`attn::kernels::simd128::${kernel}(`)));
  const madds = (kernel) => named(kernel).filter((l) => l.includes(' f32x4.relaxed_madd')).length;
  // The register tile (4 x 8 here): MR x NRV = 8 multiply-adds per rank-1 step, one step per
  // loop trip; no multiply is left but the final scaling by alpha (8 per tile, in each of the
  // two stores: with and without accumulating). The SIMD build's kernel holds 29 f32x4.mul.
  const micro = named('gemm_micro_kernel');
  const muls = micro.filter((l) => l.includes(' f32x4.mul')).length;
  assert.ok(madds('gemm_micro_kernel') >= 8, `micro-kernel: ${madds('gemm_micro_kernel')} relaxed_madd`);
  assert.ok(muls <= 16, `the micro-kernel still multiplies and adds apart (${muls} f32x4.mul)`);
  // exp's polynomial (6 per vector) in every kernel that takes exponentials.
  for (const kernel of ['attention_block', 'exp_values', 'softmax_rows', 'scaled_softmax_rows'])
    assert.ok(madds(kernel) >= 6, `${kernel}: ${madds(kernel)} relaxed_madd`);
  // The SIMD build keeps plain multiplies and adds.
  const plain = wasmFunctions(distFile('attnlab-core-wasm.wasm'));
  const simdMicro = plain.get([...plain.keys()].find((n) => n.startsWith('attn::kernels::simd128::gemm_micro_kernel(')));
  assert.equal(simdMicro.filter((l) => l.includes('relaxed')).length, 0);
});

// ---- 3 the results ------------------------------------------------------------------------

// Both builds in one Node with relaxed SIMD on: the largest differences of the relaxed build's
// results from the SIMD build's, and what each reports.
const compare = `
const { default: createAttnlabCore } = await import(${JSON.stringify(path.join(distDir, 'attnlab-core.mjs'))});
const relaxed = await createAttnlabCore({ build: 'relaxed' });
const simd = await createAttnlabCore();  // relaxed SIMD runs here, but only a request loads that build
const diff = (a, b) => { let m = 0; for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i])); return m; };
const out = { builds: [relaxed.build, simd.build], isas: [relaxed.kernelInfo().isa, simd.kernelInfo().isa],
  tiles: [relaxed, simd].map((c) => [c.kernelInfo().tileRows, c.kernelInfo().tileCols]), cases: [] };
for (const [nq, nk, d, causal] of [[1, 1, 1, false], [37, 53, 24, true], [300, 200, 64, false], [513, 513, 64, true]]) {
  const q = simd.randomNormal({ seed: nq, rows: nq, cols: d });
  const k = simd.randomNormal({ seed: nk + 1, rows: nk, cols: d });
  const v = simd.randomNormal({ seed: d + 2, rows: nk, cols: d });
  const args = { q, k, v, nq, nk, dk: d, dv: d, causal };
  const a = relaxed.attention(args), b = simd.attention(args);
  const sa = relaxed.attention({ ...args, returnWeights: false }), sb = simd.attention({ ...args, returnWeights: false });
  out.cases.push({ nq, weights: diff(a.weights, b.weights), output: diff(a.output, b.output), streamed: diff(sa.output, sb.output),
    sum: a.weights.slice(0, nk).reduce((s, w) => s + w, 0) });
}
const x = simd.randomNormal({ seed: 1, rows: 130, cols: 64 });
const w = (s) => simd.randomNormal({ seed: s, rows: 64, cols: 64 }).map((e) => e / 8);
const margs = { x, wq: w(2), wk: w(3), wv: w(4), wo: w(5), nq: 130, dModel: 64, heads: 8, causal: true };
out.multiHead = diff(relaxed.multiHeadAttentionOutput(margs).output, simd.multiHeadAttentionOutput(margs).output);
console.log(JSON.stringify(out));
`;

test("the relaxed build, with relaxed SIMD on, gives the SIMD build's results", () => {
  const got = JSON.parse(execFileSync(process.execPath, ['--experimental-wasm-relaxed-simd', '--input-type=module', '-e', compare],
    { encoding: 'utf8' }));
  assert.deepEqual(got.builds, ['relaxed', 'simd']);
  assert.deepEqual(got.isas, ['simd128-relaxed', 'simd128']);
  assert.deepEqual(got.tiles, [[4, 8], [5, 8]]);
  assert.equal(got.cases.length, 4);
  for (const c of got.cases) {
    // A fused multiply-add rounds once where the SIMD build rounds twice: the results differ
    // in the last bits only.
    assert.ok(c.weights < 2e-6 && c.output < 1e-5 && c.streamed < 1e-5, `nq ${c.nq}: ${JSON.stringify(c)}`);
    assert.ok(Math.abs(c.sum - 1) < 1e-5, `nq ${c.nq}: first row sums to ${c.sum}`);
  }
  assert.ok(got.multiHead < 1e-5, `multi-head output differs by ${got.multiHead}`);
});

test('without relaxed SIMD the SIMD build is chosen, and asking for the relaxed one is a clear error', async () => {
  const { chooseBuild, buildRuns } = await import(distFile('builds.mjs'));
  assert.equal(buildRuns('relaxed'), false);
  assert.equal(buildRuns('simd'), true);
  assert.equal(chooseBuild(), 'simd');
  const { default: createAttnlabCore } = await import(path.join(distDir, 'attnlab-core.mjs'));
  await assert.rejects(createAttnlabCore({ build: 'relaxed' }), (e) => e instanceof RangeError && /cannot run the 'relaxed' build/.test(e.message));
  await assert.rejects(createAttnlabCore({ build: 'fast' }), (e) => e instanceof RangeError && /unknown build 'fast'/.test(e.message));
  const core = await createAttnlabCore({ build: 'scalar' });
  assert.equal(core.build, 'scalar');
  assert.equal(core.kernelInfo().isa, 'wasm32-scalar');
});
