// The data behind the scaling and softmax lab's figures, so a course page can draw its own.
// Part of attnlab-core.mjs (merged into its API).
//
// dotProductVariance({dk, samples = 100000, seed = 1, scaled = false}) -> number
//   Sample variance of q.k (or q.k / sqrt(dk) when scaled) for q, k with N(0, 1) entries:
//   about dk unscaled, about 1 scaled.
// dotProductHistogram({dk, samples = 20000, seed = 1, scaled = false, bins = 40}) ->
//   {lo, hi, counts, variance, mean}: bins of equal width over +-4 theoretical standard deviations.
// saturationCurve({dks, scaled = false, rows = 256, keys = 16, seed = 1}) ->
//   [{dk, maxWeight, entropy, jacobianNorm}]: for each dk, random query rows against `keys`
//   random keys, softmax with or without 1/sqrt(dk), averaged over rows.
// softmaxPrecision({row, precision = 'float32', stable = true}) ->
//   {weights, overflow, nan, fullyMasked}: the same row in float32 or simulated float16.
// rollout({weights, layers, heads, n, pool = 'mean' (or 'max'), residual = 0.5}) ->
//   Float32Array (layers*n*n): attention rollout (Abnar & Zuidema 2020), R[l] = Ã_l ... Ã_0 with
//   Ã_l = rownormalise((1 - residual) * pooled heads of layer l + residual * I); weights is
//   (layers, heads, n, n), every row a query's weights. The same figures as attnlab-cli rollout.

import { checkFloat32, refused } from './attnlab-core-checks.mjs';

// The wasm module checks the sizes (dk, samples, bins, dks, rows, keys) against its caps.
export default function statisticsApi(wasm) {
  const seedOf = (seed) => {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError('seed must be a whole number >= 0');
    return seed;
  };
  return {
    dotProductVariance({ dk, samples = 100000, seed = 1, scaled = false } = {}) {
      return refused(wasm.dotProductVariance(dk, samples, seedOf(seed), !!scaled));
    },
    dotProductHistogram({ dk, samples = 20000, seed = 1, scaled = false, bins = 40 } = {}) {
      return refused(wasm.dotProductHistogram(dk, samples, seedOf(seed), !!scaled, bins));
    },
    saturationCurve({ dks, scaled = false, rows = 256, keys = 16, seed = 1 } = {}) {
      return refused(wasm.saturationCurve(dks, !!scaled, rows, keys, seedOf(seed)));
    },
    softmaxPrecision({ row, precision = 'float32', stable = true } = {}) {
      if (!(row instanceof Float32Array) && !Array.isArray(row)) throw new TypeError('row must be a Float32Array or an array');
      if (row.length < 1) throw new RangeError('row must not be empty');
      if (precision !== 'float32' && precision !== 'float16') throw new RangeError("precision must be 'float32' or 'float16'");
      return wasm.softmax(Float32Array.from(row), !!stable, precision === 'float16');
    },
    rollout({ weights, layers, heads, n, pool = 'mean', residual = 0.5 } = {}) {
      checkFloat32('weights', weights);
      if (pool !== 'mean' && pool !== 'max') throw new RangeError("pool must be 'mean' or 'max'");
      if (typeof residual !== 'number') throw new TypeError('residual must be a number');
      return refused(wasm.rollout(weights, layers, heads, n, pool === 'max', residual)).rollout;
    },
  };
}
