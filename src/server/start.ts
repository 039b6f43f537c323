/**
 * Starts Ocelot's listeners over one Database: REST++ (:9000), the GSQL server (:14240, which also
 * serves REST++ under /restpp as TigerGraph 4.x does, and GraphQL for every graph) and the admin port
 * (:8123); with `graphqlGraph`, the GraphQL port (:4000) serves that graph's GraphQL service.
 * The CLI and the tests both start servers through `startServers`.
 */
import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { FileLayer } from '../durability/index.js';
import type { SyncMode } from '../engine/api.js';
import { defaultImportDir, ensureImportDir } from '../auth/file-roots.js';
import { AuthService } from '../auth/service.js';
import { ClusterNode } from '../cluster/index.js';
import { Database } from '../engine/database.js';
import { LoadingJobRuns } from '../loading/job-runs.js';
import { setRestppUrl } from '../shell/server-info.js';
import { lineLogger, type Logger } from '../util/logger.js';
import { DEFAULT_TIGERGRAPH_VERSION } from '../util/ocelot-version.js';
import { allowUdfPut } from '../query/index.js';
import { QueryPool, releasePool, sharePool } from '../workers/index.js';
import { registerAdminRoutes } from './admin/admin-routes.js';
import { installClusterHooks, registerClusterRoutes } from './cluster/index.js';
import type { ServerContext } from './context.js';
import { registerGsqlRoutes } from './gsqlserver/gsql-routes.js';
import { registerBackupRoute } from './gsqlserver/backup.js';
import { registerLoadingJobRoutes } from './gsqlserver/loading-jobs.js';
import { gsqlCredentialCheck } from './gsqlserver/tokens-credentials.js';
import { installQueueFor } from './gsqlserver/query-install-jobs.js';
import type { AccessHookOptions } from './http/access-hook.js';
import type { BrowserPolicy } from './http/browser-guard.js';
import { shellRunner, type ScriptRunner } from './gsqlserver/script-runner.js';
import type { GraphQLConfig } from './graphql/config.js';
import { createGraphqlListener } from './graphql/listener.js';
import { createListenerApp, servedRoutes } from './http/app.js';
import type { CredentialCheck } from './http/auth.js';
import { LatencyRecorder } from './http/latency.js';
import { EndpointRegistry } from './restpp/endpoint-registry.js';
import { mountRestppModules } from './restpp/route-module.js';
import { RESTPP_ROUTE_MODULES } from './restpp/routes.js';
import {
  registerStudioRoutes,
  studioSessionCredential,
  StudioSessions,
  type StudioSessionOptions,
} from './studio/index.js';

export type ListenerName = 'restpp' | 'gsql' | 'admin' | 'graphql';

/** GET routes of the GSQL listener that are pages, not API calls. */
const NAVIGABLE: ReadonlySet<string> = new Set(['/graphql/:graph_name', '/studio/']);

