/** What the in-process engine scenarios (storage, paths, graphql) share: how they run, flags and the RMAT catalog. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Catalog } from '../src/catalog/types.js';

/**
 * The `run(args)` of an engine script (module `url`, body `main`). The `engine` scenario runs the
 * script in a child process with `--expose-gc`, so that its memory figures come after a forced GC;
 * `ocelot bench <name>` does the same through this `run`. Run as that child, the module runs `main`.
 */
export function engineScript(url: string, main: () => Promise<void>): (args: string[]) => Promise<void> {
  const file = fileURLToPath(url);
  if (process.argv[1] === file)
    main().catch((e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exitCode = 1;
    });
  return (args) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--expose-gc', file, ...args], { stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`exited with ${signal ?? `code ${String(code)}`}`)),
      );
    });
}

/** The number after `--name` on the command line, or `dflt`. */
export function numberArg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

/** One INT-keyed vertex type V and one directed, attribute-less edge type E, in graph g. */
export function rmatCatalog(): Catalog {
  return {
    version: 1,
    tuples: [],
    jobs: [],
    graphs: [{ name: 'g', vertexTypes: ['V'], edgeTypes: ['E'] }],
    vertexTypes: [
      {
        name: 'V',
        keyKind: 'primary_id',
        primaryId: { name: 'id', type: { kind: 'INT', bytes: 8 } },
        keyAttributes: [],
        primaryIdAsAttribute: false,
        attributes: [],
        stats: 'OUTDEGREE_BY_EDGETYPE',
      },
    ],
    edgeTypes: [
      { name: 'E', directed: true, pairs: [{ from: 'V', to: 'V' }], attributes: [], discriminator: [] },
    ],
  };
}
