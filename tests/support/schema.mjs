// Random legal settings from the app's own state schema (handle.schema(), see
// src/app/state_schema.h): every key gets a value different from its default where its
// range allows, so a new key added to the schema is covered without changing the tests.

// A small deterministic generator (tests repeat exactly).
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
export const getPath = (obj, path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
function setPath(obj, path, value) {
  const keys = path.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[keys.at(-1)] = value;
}

// Math.fround keeps numbers exactly representable as the app's floats; the margin keeps
// rounding inside the range.
function number(random, lo, hi) {
  const margin = (hi - lo) * 1e-6;
  return Math.fround(lo + margin + random() * (hi - lo - 2 * margin));
}

function value(e, patch, nTokens, random) {
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  // Choices other than the default, and legal for the patch so far (RoPE needs an even d_k).
  const oddDk = Math.floor(patch.dModel / patch.heads) % 2 !== 0;
  const other = (e.choices ?? []).filter((c) => !same(c, e.default) && !(oddDk && (e.needsEvenDk ?? []).includes(c)));
  const pick = () => other[int(0, other.length - 1)];
  for (let attempt = 0; attempt < 100; attempt++) {
    let v;
    switch (e.kind) {
      case 'bool': v = !e.default; break;
      case 'enum': v = pick(); break;
      case 'enum|number': v = other.length && random() < 0.5 ? pick() : number(random, e.min, e.max); break;
      case 'number': v = number(random, e.min, e.max); break;
      case 'token': v = int(0, nTokens - 1); break;
      case 'string': v = Array.from({ length: int(1, 4) }, () => WORDS[int(0, WORDS.length - 1)]).join(' '); break;
      case 'tokens': v = [...Array(nTokens).keys()].filter(() => random() < 0.35); break;
      case 'vector': v = Array.from({ length: e.length }, () => number(random, e.min, e.max)); break;
      case 'list': v = Array.from({ length: int(1, e.length) }, () => number(random, e.min, e.max)); break;
      case 'indices': {  // distinct whole numbers from min to max, ascending
        v = [];
        for (let i = e.min; i <= e.max; i++) if (random() < 0.25) v.push(i);
        break;
      }
      case 'cells': {  // painted mask cells: "row:col+" / "row:col-", sorted, one per cell
        const cells = new Map();
        for (let c = int(1, 4); c > 0; c--) cells.set(int(0, nTokens - 1) * 100000 + int(0, nTokens - 1), random() < 0.5 ? '+' : '-');
        v = [...cells.keys()].sort((a, b) => a - b)
          .map((key) => `${Math.floor(key / 100000)}:${key % 100000}${cells.get(key)}`).join(' ');
        break;
      }
      case 'int': {
        const hi = e.below ? getPath(patch, e.below) - 1 : e.max;
        if (e.divides) {
          const of = getPath(patch, e.divides);
          let d = int(e.min, Math.min(hi, of));
          while (of % d !== 0) d--;
          v = d;
        } else {
          v = int(e.min, Math.max(e.min, hi));
        }
        break;
      }
      default: throw new Error(`the schema has a kind this generator does not know: ${e.kind} (${e.path})`);
    }
    if (!same(v, e.default)) return v;
  }
  return e.default;
}

const WORDS = ['cat', 'mat', 'a&b', 'x=y', '50%', '#tag', '"q"', '+', '猫', '追', '老鼠', 'naïve', '12', 'true', 'é'];

// A settings patch setting every non-fixed key; `tokenize` gives the token count of a
// sentence (the page's own tokenizer), since token indices must be in range.
export async function randomSettings(schema, random, { workedExample = false, tokenize }) {
  const count = 6 + Math.floor(random() * 8);
  const sentence = Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const patch = { sentence };
  const n = await tokenize(sentence);
  for (const e of schema) {
    if (e.fixed || e.path === 'sentence') continue;
    if (e.path === 'source') setPath(patch, 'source', workedExample ? 'worked-example' : 'generated');
    else setPath(patch, e.path, value(e, patch, n, random));
  }
  return patch;
}
