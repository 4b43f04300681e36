// Where the build puts things (see README, "Where things land").
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const nativeDir = path.join(root, 'build', 'native');
export const distDir = path.join(root, 'build', 'web', 'dist');
export const artifactsDir = path.join(root, 'build', 'test-artifacts');
fs.mkdirSync(artifactsDir, { recursive: true });
