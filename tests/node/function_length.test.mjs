// No function in src/ is longer than 100 lines: a long function is split into named steps
// (STYLE.md). This reads every .h and .cpp under src/ as text: it drops comments, strings and
// preprocessor lines, then follows the braces; a brace opens a function body when the text
// before it ends in a parameter list (with qualifiers) and does not start a control
// statement. The length counts from the line of the signature's name to the closing brace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MAX_LINES = 100;

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(h|cpp)$/.test(e.name) ? [p] : [];
  });
}

// The text with comments, string and character literals and preprocessor lines blanked out
// (newlines kept, so line numbers stay right).
function blank(text) {
  let out = '';
  let i = 0;
  const n = text.length;
  let lineStart = true;
  while (i < n) {
    const c = text[i];
    if (lineStart && /^[ \t]*#/.test(text.slice(i, text.indexOf('\n', i) === -1 ? n : text.indexOf('\n', i)))) {
      // A preprocessor line and its backslash continuations.
      while (i < n) {
        const end = text.indexOf('\n', i) === -1 ? n : text.indexOf('\n', i);
        const cont = text[end - 1] === '\\';
        out += '\n';
        i = end + 1;
        if (!cont) break;
      }
      continue;
    }
    lineStart = false;
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    if (c === 'R' && text[i + 1] === '"') {  // raw string R"delim( ... )delim"
      const open = text.indexOf('(', i);
      const delim = text.slice(i + 2, open);
      const close = text.indexOf(')' + delim + '"', open);
      const stop = close === -1 ? n : close + delim.length + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    if (c === '"' || (c === "'" && !/[0-9a-fA-F]/.test(text[i - 1] ?? ''))) {  // not a digit separator
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += ' '.repeat(j + 1 - i);
      i = j + 1;
      continue;
    }
    out += c;
    if (c === '\n') lineStart = true;
    i++;
  }
  return out;
}

// [{name, line, lines}] for every function body in the text.
export function functionLengths(text) {
  const src = blank(text);
  const found = [];
  const stack = [];  // {kind: 'function' | 'other', start, name}
  let segmentStart = 0;  // where the text before the next brace begins
  const lineOf = (pos) => src.slice(0, pos).split('\n').length;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === ';') segmentStart = i + 1;
    if (c === '{') {
      const before = src.slice(segmentStart, i);
      const inFunction = stack.some((s) => s.kind === 'function');
      const head = before.replace(/\s+/g, ' ').trim();
      const isFunction = !inFunction &&
        /\)\s*(const|noexcept|override|final|mutable|->\s*[\w:<>,\s*&]+|\s)*$/.test(head) &&
        !/^(if|for|while|switch|catch|do)\b/.test(head.replace(/^.*[:]\s*(?=(if|for|while|switch)\b)/, '')) &&
        !/^(namespace|class|struct|union|enum)\b/.test(head);
      if (isFunction) {
        const nameMatch = head.match(/([\w:~]+)\s*\([^()]*(\([^()]*\)[^()]*)*\)[^()]*$/);
        const nameAt = nameMatch ? before.lastIndexOf(nameMatch[1].split('::').pop()) : before.search(/\S/);
        stack.push({ kind: 'function', start: lineOf(segmentStart + Math.max(0, nameAt)), name: nameMatch?.[1] ?? head.slice(0, 40) });
      } else {
        stack.push({ kind: 'other' });
      }
      segmentStart = i + 1;
    }
    if (c === '}') {
      const top = stack.pop();
      if (top?.kind === 'function') found.push({ name: top.name, line: top.start, lines: lineOf(i) - top.start + 1 });
      segmentStart = i + 1;
    }
  }
  return found;
}

test('no function in src/ is over 100 lines (the longest five are printed)', () => {
  const all = [];
  for (const file of sourceFiles(path.join(root, 'src'))) {
    for (const f of functionLengths(fs.readFileSync(file, 'utf8'))) all.push({ ...f, file: path.relative(root, file) });
  }
  all.sort((a, b) => b.lines - a.lines);
  for (const f of all.slice(0, 5)) console.log(`# ${f.lines} lines: ${f.file}:${f.line} ${f.name}`);
  assert.ok(all.length > 500, `found only ${all.length} functions: the reader is broken`);
  const long = all.filter((f) => f.lines > MAX_LINES).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
  assert.deepEqual(long, [], `split these into named steps:\n${long.join('\n')}`);
});

test('the reader finds functions, methods and lambdas-in-functions as it should', () => {
  const text = [
    'namespace a {',
    'int f(int x) {',            // 2
    '  auto g = [](int y) { return y; };',
    '  if (x) { return g(x); }',
    '  return 0;',
    '}',                          // 6
    'struct S {',
    '  void m() const {',         // 8
    '    // a } in a comment',
    '    const char* s = "}";',
    '  }',                        // 11
    '};',
    '}',
  ].join('\n');
  const got = functionLengths(text).map((f) => [f.name, f.line, f.lines]);
  assert.deepEqual(got, [['f', 2, 5], ['m', 8, 4]]);
});
