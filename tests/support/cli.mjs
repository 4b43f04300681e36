// Running attnlab-cli from tests: each run writes into a fresh output folder, and a refusal
// must be one line on stderr matching the expected reason, no output left, and its exit code:
// 2 for the command line itself (expectUsageError: an unknown option, a missing or bad value),
// 1 for everything else (expectRefusal: files missing or refused, caps, writes).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { nativeDir } from './paths.mjs';

export const cli = path.join(nativeDir, 'attnlab-cli');

// `dir` is the test's scratch folder; returns the spawn result and the output folder used.
export function cliRunner(dir) {
  const run = (args, out = path.join(dir, 'out-' + Math.random().toString(36).slice(2))) => {
    const r = spawnSync(cli, [...args, '--out', out], { encoding: 'utf8' });
    return { ...r, out };
  };
  const expectExit = (code) => (args, pattern) => {
    const r = run(args);
    assert.equal(r.status, code, `exit code for ${args.join(' ')}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line on stderr, got: ${r.stderr}`);
    assert.match(lines[0], pattern);
    assert.equal(fs.existsSync(r.out) && fs.readdirSync(r.out).length > 0, false, 'partial output left behind');
  };
  return { cliRun: run, expectRefusal: expectExit(1), expectUsageError: expectExit(2) };
}
