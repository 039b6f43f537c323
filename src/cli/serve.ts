/**
 * `ocelot serve`: opens the data directory, starts the listeners, prints their URLs on stdout and
 * runs until SIGINT/SIGTERM (listeners closed, then the Database) or a fatal durability error
 * (non-zero exit). Everything else it says goes to the log on stderr (src/cli/logging.ts).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter } from 'node:path';
import { AuthService } from '../auth/service.js';
import type { FileLayer } from '../durability/index.js';
import type { SyncMode } from '../engine/api.js';
import { checkNodeId, parseClusterServers } from '../cluster/options.js';
import { DEFAULT_LIMITS, parseAllowList, parseRoleLimits } from '../graphql/index.js';
import type { GraphQLConfig } from '../server/graphql/config.js';
import {
  DEFAULT_TIGERGRAPH_VERSION,
  ListenError,
  startServers,
  type ClusterServerOptions,
  type RunningServers,
} from '../server/start.js';
import type { ScriptRunner } from '../server/gsqlserver/script-runner.js';
import { parseBool } from '../server/http/querystring.js';
import { ocelotVersionLine } from '../util/ocelot-version.js';
import { parseArgs, parsePort, UsageError, type OptionSpec } from './args.js';
import {
  createLogger,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogDestination,
  type LogFormat,
  type LogLevel,
} from './logging.js';

export const SERVE_HELP = `Usage: ocelot serve [options]

Starts the Ocelot server: REST++, the GSQL server and the admin port over one data directory.

Options (each also read from the environment variable shown; a flag wins over the variable):
  --data DIR                  data directory (OCELOT_DATA, default ./ocelot-data)
  --host HOST                 address to bind (OCELOT_HOST, default 127.0.0.1)
  --restpp-port N             REST++ port (OCELOT_RESTPP_PORT, default 9000)
  --gsql-port N               GSQL server port, also serving REST++ under /restpp
                              (OCELOT_GSQL_PORT, default 14240)
  --admin-port N              admin port of the local gsql client (OCELOT_ADMIN_PORT, default 8123)
  --graphql-graph G           serve graph G's GraphQL service at :<graphql-port>/graphql, GraphiQL at /
                              (OCELOT_GRAPHQL_GRAPH; every graph is also at :<gsql-port>/api/graphql/gsql/G)
  --graphql-port N            port of the --graphql-graph service (OCELOT_GRAPHQL_PORT, default 4000)
  --graphql-max-cost N        refuse GraphQL requests whose estimated cost (vertices and edges read)
                              exceeds N; 0 = no limit (OCELOT_GRAPHQL_MAX_COST, default ${DEFAULT_LIMITS.maxCost})
  --graphql-max-depth N       refuse GraphQL documents nesting fields deeper than N; 0 = no limit
                              (OCELOT_GRAPHQL_MAX_DEPTH, default ${DEFAULT_LIMITS.maxDepth})
  --graphql-max-rows N        stop GraphQL responses holding more than N vertices and edges; 0 = no
                              limit (OCELOT_GRAPHQL_MAX_ROWS, default ${DEFAULT_LIMITS.maxRows})
  --graphql-role-limits SPEC  per-role limits, e.g. "queryreader:cost=10000,depth=8;superuser:cost=0"
                              (a caller gets its most generous role's; OCELOT_GRAPHQL_ROLE_LIMITS)
  --graphql-introspection B   answer __schema/__type and serve the SDL pages, true or false
                              (OCELOT_GRAPHQL_INTROSPECTION, default true)
  --graphql-allow-list FILE   run only the GraphQL documents listed in FILE (an Apollo persisted query
                              manifest, a JSON array of documents or an object hash -> document)
                              (OCELOT_GRAPHQL_ALLOW_LIST)
  --tigergraph-version X.Y.Z  TigerGraph release to report (OCELOT_TIGERGRAPH_VERSION, default ${DEFAULT_TIGERGRAPH_VERSION})
  --sync always|batch|none    when writes reach the disk (OCELOT_SYNC, default always)
  --output-dir DIR            directory that queries' FILE objects (f.println, PRINT … TO_CSV)
                              and /rebuildnow summaries write into (SelectVertex()/LOADACCUM() may
                              read from it too); paths outside it are refused, and without it
                              output files are refused (OCELOT_OUTPUT_DIR)
  --import-dir DIR[:DIR…]     directories RUN LOADING JOB files (USING, DEFINE FILENAME) and query
                              input files are read from; relative paths are looked up in them,
                              paths outside them, with '..' or through links out of them are
                              refused (OCELOT_IMPORT_DIR, default <data dir>/import)
  --cors-origin ORIGIN[,…]    web pages of these origins (e.g. https://app.example.com) may call
                              the server (REST++, GSQL, GraphQL) from a browser; * lets any page
                              call without credentials of its own; requests other pages make are
                              refused (OCELOT_CORS_ORIGIN, default none)
  --allow-udf-put             allow PUT of UDF files (ExprFunctions, TokenBank: JavaScript modules the
                              server runs) by users holding WRITE_FILE; off by default
                              (OCELOT_ALLOW_UDF_PUT=true)
  --auth                      REST++ authentication: requests need a token (Authorization: Bearer),
                              /requesttoken is served (OCELOT_AUTH=true)
  --body-limit-mb N           largest request body in MB, 1 to 1024; larger bodies (e.g. POST /ddl
                              files) are refused with REST-30000 (OCELOT_BODY_LIMIT_MB, default 200)
  --rebuild-interval S        seconds between automatic rebuilds (checkpoint + merge of new data);
                              0 turns them off (OCELOT_REBUILD_INTERVAL, default 30)
  --threads N                 query worker threads, 0 to 256: GSQL queries, GraphQL, path finding
                              and /builtins run on them, a large SELECT on several at once; 0 runs
                              them on the event loop; N of 2 or more also parses loading-job
                              input of 4 MB or more on N-1 threads beside the committing one
                              (OCELOT_THREADS, default: the available cores)
  --query-memory-mb N         JavaScript heap limit of each query worker in MB, 16 to 1048576: a
                              query that needs more is stopped with an error (SYS-0002); a lower
                              GSQL-QueryLocalMemLimitMB header runs its query on a worker of its
                              own with that limit (OCELOT_QUERY_MEMORY_MB, default: Node's own limit)
  --cluster URLS              run as a node of a cluster over NATS JetStream, e.g.
                              nats://h1:4222,nats://h2:4222,nats://h3:4222 (OCELOT_CLUSTER); each
                              node has its own data directory (empty at the first start) and ports;
                              writes sent to any node go to the leader (see docs/cluster.md)
  --node-id ID                this node's name in the cluster, unique (OCELOT_NODE_ID)
  --advertise-host HOST       the host other nodes reach this one at (OCELOT_ADVERTISE_HOST,
                              default: --host)
  --cluster-lease-ms N        leader lease lifetime in ms, 1000 to 60000: a dead leader is
                              replaced about this long after its last renewal
                              (OCELOT_CLUSTER_LEASE_MS, default 4000)
  --log-level LEVEL           fatal, error, warn, info (one access line per request), debug, trace
                              or silent (OCELOT_LOG_LEVEL, default info)
  --log-format json|pretty    log lines on stderr as JSON or as text for a person (OCELOT_LOG_FORMAT,
                              default pretty on a terminal, json otherwise)
  -h, --help                  show this help

The listeners' URLs are printed on stdout, the last one (Admin) once the server is ready; the log
(start-up, one line per request, errors) goes to stderr, passwords, secrets and tokens masked.
A port of 0 picks a free port. Stop the server with Ctrl-C (SIGINT) or SIGTERM.
Exit codes: 0 stopped by a signal, 1 could not start, 3 fatal storage error (restart recovers) or a
cluster node that cannot follow the cluster log.
`;

/** Exit code after a fatal storage error (1 is kept for start-up failures). */
export const FATAL_STORAGE_EXIT = 3;

