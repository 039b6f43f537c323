/**
 * Servers over a real Database with the test catalog of graph-fixture.ts, for the HTTP tests of
 * the graph data endpoints and builtins.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database, type DatabaseOptions } from '../../../src/engine/database.js';
import { startServers, type RunningServers, type ServerOptions } from '../../../src/server/start.js';
import { testCatalog } from './graph-fixture.js';

const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;

export interface Harness {
  servers: RunningServers;
  db: Database;
  /** REST++ base url (:9000 form). */
  rest: string;
  /** REST++ through the GSQL port (:14240/restpp form). */
  restpp: string;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

/**
 * `prepare` makes the schema and data before the servers start (default: graph-fixture.ts's test
 * catalog, no data).
 */
export async function startHarness(
  options: Partial<ServerOptions> = {},
  dbOptions: Partial<DatabaseOptions> = {},
  prepare: (db: Database) => Promise<unknown> = (db) => db.changeCatalog(testCatalog()),
): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-graph-'));
  const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0, ...dbOptions });
  await prepare(db);
  const servers = await startServers({
    database: db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    log: () => {},
    ...options,
  });
  return {
    servers,
    db,
    rest: servers.urls.restpp,
    restpp: `${servers.urls.gsql}/restpp`,
    async close() {
      await servers.close();
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Sends a request; `body` is sent as given (a string) or JSON-encoded, without a Content-Type. */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(base + path, {
    method,
    headers: { Authorization: BASIC, ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = {};
  }
  return { status: res.status, body: parsed, text };
}

/** Upserts vertex4 ids with a01 values, and vertex5 ids. */
export async function seed(h: Harness): Promise<void> {
  const v4: Record<string, unknown> = {};
  for (let i = 1; i <= 5; i++) v4[String(i)] = { a01: { value: i } };
  const v5: Record<string, unknown> = {};
  for (let i = 1; i <= 5; i++) v5[String(i)] = {};
  const r = await call(h.rest, 'POST', '/graph/tests', { vertices: { vertex4: v4, vertex5: v5 } });
  if (r.status !== 200) throw new Error(`seed failed: ${r.text}`);
}
