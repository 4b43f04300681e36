// What a .wasm holds, for the tests that check the shipped kernels.
import { execFileSync } from 'node:child_process';

// Function name -> the lines of its disassembly, from wasm-objdump (names demangled by c++filt;
// the module needs a name section).
export function wasmFunctions(file) {
  const listing = execFileSync('wasm-objdump', ['-d', file], { maxBuffer: 1 << 30, encoding: 'utf8' });
  const demangled = execFileSync('c++filt', [], { input: listing, maxBuffer: 1 << 30, encoding: 'utf8' });
  const functions = new Map();
  let name = null;
  for (const line of demangled.split('\n')) {
    const header = line.match(/^[0-9a-f]+ func\[\d+\] <(.*)>:$/);
    if (header) {
      name = header[1];
      functions.set(name, []);
    } else if (name) {
      functions.get(name).push(line);
    }
  }
  return functions;
}
