/**
 * Path-finding benchmark (run by hand: `node dist/bench/paths.js [--scale N] [--queries Q]`):
 * an RMAT graph (directed edges, INT ids) is loaded and rebuilt, then shortest paths are asked
 * between random pairs of vertices that have edges, on one snapshot:
 *  1. one shortest path per pair (bidirectional BFS), max length 30 — ms per query
 *  2. every shortest path of the same pairs (union of the shortest-path DAG) — ms per query
 *  3. all simple paths up to length 3 between pairs — ms per query
 *  4. one shortest path per pair for 10 sources x 10 targets in one request — ms per request
 * Percentiles are over the queries; the later benchmarks issue compares these with Kùzu's
 * `-[:E* SHORTEST 1..30]->` and `ALL SHORTEST` on the same RMAT data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../src/engine/database.js';
import { engineScript, numberArg, rmatCatalog } from './_engine-common.js';
import { allPaths } from '../src/paths/all-paths.js';
import { Budget } from '../src/paths/budget.js';
import { PathGraph } from '../src/paths/graph.js';
import { shortestPaths, type PathSink } from '../src/paths/shortest.js';
import { rmat, Rng } from './generators/rmat.js';

const catalog = rmatCatalog();

function stats(ms: number[]): string {
  // --quick runs too few pairs for the 10 x 10 requests.
  if (ms.length === 0) return 'no requests';
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return `mean ${mean.toFixed(3)} ms, p50 ${at(0.5).toFixed(3)} ms, p90 ${at(0.9).toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms`;
}

async function main(): Promise<void> {
  const scale = numberArg('scale', 18);
  const queries = numberArg('queries', 200);
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-bench-paths-'));
  const out = (k: string, v: string): void => console.log(`${k.padEnd(46)} ${v}`);
  try {
    let t0 = performance.now();
    const g = rmat(scale, 16, 42);
    const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
    await db.changeCatalog(catalog);
    const m = g.src.length;
    for (let start = 0; start < m; start += 1 << 20) {
      const end = Math.min(m, start + (1 << 20));
      await db.write((tx) => {
        for (let e = start; e < end; e++) tx.upsertEdge('E', 'V', g.src[e], 'V', g.dst[e], {});
      });
    }
    await db.rebuild({ path: join(dir, 'rebuildnow') });
    const tx = db.read();
    out(
      `rmat scale ${scale}, loaded and rebuilt`,
      `${tx.vertexCount('V')} vertices, ${tx.edgeCount('E')} edges, ${(performance.now() - t0).toFixed(0)} ms`,
    );
    try {
      t0 = performance.now();
      const pg = new PathGraph(tx, catalog.graphs[0]);
      out('path graph (steps over the CSR views)', `${(performance.now() - t0).toFixed(1)} ms`);
      const rows = tx.rows('V');
      const rng = new Rng(7);
      const pairs: [number, number][] = [];
      // One vertex type: a row is its global number.
      for (let i = 0; i < queries; i++)
        pairs.push([rows[rng.below(rows.length)], rows[rng.below(rows.length)]]);
      const budget = (): Budget => new Budget(600_000);
      const count = { vertices: 0 };
      const sink: PathSink = { vertex: () => count.vertices++, edge: () => {} };
      const run = async (label: string, q: (s: number, t: number) => Promise<void>): Promise<void> => {
        const ms: number[] = [];
        count.vertices = 0;
        let found = 0;
        for (const [s, t] of pairs) {
          const before = count.vertices;
          const start = performance.now();
          await q(s, t);
          ms.push(performance.now() - start);
          if (count.vertices > before) found++;
        }
        out(label, `${stats(ms)} (${found}/${pairs.length} pairs connected)`);
      };
      await run('shortest path, one per pair (maxLength 30)', (s, t) =>
        shortestPaths(pg, [s], [t], { maxLength: 30, all: false, budget: budget() }, sink),
      );
      await run('all shortest paths (union, maxLength 30)', (s, t) =>
        shortestPaths(pg, [s], [t], { maxLength: 30, all: true, budget: budget() }, sink),
      );
      await run('all simple paths (maxLength 3)', (s, t) =>
        allPaths(pg, [s], [t], { maxLength: 3, budget: budget() }, sink),
      );
      // Many sources and targets at once: 10 x 10 pairs per request, one BFS per source.
      const group = (i: number): number[] => pairs.slice(i, i + 10).map((p) => p[0]);
      const groups: [number[], number[]][] = [];
      for (let i = 0; i + 20 <= pairs.length && groups.length < 10; i += 20)
        groups.push([group(i), group(i + 10)]);
      const ms: number[] = [];
      for (const [S, T] of groups) {
        const start = performance.now();
        await shortestPaths(pg, S, T, { maxLength: 30, all: false, budget: budget() }, sink);
        ms.push(performance.now() - start);
      }
      out('shortest paths, 10 sources x 10 targets', `${stats(ms)} per request (${groups.length} requests)`);
    } finally {
      tx.release();
      await db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const run = engineScript(import.meta.url, main);
