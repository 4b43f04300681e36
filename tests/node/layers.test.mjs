// The layers of src/ hold by their #includes: each folder is a layer, and every #include in
// src/**/*.{h,cpp} either stays in its folder or follows one of the edges in ALLOWED_EDGES,
// the one list of what may include what (README, "Layout of the source"). System headers
// follow SYSTEM_HEADERS: the core takes Eigen, zlib, fast_float and the C++ standard library,
// and GL, ImGui, its backends, GLFW, Emscripten, zlib, stb_image_write and fast_float each
// belong to the layers named there.
// Inside src/app, the files keep one order too (APP_ORDER): the pieces and features below the
// state, the state, then what reads the whole state; an #include never runs back up it.
// Reads the sources only; needs no build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `from -> to ...`: files in folder `from` (under src/) may include headers of the folders
// `to`. `core/*` is every wing of the core. A folder may always include its own headers.
// Two edges are kept narrow on purpose: the CLI reaches the app's figures and file import
// through src/files alone (never src/app), and the bindings include nothing of the platform
// (the web entry point hands them the app: bindings/app_handle.h).
const ALLOWED_EDGES = `
  core/kernels   -> core/base
  core/attention -> core/base core/kernels
  core/efficient -> core/base core/kernels core/attention
  core/io        -> core/base
  core/train     -> core/base
  core/lm        -> core/base core/attention core/io core/train
  files          -> core/*
  files/native   -> core/* files
  app            -> core/* files
  gfx            -> core/* files app
  ui             -> core/* files app gfx
  platform       -> core/* files files/native app gfx ui bindings
  bindings       -> core/* files app gfx ui
  cli            -> core/* files files/native
`;
const CORE_WINGS = ['core/base', 'core/kernels', 'core/attention', 'core/efficient', 'core/io', 'core/train', 'core/lm'];

// The files of src/app (by name without .h/.cpp), lowest first: a file includes only headers
// of its own name or of names before it. The features take the scene (app/scene.h) and their
// own settings and results; only the state's own files and the readers after it see AppState.
const APP_ORDER = `
  app_messages panel_registry mask_edit scene tour exercises view_choices
  scaling_lab train_state
  lm_state lm_text_run lm_patch overview_state across_layers cell_why modern_state variants_state
  app_state app_state_features state_schema state_json
  url_state messages scene_export exercise_grading
`.split(/\s+/).filter(Boolean);
// The state's own files, and the files that read the whole state: the only ones that include
// app/app_state.h.
const STATE_FILES = ['app_state', 'app_state_features', 'state_schema', 'state_json'];
const STATE_READERS = ['url_state', 'messages', 'scene_export', 'exercise_grading'];

// Headers made at build time, and the folder whose they are.
const GENERATED = { 'shaders_embedded.h': 'gfx' };  // the shaders/ bodies (cmake/steps/embed_shaders.cmake)

// Each family of system headers and the only layers that may include it.
const SYSTEM_HEADERS = [
  { family: 'GL', pattern: /^(GL|GLES\d*)\//, layers: ['gfx'] },  // through gfx/gl.h everywhere else
  { family: 'ImGui', pattern: /^(imgui|imgui_internal|imconfig)\.h$/, layers: ['ui', 'platform'] },
  { family: 'ImGui backends', pattern: /^backends\//, layers: ['platform'] },
  { family: 'GLFW', pattern: /^GLFW\//, layers: ['platform'] },
  { family: 'Emscripten', pattern: /^emscripten(\/|\.h$)/, layers: ['platform', 'bindings'] },
  // zlib: the core's CRC-32, the PNG writer, the desktop's and the CLI's .npz inflater.
  { family: 'zlib', pattern: /^zlib\.h$/, layers: ['core/base', 'files', 'files/native'] },
  { family: 'stb_image_write', pattern: /^stb_image_write\.h$/, layers: ['files'] },
  { family: 'fast_float', pattern: /^fast_float\//, layers: ['core/io', 'cli'] },
];
// The core's system headers: Eigen, zlib, fast_float and the C++ standard library.
const EIGEN = /^(Eigen\/|zlib\.h$|fast_float\/)/;
const CXX_STANDARD = new Set(`
  algorithm any array atomic barrier bit bitset cassert cctype cerrno cfenv cfloat charconv chrono cinttypes
  climits clocale cmath codecvt compare complex concepts condition_variable coroutine csetjmp csignal cstdarg
  cstddef cstdint cstdio cstdlib cstring ctime cuchar cwchar cwctype deque exception execution expected
  filesystem format forward_list fstream functional future initializer_list iomanip ios iosfwd iostream
  istream iterator latch limits list locale map memory memory_resource mutex new numbers numeric optional
  ostream queue random ranges ratio regex scoped_allocator semaphore set shared_mutex source_location span
  sstream stack stdexcept stop_token streambuf string string_view syncstream system_error thread tuple
  type_traits typeindex typeinfo unordered_map unordered_set utility valarray variant vector version`
  .split(/\s+/).filter(Boolean));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = path.join(root, 'src');

function allowedEdges() {
  const allowed = new Map(CORE_WINGS.map((wing) => [wing, new Set()]));
  for (const line of ALLOWED_EDGES.split('\n')) {
    if (!line.trim()) continue;
    const [from, to] = line.split('->').map((s) => s.trim());
    const targets = to.split(/\s+/).flatMap((t) => (t === 'core/*' ? CORE_WINGS : [t]));
    allowed.set(from, new Set(targets));
  }
  return allowed;
}

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(h|cpp)$/.test(e.name) ? [p] : [];
  });
}

// Every #include of every source file: {file (relative to the top), line, text, quoted, header}.
function includes() {
  const out = [];
  for (const file of sourceFiles(src)) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((text, i) => {
      const m = /^\s*#\s*include\s*([<"])([^>"]+)[>"]/.exec(text);
      if (m) out.push({ file, where: `${path.relative(root, file)}:${i + 1}`, quoted: m[1] === '"', header: m[2] });
    });
  }
  return out;
}

