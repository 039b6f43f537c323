/**
 * Small file-system steps done durably: a new directory whose entry survives a power loss, and a
 * small file replaced atomically (after a crash it is either the old or the new version).
 */
import { dirname } from 'node:path';
import type { FileLayer } from './file-layer.js';

/** Suffix of the temporary file written next to the target; a leftover one is garbage from a crash. */
export const TEMP_SUFFIX = '.tmp';

/**
 * Creates `dir` and any missing parents, fsyncing the parent of each directory created: a new
 * directory entry is only durable once its parent is fsynced, and the files inside are lost with it.
 */
export async function makeDirDurable(fs: FileLayer, dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = dir; !(await fs.stat(d)); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  if (missing.length === 0) return;
  await fs.mkdir(dir);
  for (const d of missing) await fs.syncDir(dirname(d));
}

/** Writes a temporary file, fsyncs it, renames it over `path`, fsyncs the directory. */
export async function writeFileAtomic(fs: FileLayer, path: string, data: Uint8Array): Promise<void> {
  const tmp = path + TEMP_SUFFIX;
  const h = await fs.open(tmp, 'create');
  try {
    await h.write(data, 0);
    await h.sync();
  } finally {
    await h.close();
  }
  await fs.rename(tmp, path);
  await fs.syncDir(dirname(path));
}
