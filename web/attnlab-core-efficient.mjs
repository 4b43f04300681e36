// attnlab-core-efficient.mjs: efficient attention, merged into the API of attnlab-core.mjs.
// Definitions, patterns and cost formulas: docs/EFFICIENT.md.
//
// efficientAttention({variant, q, k, v, n, dk, dv, window = 8, stride = 4, block = 16,
//     features = 64, rank = min(32, n), causal = false, seed = 0, projection = 'random',
//     display = false})
//   Self-attention over n tokens: q, k Float32Array (n*dk), v (n*dv), row-major.
//   variant: 'window' (|i - j| <= window), 'strided' ((i - j) mod stride == 0),
//     'blocksparse' (floor(i/block) == floor(j/block)), 'linear' (elu(x) + 1 features),
//     'performer' (`features` positive random features), 'linformer' (K and V projected
//     down to `rank` rows; projection 'identity' needs rank = n and equals exact attention;
//     no causal form). causal: query i sees keys j <= i. seed: the random features and
//     projections (a whole number >= 0).
//   Returns {output: Float32Array (n*dv), relativeError: ||output - exact||_F / ||exact||_F
//     against exact attention (softmax(q k^T / sqrt(dk)) v, causal if asked) on the same
//     inputs, cost: {pairs, multiplyAdds, memoryFloats and their formulas as text}}.
//   With display: true and n <= 1024 also display: {pattern: Uint8Array (n*n, 1 = key read),
//     weights (n*n: the variant's weights, or the implied matrix of the kernel methods and
//     the linformer, so output = weights v), exactWeights (n*n), weightError (weights -
//     exactWeights), nonzeros: Int32Array (n) keys per row}.
//   Throws a TypeError / RangeError naming the argument on bad input.
// costChart({variants = every kind (when causal, those with a causal form), ns = [64, ..., 8192],
//     dk = 64, dv = 64, window = 32, stride = 8, block = 64, features = 64, rank = 64,
//     causal = false, seed = 0, minSeconds = 0.005, measurements = 5, fitMinN = 512})
//   Times each variant's real algorithm alone (no error, no display matrix) on random
//   inputs of each n: the median of `measurements` measurements, each repeating the run
//   for at least minSeconds. variants may include 'exact' (streaming attention, no n x n
//   matrix). Times are wall-clock (performance.now() underneath), so other busy processes
//   inflate them. Returns {series: [{variant, n, seconds (median per run), runs, multiplyAdds,
//   memoryFloats (Float64Arrays, one entry per n), slope (log-log least squares over
//   n >= fitMinN, null with fewer than two such n), fitPoints, multiplyAddsFormula,
//   memoryFormula, pairsFormula}], fitMinN}. It blocks while it measures: the default
//   chart takes tens of seconds.
import { checkFloat32, refused } from './attnlab-core-checks.mjs';

function checkFlag(name, value) {
  if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`${name} must be true or false`);
  return !!value;
}

function checkSeed(seed) {
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`seed must be a whole number >= 0, got ${seed}`);
  return seed;
}

// The variants' shared parameters (each given one, whichever variant uses it; the wasm module
// checks their range), the causal flag and the seed.
function variantParameters(args, defaults) {
  const out = {};
  for (const name of ['window', 'stride', 'block', 'features', 'rank']) out[name] = args[name] ?? defaults[name];
  out.causal = checkFlag('causal', args.causal);
  out.seed = checkSeed(args.seed ?? 0);
  return out;
}

// The kinds come from the core's table (choices().efficientKind: {name, variant, causal, parameter}).
export default function efficientApi(wasm) {
  const kinds = wasm.choices().efficientKind;
  const VARIANTS = kinds.filter((kind) => kind.variant).map((kind) => kind.name);
  const KINDS = kinds.map((kind) => kind.name);
  return {
    efficientAttention(args = {}) {
      const { variant, q, k, v, n, dk, dv, projection = 'random' } = args;
      if (typeof variant !== 'string') throw new TypeError('variant must be a string');
      if (!VARIANTS.includes(variant)) throw new RangeError(`variant must be one of ${VARIANTS.join(', ')}, got '${variant}'`);
      checkFloat32('q', q); checkFloat32('k', k); checkFloat32('v', v);
      if (projection !== 'random' && projection !== 'identity')
        throw new RangeError(`projection must be 'random' or 'identity', got '${projection}'`);
      const params = variantParameters(args, {
        window: 8, stride: 4, block: 16, features: 64, rank: projection === 'identity' ? n : Math.min(32, n),
      });
      const display = checkFlag('display', args.display);
      return refused(wasm.efficientAttention({ variant, q, k, v, n, dk, dv, projection, display, ...params }));
    },

    costChart(args = {}) {
      const params = variantParameters(args, { window: 32, stride: 8, block: 64, features: 64, rank: 64 });
      const all = kinds.filter((kind) => !params.causal || kind.causal).map((kind) => kind.name);
      const variants = args.variants ?? all;
      if (!Array.isArray(variants) || variants.length < 1) throw new TypeError('variants must be a non-empty array of names');
      for (const name of variants)
        if (!KINDS.includes(name))
          throw new RangeError(`variants: unknown variant '${name}' (${KINDS.join(', ')})`);
      const ns = args.ns ?? [64, 128, 256, 512, 1024, 2048, 4096, 8192];
      if (!Array.isArray(ns) || ns.length < 1) throw new TypeError('ns must be a non-empty array of whole numbers');
      const dk = args.dk ?? 64, dv = args.dv ?? 64, fitMinN = args.fitMinN ?? 512;
      const minSeconds = args.minSeconds ?? 0.005, measurements = args.measurements ?? 5;
      return refused(wasm.costChart({
        variants, ns, dk, dv, minSeconds, measurements, fitMinN, projection: 'random', ...params,
      }));
    },
  };
}
