/**
 * The benchmark's data, generated once per run into a scratch directory: Graph500 RMAT edges as a
 * CSV file (shared by Ocelot's loading job and Kùzu's COPY), the vertex list Kùzu needs, an
 * in-memory CSR for choosing seeds, and fixed random seeds and pairs among non-isolated vertices.
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { rmat, Rng } from '../generators/rmat.js';

export interface BenchData {
  scale: number;
  vertices: number;
  /** Edge lines in the CSV (duplicates included, as generated). */
  edgeLines: number;
  edgesCsv: string;
  edgesBytes: number;
  /** Every id that appears in an edge, one per line (Kùzu's node table). */
  nodesCsv: string;
  src: Uint32Array;
  dst: Uint32Array;
  /** Fixed k-hop seeds (vertices with an out-edge). */
  seeds: number[];
  /** Fixed shortest-path pairs (both ends non-isolated). */
  pairs: [number, number][];
}

/** Writes `n` generated lines to `path` in 1 MB writes; returns the file's size in bytes. */
export async function writeLines(path: string, n: number, line: (i: number) => string): Promise<number> {
  const out = createWriteStream(path);
  let buf = '';
  for (let i = 0; i < n; i++) {
    buf += line(i);
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
  return (await stat(path)).size;
}

export async function makeData(
  dir: string,
  scale: number,
  seedCount: number,
  pairCount: number,
): Promise<BenchData> {
  const g = rmat(scale, 16, 42);
  const edgesCsv = join(dir, 'edges.csv');
  await writeLines(edgesCsv, g.src.length, (i) => `${g.src[i]},${g.dst[i]}\n`);
  const out = new Uint8Array(g.vertices);
  const any = new Uint8Array(g.vertices);
  for (let i = 0; i < g.src.length; i++) {
    out[g.src[i]] = 1;
    any[g.src[i]] = 1;
    any[g.dst[i]] = 1;
  }
  const present: number[] = [];
  for (let v = 0; v < g.vertices; v++) if (any[v]) present.push(v);
  const nodesCsv = join(dir, 'nodes.csv');
  await writeLines(nodesCsv, present.length, (i) => `${present[i]}\n`);
  const rng = new Rng(7);
  const seeds: number[] = [];
  while (seeds.length < seedCount) {
    const v = rng.below(g.vertices);
    if (out[v]) seeds.push(v);
  }
  const pairs: [number, number][] = [];
  while (pairs.length < pairCount) {
    pairs.push([present[rng.below(present.length)], present[rng.below(present.length)]]);
  }
  return {
    scale,
    vertices: g.vertices,
    edgeLines: g.src.length,
    edgesCsv,
    edgesBytes: (await stat(edgesCsv)).size,
    nodesCsv,
    src: g.src,
    dst: g.dst,
    seeds,
    pairs,
  };
}
