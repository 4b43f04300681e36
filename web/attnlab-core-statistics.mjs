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

function wholeNumber(name, value, lo, hi) {
  if (!Number.isInteger(value) || value < lo || value > hi)
    throw new RangeError(`${name} must be a whole number from ${lo} to ${hi}, got ${value}`);
}

export default function statisticsApi(wasm) {
  const seedOf = (seed) => {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError('seed must be a whole number >= 0');
    return seed;
  };
  return {
    dotProductVariance({ dk, samples = 100000, seed = 1, scaled = false } = {}) {
      wholeNumber('dk', dk, 1, 4096);
      wholeNumber('samples', samples, 2, 10000000);
      return wasm.dotProductVariance(dk, samples, seedOf(seed), !!scaled);
    },
    dotProductHistogram({ dk, samples = 20000, seed = 1, scaled = false, bins = 40 } = {}) {
      wholeNumber('dk', dk, 1, 4096);
      wholeNumber('samples', samples, 2, 10000000);
      wholeNumber('bins', bins, 1, 1000);
      return wasm.dotProductHistogram(dk, samples, seedOf(seed), !!scaled, bins);
    },
    saturationCurve({ dks, scaled = false, rows = 256, keys = 16, seed = 1 } = {}) {
      if (!Array.isArray(dks) || dks.length < 1 || dks.length > 64) throw new RangeError('dks must be an array of 1 to 64 widths');
      dks.forEach((d) => wholeNumber('each dk', d, 1, 4096));
      wholeNumber('rows', rows, 1, 100000);
      wholeNumber('keys', keys, 1, 4096);
      return wasm.saturationCurve(dks, !!scaled, rows, keys, seedOf(seed));
    },
    softmaxPrecision({ row, precision = 'float32', stable = true } = {}) {
      if (!(row instanceof Float32Array) && !Array.isArray(row)) throw new TypeError('row must be a Float32Array or an array');
      if (row.length < 1) throw new RangeError('row must not be empty');
      if (precision !== 'float32' && precision !== 'float16') throw new RangeError("precision must be 'float32' or 'float16'");
      return wasm.softmax(Float32Array.from(row), !!stable, precision === 'float16');
    },
  };
}
