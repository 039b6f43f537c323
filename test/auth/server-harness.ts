/**
 * Listeners for the auth HTTP tests, wired the way start.ts should wire them (see the auth
 * report): the REST++ token hook, the GSQL credential hook, and the token/secret routes, over a
 * real Database in a temporary directory, with a clock the tests can move.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AuthService } from '../../src/auth/service.js';
import { Database } from '../../src/engine/database.js';
import { registerAdminRoutes } from '../../src/server/admin/admin-routes.js';
import type { ServerContext } from '../../src/server/context.js';
import { registerGsqlRoutes } from '../../src/server/gsqlserver/gsql-routes.js';
import { shellRunner } from '../../src/server/gsqlserver/script-runner.js';
import {
  gsqlCredentialCheck,
  installGsqlCredentialHook,
} from '../../src/server/gsqlserver/tokens-credentials.js';
import { createListenerApp } from '../../src/server/http/app.js';
import { LatencyRecorder } from '../../src/server/http/latency.js';
import { EndpointRegistry } from '../../src/server/restpp/endpoint-registry.js';
import { mountRestppModules } from '../../src/server/restpp/route-module.js';
import { RESTPP_ROUTE_MODULES } from '../../src/server/restpp/routes.js';
import { installRestppTokenAuth } from '../../src/server/restpp/token-auth.js';

/** A route a listener serves, as Fastify registered it. */
export interface ServedRoute {
  listener: 'restpp' | 'gsql' | 'admin';
  method: string;
  /** Fastify pattern, e.g. `/graph/:graph_name/vertices/:vertex_type`. */
  url: string;
  /** `<METHOD> <TigerGraph pattern>` of the access table. */
  endpoint?: string;
}

export interface AuthServers {
  /** Every route of the three listeners (HEAD twins left out). */
  routes: ServedRoute[];
  restpp: string;
  gsql: string;
  admin: string;
  db: Database;
  svc: AuthService;
  clock: { now: number };
  dataDir: string;
  /** Closes the listeners and the Database; `keepData` leaves the directory for a restart. */
  close(keepData?: boolean): Promise<void>;
}

export async function startAuthServers(opts: {
  restppAuth: boolean;
  dataDir?: string;
  graphs?: string[];
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
  const svc = AuthService.for(db, () => clock.now);
  svc.restppAuth = opts.restppAuth;
  const endpoints = new EndpointRegistry();
  const ctx: ServerContext = {
    db,
    tigergraphVersion: '4.2.0',
    credentialCheck: gsqlCredentialCheck(db),
    recorder: new LatencyRecorder(),
    endpoints,
    runScript: shellRunner(db),
    log: () => {},
  };

  const routes: ServedRoute[] = [];
  const collect = (app: FastifyInstance, listener: ServedRoute['listener']) =>
    app.addHook('onRoute', (r) => {
      for (const method of Array.isArray(r.method) ? r.method : [r.method]) {
        if (method === 'HEAD') continue;
        const endpoint = (r.config as { endpoint?: string } | undefined)?.endpoint;
        routes.push({ listener, method, url: r.url, ...(endpoint === undefined ? {} : { endpoint }) });
      }
    });

  const restpp = createListenerApp({ logError: () => {} });
  collect(restpp, 'restpp');
  installRestppTokenAuth(restpp, db);
  mountRestppModules(restpp, RESTPP_ROUTE_MODULES, ctx, endpoints);

  const gsql = createListenerApp({ logError: () => {}, restppPrefix: '/restpp' });
  collect(gsql, 'gsql');
  installGsqlCredentialHook(gsql, db);
  registerGsqlRoutes(gsql, ctx);
  await gsql.register(
    async (scope) => {
      mountRestppModules(scope, RESTPP_ROUTE_MODULES, ctx, new EndpointRegistry());
    },
    { prefix: '/restpp' },
  );

  const admin = createListenerApp({ logError: () => {} });
  collect(admin, 'admin');
  installGsqlCredentialHook(admin, db);
  registerAdminRoutes(admin, ctx);

  const apps: FastifyInstance[] = [restpp, gsql, admin];
  const urls: string[] = [];
  for (const app of apps) {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    urls.push(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  }
  return {
    routes,
    restpp: urls[0],
    gsql: urls[1],
    admin: urls[2],
    db,
    svc,
    clock,
    dataDir,
    async close(keepData = false) {
      await Promise.allSettled(apps.map((a) => a.close()));
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
  init: { method?: string; auth?: string; body?: unknown; rawBody?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
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
