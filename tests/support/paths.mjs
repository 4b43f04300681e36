// Where the build puts things (see README, "Where things land").
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// ATTNLAB_NATIVE_DIR / ATTNLAB_DIST_DIR point the tests at other build folders.
export const nativeDir = process.env.ATTNLAB_NATIVE_DIR || path.join(root, 'build', 'native');
export const distDir = process.env.ATTNLAB_DIST_DIR || path.join(root, 'build', 'web', 'dist');
export const artifactsDir = path.join(root, 'build', 'test-artifacts');
fs.mkdirSync(artifactsDir, { recursive: true });

// The published name of a site file: assets carry content hashes (cmake/steps/make-site.mjs),
// e.g. distFile('attnlab.wasm') -> <dist>/attnlab.<hash>.wasm.
export function distFile(name) {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'asset-manifest.json'), 'utf8'));
  if (!(name in manifest)) throw new Error(`${name} is not in ${distDir}/asset-manifest.json`);
  return path.join(distDir, manifest[name]);
}
