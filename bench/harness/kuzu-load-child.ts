/**
 * Kùzu's COPY in a process of its own, pinned to the cores of the Ocelot server it is compared
 * with (bench's load scenario at each `--thread-list` count): `node kuzu-load-child.js SPEC_JSON`.
 * It creates a fresh database at `spec.dir` with `spec.threads` execution threads, copies the RMAT
 * CSV (nodes first, as Kùzu requires) and then the social CSVs, and prints one JSON line with the
 * seconds of each.
 */
import { KuzuPeer } from './kuzu-peer.js';

interface Spec {
  dir: string;
  threads: number;
  nodesCsv: string;
  edgesCsv: string;
  persons: string;
  knows: string;
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
  const peer = await KuzuPeer.open(spec.dir, spec.threads);
  if (typeof peer === 'string') throw new Error(peer);
  const rmat = (await peer.loadRmat(spec)) / 1000;
  const social = (await peer.loadSocial(spec.persons, spec.knows)) / 1000;
  process.stdout.write(`${JSON.stringify({ rmat, social })}\n`);
  await peer.close();
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
