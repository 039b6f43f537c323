import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultyFileLayer } from '../../../src/durability/faulty-file-layer.js';
import type { FileHandle, FileLayer, OpenMode } from '../../../src/durability/file-layer.js';
import { Database } from '../../../src/engine/database.js';
import { startServers } from '../../../src/server/start.js';
import { testCatalog } from './graph-fixture.js';
import { call, type Reply } from './graph-harness.js';
import { waitFor } from '../../timing.js';

/**
 * A file layer whose fsyncs of WAL segments can be held: a held writeAndSync writes (into the
 * fault-injecting layer's page cache, lost on a crash) and then waits before its fsync.
 */
class GatedLayer implements FileLayer {
  private gate: Promise<void> | undefined;
  private open_: (() => void) | undefined;
  /** fsyncs waiting at the gate. */
  held = 0;

  constructor(readonly inner: FaultyFileLayer) {}

  hold(): void {
    this.gate = new Promise((r) => (this.open_ = r));
  }

  release(): void {
    this.gate = undefined;
    this.open_?.();
  }

  private async wait(): Promise<void> {
    const gate = this.gate;
    if (!gate) return;
    this.held++;
    await gate;
    this.held--;
  }

  async open(path: string, mode: OpenMode): Promise<FileHandle> {
    const h = await this.inner.open(path, mode);
    if (!path.includes('wal')) return h;
    const wait = (): Promise<void> => this.wait();
    return {
      path: h.path,
      write: (data, position) => h.write(data, position),
      read: (position, length) => h.read(position, length),
      async sync() {
        await wait();
        await h.sync();
      },
      async writeAndSync(data, position) {
        await h.write(data, position);
        await wait();
        await h.sync();
      },
      truncate: (length) => h.truncate(length),
      size: () => h.size(),
      close: () => h.close(),
    };
  }

  readFile = (path: string): Promise<Buffer> => this.inner.readFile(path);
  list = (dir: string): Promise<string[]> => this.inner.list(dir);
  mkdir = (dir: string): Promise<void> => this.inner.mkdir(dir);
  rename = (from: string, to: string): Promise<void> => this.inner.rename(from, to);
  unlink = (path: string): Promise<void> => this.inner.unlink(path);
  stat: FileLayer['stat'] = (path) => this.inner.stat(path);
  truncate = (path: string, length: number): Promise<void> => this.inner.truncate(path, length);
  syncDir = (dir: string): Promise<void> => this.inner.syncDir(dir);
}

/** Lets the event loop and the thread pool run until `done()` holds (bounded, so a bug fails, not hangs). */
async function until(done: () => boolean, what: string): Promise<void> {
  await waitFor(what, done);
}

/** A request whose settlement can be observed without awaiting it. */
function track(p: Promise<Reply>): { reply: Promise<Reply>; settled: () => boolean } {
  let settled = false;
  const reply = p.finally(() => (settled = true));
  return { reply, settled: () => settled };
}

function vertices(type: string, ids: number[], a01?: (id: number) => number) {
  const vs: Record<string, unknown> = {};
  for (const id of ids) vs[String(id)] = a01 ? { a01: { value: a01(id) } } : {};
  return { vertices: { [type]: vs } };
}

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

test('concurrent upserts each get their own response, only after the fsync that covers them, and share it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-concurrent-'));
  dirs.push(dir);
  const fs = new FaultyFileLayer();
  const gated = new GatedLayer(fs);
  const db = await Database.open({ dataDir: dir, sync: 'always', rebuildIntervalMs: 0, fileLayer: gated });
  await db.changeCatalog(testCatalog());
  const servers = await startServers({
    database: db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    log: () => {},
  });
  let closed = false;
  const shutDown = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    gated.release();
    await servers.close();
    await db.close().catch(() => undefined);
  };
  try {
    await concurrentRequests();
  } finally {
    await shutDown();
  }

  async function concurrentRequests(): Promise<void> {
    const rest = servers.urls.restpp;
    const post = (body: unknown, query = '') => track(call(rest, 'POST', `/graph/tests${query}`, body));
    const appends0 = db.walStats.appends;
    const syncs0 = db.walStats.syncs;

    gated.hold();
    const a = post(vertices('vertex4', [100, 101, 102], (id) => id * 2));
    await until(() => gated.held === 1, "the first request's fsync");
    const b = post(vertices('vertex5', [200, 201, 202, 203, 204]));
    const c = post(vertices('vertex4', [300, 301], (id) => id + 1));
    // Staged behind the first request, so it sees 100 as existing though nothing is acknowledged yet.
    const d = post(
      vertices('vertex4', [100, 103], () => -1),
      '?new_vertex_only=true',
    );
    await until(() => db.walStats.appends === appends0 + 4, 'the other three WAL records');
    assert.deepEqual(
      [a, b, c, d].map((r) => r.settled()),
      [false, false, false, false],
      'no request is acknowledged before its fsync',
    );
    const read = await call(rest, 'GET', '/graph/tests/vertices/vertex4?count_only=true');
    assert.deepEqual(read.body.results, [{ v_type: 'vertex4', count: 0 }], 'readers see only durable data');

    gated.release();
    const replies = await Promise.all([a, b, c, d].map((r) => r.reply));
    assert.deepEqual(
      replies.map((r) => [r.status, r.body.results]),
      [
        [200, [{ accepted_vertices: 3, accepted_edges: 0 }]],
        [200, [{ accepted_vertices: 5, accepted_edges: 0 }]],
        [200, [{ accepted_vertices: 2, accepted_edges: 0 }]],
        [
          200,
          [
            {
              accepted_vertices: 1,
              skipped_vertices: 1,
              vertices_already_exist: [{ v_type: 'vertex4', v_id: '100' }],
              accepted_edges: 0,
            },
          ],
        ],
      ],
    );
    // The three requests that queued behind the first fsync shared the next one.
    assert.equal(db.walStats.syncs - syncs0, 2);

    // One more request is written but its fsync is held when the power fails: it is never acknowledged.
    gated.hold();
    const e = post(vertices('vertex4', [900], () => 9));
    await until(() => gated.held === 1, "the last request's fsync");
    await fs.crash();
    assert.equal(e.settled(), false);
    gated.release();
    const lost = await e.reply;
    assert.equal(lost.body.error, true, 'a write whose fsync failed is reported as failed');
    await shutDown();

    const again = await Database.open({ dataDir: dir, rebuildIntervalMs: 0, fileLayer: fs });
    const r = again.read();
    const v4 = new Map<unknown, unknown>();
    for (const row of r.rows('vertex4'))
      v4.set(r.vertexIdValue('vertex4', row), r.attr('vertex4', row, 'a01'));
    const v5 = [...r.rows('vertex5')].map((row) => r.vertexIdValue('vertex5', row)).sort();
    r.release();
    await again.close();
    assert.deepEqual(
      [...v4.entries()].sort((x, y) => Number(x[0]) - Number(y[0])),
      [
        [100, 200],
        [101, 202],
        [102, 204],
        [103, -1],
        [300, 301],
        [301, 302],
      ],
    );
    assert.deepEqual(v5, [200, 201, 202, 203, 204]);
  }
});
