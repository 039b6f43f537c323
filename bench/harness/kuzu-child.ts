/**
 * Kùzu in a process of its own, so that it can be pinned to the same cores as the Ocelot server it
 * is compared with (bench's scaling scenario): `node kuzu-child.js SPEC_JSON`. It opens (loading
 * the RMAT CSV the first time) the database at `spec.dir`, limits query execution to
 * `spec.threads` threads, runs PageRank, WCC and exact-distance 3-hop reach `spec.runs` times after
 * one untimed run each, and prints one JSON line: seconds per run and the answers.
 */
import { existsSync } from 'node:fs';
import { KuzuPeer } from './kuzu-peer.js';

interface Spec {
  dir: string;
  nodesCsv: string;
  edgesCsv: string;
  threads: number;
  runs: number;
  seeds: number[];
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
  const fresh = !existsSync(spec.dir);
  const peer = await KuzuPeer.open(spec.dir, spec.threads);
  if (typeof peer === 'string') throw new Error(peer);
  if (fresh) await peer.loadRmat(spec);
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
  const pagerank = await timed(() => peer.pageRank());
  const wcc = await timed(() => peer.wcc());
  const khop = await timed(async () => {
    let n = 0;
    for (const s of spec.seeds) n += await peer.khop(s, 3);
    return n;
  });
  process.stdout.write(`${JSON.stringify({ pagerank, wcc, khop })}\n`);
  // Closes the connection only (see KuzuPeer.close).
  await peer.close();
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
