/**
 * `ocelot serve`'s configuration: its flags resolved over their OCELOT_* environment variables over
 * the defaults, each value validated (a UsageError names the flag or variable at fault).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter } from 'node:path';
import { checkNodeId, parseClusterServers } from '../cluster/options.js';
import type { SyncMode } from '../engine/api.js';
import { DEFAULT_LIMITS, parseAllowList, parseRoleLimits } from '../graphql/index.js';
import type { GraphQLConfig } from '../server/graphql/config.js';
import { parseBool } from '../server/http/querystring.js';
import { DEFAULT_TIGERGRAPH_VERSION, type ClusterServerOptions } from '../server/start.js';
import { parseArgs, parsePort, UsageError, type OptionSpec } from './args.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './logging.js';

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
