/**
 * Kùzu in a process of its own, so that it can be pinned to the same cores as the Ocelot server it
 * is compared with (bench's scaling scenario): `node kuzu-child.js SPEC_JSON`. It opens (loading
 * the RMAT CSV the first time) the database at `spec.dir`, limits query execution to
 * `spec.threads` threads, runs PageRank, WCC and exact-distance 3-hop reach `spec.runs` times after
 * one untimed run each, and prints one JSON line: seconds per run and the answers.
 */
import { existsSync } from 'node:fs';
import { importPeer } from './peers.js';

interface Spec {
  dir: string;
  nodesCsv: string;
  edgesCsv: string;
  threads: number;
  runs: number;
  seeds: number[];
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
  const fresh = !existsSync(spec.dir);
  const db = new kuzu.Database(spec.dir);
  const conn = new kuzu.Connection(db, spec.threads);
  const all = async (cypher: string): Promise<Record<string, unknown>[]> => {
    const r = await conn.query(cypher);
    return (Array.isArray(r) ? r[r.length - 1] : r).getAll();
  };
  if (fresh) {
    await all('CREATE NODE TABLE V(id INT64, PRIMARY KEY(id))');
    await all('CREATE REL TABLE E(FROM V TO V)');
    await all(`COPY V FROM '${spec.nodesCsv}' (header=false)`);
    await all(`COPY E FROM '${spec.edgesCsv}' (header=false)`);
  }
  await all('LOAD algo');
  await all("CALL project_graph('G', ['V'], ['E'])");
  const timed = async (f: () => Promise<number>): Promise<{ s: number[]; answer: number }> => {
    let answer = await f();
    const s: number[] = [];
    for (let i = 0; i < spec.runs; i++) {
      const t0 = performance.now();
      answer = await f();
      s.push((performance.now() - t0) / 1000);
    }
    return { s, answer };
  };
  const count = async (cypher: string): Promise<number> => Number((await all(cypher))[0].n);
  const pagerank = await timed(() =>
    count("CALL page_rank('G', maxIterations:=10, tolerance:=0.0) RETURN count(*) AS n"),
  );
  const wcc = await timed(() =>
    count("CALL weakly_connected_components('G') RETURN count(DISTINCT group_id) AS n"),
  );
  const khop = await timed(async () => {
    let n = 0;
    for (const s of spec.seeds)
      n += await count(`MATCH (a:V {id:${s}})-[:E* SHORTEST 1..3]->(b:V) RETURN count(*) AS n`);
    return n;
  });
  process.stdout.write(`${JSON.stringify({ pagerank, wcc, khop })}\n`);
  await conn.close();
  // Closing a Database after `LOAD algo` crashes kuzu 0.11.3 at exit: leave it to the process end.
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
