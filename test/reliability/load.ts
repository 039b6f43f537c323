/**
 * The load run: N concurrent clients on loopback against an `ocelot serve` child for a bounded time,
 * mixing reads (vertex by id, filtered lists, edges), writes (upserts of existing ids with edges, so
 * the data size stays constant) and an installed GSQL query through REST++ /query. Measures throughput,
 * errors and latency percentiles, and the server's RSS after a full GC (gc-probe.mjs) before and
 * after the load.
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GC_PROBE, gsql, request, startServe, type ServeProcess } from './server-process.js';
import { waitFor } from '../timing.js';

export interface LoadOptions {
  dir: string;
  clients: number;
  durationMs: number;
  vertices: number;
  random?: () => number;
}

export interface LoadReport {
  requests: number;
  errors: number;
  errorSamples: string[];
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Per kind of request: count and p99 latency in ms. */
  byKind: Record<string, { n: number; p99Ms: number }>;
  rssBaselineMb: number;
  rssAfterMb: number;
}

const SCHEMA = `CREATE VERTEX P (PRIMARY_ID id STRING, n INT, name STRING)
CREATE DIRECTED EDGE E (FROM P, TO P, w INT)
CREATE GRAPH G (P, E)
USE GRAPH G
CREATE QUERY hop(VERTEX<P> v) FOR GRAPH G {
  SumAccum<INT> @@w;
  S = {v};
  T = SELECT t FROM S:s -(E>:e)- P:t ACCUM @@w += e.w;
  PRINT T.size() AS n, @@w AS w;
}
INSTALL QUERY hop
`;

/** RSS of the server after a full GC, in MB (the child answers SIGUSR2 on stderr). */
export async function serverRssMb(s: ServeProcess): Promise<number> {
  const before = (s.stderr().match(/gc-probe rss=/g) ?? []).length;
  s.child.kill('SIGUSR2');
  const all = await waitFor(`a gc-probe answer in: ${s.stderr()}`, () => {
    const found = [...s.stderr().matchAll(/gc-probe rss=(\d+)/g)];
    return found.length > before && found;
  });
  return Number(all[all.length - 1][1]) / (1024 * 1024);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function loadRun(opts: LoadOptions): Promise<LoadReport> {
  const rnd = opts.random ?? Math.random;
  const s = await startServe({
    dataDir: join(opts.dir, 'data'),
    // Summary folders of /rebuildnow are written in the output directory.
    args: ['--output-dir', opts.dir],
    nodeArgs: ['--expose-gc', '--import', pathToFileURL(GC_PROBE).href],
  });
  try {
    const made = await gsql(s.gsql, SCHEMA);
    if (made.code !== 0) throw new Error(`load schema failed:\n${made.out}`);
    const id = (i: number) => `p${i}`;
    const vertices: Record<string, unknown> = {};
    const edges: Record<string, unknown> = {};
    for (let i = 0; i < opts.vertices; i++) {
      vertices[id(i)] = { n: { value: i }, name: { value: `name${i}` } };
      edges[id(i)] = { E: { P: { [id((i + 1) % opts.vertices)]: { w: { value: 1 } } } } };
    }
    const seeded = await request(`${s.restpp}/graph/G`, {
      method: 'POST',
      body: JSON.stringify({ vertices: { P: vertices }, edges: { P: edges } }),
    });
    if (seeded.status !== 200) throw new Error(`seed failed: ${seeded.text}`);
    await request(`${s.restpp}/rebuildnow/G?path=rb`);
    const rssBaselineMb = await serverRssMb(s);

    const latencies: number[] = [];
    const perKind: Record<string, number[]> = {};
    const errorSamples: string[] = [];
    let errors = 0;
    const pick = () => id(Math.floor(rnd() * opts.vertices));
    const one = async (): Promise<void> => {
      const dice = rnd();
      let kind: string;
      let ok: boolean;
      let text: string;
      const t0 = performance.now();
      if (dice < 0.3) {
        kind = 'read-one';
        const r = await request(`${s.restpp}/graph/G/vertices/P/${pick()}`);
        ok = r.status === 200;
        text = r.text;
      } else if (dice < 0.45) {
        kind = 'read-filter';
        const r = await request(
          `${s.restpp}/graph/G/vertices/P?filter=n>${Math.floor(rnd() * opts.vertices)}&limit=10`,
        );
        ok = r.status === 200;
        text = r.text;
      } else if (dice < 0.6) {
        kind = 'read-edges';
        const r = await request(`${s.restpp}/graph/G/edges/P/${pick()}/E`);
        ok = r.status === 200;
        text = r.text;
      } else if (dice < 0.9) {
        kind = 'write';
        const a = pick();
        const b = pick();
        const body = {
          vertices: {
            P: { [a]: { n: { value: Math.floor(rnd() * 1000) } }, [b]: { name: { value: `w${rnd()}` } } },
          },
          edges: { P: { [a]: { E: { P: { [b]: { w: { value: 1, op: 'add' } } } } } } },
        };
        const r = await request(`${s.restpp}/graph/G`, { method: 'POST', body: JSON.stringify(body) });
        ok = r.status === 200;
        text = r.text;
      } else {
        kind = 'query';
        const r = await request(`${s.restpp}/query/G/hop?v=${pick()}`);
        ok = r.status === 200;
        text = r.text;
      }
      const ms = performance.now() - t0;
      latencies.push(ms);
      (perKind[kind] ??= []).push(ms);
      if (!ok) {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(`${kind}: ${text.slice(0, 300)}`);
      }
    };
    const started = performance.now();
    const deadline = started + opts.durationMs;
    await Promise.all(
      Array.from({ length: opts.clients }, async () => {
        while (performance.now() < deadline) await one();
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    await request(`${s.restpp}/rebuildnow/G?path=rb`);
    const rssAfterMb = await serverRssMb(s);
    latencies.sort((x, y) => x - y);
    const byKind: LoadReport['byKind'] = {};
    for (const [kind, list] of Object.entries(perKind)) {
      list.sort((x, y) => x - y);
      byKind[kind] = { n: list.length, p99Ms: Math.round(percentile(list, 99)) };
    }
    return {
      requests: latencies.length,
      errors,
      errorSamples,
      throughput: latencies.length / elapsed,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies[latencies.length - 1] ?? 0,
      byKind,
      rssBaselineMb,
      rssAfterMb,
    };
  } finally {
    s.child.kill('SIGTERM');
    const timer = setTimeout(() => s.child.kill('SIGKILL'), 5_000);
    if (s.child.exitCode === null && s.child.signalCode === null) await once(s.child, 'close');
    clearTimeout(timer);
  }
}
