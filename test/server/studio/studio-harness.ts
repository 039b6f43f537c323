/**
 * Servers for the Studio's HTTP tests: a real Database in a temporary directory with two graphs,
 * a user with a role on one of them, and a session clock the tests move.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../../src/engine/database.js';
import { runScript } from '../../../src/shell/run-script.js';
import { startServers, type RunningServers } from '../../../src/server/start.js';

export const SCHEMA = `
CREATE VERTEX member (PRIMARY_ID name STRING, age INT) WITH primary_id_as_attribute="true"
CREATE UNDIRECTED EDGE friend_of (FROM member, TO member)
CREATE VERTEX item (PRIMARY_ID id STRING)
CREATE GRAPH club (member, friend_of)
CREATE GRAPH shop (item)
CREATE USER ann WITH PASSWORD "ann-pass"
GRANT ROLE queryreader ON GRAPH club TO ann
`;

export interface StudioServers {
  s: RunningServers;
  base: string;
  host: string;
  clock: { now: number };
  close(): Promise<void>;
}

export async function startStudioServers(
  opts: { auth?: boolean; ttlMs?: number } = {},
): Promise<StudioServers> {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-studio-'));
  const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
  let out = '';
  const code = await runScript(db, SCHEMA, { user: 'tigergraph' }, (t) => (out += t));
  if (code !== 0) throw new Error(`schema failed: ${out}`);
  await db.write((tx) => {
    tx.upsertVertex('member', 'Ada', { age: { value: 36, op: 'set' } });
    tx.upsertVertex('member', 'Boris', { age: { value: 52, op: 'set' } });
    tx.upsertEdge('friend_of', 'member', 'Ada', 'member', 'Boris', {});
  });
  const clock = { now: 1_700_000_000_000 };
  const s = await startServers({
    database: db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    auth: opts.auth ?? false,
    studioSessions: { clock: () => clock.now, ...(opts.ttlMs === undefined ? {} : { ttlMs: opts.ttlMs }) },
    log: () => {},
  });
  return {
    s,
    base: s.urls.gsql,
    host: new URL(s.urls.gsql).host,
    clock,
    async close() {
      await s.close();
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Call {
  method?: string;
  body?: string;
  cookie?: string;
  origin?: string;
  site?: string;
  basic?: string;
  accept?: string;
}

/** A request with exactly the headers a test names (fetch adds no Origin of its own). */
export async function call(base: string, path: string, c: Call = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (c.cookie !== undefined) headers.cookie = c.cookie;
  if (c.origin !== undefined) headers.origin = c.origin;
  if (c.site !== undefined) headers['sec-fetch-site'] = c.site;
  if (c.basic !== undefined) headers.authorization = `Basic ${Buffer.from(c.basic).toString('base64')}`;
  if (c.accept !== undefined) headers['accept-encoding'] = c.accept;
  return fetch(`${base}${path}`, {
    method: c.method ?? 'GET',
    headers,
    ...(c.body === undefined ? {} : { body: c.body }),
  });
}

/** Logs in from the server's own origin; returns the cookie pair (`name=value`) and the response. */
export async function login(
  base: string,
  username: string,
  password: string,
): Promise<{ cookie: string; response: Response }> {
  const response = await call(base, '/studio/api/login', {
    method: 'POST',
    origin: base,
    site: 'same-origin',
    body: JSON.stringify({ username, password }),
  });
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], response };
}

/** An answer's envelope, its results of the shape the test expects. */
export interface TestEnvelope<T> {
  error: boolean;
  code: string;
  message: string;
  results: T;
}

export async function envelope<T = unknown>(r: Response): Promise<TestEnvelope<T>> {
  return (await r.json()) as TestEnvelope<T>;
}