const SPECS: OptionSpec[] = [
  { names: ['--data'], key: 'data' },
  { names: ['--host'], key: 'host' },
  { names: ['--restpp-port'], key: 'restpp-port' },
  { names: ['--gsql-port'], key: 'gsql-port' },
  { names: ['--admin-port'], key: 'admin-port' },
  { names: ['--graphql-port'], key: 'graphql-port' },
  { names: ['--graphql-graph'], key: 'graphql-graph' },
  { names: ['--graphql-max-cost'], key: 'graphql-max-cost' },
  { names: ['--graphql-max-depth'], key: 'graphql-max-depth' },
  { names: ['--graphql-max-rows'], key: 'graphql-max-rows' },
  { names: ['--graphql-role-limits'], key: 'graphql-role-limits' },
  { names: ['--graphql-introspection'], key: 'graphql-introspection' },
  { names: ['--graphql-allow-list'], key: 'graphql-allow-list' },
  { names: ['--cors-origin'], key: 'cors-origin' },
  { names: ['--tigergraph-version'], key: 'tigergraph-version' },
  { names: ['--sync'], key: 'sync' },
  { names: ['--output-dir'], key: 'output-dir' },
  { names: ['--import-dir'], key: 'import-dir' },
  { names: ['--auth'], key: 'auth', flag: true },
  { names: ['--allow-udf-put'], key: 'allow-udf-put', flag: true },
  { names: ['--body-limit-mb'], key: 'body-limit-mb' },
  { names: ['--rebuild-interval'], key: 'rebuild-interval' },
  { names: ['--threads'], key: 'threads' },
  { names: ['--query-memory-mb'], key: 'query-memory-mb' },
  { names: ['--cluster'], key: 'cluster' },
  { names: ['--node-id'], key: 'node-id' },
  { names: ['--advertise-host'], key: 'advertise-host' },
  { names: ['--cluster-lease-ms'], key: 'cluster-lease-ms' },
  { names: ['--log-level'], key: 'log-level' },
  { names: ['--log-format'], key: 'log-format' },
  { names: ['-h', '--help'], key: 'help', flag: true },
];

