// What a .wasm holds, for the tests that check the shipped kernels.
import { execFileSync } from 'node:child_process';

// Function name -> the lines of its disassembly, from wasm-objdump (names demangled by c++filt;
// the module needs a name section). Only the names go through c++filt: the whole listing
// (16 MB for the math module) took it about 1.5 s, the names alone a few milliseconds.
export function wasmFunctions(file) {
  const listing = execFileSync('wasm-objdump', ['-d', file], { maxBuffer: 1 << 30, encoding: 'utf8' });
  const functions = [];  // [mangled name, lines]
  let lines = null;
  for (const line of listing.split('\n')) {
    const header = line.match(/^[0-9a-f]+ func\[\d+\] <(.*)>:$/);
    if (header) {
      lines = [];
      functions.push([header[1], lines]);
    } else if (lines) {
      lines.push(line);
    }
  }
  const names = execFileSync('c++filt', [], { input: functions.map(([name]) => name).join('\n') + '\n', maxBuffer: 1 << 30, encoding: 'utf8' })
    .split('\n');
  if (names.length !== functions.length + 1) throw new Error(`c++filt gave ${names.length - 1} names for ${functions.length}`);
  return new Map(functions.map(([, body], i) => [names[i], body]));
}
