/**
 * The k-hop suites' graph (parallel-khop, parallel-khop-split): 3000 vertices of V with hubs at
 * low ids, the split thresholds lowered so SELECTs split on it, and the plain walk whose frontiers
 * a breadth-first search checks.
 */
import { join } from 'node:path';
import { type LoweredDb, rnd } from './parallel-fixture.js';

export const N = 3000;
export const LOWERED = { minSources: 16, minPartition: 16, sourceCost: 2, pullCost: 1 };

export const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, n INT, k INT)
CREATE DIRECTED EDGE E (FROM V, TO V) WITH REVERSE_EDGE="rE"
CREATE GRAPH g (*)
`;

/** Each hop's frontier, printed: the result lists themselves, in the order the SELECTs return them. */
export const HOPS = `CREATE QUERY hops(VERTEX<V> s, INT k) FOR GRAPH g {
  OrAccum @seen; ListAccum<INT> @@sizes; ListAccum<INT> @@order; INT i = 0;
  F = {s};
  F = SELECT v FROM F:v POST-ACCUM v.@seen += true;
  WHILE i < k AND F.size() > 0 DO
    F = SELECT t FROM F:v -(E>)- V:t WHERE t.@seen == false POST-ACCUM t.@seen += true;
    @@sizes += F.size();
    Order = SELECT v FROM F:v ACCUM @@order += v.n;
    i = i + 1;
  END;
  PRINT @@sizes, @@order;
}`;

/** A hub graph as written: out-neighbours and k by id (a reference's own copy of the graph). */
export interface HubGraph {
  out: number[][];
  ks: number[];
}

/**
 * Writes `n` vertices of V (n = the id, k random below 100) and up to 5n distinct E edges with hubs
 * at low ids, as an RMAT load puts them (a hop from a few sources reaches many targets), then
 * merges them into the base.
 */
export async function writeHubGraph(lowered: LoweredDb, n: number, seed: number): Promise<HubGraph> {
  const out: number[][] = Array.from({ length: n }, () => []);
  const ks: number[] = [];
  const r = rnd(seed);
  await lowered.db.write((tx) => {
    for (let i = 0; i < n; i++) {
      ks.push(r(100));
      tx.upsertVertex('V', i, { n: { value: i, op: 'set' }, k: { value: ks[i], op: 'set' } });
    }
    const seen = new Set<number>();
    for (let i = 0; i < n * 5; i++) {
      const a = r(3) === 0 ? r(40) : r(n);
      const b = r(3) === 0 ? r(40) : r(n);
      if (seen.has(a * n + b)) continue;
      seen.add(a * n + b);
      out[a].push(b);
      tx.upsertEdge('E', 'V', a, 'V', b, {});
    }
  });
  await lowered.db.rebuild({ path: join(lowered.dir, 'summary') });
  return { out, ks };
}