const ENV: Record<string, string> = {
  data: 'OCELOT_DATA',
  host: 'OCELOT_HOST',
  'restpp-port': 'OCELOT_RESTPP_PORT',
  'gsql-port': 'OCELOT_GSQL_PORT',
  'admin-port': 'OCELOT_ADMIN_PORT',
  'graphql-port': 'OCELOT_GRAPHQL_PORT',
  'graphql-graph': 'OCELOT_GRAPHQL_GRAPH',
  'graphql-max-cost': 'OCELOT_GRAPHQL_MAX_COST',
  'graphql-max-depth': 'OCELOT_GRAPHQL_MAX_DEPTH',
  'graphql-max-rows': 'OCELOT_GRAPHQL_MAX_ROWS',
  'graphql-role-limits': 'OCELOT_GRAPHQL_ROLE_LIMITS',
  'graphql-introspection': 'OCELOT_GRAPHQL_INTROSPECTION',
  'graphql-allow-list': 'OCELOT_GRAPHQL_ALLOW_LIST',
  'cors-origin': 'OCELOT_CORS_ORIGIN',
  'tigergraph-version': 'OCELOT_TIGERGRAPH_VERSION',
  sync: 'OCELOT_SYNC',
  'output-dir': 'OCELOT_OUTPUT_DIR',
  'import-dir': 'OCELOT_IMPORT_DIR',
  auth: 'OCELOT_AUTH',
  'allow-udf-put': 'OCELOT_ALLOW_UDF_PUT',
  'body-limit-mb': 'OCELOT_BODY_LIMIT_MB',
  'rebuild-interval': 'OCELOT_REBUILD_INTERVAL',
  threads: 'OCELOT_THREADS',
  'query-memory-mb': 'OCELOT_QUERY_MEMORY_MB',
  cluster: 'OCELOT_CLUSTER',
  'node-id': 'OCELOT_NODE_ID',
  'advertise-host': 'OCELOT_ADVERTISE_HOST',
  'cluster-lease-ms': 'OCELOT_CLUSTER_LEASE_MS',
  'log-level': 'OCELOT_LOG_LEVEL',
  'log-format': 'OCELOT_LOG_FORMAT',
};

/** TigerGraph's ClientMaxBodySize: 200 MB by default, at most 1024 MB. */
const DEFAULT_BODY_LIMIT_MB = 200;
const MAX_BODY_LIMIT_MB = 1024;
const DEFAULT_REBUILD_INTERVAL_S = 30;
const DEFAULT_LEASE_MS = 4000;

