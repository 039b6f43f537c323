/**
 * The servers for the auth HTTP tests, started the way `ocelot serve` starts them (startServers),
 * over a real Database in a temporary directory, with a clock the tests can move.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthService } from '../../src/auth/service.js';
import { Database } from '../../src/engine/database.js';
import { startServers, type ListenerName } from '../../src/server/start.js';

/** A route a listener serves, as Fastify registered it. */
export interface ServedRoute {
  listener: ListenerName;
  method: string;
  /** Fastify pattern, e.g. `/graph/:graph_name/vertices/:vertex_type`. */
  url: string;
}

export interface AuthServers {
  /** Every route of every listener (HEAD twins left out). */
  routes: ServedRoute[];
  restpp: string;
  gsql: string;
  admin: string;
  /** The GraphQL listener (of the first graph). */
  graphql: string;
  db: Database;
  svc: AuthService;
  clock: { now: number };
  /** Moves the clock past the login throttle's memory (after deliberate wrong passwords). */
  forgetFailedLogins(): void;
  dataDir: string;
  /** Closes the listeners and the Database; `keepData` leaves the directory for a restart. */
  close(keepData?: boolean): Promise<void>;
}

export async function startAuthServers(opts: {
  restppAuth: boolean;
  dataDir?: string;
  graphs?: string[];
  corsOrigins?: string[];
}): Promise<AuthServers> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'ocelot-auth-')));
  const db = await Database.open({ dataDir, sync: 'none', rebuildIntervalMs: 0 });
  const graphs = opts.graphs ?? ['social', 'other'];
  const missing = graphs.filter((g) => !db.catalog.graphs.some((x) => x.name === g));
  if (missing.length > 0) {
    await db.changeCatalog({
      ...db.catalog,
      graphs: [...db.catalog.graphs, ...missing.map((name) => ({ name, vertexTypes: [], edgeTypes: [] }))],
    });
  }
  const clock = { now: Math.floor(Date.now() / 1000) };
  // The service is created here first, so the servers share its clock.
  const svc = AuthService.for(db, () => clock.now);
  const servers = await startServers({
    database: db,
    auth: opts.restppAuth,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    graphqlPort: 0,
    graphqlGraph: graphs[0],
    ...(opts.corsOrigins ? { corsOrigins: opts.corsOrigins } : {}),
    log: () => {},
  });
  return {
    routes: servers.routes(),
    restpp: servers.urls.restpp,
    gsql: servers.urls.gsql,
    admin: servers.urls.admin,
    graphql: servers.urls.graphql,
    db,
    svc,
    clock,
    forgetFailedLogins: () => {
      clock.now += 1000;
    },
    dataDir,
    async close(keepData = false) {
      await servers.close();
      await db.close();
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export const ROOT_BASIC = basic('tigergraph', 'tigergraph');

export interface Reply {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

export async function call(
  url: string,
  init: {
    method?: string;
    auth?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== undefined) headers.Authorization = init.auth;
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // plain-text answers (the gsql transports) keep only `text`
  }
  return { status: res.status, body: parsed, text };
}
