// Argument checks shared by the parts of attnlab-core.mjs. Here are the JavaScript types
// only: a wrong type throws a TypeError that names the argument. Ranges and caps are the
// wasm module's (src/bindings/core_limits.h, the one place their numbers are written): it
// answers a refused value with {error: message}, which refused() throws as a RangeError.

export function checkFloat32(name, value) {
  if (!(value instanceof Float32Array)) throw new TypeError(`${name} must be a Float32Array`);
}

export function refused(result) {
  if (result?.error !== undefined) throw new RangeError(result.error);
  return result;
}
