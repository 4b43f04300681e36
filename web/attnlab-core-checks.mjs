// Argument checks shared by the parts of attnlab-core.mjs. Here are the JavaScript types
// only: a wrong type throws a TypeError that names the argument. Ranges and caps are the
// wasm module's (src/bindings/core_limits.h, the one place their numbers are written): it
// answers a refused value with {error: message}, which refused() throws as a RangeError.

export function checkFloat32(name, value) {
  if (!(value instanceof Float32Array)) throw new TypeError(`${name} must be a Float32Array`);
}

// A TypeError for an argument of `what` not among `known`.
export function knownArguments(args, known, what) {
  for (const key of Object.keys(args ?? {}))
    if (!known.includes(key)) throw new TypeError(`unknown argument '${key}' of ${what} (${known.join(', ')})`);
}

export function refused(result) {
  if (result?.error !== undefined) throw new RangeError(result.error);
  return result;
}

// The `into` option of a call that returns arrays: {name: Float32Array} for some of `sizes`'
// names (name -> the array's length the call writes, or null where the call's dimensions
// are not whole numbers yet: the module names those). The arrays are the caller's and are
// written only once the call has succeeded; two of them may not share memory, as the second
// would overwrite the first. -> the object to pass to the module, or undefined.
export function intoOption(into, sizes, what) {
  if (into === undefined || into === null) return undefined;
  if (typeof into !== 'object' || Array.isArray(into)) throw new TypeError(`into of ${what} must be an object of Float32Arrays`);
  const names = Object.keys(sizes), given = [];
  for (const [name, array] of Object.entries(into)) {
    if (!names.includes(name)) throw new TypeError(`unknown key '${name}' of into (${what} writes ${names.join(', ')})`);
    if (array === undefined) continue;
    checkFloat32(`into.${name}`, array);
    const length = sizes[name];
    if (length !== null && array.length !== length)
      throw new RangeError(`into.${name} has ${array.length} floats; this call writes ${length}`);
    for (const [other, b] of given) {
      const a0 = array.byteOffset, a1 = a0 + array.byteLength, b0 = b.byteOffset, b1 = b0 + b.byteLength;
      if (array.buffer === b.buffer && a0 < b1 && b0 < a1) throw new RangeError(`into.${name} and into.${other} share memory`);
    }
    given.push([name, array]);
  }
  return given.length ? Object.fromEntries(given) : undefined;
}
