#!/usr/bin/env node
/**
 * Installs the benchmark peers (bench/package.json: Kùzu, graphology, autocannon) into
 * bench/node_modules when they are missing or bench/package-lock.json changed since. The root
 * install never has them. If the install fails, the benchmarks still run and report each missing
 * peer as "not available".
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bench = fileURLToPath(new URL('../bench/', import.meta.url));
const mtime = (p) => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return -1;
  }
};
// npm writes node_modules/.package-lock.json at the end of every successful install.
if (mtime(`${bench}node_modules/.package-lock.json`) < mtime(`${bench}package-lock.json`)) {
  process.stderr.write('bench: installing the peers (bench/package.json) into bench/node_modules\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: bench, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write('bench: the peers could not be installed; their rows will say "not available"\n');
  }
}
