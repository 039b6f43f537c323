/**
 * Storage benchmarks (run by hand: `node dist/bench/storage.js [--scale N] [--batch B]`):
 *  1. edge insert throughput through Database.write with sync 'always' (RMAT edges, INT ids, big batches)
 *  2. rebuild (merge + checkpoint) time
 *  3. memory per attribute-less edge after rebuild (both directions)
 *  4. restart time (checkpoint load) and a read-back check
 *  5. small-transaction throughput (one upsert per write, concurrent writers: group commit)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../src/engine/database.js';
import { engineScript, numberArg, rmatCatalog } from './_engine-common.js';
import { rmat } from './generators/rmat.js';
import { lineLogger } from '../src/util/logger.js';

const catalog = rmatCatalog();

function mem(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Full collections after a pause, so that freed ArrayBuffer backing stores are really released. */
async function settle(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  await new Promise((r) => setTimeout(r, 200));
  gc();
  gc();
}

/** Bytes held by the typed arrays of a database's edge blocks (the adjacency itself). */
function adjacencyBytes(db: Database): number {
  const store = (
    db as unknown as { store: { blocks: Record<string, { byteLength: number } | number | object>[] } }
  ).store;
  let n = 0;
  for (const b of store.blocks) {
    for (const v of Object.values(b)) if (ArrayBuffer.isView(v)) n += v.byteLength;
  }
  return n;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * A fixed CPU-bound loop (100M xorshift steps, about 0.1 s on an idle 2020s core), printed with the
 * results so that numbers from a busy machine can be compared with numbers from a quiet one.
 */
function calibrationMs(): number {
  const t0 = performance.now();
  let x = 1;
  let s = 0;
  for (let k = 0; k < 100_000_000; k++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    s += x & 1;
  }
  if (s < 0) console.log(s);
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const scale = numberArg('scale', 20);
  const batch = numberArg('batch', 1 << 20);
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-bench-'));
  const out = (k: string, v: string): void => console.log(`${k.padEnd(44)} ${v}`);
  try {
    out('calibration loop (idle core: ~100 ms)', `${calibrationMs().toFixed(0)} ms`);
    let t0 = performance.now();
    const g = rmat(scale, 16, 42);
    out(
      `rmat scale ${scale}`,
      `${g.vertices} vertices, ${g.src.length} edges, ${(performance.now() - t0).toFixed(0)} ms`,
    );

    const logger = lineLogger((line: string): void => {
      if (line.startsWith('rebuild:') || line.startsWith('recovery:')) out('  engine log', line);
    });
    let db = await Database.open({ dataDir: dir, sync: 'always', rebuildIntervalMs: 0, logger });
    await db.changeCatalog(catalog);
    await settle();
    const memBefore = mem();
    t0 = performance.now();
    const c0 = cpuMs();
    const m = g.src.length;
    for (let start = 0; start < m; start += batch) {
      const end = Math.min(m, start + batch);
      await db.write((tx) => {
        for (let e = start; e < end; e++) tx.upsertEdge('E', 'V', g.src[e], 'V', g.dst[e], {});
      });
    }
    let ms = performance.now() - t0;
    const cpu = cpuMs() - c0;
    const r0 = db.read();
    const edges = r0.edgeCount('E');
    const vertices = r0.vertexCount('V');
    r0.release();
    out(
      `insert (sync always, batches of ${batch})`,
      `${((m / ms) * 1000).toFixed(0)} edges/s wall, ${((m / cpu) * 1000).toFixed(0)} edges/s per CPU-second ` +
        `(${ms.toFixed(0)} ms; ${edges} distinct edges, ${vertices} vertices)`,
    );

    t0 = performance.now();
    await db.rebuild({ path: join(dir, 'rebuildnow') });
    out('rebuild (merge + checkpoint)', `${(performance.now() - t0).toFixed(0)} ms`);
    await settle();
    const memAfter = mem();
    out('adjacency bytes per edge (both directions)', `${(adjacencyBytes(db) / edges).toFixed(2)} bytes`);
    out(
      'process memory per edge after rebuild',
      `${((memAfter - memBefore) / edges).toFixed(1)} bytes (vertices, ids and id index included)`,
    );
    await db.close();

    db = undefined as unknown as Database;
    await settle();
    t0 = performance.now();
    db = await Database.open({ dataDir: dir, sync: 'always', rebuildIntervalMs: 0, logger });
    ms = performance.now() - t0;
    const r = db.read();
    out(
      'restart (checkpoint load)',
      `${ms.toFixed(0)} ms (${r.vertexCount('V')} vertices, ${r.edgeCount('E')} edges)`,
    );
    r.release();

    const n = 20_000;
    t0 = performance.now();
    let inflight: Promise<unknown>[] = [];
    for (let i = 0; i < n; i++) {
      inflight.push(db.write((tx) => tx.upsertEdge('E', 'V', i, 'V', -1 - i, {})));
      if (inflight.length >= 256) {
        await Promise.all(inflight);
        inflight = [];
      }
    }
    await Promise.all(inflight);
    ms = performance.now() - t0;
    out(
      'small writes (1 edge each, 256 concurrent)',
      `${((n / ms) * 1000).toFixed(0)} tx/s, ${db.walStats.syncs} fsyncs in total`,
    );
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const run = engineScript(import.meta.url, main);
