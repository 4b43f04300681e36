// .npy files for the tests that hand arrays to attnlab-cli: float32, C order, version 1.0.
import assert from 'node:assert/strict';
import fs from 'node:fs';

// Writes `values` with `shape` to `file`; returns the path.
export function writeNpy(file, shape, values) {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shapeText}, }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const pre = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 0, 0]);
  pre.writeUInt16LE(header.length, 8);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), Buffer.from(new Float32Array(values).buffer)]));
  return file;
}

// {shape, data}: data a Float32Array, or a Uint8Array for booleans.
export function readNpy(file) {
  const bytes = fs.readFileSync(file);
  assert.equal(bytes.toString('latin1', 1, 6), 'NUMPY');
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.toString('latin1', 10, 10 + headerLength);
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',').filter((s) => s.trim()).map(Number);
  const data = bytes.subarray(10 + headerLength);
  if (header.includes("'|b1'")) return { shape, data: Uint8Array.from(data) };
  assert.match(header, /'<f4'/);
  return { shape, data: new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.length)) };
}