export interface ServerOptions {
  /** Data directory to open; ignored when `database` is given. */
  dataDir?: string;
  /** An already open Database (the caller keeps ownership: close() leaves it open). */
  database?: Database;
  sync?: SyncMode;
  /** The Database's file layer (tests inject I/O faults through it). */
  fileLayer?: FileLayer;
  host?: string;
  /** Ports; 0 picks a free one. */
  restppPort?: number;
  gsqlPort?: number;
  adminPort?: number;
  /** The GraphQL service of one graph (`--graphql-graph`); its listener starts only with a graph. */
  graphqlGraph?: string;
  graphqlPort?: number;
  tigergraphVersion?: string;
  credentialCheck?: CredentialCheck;
  /** REST++ authentication (`ocelot serve --auth`): tokens required, token endpoints served. */
  auth?: boolean;
  /** Origins whose web pages may call the listeners (`--cors-origin`, `*`: any, without credentials). */
  corsOrigins?: readonly string[];
  /** Largest request body in bytes on the REST++ and GSQL listeners (default 200 MB). */
  bodyLimit?: number;
  /** Automatic rebuild period of an opened Database (0 disables; default 30 s). */
  rebuildIntervalMs?: number;
  /** The directory queries' FILE objects write into (`--output-dir`); none: FILE is refused. */
  outputDir?: string;
  /** GraphQL limits, introspection, allow-list and CORS origins (defaults when absent). */
  graphql?: GraphQLConfig;
  /**
   * Where loading jobs and queries read server-side files (`--import-dir`); default the data
   * directory's `import/`, created when missing.
   */
  importDirs?: readonly string[];
  /** Whether UDF files may be PUT (`--allow-udf-put`); off by default. */
  allowUdfPut?: boolean;
  /** The GSQL executor; the shell of src/shell over the Database by default. */
  runScript?: ScriptRunner;
  /** The server's log (`ocelot serve` passes its pino logger); without one, `log` gets lines. */
  logger?: Logger;
  /** Without `logger`: a function given each log line (stderr by default). */
  log?: (line: string) => void;
  /** Studio login sessions: lifetime and clock (tests move time with it). */
  studioSessions?: StudioSessionOptions;
  /** A fatal durability error (the Database refuses writes from then on), or a cluster node that cannot go on. */
  onFatal?: (err: Error) => void;
  /** Run as a node of a cluster (`--cluster`, see docs/cluster.md). */
  cluster?: ClusterServerOptions;
  /** How long close() waits for requests in flight before cutting their connections (5 s). */
  closeGraceMs?: number;
  /**
   * Query worker threads (`--threads`): GSQL queries, path finding and /builtins run on them.
   * Default: the machine's available cores; 0 runs them on the event loop instead.
   */
  threads?: number;
  /** Each query worker's JavaScript heap limit in MiB (`--query-memory-mb`); default V8's. */
  queryMemoryMb?: number;
}

export interface ClusterServerOptions {
  /** NATS server urls. */
  servers: readonly string[];
  nodeId: string;
  /** The host other nodes reach this one at (default: the bound host). */
  advertiseHost?: string;
  /** Lease lifetime in ms (default 4000). */
  leaseTtlMs?: number;
}

export interface RunningServers {
  urls: Record<ListenerName, string>;
  ports: Record<ListenerName, number>;
  db: Database;
  /** The cluster node, when started with `cluster`. */
  cluster?: ClusterNode;
  /** Every route each listener serves (the route-coverage test checks each has an access rule). */
  routes(): { listener: ListenerName; method: string; url: string }[];
  close(): Promise<void>;
}

export const DEFAULT_PORTS: Record<ListenerName, number> = {
  restpp: 9000,
  gsql: 14240,
  admin: 8123,
  graphql: 4000,
};
export { DEFAULT_TIGERGRAPH_VERSION } from '../util/ocelot-version.js';
const DEFAULT_CLOSE_GRACE_MS = 5_000;
const PORT_FLAGS: Record<ListenerName, string> = {
  restpp: '--restpp-port',
  gsql: '--gsql-port',
  admin: '--admin-port',
  graphql: '--graphql-port',
};

/** A listener could not bind its port. */
export class ListenError extends Error {
  constructor(
    readonly listener: ListenerName,
    readonly port: number,
    message: string,
  ) {
    super(message);
    this.name = 'ListenError';
  }
}