export interface ServeConfig {
  dataDir: string;
  host: string;
  restppPort: number;
  gsqlPort: number;
  adminPort: number;
  graphqlPort: number;
  /** The graph of the GraphQL listener; no listener without one. */
  graphqlGraph?: string;
  tigergraphVersion: string;
  sync: SyncMode;
  auth: boolean;
  /** Request body limit in bytes. */
  bodyLimit: number;
  /** Automatic rebuild period in milliseconds; 0 = off. */
  rebuildIntervalMs: number;
  /** Where queries' FILE objects write; none: FILE output is refused. */
  outputDir?: string;
  /** Cluster membership (--cluster). */
  cluster?: ClusterServerOptions;
  /** GraphQL limits, introspection, allow-list and CORS origins. */
  graphql: GraphQLConfig;
  /** Where server-side input files are read; none given: `<data dir>/import`. */
  importDirs?: string[];
  /** Origins whose web pages may call the server (CORS). */
  corsOrigins: string[];
  logLevel: LogLevel;
  /** None: pretty on a terminal, JSON otherwise. */
  logFormat?: LogFormat;
  /** Whether UDF files may be PUT (`--allow-udf-put`). */
  allowUdfPut: boolean;
  /** Query worker threads (`--threads`; 0: on the event loop). */
  threads: number;
  /** Heap limit of each query worker in MB (`--query-memory-mb`); none: Node's. */
  queryMemoryMb?: number;
}

/** Origins (`https://host[:port]`, comma-separated) or `*`; anything else (a path) is an error. */
function parseOrigins(text: string | undefined, source: string): string[] {
  if (text === undefined) return [];
  const origins = text
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const o of origins) {
    if (o !== '*' && !/^https?:\/\/[^/\s]+$/.test(o)) {
      throw new UsageError(`${source}: '${o}' is not an origin like https://app.example.com (or *)`);
    }
  }
  return origins;
}

/** Resolves flags over environment variables over defaults, validating each. */
export function resolveServeConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ServeConfig | 'help' {
  const args = parseArgs(argv, SPECS);
  if (args.flags.has('help')) return 'help';
  if (args.positional.length > 0) throw new UsageError(`unexpected argument '${args.positional[0]}'`);
  const pick = (key: string): string | undefined => {
    const v = args.options.get(key) ?? env[ENV[key]];
    return v === '' ? undefined : v;
  };
  const source = (key: string) => (args.options.has(key) ? `--${key}` : ENV[key]);
  const port = (key: string, fallback: number) => {
    const v = pick(key);
    return v === undefined ? fallback : parsePort(v, source(key));
  };
  const version = pick('tigergraph-version') ?? DEFAULT_TIGERGRAPH_VERSION;
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    throw new UsageError(
      `${source('tigergraph-version')} must look like X.Y.Z (e.g. 4.2.0), not '${version}'`,
    );
  }
  const sync = pick('sync') ?? 'always';
  if (sync !== 'always' && sync !== 'batch' && sync !== 'none') {
    throw new UsageError(`${source('sync')} must be always, batch or none, not '${sync}'`);
  }
  /** A flag, or its environment variable (true/false). */
  const flag = (key: string): boolean => {
    if (args.flags.has(key)) return true;
    const e = env[ENV[key]];
    if (e === undefined || e === '') return false;
    const v = parseBool(e);
    if (v === undefined) throw new UsageError(`${ENV[key]} must be true or false, not '${e}'`);
    return v;
  };
  const auth = flag('auth');
  const wholeNumber = (key: string, fallback: number, min: number, max: number): number => {
    const v = pick(key);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      throw new UsageError(`${source(key)} must be a whole number from ${min} to ${max}, not '${v}'`);
    }
    return Number(v);
  };
  const oneOf = <T extends string>(key: string, allowed: readonly T[]): T | undefined => {
    const v = pick(key);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v)) {
      throw new UsageError(`${source(key)} must be one of ${allowed.join(', ')}, not '${v}'`);
    }
    return v as T;
  };
  const logFormat = oneOf('log-format', LOG_FORMATS);
  const bodyLimitMb = wholeNumber('body-limit-mb', DEFAULT_BODY_LIMIT_MB, 1, MAX_BODY_LIMIT_MB);
  const leaseMs = wholeNumber('cluster-lease-ms', DEFAULT_LEASE_MS, 1000, 60_000);
  const cluster = clusterConfig(pick('cluster'), pick('node-id'), pick('advertise-host'), leaseMs);
  const graphql = graphqlConfig(pick, source, wholeNumber);
  const rebuildS = wholeNumber('rebuild-interval', DEFAULT_REBUILD_INTERVAL_S, 0, 86_400);
  const threads = wholeNumber('threads', availableParallelism(), 0, 256);
  const queryMemoryMb =
    pick('query-memory-mb') === undefined ? undefined : wholeNumber('query-memory-mb', 0, 16, 1_048_576);
  return {
    dataDir: pick('data') ?? './ocelot-data',
    host: pick('host') ?? '127.0.0.1',
    restppPort: port('restpp-port', 9000),
    gsqlPort: port('gsql-port', 14240),
    adminPort: port('admin-port', 8123),
    graphqlPort: port('graphql-port', 4000),
    ...(pick('graphql-graph') === undefined ? {} : { graphqlGraph: pick('graphql-graph') }),
    tigergraphVersion: version,
    sync,
    auth,
    bodyLimit: bodyLimitMb * 1024 * 1024,
    rebuildIntervalMs: rebuildS * 1000,
    ...(pick('output-dir') === undefined ? {} : { outputDir: pick('output-dir') }),
    ...(cluster ? { cluster } : {}),
    graphql,
    ...(pick('import-dir') === undefined
      ? {}
      : { importDirs: (pick('import-dir') ?? '').split(delimiter).filter((d) => d !== '') }),
    corsOrigins: parseOrigins(pick('cors-origin'), source('cors-origin')),
    logLevel: oneOf('log-level', LOG_LEVELS) ?? 'info',
    ...(logFormat === undefined ? {} : { logFormat }),
    allowUdfPut: flag('allow-udf-put'),
    threads,
    ...(queryMemoryMb === undefined ? {} : { queryMemoryMb }),
  };
}

