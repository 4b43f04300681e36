// builds.mjs: the WebAssembly builds that ship side by side, and the one this engine runs.
//
// The app (the page's runtime glue and wasm, started by loader.mjs) and the math module (the
// glue and wasm behind attnlab-core.mjs) each come with WebAssembly SIMD (the fast build) and
// without it (older Safari, classroom tablets); one probe chooses for both, by feature
// detection, never by user agent. The math module has a third build, asked for by name only
// (createAttnlabCore({build: 'relaxed'})): its kernels use relaxed SIMD's fused multiply-add.
// Whether that pays depends on the engine's code generator, not on the feature: measured
// (docs/PERFORMANCE.md, 2026-12-03, AMD EPYC), Node 20 with --experimental-wasm-relaxed-simd
// runs it 1.2-1.4x faster than the SIMD build; Chromium 156 1.05-1.13x faster on one head and
// 0.86-0.90x on multi-head, and within noise on 15 rounds an hour earlier; so no probe picks
// it. Names are relative to this file, which sits beside them; in the published site
// (cmake/steps/make-site.mjs) each becomes its content-hashed name, and the single-file offline
// page, which has no math module, leaves the math module's out.
//
//   BUILDS[build].app    {script, wasm, factory}: the classic script that defines the global
//                        Emscripten factory `factory`, and its wasm (not every build has one)
//   BUILDS[build].core   {glue, wasm}: the math module's ES module glue and its wasm
//   chooseBuild()        'simd' or 'scalar': the one this engine runs
//   buildRuns(build)     whether this engine validates that build's instructions

export const BUILDS = {
  simd: {
    app: { script: 'attnlab.js', wasm: 'attnlab.wasm', factory: 'createAttnlabApp' },
    core: { glue: 'attnlab-core-wasm.mjs', wasm: 'attnlab-core-wasm.wasm' },
  },
  relaxed: {
    core: { glue: 'attnlab-core-wasm-relaxed.mjs', wasm: 'attnlab-core-wasm-relaxed.wasm' },
  },
  scalar: {
    app: { script: 'attnlab-nosimd.js', wasm: 'attnlab-nosimd.wasm', factory: 'createAttnlabAppNoSimd' },
    core: { glue: 'attnlab-core-wasm-nosimd.mjs', wasm: 'attnlab-core-wasm-nosimd.wasm' },
  },
};

// A minimal module whose one function uses a SIMD128 instruction (i8x16.splat): it validates
// exactly where the engine has WebAssembly SIMD.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,   // magic, version
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,         // type: () -> v128
  0x03, 0x02, 0x01, 0x00,                           // one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b,  // i32.const 0; i8x16.splat
]);

// The same with one relaxed-SIMD instruction: three i8x16.splat of 0 and f32x4.relaxed_madd
// (0xfd 0x85 0x02, the standard's opcode).
const RELAXED_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,
  0x03, 0x02, 0x01, 0x00,
  0x0a, 0x13, 0x01, 0x11, 0x00,
  0x41, 0x00, 0xfd, 0x0f, 0x41, 0x00, 0xfd, 0x0f, 0x41, 0x00, 0xfd, 0x0f,
  0xfd, 0x85, 0x02, 0x0b,
]);

const validates = (bytes) => typeof WebAssembly === 'object' && WebAssembly.validate(bytes);

export function buildRuns(build) {
  if (build === 'scalar') return typeof WebAssembly === 'object';
  if (build === 'simd') return validates(SIMD_PROBE);
  if (build === 'relaxed') return validates(SIMD_PROBE) && validates(RELAXED_PROBE);
  return false;
}

export function chooseBuild() {
  return buildRuns('simd') ? 'simd' : 'scalar';
}
