// CMakePresets.json against scripts/build.sh: each configure preset (native, web, asan) names the
// build folder, generator, toolchain file, cache variables and environment that the script
// passes, so `cmake --preset NAME` and an IDE make the folder the script would. The script's
// side is what it really runs: a copy of it in a scratch checkout calls a recording `cmake` (and
// the real emcmake in front of it for the web, which adds its toolchain file); nothing is built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from '../support/paths.mjs';

const presets = JSON.parse(fs.readFileSync(path.join(root, 'CMakePresets.json'), 'utf8'));

// A configure preset with what it inherits merged in (cacheVariables and environment by key).
function configurePreset(name) {
  const preset = presets.configurePresets.find((p) => p.name === name);
  assert.ok(preset, `no configure preset ${name}`);
  const parents = [preset.inherits ?? []].flat().map(configurePreset);
  const merged = Object.assign({}, ...parents, preset);
  merged.cacheVariables = Object.assign({}, ...parents.map((p) => p.cacheVariables), preset.cacheVariables);
  merged.environment = Object.assign({}, ...parents.map((p) => p.environment), preset.environment);
  return merged;
}

// Runs a copy of scripts/build.sh TARGET in a scratch checkout (no build folders, so it
// configures) with a `cmake` that records its arguments and the environment it sees.
const RECORDED_ENV = ['CC', 'CXX', 'CCACHE_BASEDIR', 'CCACHE_NOHASHDIR', 'NODE_PATH'];
function scriptCalls(target) {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-presets-'));
  process.on('exit', () => fs.rmSync(top, { recursive: true, force: true }));
  fs.mkdirSync(path.join(top, 'scripts'));
  fs.copyFileSync(path.join(root, 'scripts', 'build.sh'), path.join(top, 'scripts', 'build.sh'));
  const bin = path.join(top, 'bin');
  fs.mkdirSync(bin);
  const log = path.join(top, 'calls.jsonl');
  fs.writeFileSync(path.join(bin, 'cmake'), `#!${process.execPath}
const env = Object.fromEntries(${JSON.stringify(RECORDED_ENV)}.filter((k) => k in process.env).map((k) => [k, process.env[k]]));
require('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args: process.argv.slice(2), env }) + '\\n');
`, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'ccache'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });  // build.sh looks for it
  const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: top };
  const run = spawnSync('bash', [path.join(top, 'scripts', 'build.sh'), target], { env, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const calls = fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  return { top, calls };
}

// The configure call's parts: -S, -B, -G and the -D variables (name -> value).
function configureCall(calls) {
  const configure = calls.filter((c) => c.args.includes('-S'));
  assert.equal(configure.length, 1, JSON.stringify(calls));
  const { args, env } = configure[0];
  const at = (flag) => args[args.indexOf(flag) + 1];
  const defines = Object.fromEntries(args.filter((a) => a.startsWith('-D')).map((a) => {
    const [name, ...value] = a.slice(2).split('=');
    return [name.replace(/:\w+$/, ''), value.join('=')];
  }));
  return { source: at('-S'), binary: at('-B'), generator: at('-G'), defines, env, build: calls.find((c) => c.args[0] === '--build') };
}

for (const name of ['native', 'web', 'asan']) {
  test(`the ${name} preset configures build/${name} as scripts/build.sh ${name} does`, () => {
    const preset = configurePreset(name);
    const { top, calls } = scriptCalls(name);
    const script = configureCall(calls);
    const resolve = (value) => value.replaceAll('${sourceDir}', top);
    assert.equal(script.source, '.');
    assert.equal(resolve(preset.binaryDir), path.join(top, script.binary));
    assert.equal(preset.generator, script.generator);
    // emcmake adds the toolchain file (and would add an emulator, but the script passes its own).
    const { CMAKE_TOOLCHAIN_FILE: toolchain, ...defines } = script.defines;
    assert.equal(preset.toolchainFile, toolchain);
    assert.deepEqual(preset.cacheVariables, defines);
    // The environment the configure step sees: the compilers (asan), ccache's, and Node's module
    // path, which the script exports for every folder and only emcc needs (the web preset's).
    const presetEnv = Object.fromEntries(Object.entries(preset.environment).map(([k, v]) => [k, resolve(v)]));
    const scriptEnv = Object.fromEntries(Object.entries(script.env).filter(([k]) => k !== 'NODE_PATH' || name === 'web'));
    assert.deepEqual(presetEnv, scriptEnv);
    // The build step: the preset's folder and targets.
    const build = presets.buildPresets.find((p) => p.name === name);
    assert.equal(build.configurePreset, name);
    const targets = script.build.args.includes('--target') ? script.build.args.slice(script.build.args.indexOf('--target') + 1) : undefined;
    assert.deepEqual(build.targets, targets);
    assert.equal(script.build.args[1], script.binary);
  });
}

test('the three folders are the ones build.sh names, and web\'s toolchain file is emcmake\'s', () => {
  assert.deepEqual(presets.configurePresets.filter((p) => !p.hidden).map((p) => [p.name, p.binaryDir]), [
    ['native', '${sourceDir}/build/native'], ['web', '${sourceDir}/build/web'], ['asan', '${sourceDir}/build/asan']]);
  assert.equal(configurePreset('web').toolchainFile, '/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake');
  assert.equal(configurePreset('web').cacheVariables.CMAKE_CROSSCOMPILING_EMULATOR, '/usr/bin/node;--no-experimental-fetch');
  assert.deepEqual(configurePreset('asan').environment, {
    CCACHE_BASEDIR: '${sourceDir}', CCACHE_NOHASHDIR: '1', CC: 'clang', CXX: 'clang++' });
});

test('Debian 12\'s CMake (3.25) reads the file: every preset is listed', () => {
  const version = execFileSync('cmake', ['--version'], { encoding: 'utf8' });
  const [, major, minor] = /cmake version (\d+)\.(\d+)/.exec(version).map(Number);
  assert.ok(major > 3 || (major === 3 && minor >= 25), version);
  assert.equal(presets.version, 6);  // the newest schema CMake 3.25 reads
  const list = spawnSync('cmake', ['--list-presets=all'], { cwd: root, encoding: 'utf8' });
  assert.equal(list.status, 0, list.stderr);
  for (const kind of ['configure', 'build', 'test', 'workflow'])
    assert.match(list.stdout, new RegExp(`Available ${kind} presets:\\n\\n  "native"[^\\n]*\\n  "web"[^\\n]*\\n  "asan"`));
});
