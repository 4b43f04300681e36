// Argument checks shared by the parts of attnlab-core.mjs: each throws a TypeError or
// RangeError that names the argument, before anything reaches the wasm module.
export const MAX_DIM = 1 << 20;

export function checkDim(name, value) {
  if (!Number.isInteger(value) || value < 1 || value > MAX_DIM)
    throw new RangeError(`${name} must be a whole number from 1 to ${MAX_DIM}, got ${value}`);
}

export function checkArray(name, value, length) {
  if (!(value instanceof Float32Array)) throw new TypeError(`${name} must be a Float32Array`);
  if (value.length !== length) throw new RangeError(`${name} must hold ${length} numbers, got ${value.length}`);
}
