// attnlab-core-modern.mjs: attention as current models run it, merged into the API of
// attnlab-core.mjs. (RoPE and ALiBi are attention()'s `positional` option, checked here too.)
//
// groupedQueryAttention({q, k, v, n, dk, dv, heads, kvHeads, causal = false})
//   H = heads query heads over G = kvHeads key/value heads (G divides H; G = H is multi-head,
//   G = 1 multi-query): q Float32Array (heads*n*dk), k (kvHeads*n*dk), v (kvHeads*n*dv), each
//   head-major; query head h reads key/value head floor(h*kvHeads/heads).
//   Returns {output: Float32Array (heads*n*dv, head-major), weights: [Float32Array (n*n) per
//   head], kvHeadOf: [the key/value head of each query head]}; heads*n*n is capped at 2^24.
// flashAttention({q, k, v, nq, nk, dk, dv, causal = false, scale, blockQ = 16, blockK = 16})
//   FlashAttention's forward pass, tile by tile (online softmax; exact): q (nq*dk), k (nk*dk),
//   v (nk*dv). Returns {output: Float32Array (nq*dv), steps, scale, workingFloats}: one step
//   per (query tile, key tile) pair computed (pairs wholly above the causal diagonal are not
//   steps), in order, each {qTile, kTile, qBegin, qEnd, kBegin, kEnd, m, l, rescale} with m
//   (the running maximum), l (the running sum) and rescale (exp(m_old - m_new)) per query row
//   of its tile after it; at most 65,536 steps (a RangeError says to use larger tiles).
// Throws a TypeError / RangeError naming the argument on bad input.
import { checkFloat32, refused } from './attnlab-core-checks.mjs';

function checkFlag(name, value) {
  if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`${name} must be true or false`);
  return !!value;
}

function checkKeys(what, args, allowed) {
  if (args === null || typeof args !== 'object') throw new TypeError(`${what} takes an object of arguments`);
  for (const key of Object.keys(args))
    if (!allowed.includes(key)) throw new TypeError(`unknown argument '${key}' of ${what} (${allowed.join(', ')})`);
}

// attention()'s `positional`: null, {kind: 'rope', base = 10000, pairing = 'half'} or
// {kind: 'alibi', slope}; an unknown kind or key is an error. pairings: the names of the
// core's RoPE pairings (choices().ropePairing). The values' ranges (an even dk, a finite
// base > 0, a finite slope) are the core's to check.
export function positionalOption(p, pairings) {
  if (p === undefined || p === null) return null;
  if (typeof p !== 'object' || Array.isArray(p)) throw new TypeError("positional must be an object {kind: 'rope' | 'alibi', ...}");
  const keys = { rope: ['kind', 'base', 'pairing'], alibi: ['kind', 'slope'] }[p.kind];
  if (!keys) throw new RangeError(`positional.kind must be 'rope' or 'alibi', got '${p.kind}'`);
  for (const key of Object.keys(p))
    if (!keys.includes(key)) throw new TypeError(`unknown key '${key}' in positional of kind '${p.kind}' (${keys.join(', ')})`);
  if (p.kind === 'rope') {
    const { base = 10000, pairing = pairings[0] } = p;
    if (typeof base !== 'number') throw new TypeError('positional.base must be a number');
    if (!pairings.includes(pairing))
      throw new RangeError(`positional.pairing must be ${pairings.map((name) => `'${name}'`).join(' or ')}, got '${pairing}'`);
    return { kind: 'rope', base, pairing };
  }
  if (typeof p.slope !== 'number') throw new TypeError('positional.slope must be a number (the ALiBi slope m)');
  return { kind: 'alibi', slope: p.slope };
}

export default function modernApi(wasm) {
  return {
    groupedQueryAttention(args = {}) {
      checkKeys('groupedQueryAttention', args, ['q', 'k', 'v', 'n', 'dk', 'dv', 'heads', 'kvHeads', 'causal']);
      const { q, k, v } = args;
      checkFloat32('q', q); checkFloat32('k', k); checkFloat32('v', v);
      return refused(wasm.groupedQueryAttention({ ...args, causal: checkFlag('causal', args.causal) }));
    },
    flashAttention(args = {}) {
      checkKeys('flashAttention', args, ['q', 'k', 'v', 'nq', 'nk', 'dk', 'dv', 'causal', 'scale', 'blockQ', 'blockK']);
      const { q, k, v, scale, blockQ = 16, blockK = 16 } = args;
      checkFloat32('q', q); checkFloat32('k', k); checkFloat32('v', v);
      if (scale !== undefined && !Number.isFinite(scale)) throw new RangeError('scale must be a finite number');
      return refused(wasm.flashAttention({ ...args, blockQ, blockK, scale: scale ?? null, causal: checkFlag('causal', args.causal) }));
    },
  };
}