const folderOf = (file) => path.relative(src, path.dirname(file)).split(path.sep).join('/');

// The folder of the project header an #include names (by its path under src/, whether or not
// the file is there), or null for a system header.
function targetFolder(inc, layers) {
  const folder = path.posix.dirname(inc.header);
  if (layers.has(folder) || fs.existsSync(path.join(src, inc.header))) return folder;
  if (!inc.quoted) return null;
  const beside = path.join(path.dirname(inc.file), inc.header);
  if (fs.existsSync(beside)) return folderOf(beside);
  return GENERATED[inc.header] ?? undefined;
}

test('every #include in src/ stays in its folder or follows an allowed edge', () => {
  const allowed = allowedEdges();
  const all = includes();
  assert.ok(all.length > 500, `only ${all.length} #includes found under ${src}`);
  const problems = [];
  for (const inc of all) {
    const from = folderOf(inc.file);
    if (!allowed.has(from)) {
      problems.push(`${inc.where}: src/${from} is no layer (add it to ALLOWED_EDGES)`);
      continue;
    }
    const to = targetFolder(inc, allowed);
    if (to === undefined) problems.push(`${inc.where}: "${inc.header}" is neither in src/ nor a generated header`);
    else if (to !== null && to !== from && !allowed.get(from).has(to))
      problems.push(`${inc.where}: ${from} -> ${to} (#include "${inc.header}") is not an allowed edge`);
  }
  assert.deepEqual([...new Set(problems)], [], `layer edges broken:\n  ${problems.join('\n  ')}`);
});

test('each layer includes only the system headers it may', () => {
  const layers = allowedEdges();
  const problems = [];
  for (const inc of includes()) {
    if (targetFolder(inc, layers) !== null) continue;
    const from = folderOf(inc.file);
    if (from.startsWith('core/') && !EIGEN.test(inc.header) && !CXX_STANDARD.has(inc.header))
      problems.push(`${inc.where}: ${from} -> <${inc.header}> (the core takes Eigen, zlib, fast_float and the C++ standard library only)`);
    for (const { family, pattern, layers } of SYSTEM_HEADERS)
      if (pattern.test(inc.header) && !layers.includes(from))
        problems.push(`${inc.where}: ${from} -> <${inc.header}> (${family} only in ${layers.join(', ')})`);
  }
  assert.deepEqual(problems, [], `system headers out of their layers:\n  ${problems.join('\n  ')}`);
});

const moduleOf = (file) => path.basename(file).replace(/\.(h|cpp)$/, '');

test('inside src/app no #include runs back up APP_ORDER (features, the state, its readers)', () => {
  const rank = new Map(APP_ORDER.map((name, i) => [name, i]));
  const problems = [];
  for (const inc of includes()) {
    if (folderOf(inc.file) !== 'app') continue;
    const from = moduleOf(inc.file);
    if (!rank.has(from)) {
      problems.push(`${inc.where}: src/app/${from} is not in APP_ORDER (place it there)`);
      continue;
    }
    if (path.posix.dirname(inc.header) !== 'app') continue;
    const to = moduleOf(inc.header);
    if (to === from) continue;
    if (!rank.has(to)) problems.push(`${inc.where}: "${inc.header}" is not in APP_ORDER`);
    else if (rank.get(to) > rank.get(from))
      problems.push(`${inc.where}: ${from} -> ${to} runs back up (${to} comes after ${from} in APP_ORDER)`);
  }
  assert.deepEqual([...new Set(problems)], [], `src/app out of order:\n  ${problems.join('\n  ')}`);
});

test('inside src/app only the state and its readers include app/app_state.h', () => {
  const allowed = new Set([...STATE_FILES, ...STATE_READERS]);
  const found = includes().filter((inc) => folderOf(inc.file) === 'app' && inc.header === 'app/app_state.h');
  assert.ok(found.length >= STATE_FILES.length, 'app/app_state.h included nowhere in src/app');
  const problems = found.filter((inc) => !allowed.has(moduleOf(inc.file))).map((inc) => inc.where);
  assert.deepEqual(problems, [], `a feature below the state includes app/app_state.h:\n  ${problems.join('\n  ')}`);
});

// The rules the two narrow edges of ALLOWED_EDGES keep, said once more by name so that widening
// an edge there is a visible decision: the CLI includes no header of src/app, and the
// bindings none of src/platform.
test('the CLI includes nothing of the app, and the bindings nothing of the platform', () => {
  const problems = [];
  for (const inc of includes()) {
    const from = folderOf(inc.file), to = path.posix.dirname(inc.header);
    if (from === 'cli' && (to === 'app' || to.startsWith('app/'))) problems.push(`${inc.where}: cli -> ${inc.header}`);
    if (from === 'bindings' && (to === 'platform' || to.startsWith('platform/'))) problems.push(`${inc.where}: bindings -> ${inc.header}`);
  }
  assert.deepEqual(problems, [], `the CLI or the bindings lean on a neighbour:\n  ${problems.join('\n  ')}`);
});
