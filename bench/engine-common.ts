/** What the in-process engine scenarios (storage, paths, graphql) share: flags and the RMAT catalog. */
import type { Catalog } from '../src/catalog/types.js';

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