/** The GraphQL flags: limits, role overrides, introspection, the allow-list file, CORS origins. */
function graphqlConfig(
  pick: (key: string) => string | undefined,
  source: (key: string) => string,
  wholeNumber: (key: string, fallback: number, min: number, max: number) => number,
): GraphQLConfig {
  const config: GraphQLConfig = {
    limits: {
      maxCost: wholeNumber('graphql-max-cost', DEFAULT_LIMITS.maxCost, 0, Number.MAX_SAFE_INTEGER),
      maxDepth: wholeNumber('graphql-max-depth', DEFAULT_LIMITS.maxDepth, 0, 1000),
      maxRows: wholeNumber('graphql-max-rows', DEFAULT_LIMITS.maxRows, 0, Number.MAX_SAFE_INTEGER),
    },
  };
  const roles = pick('graphql-role-limits');
  if (roles !== undefined) {
    try {
      config.roleLimits = parseRoleLimits(roles);
    } catch (e) {
      throw new UsageError(`${source('graphql-role-limits')}: ${(e as Error).message}`);
    }
  }
  const introspection = pick('graphql-introspection');
  if (introspection !== undefined) {
    const v = parseBool(introspection);
    if (v === undefined) {
      throw new UsageError(
        `${source('graphql-introspection')} must be true or false, not '${introspection}'`,
      );
    }
    config.introspection = v;
  }
  const allowList = pick('graphql-allow-list');
  if (allowList !== undefined) {
    try {
      config.allowList = parseAllowList(readFileSync(allowList, 'utf8'));
    } catch (e) {
      throw new UsageError(`${source('graphql-allow-list')} ${allowList}: ${(e as Error).message}`);
    }
  }
  return config;
}

