// relaxed-simd-opcodes.mjs: renumbers a linked .wasm's relaxed-SIMD multiply-adds from the
// proposal's draft opcode to the standard one, in place.
//
//   node cmake/steps/relaxed-simd-opcodes.mjs FILE.wasm [--expect-some]
//
// Why this exists: Debian 12's Emscripten (3.1.6) compiles with clang 14 and optimises with
// Binaryen 108, which both still speak the draft of the relaxed-SIMD proposal, where
// f32x4.relaxed_madd was 0xfd 0xaf 0x01 (LEB128 0xaf). The standard, which browsers run
// (Chromium since 114; Node 20 behind --experimental-wasm-relaxed-simd), numbers it 0x105
// (0xfd 0x85 0x02): the same length, so the module's layout does not move. Both spell
// a * b + c (checked: clang 14's __builtin_wasm_fma_f32x4(a, b, c) run as 0x105 gives a * b + c).
// No tool in Debian's archive converts between the two numberings (wabt and Binaryen read one
// each), so this walks the code section itself: every instruction is decoded with its
// immediates, so a byte pattern inside a constant or an offset is never mistaken for an
// opcode, and an instruction it does not know stops it with an error rather than a guess.
//
// Only the multiply-add is renumbered: it is the one relaxed instruction the kernels use
// (src/core/kernels/body.h, madd). Any other draft relaxed opcode is refused. A module already
// renumbered passes unchanged (the standard relaxed opcodes, 0x100-0x113, are decoded as such),
// so running this twice is harmless. With --expect-some, finding no multiply-add is an error:
// the relaxed build's kernels then were not compiled with relaxed SIMD.
import fs from 'node:fs';

const DRAFT_MADD = 0xaf;
const STANDARD_MADD = [0x85, 0x02];  // LEB128 of 0x105
// The draft's other relaxed opcodes (swizzle, truncations, fms, f64x2 fma, lane selects,
// min/max): gaps in the standard numbering, refused here because nothing maps them yet.
const DRAFT_OTHER = new Set([0xa2, 0xa5, 0xa6, 0xc5, 0xc6, 0xb0, 0xcf, 0xd0, 0xb2, 0xb3, 0xd2, 0xd3,
                             0xb4, 0xe2, 0xd4, 0xee]);

class Reader {
  constructor(bytes, pos, end) { this.b = bytes; this.pos = pos; this.end = end; }
  byte() {
    if (this.pos >= this.end) throw new Error(`unexpected end of data at byte ${this.pos}`);
    return this.b[this.pos++];
  }
  u32() {
    let result = 0, shift = 0, byte;
    do {
      byte = this.byte();
      if (shift < 32) result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (shift > 35 && (byte & 0x80)) throw new Error(`LEB128 too long at byte ${this.pos}`);
    } while (byte & 0x80);
    return result;
  }
  skipLeb() {  // a signed or unsigned LEB128 of any width: its value is not needed
    while (this.byte() & 0x80) { /* continuation */ }
  }
  skip(n) {
    if (this.pos + n > this.end) throw new Error(`unexpected end of data at byte ${this.pos}`);
    this.pos += n;
  }
  memarg() { this.u32(); this.u32(); }
  blockType() {
    const first = this.b[this.pos];
    if (first === 0x40 || (first >= 0x6f && first <= 0x7f)) this.pos += 1;  // empty or a value type
    else this.skipLeb();  // a type index (s33)
  }
}

function simd(r, at, counts) {
  const opStart = r.pos;
  const op = r.u32();
  if (op <= 0x0b || op === 0x5c || op === 0x5d) r.memarg();            // loads, stores, load_zero
  else if (op === 0x0c || op === 0x0d) r.skip(16);                     // v128.const, i8x16.shuffle
  else if (op >= 0x15 && op <= 0x22) r.skip(1);                        // extract / replace lane
  else if (op >= 0x54 && op <= 0x5b) { r.memarg(); r.skip(1); }        // load / store lane
  else if (op === DRAFT_MADD) {
    if (r.pos - opStart !== 2) throw new Error(`draft relaxed_madd at byte ${at} has a padded opcode`);
    r.b[opStart] = STANDARD_MADD[0];
    r.b[opStart + 1] = STANDARD_MADD[1];
    counts.renumbered += 1;
  } else if (op === 0x105) {
    counts.standard += 1;
  } else if (DRAFT_OTHER.has(op)) {
    throw new Error(`draft relaxed-SIMD opcode 0x${op.toString(16)} at byte ${at}: only relaxed_madd is mapped`);
  } else if (op > 0x113) {
    throw new Error(`unknown SIMD opcode 0x${op.toString(16)} at byte ${at}`);
  }
  // everything else in 0x00-0x113 has no immediates
}

