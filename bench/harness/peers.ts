/**
 * The peer packages (Kùzu, graphology, autocannon) live in bench/node_modules, installed by
 * `npm run bench` from bench/package.json and never by the root install. They are resolved from
 * there, so the compiled bench in dist/bench finds them; a missing one throws, and each caller turns
 * that into a "not available" reason.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** bench/package.json, seen from dist/bench/harness/. */
const requireFromBench = createRequire(new URL('../../../bench/package.json', import.meta.url));

/** Imports a peer package (or a file inside one) from bench/node_modules. */
export async function importPeer<T>(specifier: string): Promise<T> {
  let path: string;
  try {
    path = requireFromBench.resolve(specifier);
  } catch {
    throw new Error(`${specifier} is not installed in bench/node_modules (npm run bench installs it)`);
  }
  return (await import(pathToFileURL(path).href)) as T;
}
