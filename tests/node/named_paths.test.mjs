// Every file of the repository named in a comment or a doc exists: a path that starts with
// one of the project's folders ("src/app/url_state.h", "tests/support/lab.mjs", "docs/INPUT.md")
// or, in the sources, with one of src/'s folders as the #includes write them ("core/io/npy.h").
// A moved or renamed file whose old name stayed in a comment fails here with the line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { root as repoRoot } from '../support/paths.mjs';

const TEXT = /\.(h|cpp|mjs|js|ts|cmake|sh|py|md|html|css|txt|json|vert|frag)$|CMakeLists\.txt$/;
const TOP = ['src', 'tests', 'scripts', 'cmake', 'bench', 'web', 'docs', 'shaders', 'assets', 'python'];
const SRC = ['core', 'app', 'ui', 'gfx', 'platform', 'bindings', 'cli'];
// A path: a folder name not glued to a longer name ("imgui-src/" or "build/web/" are not
// ours), then names, ending in a file's extension; "{h,cpp}" names two files.
const NAMED = new RegExp(`(?<![\\w./-])((?:${TOP.join('|')}|${SRC.join('|')})/[\\w./{},-]+)`, 'g');
const FILE = /\.(\{[\w,]+\}|[A-Za-z]+)$/;

function tracked() {
  return execFileSync('git', ['ls-files'], { cwd: repoRoot, encoding: 'utf8' }).split('\n')
    .filter((f) => TEXT.test(f) && !f.startsWith('tests/fuzz/corpus/') && fs.existsSync(path.join(repoRoot, f)));
}

// "src/files/json_text.{h,cpp}" -> both names; placeholders ("NAME.cpp", "X.test.mjs") are skipped.
function expand(named) {
  const brace = named.match(/^(.*)\{([\w,]+)\}$/);
  return brace ? brace[2].split(',').map((ext) => brace[1] + ext) : [named];
}

function exists(file, named) {
  if (/\b(NAME|NAMES|X|N|TARGET|KIND)\b/.test(named)) return true;
  const top = named.split('/')[0];
  if (TOP.includes(top)) return fs.existsSync(path.join(repoRoot, named));
  // src/'s folders as the #includes name them; in a test or a doc they may also be tests/'s.
  return fs.existsSync(path.join(repoRoot, 'src', named)) || fs.existsSync(path.join(repoRoot, 'tests', named))
    || fs.existsSync(path.join(path.dirname(path.join(repoRoot, file)), named));
}

test('every repository path named in a comment or a doc exists', () => {
  const missing = [];
  let checked = 0;
  for (const file of tracked()) {
    const lines = fs.readFileSync(path.join(repoRoot, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(NAMED)) {
        const named = m[1].replace(/[.,]+$/, '');
        if (!FILE.test(named)) continue;  // a folder, or a name without its extension
        for (const one of expand(named)) {
          checked++;
          if (!exists(file, one)) missing.push(`${file}:${i + 1}: ${one}`);
        }
      }
    });
  }
  assert.deepEqual(missing, []);
  assert.ok(checked > 500, `only ${checked} paths were found: the pattern has stopped matching`);
});
