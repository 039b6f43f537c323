/**
 * The files of the asset builds (package.json "ocelot.assetBuilds", built by scripts/build.mjs into
 * dist/assets/<build>/ and shipped in the packed package): browser code the server sends as it is.
 * Files are read once and kept; a failed read is retried on the next request.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/assets, seen from dist/src/server/http/. */
const ASSETS_DIR = fileURLToPath(new URL('../../../assets/', import.meta.url));

const cache = new Map<string, Promise<Buffer>>();

/** The bytes of `file` of asset build `build`; rejects with a message naming the build to run. */
export function readAsset(build: string, file: string): Promise<Buffer> {
  const path = join(ASSETS_DIR, build, file);
  let p = cache.get(path);
  if (!p) {
    p = readFile(path).catch((e: NodeJS.ErrnoException) => {
      cache.delete(path);
      throw new Error(
        e.code === 'ENOENT'
          ? `The ${build} assets are not built (${file} is missing); run 'npm run build'.`
          : `Cannot read the ${build} asset ${file}: ${e.message}`,
      );
    });
    cache.set(path, p);
  }
  return p;
}
