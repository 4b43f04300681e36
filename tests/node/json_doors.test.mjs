// The JSON library is used only through its two doors in src/files/json_text.{h,cpp}:
// parse_json (strict UTF-8, bounded nesting, then nlohmann's parse without exceptions) and
// json_text (dump with the replacing error handler). Its throwing forms (json::parse with
// exceptions, dump() with the strict handler, the binary formats' readers) would abort the
// WebAssembly instance on a bad link, session or message; this reads every .h and .cpp under
// src/ as text (comments dropped) and finds any such call outside the doors.
// Reads the sources only; needs no build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOORS = new Set(['src/files/json_text.cpp']);
// A call of the library's parsing or writing entry points.
const CALLS = /\b(json::parse|json::accept|json::sax_parse|json::from_(?:cbor|msgpack|ubjson|bjdata|bson)|\.dump)\s*\(/g;

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(h|cpp)$/.test(e.name) ? [p] : [];
  });
}

// Line and block comments blanked (newlines kept), so a comment may name the calls.
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');

test('the JSON library is parsed and written only through src/files/json_text.cpp', () => {
  const files = sourceFiles(path.join(root, 'src'));
  assert.ok(files.length > 100, `only ${files.length} source files found`);
  const found = [];
  for (const file of files) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    if (DOORS.has(rel)) continue;
    withoutComments(fs.readFileSync(file, 'utf8')).split('\n').forEach((line, i) => {
      for (const m of line.matchAll(CALLS)) found.push(`${rel}:${i + 1}: ${m[1]}(`);
    });
  }
  assert.deepEqual(found, [], `JSON parsed or written outside its doors (use parse_json / json_text):\n  ${found.join('\n  ')}`);
});

test('the doors themselves use the non-throwing forms', () => {
  const text = withoutComments(fs.readFileSync(path.join(root, 'src/files/json_text.cpp'), 'utf8'));
  const parses = [...text.matchAll(/json::parse\(([^;]*)\);/g)].map((m) => m[1]);
  assert.equal(parses.length, 1);
  assert.match(parses[0], /nullptr,\s*false\s*$/);  // (callback, allow_exceptions = false)
  const dumps = [...text.matchAll(/\.dump\(([^;]*)\);/g)].map((m) => m[1]);
  assert.equal(dumps.length, 1);
  assert.match(dumps[0], /error_handler_t::replace/);
});
