/**
 * Replacing a small file atomically and durably: write a temporary file, fsync it, rename it over
 * the target, fsync the directory. After a crash the file is either the old or the new version.
 */
import { dirname } from 'node:path';
import type { FileLayer } from './file-layer.js';

/** Suffix of the temporary file written next to the target; a leftover one is garbage from a crash. */
export const TEMP_SUFFIX = '.tmp';

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