function instruction(r, counts) {
  const at = r.pos;
  const op = r.byte();
  if (op <= 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x19 || op === 0x1a || op === 0x1b ||
      (op >= 0x45 && op <= 0xc4) || op === 0xd1) return;  // no immediates
  switch (op) {
    case 0x02: case 0x03: case 0x04: case 0x06: r.blockType(); return;  // block, loop, if, try
    case 0x07: case 0x08: case 0x09: case 0x0c: case 0x0d: case 0x10: case 0x12: case 0x18:
    case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: case 0x25: case 0x26: case 0xd2:
    case 0x3f: case 0x40:
      r.u32(); return;
    case 0x0e: {  // br_table
      const n = r.u32();
      for (let i = 0; i <= n; ++i) r.u32();
      return;
    }
    case 0x11: case 0x13: r.u32(); r.u32(); return;  // call_indirect, return_call_indirect
    case 0x1c: { const n = r.u32(); r.skip(n); return; }  // select with types
    case 0x41: case 0x42: r.skipLeb(); return;
    case 0x43: r.skip(4); return;
    case 0x44: r.skip(8); return;
    case 0xd0: r.skip(1); return;  // ref.null
    case 0xfc: {
      const sub = r.u32();
      if (sub <= 7) return;                                           // saturating truncations
      if (sub === 8 || sub === 10 || sub === 12 || sub === 14) { r.u32(); r.u32(); return; }
      if (sub <= 17) { r.u32(); return; }
      throw new Error(`unknown 0xfc opcode ${sub} at byte ${at}`);
    }
    case 0xfd: simd(r, at, counts); return;
    case 0xfe: {
      const sub = r.u32();
      if (sub === 0x03) r.skip(1); else r.memarg();
      return;
    }
    default:
      if (op >= 0x28 && op <= 0x3e) { r.memarg(); return; }
      throw new Error(`unknown opcode 0x${op.toString(16)} at byte ${at}`);
  }
}

// Renumbers in place; returns {renumbered, standard (already 0x105), functions}.
export function renumberRelaxedMadd(bytes) {
  const magic = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (bytes.length < 8 || magic.some((m, i) => bytes[i] !== m)) throw new Error('not a WebAssembly module (version 1)');
  const counts = { renumbered: 0, standard: 0, functions: 0 };
  const top = new Reader(bytes, 8, bytes.length);
  while (top.pos < bytes.length) {
    const id = top.byte();
    const size = top.u32();
    const start = top.pos;
    top.skip(size);
    if (id !== 10) continue;  // only the code section holds instructions
    const sec = new Reader(bytes, start, start + size);
    const n = sec.u32();
    for (let f = 0; f < n; ++f) {
      const bodySize = sec.u32();
      const body = new Reader(bytes, sec.pos, sec.pos + bodySize);
      sec.skip(bodySize);
      const groups = body.u32();
      for (let g = 0; g < groups; ++g) { body.u32(); body.byte(); }  // local counts and types
      while (body.pos < body.end) instruction(body, counts);
      counts.functions += 1;
    }
  }
  return counts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  const expectSome = args.includes('--expect-some');
  if (!file || args.some((a) => a.startsWith('--') && a !== '--expect-some')) {
    console.error('usage: node cmake/steps/relaxed-simd-opcodes.mjs FILE.wasm [--expect-some]');
    process.exit(2);
  }
  try {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const { renumbered, standard, functions } = renumberRelaxedMadd(bytes);
    if (expectSome && renumbered + standard === 0) {
      throw new Error('no relaxed_madd found: were the kernels compiled with -mrelaxed-simd?');
    }
    if (renumbered > 0) fs.writeFileSync(file, bytes);
    console.log(`${file}: ${functions} functions; relaxed_madd: ${renumbered} renumbered 0xaf -> 0x105, ${standard} already 0x105`);
  } catch (err) {
    console.error(`relaxed-simd-opcodes: ${file}: ${err.message}`);
    process.exit(1);
  }
}
