/**
 * Kùzu's COPY in a process of its own, pinned to the cores of the Ocelot server it is compared
 * with (bench's load scenario at each `--thread-list` count): `node kuzu-load-child.js SPEC_JSON`.
 * It creates a fresh database at `spec.dir` with `spec.threads` execution threads, copies the RMAT
 * CSV (nodes first, as Kùzu requires) and then the social CSVs, and prints one JSON line with the
 * seconds of each.
 */
import { importPeer } from './peers.js';

interface Spec {
  dir: string;
  threads: number;
  nodesCsv: string;
  edgesCsv: string;
  persons: string;
  knows: string;
}

/** The part of kuzu's API the child uses (the package is a peer: bench/harness/peers.ts). */
interface QueryResult {
  getAll(): Promise<Record<string, unknown>[]>;
}
interface KuzuModule {
  Database: new (path: string) => object;
  Connection: new (
    db: object,
    threads: number,
  ) => { query(cypher: string): Promise<QueryResult | QueryResult[]>; close(): Promise<void> };
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
  const kuzu = (await importPeer<{ default: KuzuModule }>('kuzu')).default;
  const conn = new kuzu.Connection(new kuzu.Database(spec.dir), spec.threads);
  const all = async (cypher: string): Promise<void> => {
    const r = await conn.query(cypher);
    await (Array.isArray(r) ? r[r.length - 1] : r).getAll();
  };
  const timed = async (statements: string[]): Promise<number> => {
    const t0 = performance.now();
    for (const s of statements) await all(s);
    return (performance.now() - t0) / 1000;
  };
  await all('CREATE NODE TABLE V(id INT64, PRIMARY KEY(id))');
  await all('CREATE REL TABLE E(FROM V TO V)');
  const rmat = await timed([
    `COPY V FROM '${spec.nodesCsv}' (header=false)`,
    `COPY E FROM '${spec.edgesCsv}' (header=false)`,
  ]);
  // The same tables as KuzuPeer.loadSocial: the interests list stays one STRING.
  await all(
    'CREATE NODE TABLE Person(id STRING, name STRING, birthday TIMESTAMP, created TIMESTAMP, interests STRING, PRIMARY KEY(id))',
  );
  await all('CREATE REL TABLE knows(FROM Person TO Person, since TIMESTAMP)');
  const social = await timed([
    `COPY Person FROM '${spec.persons}' (header=false)`,
    `COPY knows FROM '${spec.knows}' (header=false)`,
  ]);
  process.stdout.write(`${JSON.stringify({ rmat, social })}\n`);
  await conn.close();
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