export async function startServers(opts: ServerOptions): Promise<RunningServers> {
  const logger = opts.logger ?? lineLogger(opts.log ?? ((line: string) => process.stderr.write(`${line}\n`)));
  /** Where queries' LOG statements write. */
  const queryLog = (line: string): void => logger.info({ component: 'query' }, line);
  const ownsDb = opts.database === undefined;
  const db =
    opts.database ??
    (await Database.open({
      dataDir: opts.dataDir ?? './ocelot-data',
      sync: opts.sync,
      ...(opts.rebuildIntervalMs === undefined ? {} : { rebuildIntervalMs: opts.rebuildIntervalMs }),
      logger: logger.child({ component: 'engine' }),
      onFatal: opts.onFatal,
      ...(opts.fileLayer ? { fileLayer: opts.fileLayer } : {}),
      // The merge after a load builds its bases on as many threads as queries get (at least one).
      mergeThreads: Math.max(1, opts.threads ?? availableParallelism()),
    }));
  const apps: [ListenerName, FastifyInstance][] = [];
  const started: FastifyInstance[] = [];
  const urls = {} as Record<ListenerName, string>;
  const ports = {} as Record<ListenerName, number>;
  const cluster = opts.cluster
    ? new ClusterNode({
        ...opts.cluster,
        db,
        log: (line: string) => logger.info({ component: 'cluster' }, line),
        ...(opts.onFatal ? { onFatal: opts.onFatal } : {}),
      })
    : undefined;
  // Servers over one database share its pool (the first one's settings).
  const threads = opts.threads ?? availableParallelism();
  const pool =
    threads > 0
      ? sharePool(
          db,
          () =>
            new QueryPool(db, {
              threads,
              entry: new URL('./workers/thread.js', import.meta.url),
              ...(opts.queryMemoryMb ? { memoryMb: opts.queryMemoryMb } : {}),
              log: (line: string) => logger.warn({ component: 'workers' }, line),
            }),
        )
      : undefined;
  try {
    await buildAndListen();
  } catch (e) {
    // Whatever failed (a route module, a port), nothing stays bound and the data directory is freed.
    await Promise.allSettled(apps.map(([, app]) => app.close()));
    await cluster?.close();
    if (pool) await releasePool(db);
    if (ownsDb) await db.close();
    throw e;
  }
  if (cluster) {
    const advertised = opts.cluster?.advertiseHost;
    const reachable: Record<string, string> = {};
    for (const [name, url] of Object.entries(urls)) {
      reachable[name] =
        advertised === undefined
          ? url
          : `http://${advertised.includes(':') ? `[${advertised}]` : advertised}:${ports[name as ListenerName]}`;
    }
    cluster.start(reachable);
  }

  async function buildAndListen(): Promise<void> {
    AuthService.for(db).restppAuth = opts.auth ?? false;
    const importDirs = opts.importDirs?.length ? opts.importDirs : [defaultImportDir(db.dataDir)];
    if (!opts.importDirs?.length) ensureImportDir(db.dataDir);
    LoadingJobRuns.for(db).logger = logger;
    LoadingJobRuns.for(db).threads = threads;
    allowUdfPut(db, opts.allowUdfPut ?? false);
    const recorder = new LatencyRecorder();
    const endpoints = new EndpointRegistry();
    const ctx: ServerContext = {
      db,
      tigergraphVersion: opts.tigergraphVersion ?? DEFAULT_TIGERGRAPH_VERSION,
      credentialCheck: opts.credentialCheck ?? gsqlCredentialCheck(db),
      recorder,
      endpoints,
      runScript: opts.runScript ?? shellRunner(db, { outputDir: opts.outputDir, importDirs, log: queryLog }),
      ...(opts.outputDir === undefined ? {} : { outputDir: opts.outputDir }),
      ...(cluster ? { cluster } : {}),
      ...(opts.graphql === undefined ? {} : { graphql: opts.graphql }),
      ...(opts.corsOrigins === undefined ? {} : { corsOrigins: opts.corsOrigins }),
      importDirs,
      log: queryLog,
      logger,
    };
    const host = opts.host ?? '127.0.0.1';

    const bodyLimit = opts.bodyLimit;
    const listenerLogger = (listener: ListenerName) => logger.child({ listener });
    const browser: BrowserPolicy = { allowedOrigins: opts.corsOrigins ?? [] };
    const access = (listener: AccessHookOptions['listener']): AccessHookOptions => ({
      listener,
      db,
      installRequestGraph: (id) => installQueueFor(db).get(id)?.graph,
    });
    const restpp = createListenerApp({
      recorder,
      logger: listenerLogger('restpp'),
      bodyLimit,
      access: access('restpp'),
      browser,
      // A cluster's hooks must see every request.
      fastPath: opts.cluster === undefined,
    });
    mountRestppModules(restpp, RESTPP_ROUTE_MODULES, ctx, endpoints);

    const studioSessions = new StudioSessions(opts.studioSessions);
    const gsql = createListenerApp({
      recorder,
      logger: listenerLogger('gsql'),
      restppPrefix: '/restpp',
      bodyLimit,
      // The listener serving the Studio also takes its session cookie as a credential.
      access: { ...access('gsql'), sessionCredential: studioSessionCredential(db, studioSessions) },
      // Pages a link from another site may open: GraphiQL and the Studio.
      browser: { ...browser, navigable: (r) => NAVIGABLE.has(r.routeOptions.url ?? '') },
    });
    registerGsqlRoutes(gsql, ctx);
    registerStudioRoutes(gsql, db, { sessions: studioSessions });
    registerBackupRoute(gsql, ctx);
    registerLoadingJobRoutes(gsql, ctx);
    await gsql.register(
      async (scope) => {
        mountRestppModules(scope, RESTPP_ROUTE_MODULES, ctx, endpoints);
      },
      { prefix: '/restpp' },
    );

    const admin = createListenerApp({
      recorder,
      logger: listenerLogger('admin'),
      access: access('admin'),
      browser,
    });
    registerAdminRoutes(admin, ctx);

    apps.push(['restpp', restpp], ['gsql', gsql], ['admin', admin]);
    if (opts.graphqlGraph !== undefined)
      apps.push(['graphql', createGraphqlListener(ctx, opts.graphqlGraph, browser)]);
    if (cluster) {
      // After the access hook (it runs when the request arrives), before any handler.
      for (const [name, app] of apps) installClusterHooks(app, name, cluster, db);
      registerClusterRoutes(gsql, cluster);
    }
    for (const [name, app] of apps) {
      const wanted =
        { restpp: opts.restppPort, gsql: opts.gsqlPort, admin: opts.adminPort, graphql: opts.graphqlPort }[
          name
        ] ?? DEFAULT_PORTS[name];
      await listen(app, name, host, wanted);
      started.push(app);
      const address = app.server.address();
      ports[name] = typeof address === 'object' && address ? address.port : wanted;
      urls[name] = `http://${host.includes(':') ? `[${host}]` : host}:${ports[name]}`;
    }
    setRestppUrl(db, urls.restpp);
  }

  let closing: Promise<void> | undefined;
  return {
    urls,
    ports,
    db,
    ...(cluster ? { cluster } : {}),
    routes: () => apps.flatMap(([listener, app]) => servedRoutes(app).map((r) => ({ listener, ...r }))),
    close() {
      closing ??= (async () => {
        // Requests in flight may finish (their keep-alive connections are dropped as soon as they
        // go idle); connections still open after the grace period are cut.
        const idle = setInterval(() => {
          for (const app of started) app.server.closeIdleConnections();
        }, 50);
        const cut = setTimeout(() => {
          for (const app of started) app.server.closeAllConnections();
        }, opts.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS);
        await Promise.allSettled(started.map((app) => app.close()));
        clearInterval(idle);
        clearTimeout(cut);
        await cluster?.close();
        if (pool) await releasePool(db);
        if (ownsDb) await db.close();
      })();
      return closing;
    },
  };
}

async function listen(app: FastifyInstance, name: ListenerName, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const flag = PORT_FLAGS[name];
    if (code === 'EADDRINUSE') {
      throw new ListenError(
        name,
        port,
        `Port ${port} on ${host} is already in use (set another with ${flag}).`,
      );
    }
    if (code === 'EACCES') {
      throw new ListenError(
        name,
        port,
        `Not allowed to listen on port ${port} on ${host} (set another with ${flag}).`,
      );
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new ListenError(name, port, `Cannot listen on host ${host}: address not available (--host).`);
    }
    throw e;
  }
}
