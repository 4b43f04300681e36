// The rule of the Chinese UI's tests (tests/browser/teaching.test.mjs, page.test.mjs): no word of
// Latin letters beyond LATIN_ALLOWED (math symbols and functions, names of methods, products and
// libraries, file formats and number types), and none glued to hanzi.
export const LATIN_ALLOWED = new Set([
  'Q', 'K', 'V', 'q', 'k', 'v', 'x', 'i', 'j', 'w', 's', 'b', 'n', 'h', 'm', 'd_k', 'd_model', 'QKᵀ', 'Kᵀ', 'sqrt', 'softmax',
  'Softmax', 'exp', 'log10', 'logit', 'mod', 'inf', 'Var', 'max',
  'Attention', 'Lab', 'PyTorch', 'ONNX', 'Bahdanau', 'RoPE', 'ALiBi', 'GQA', 'FlashAttention', 'Transformer', 'GPT',
  'PNG', 'SVG', 'CSV', 'JSON', 'npy', 'npz', 'json', 'zip', 'dtype', 'attnmodel', 'attnlm', 'uint16', 'bfloat16', 'float16', 'float32',
  'txt', 'UTF',  // a text file, and UTF-8 (its digits are not a word)
]);

// Words of letters (and digits after them) in `text`, beyond LATIN_ALLOWED and `extra`; the e of
// a number such as 1e9 is no word.
export function latinWordsBeyond(text, extra = new Set()) {
  const words = text.match(/(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_ᵀ]*/g) ?? [];
  return [...new Set(words.filter((w) => !LATIN_ALLOWED.has(w) && !extra.has(w)))];
}

// Latin letters glued to hanzi (a missing space in either language's text).
export function latinGluedToHanzi(text) {
  return text.match(/[A-Za-z][\u4e00-\u9fff]|[\u4e00-\u9fff][A-Za-z]/g) ?? [];
}