function clusterConfig(
  urls: string | undefined,
  nodeId: string | undefined,
  advertiseHost: string | undefined,
  leaseTtlMs: number,
): ClusterServerOptions | undefined {
  if (urls === undefined) {
    if (nodeId !== undefined) throw new UsageError('--node-id is for cluster nodes: give --cluster too');
    return undefined;
  }
  try {
    return {
      servers: parseClusterServers(urls),
      nodeId: checkNodeId(nodeId),
      leaseTtlMs,
      ...(advertiseHost === undefined ? {} : { advertiseHost }),
    };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export interface ServeIo {
  stdout: (line: string) => void;
  /** Usage errors (before the log exists). */
  stderr: (line: string) => void;
  /** Where log lines go (tests); stderr by default. */
  logDestination?: LogDestination;
  /** Whether the log goes to a terminal (the default format and colors); stderr's by default. */
  logIsTerminal?: boolean;
  env: NodeJS.ProcessEnv;
  /** Replaces the GSQL executor (tests). */
  runScript?: ScriptRunner;
  /** The Database's file layer (tests inject I/O faults). */
  fileLayer?: FileLayer;
  /** Called with the listener URLs once the server is up (tests). */
  onReady?: (urls: RunningServers['urls']) => void;
}

export async function runServe(argv: readonly string[], io: ServeIo): Promise<number> {
  let config: ServeConfig | 'help';
  try {
    config = resolveServeConfig(argv, io.env);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`ocelot serve: ${e.message}\nRun 'ocelot serve --help' for the options.`);
      return 1;
    }
    throw e;
  }
  if (config === 'help') {
    io.stdout(SERVE_HELP.trimEnd());
    return 0;
  }

  const terminal = io.logIsTerminal ?? process.stderr.isTTY === true;
  const logger = createLogger({
    level: config.logLevel,
    format: config.logFormat ?? (terminal ? 'pretty' : 'json'),
    color: terminal,
    ...(io.logDestination ? { destination: io.logDestination } : {}),
  });
  logger.info(
    { dataDir: config.dataDir, sync: config.sync },
    `${ocelotVersionLine(config.tigergraphVersion)} starting`,
  );

  let stop: (code: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => (stop = resolve));
  // Handlers go in before anything is announced: a signal right after the URLs are printed (or
  // during start-up) must stop the server cleanly, not kill it.
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, `${signal} received, stopping`);
    stop(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let servers: RunningServers;
  try {
    servers = await startServers({
      dataDir: config.dataDir,
      sync: config.sync,
      host: config.host,
      restppPort: config.restppPort,
      gsqlPort: config.gsqlPort,
      adminPort: config.adminPort,
      graphqlPort: config.graphqlPort,
      graphqlGraph: config.graphqlGraph,
      tigergraphVersion: config.tigergraphVersion,
      auth: config.auth,
      bodyLimit: config.bodyLimit,
      rebuildIntervalMs: config.rebuildIntervalMs,
      ...(config.outputDir === undefined ? {} : { outputDir: config.outputDir }),
      graphql: config.graphql,
      ...(config.importDirs === undefined ? {} : { importDirs: config.importDirs }),
      corsOrigins: config.corsOrigins,
      allowUdfPut: config.allowUdfPut,
      threads: config.threads,
      ...(config.queryMemoryMb === undefined ? {} : { queryMemoryMb: config.queryMemoryMb }),
      runScript: io.runScript,
      fileLayer: io.fileLayer,
      ...(config.cluster ? { cluster: config.cluster } : {}),
      logger,
      onFatal: (err) => {
        logger.error({ err: err.message }, `fatal ${config.cluster ? 'error' : 'storage error'}, stopping`);
        stop(FATAL_STORAGE_EXIT);
      },
    });
  } catch (e) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    const message = e instanceof Error ? e.message : String(e);
    logger.error(e instanceof ListenError ? message : `cannot start: ${message}`);
    return 1;
  }

  const passwordWarning = await AuthService.for(servers.db).defaultPasswordWarning();
  if (passwordWarning) logger.warn(passwordWarning);
  announce(io, config, servers);
  logger.info({ urls: servers.urls }, 'ready');

  const code = await stopped;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  try {
    await servers.close();
  } catch (e) {
    logger.error({ err: e instanceof Error ? e.message : String(e) }, 'error while stopping');
    return code === 0 ? 1 : code;
  }
  logger.info('stopped');
  return code;
}

/** The listeners' URLs on stdout, "Admin listening on …" last (scripts and tests wait for it). */
function announce(io: ServeIo, config: ServeConfig, servers: RunningServers): void {
  io.stdout(`Data directory: ${config.dataDir}`);
  if (config.cluster) {
    io.stdout(
      `Cluster node ${config.cluster.nodeId}, NATS ${config.cluster.servers.join(',')} (status: ${servers.urls.gsql}/api/cluster)`,
    );
  }
  io.stdout(`REST++ listening on ${servers.urls.restpp}`);
  io.stdout(`GSQL server listening on ${servers.urls.gsql} (REST++ also at ${servers.urls.gsql}/restpp)`);
  io.stdout(`Ocelot Studio at ${servers.urls.gsql}/studio/`);
  if (servers.urls.graphql) {
    io.stdout(
      `GraphQL (graph ${config.graphqlGraph}) at ${servers.urls.graphql}/graphql, GraphiQL at ${servers.urls.graphql}/`,
    );
  }
  // Last: scripts (and the tests) take this line as "the server is ready".
  io.stdout(`Admin listening on ${servers.urls.admin}`);
  io.onReady?.(servers.urls);
}
