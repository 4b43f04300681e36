// The npm package `attention-lab` (build/web/dist) as a user gets it: packed by `npm pack` into
// a tarball and installed from it, offline, into a scratch project of a course author's.
//
//   packAndInstall() -> {scratch, installed, pack, install, packed()}: the scratch folder, the
//     installed package's folder, npm's report of the tarball ({filename, size, unpackedSize,
//     entryCount, files: [{path, size}]}), the install's result (status, stdout, stderr) and a
//     one-line summary of the pack's sizes. The folder is removed when the process exits.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distDir } from './paths.mjs';

export const run = (command, args, cwd) => spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 << 20 });

const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

export function packAndInstall() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-package-'));
  process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
  fs.writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'course-page', private: true, type: 'module' }));
  const packed = run('npm', ['pack', '--json', '--offline', '--loglevel=error', '--pack-destination', scratch], distDir);
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stdout}\n${packed.stderr}`);
  const [pack] = JSON.parse(packed.stdout);
  const install = run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', `./${pack.filename}`], scratch);
  return {
    scratch,
    installed: path.join(scratch, 'node_modules', 'attention-lab'),
    pack,
    install,
    packed: () => `packed ${mb(pack.size)} (${pack.size} bytes), unpacked ${mb(pack.unpackedSize)}, ${pack.entryCount} files`,
  };
}

// The files the package carries beside its code: package.json, the README, the licences and
// the type declarations. Everything else in it is loaded by an entry at run time.
export const isPackageDocument = (file) => /^(package\.json|README\.md|LICENSE|licenses\/.*|[^/]+\.d\.ts)$/.test(file);
