/**
 * The route table: for every route of every listener, what a caller needs and on which graph —
 * the graph the route's handler acts on. The access hook (server/http/access-hook.ts) looks each
 * request up here before its body is read; a route without a row is refused, and the route-coverage
 * test fails naming it. Adding a route means adding its row: one line.
 *
 * Keys are `<METHOD> <path>` with the path as the route is registered (`{name}` for each `:name`
 * parameter, HEAD served as GET). REST++ rows serve :9000 and the /restpp mirror of :14240 alike
 * (without the prefix); with REST++ authentication off (the default, as in TigerGraph) REST++ asks
 * for no credentials at all.
 */
import {
  all,
  AUTHENTICATED,
  DELETE_DATA,
  PUBLIC,
  READ_DATA,
  READ_QUERY,
  READ_SCHEMA,
  SUPERUSER,
  UPSERT_DATA,
  WRITE_QUERY,
  WRITE_SCHEMA,
  type AccessRule,
} from './access-table.js';

export type ListenerKind = 'restpp' | 'gsql' | 'admin' | 'graphql';

/** Where the graph of a request comes from: the same place its handler takes it from. */
export type GraphSource =
  /** The `{graph_name}` (or `{graph}`) path segment. */
  | 'path'
  /** A REST++ data path without a graph name: the only graph there is (none or several: global). */
  | 'only'
  /** The route acts on no graph. */
  | 'global'
  /** The GraphQL listener's graph (`--graphql-graph`). */
  | 'listener'
  /** A query-string parameter; absent: the global scope, or with `first`, the first graph. */
  | { query: string; fallback?: 'first' }
  /** The graph of a detached query run or an install request named by a parameter. */
  | { lookup: 'queryRun' | 'installRequest'; param: string }
  /**
   * The graph is in the body: the hook only authenticates, and `where` checks `access` once the
   * body is read (the statement table for GSQL text, the handler otherwise).
   */
  | { deferred: string };

export interface RouteRule {
  access: AccessRule;
  graph: GraphSource;
}

const rule = (access: AccessRule, graph: GraphSource): RouteRule => ({ access, graph });
const OPEN = rule(PUBLIC, 'global');
const ANY_CALLER = rule(AUTHENTICATED, 'global');
const STATEMENTS = rule(AUTHENTICATED, { deferred: 'the statement table (shell/statement-access.ts)' });
const Q_GRAPH = { query: 'graph' } as const;

/** Every vertex and edge path, with and without the graph name (spec §1: the only graph is meant). */
function dataRoutes(): Record<string, RouteRule> {
  const out: Record<string, RouteRule> = {};
  const both = (method: string, path: string, access: AccessRule) => {
    out[`${method} /graph/{graph_name}${path}`] = rule(access, 'path');
    out[`${method} /graph${path}`] = rule(access, 'only');
  };
  both('POST', '', UPSERT_DATA);
  const vertices = '/vertices/{vertex_type}';
  for (const path of [vertices, `${vertices}/{vertex_id}`]) {
    both('GET', path, READ_DATA);
    both('DELETE', path, DELETE_DATA);
  }
  both('DELETE', '/delete_by_type/vertices/{vertex_type}', DELETE_DATA);
  let edges = '/edges/{source_vertex_type}/{source_vertex_id}';
  for (const next of [
    '',
    '/{edge_type}',
    '/{target_vertex_type}',
    '/{target_vertex_id}',
    '/{discriminator}',
  ]) {
    edges += next;
    both('GET', edges, READ_DATA);
    both('DELETE', edges, DELETE_DATA);
  }
  return out;
}

const RESTPP: Record<string, RouteRule> = {
  'GET /echo': OPEN,
  'POST /echo': OPEN,
  'GET /version': ANY_CALLER,
  // Without a graph the list holds every graph's installed queries: READ_QUERY on them all.
  'GET /endpoints': rule(READ_QUERY, 'global'),
  'GET /endpoints/{graph_name}': rule(READ_QUERY, 'path'),
  'GET /statistics/{graph_name}': rule(AUTHENTICATED, 'path'),
  'GET /rebuildnow/{graph_name}': rule(READ_DATA, 'path'),
  'POST /rebuildnow/{graph_name}': rule(READ_DATA, 'path'),
  'GET /deleted_vertex_check': rule(READ_DATA, 'global'),
  // The token endpoints check the secret or the credentials in their request themselves.
  'GET /requesttoken': OPEN,
  'POST /requesttoken': OPEN,
  'PUT /requesttoken': OPEN,
  'DELETE /requesttoken': OPEN,
  'POST /ddl/{graph_name}': rule(all('EXECUTE_LOADINGJOB'), 'path'),
  'POST /builtins/{graph_name}': rule(READ_DATA, 'path'),
  ...dataRoutes(),
  // A query that writes also needs the privileges of its writes (checked before it runs).
  'GET /query/{graph_name}/{query_name}': rule(READ_DATA, 'path'),
  'POST /query/{graph_name}/{query_name}': rule(READ_DATA, 'path'),
  'POST /shortestpath/{graph_name}': rule(READ_DATA, 'path'),
  'POST /allpaths/{graph_name}': rule(READ_DATA, 'path'),
  // Aborting another user's run also needs WRITE_QUERY (checked by the handler, per run).
  'GET /showprocesslist/{graph_name}': rule(READ_DATA, 'path'),
  'GET /abortquery/{graph_name}': rule(READ_DATA, 'path'),
  'GET /query_status': rule(READ_DATA, { query: 'graph_name', fallback: 'first' }),
  'GET /query_result': rule(READ_DATA, { lookup: 'queryRun', param: 'requestid' }),
};

/** The 3.x gsql client transport, at /gsqlserver/gsql on :14240 and /gsql on :8123. */
function shellTransport(prefix: string): Record<string, RouteRule> {
  return {
    // The login checks the credentials in its body (throttled like every password check).
    [`POST ${prefix}/login`]: OPEN,
    [`POST ${prefix}/file`]: STATEMENTS,
    [`POST ${prefix}/command`]: STATEMENTS,
    [`POST ${prefix}/version`]: ANY_CALLER,
    [`POST ${prefix}/abortclientsession`]: OPEN,
  };
}

const GSQL: Record<string, RouteRule> = {
  'GET /api/ping': OPEN,
  'GET /gsql/v1/version': ANY_CALLER,
  ...shellTransport('/gsqlserver/gsql'),
  'POST /gsql/v1/statements': STATEMENTS,
  'GET /gsqlserver/gsql/schema': rule(READ_SCHEMA, Q_GRAPH),
  'GET /gsql/v1/schema': rule(READ_SCHEMA, Q_GRAPH),
  'GET /gsql/v1/schema/graphs/{graph}': rule(READ_SCHEMA, 'path'),
  // 4.x schema endpoints: the graph is ?graph (none: the global schema, where global types live).
  'GET /gsql/v1/schema/graphs': rule(READ_SCHEMA, Q_GRAPH),
  'POST /gsql/v1/schema/graphs': rule(WRITE_SCHEMA, 'global'),
  'DELETE /gsql/v1/schema/graphs': rule(all('DROP_GRAPH'), 'global'),
  'DELETE /gsql/v1/schema/graphs/{graph}': rule(all('DROP_GRAPH'), 'global'),
  'GET /gsql/v1/schema/vertices': rule(READ_SCHEMA, Q_GRAPH),
  'GET /gsql/v1/schema/vertices/{name}': rule(READ_SCHEMA, Q_GRAPH),
  'POST /gsql/v1/schema/vertices': rule(WRITE_SCHEMA, Q_GRAPH),
  'PUT /gsql/v1/schema/vertices/{name}': rule(WRITE_SCHEMA, Q_GRAPH),
  'DELETE /gsql/v1/schema/vertices': rule(WRITE_SCHEMA, Q_GRAPH),
  'DELETE /gsql/v1/schema/vertices/{name}': rule(WRITE_SCHEMA, Q_GRAPH),
  'GET /gsql/v1/schema/edges': rule(READ_SCHEMA, Q_GRAPH),
  'GET /gsql/v1/schema/edges/{name}': rule(READ_SCHEMA, Q_GRAPH),
  'POST /gsql/v1/schema/edges': rule(WRITE_SCHEMA, Q_GRAPH),
  'PUT /gsql/v1/schema/edges/{name}': rule(WRITE_SCHEMA, Q_GRAPH),
  'DELETE /gsql/v1/schema/edges': rule(WRITE_SCHEMA, Q_GRAPH),
  'DELETE /gsql/v1/schema/edges/{name}': rule(WRITE_SCHEMA, Q_GRAPH),
  'POST /gsql/v1/schema/change': rule(WRITE_SCHEMA, Q_GRAPH),
  'POST /gsql/v1/schema/check': rule(READ_SCHEMA, 'global'),
  'POST /gsql/v1/schema/recover': rule(WRITE_SCHEMA, 'global'),
  'GET /gsqlserver/gsql/udtlist': rule(READ_SCHEMA, Q_GRAPH),
  'GET /gsql/v1/udt/tuples': rule(READ_SCHEMA, Q_GRAPH),
  // UDF files are global objects; READ_FILE/WRITE_FILE are global-only privileges.
  'GET /gsql/v1/udt/files/{file}': rule(all('READ_FILE'), 'global'),
  'PUT /gsql/v1/udt/files/{file}': rule(all('WRITE_FILE'), 'global'),
  'GET /gsqlserver/gsql/userdefinedfunction': rule(all('READ_FILE'), 'global'),
  'PUT /gsqlserver/gsql/userdefinedfunction': rule(all('WRITE_FILE'), 'global'),
  // Secrets: the operations check SECRET_PRIVILEGES, READ_USER and WRITE_USER on what they touch.
  'GET /gsql/v1/secrets': rule(AUTHENTICATED, { deferred: 'the secret operations (auth/operations.ts)' }),
  'GET /gsql/v1/secrets/{alias}': rule(AUTHENTICATED, { deferred: 'the secret operations' }),
  'POST /gsql/v1/secrets': rule(AUTHENTICATED, { deferred: 'the secret operations' }),
  'DELETE /gsql/v1/secrets': rule(AUTHENTICATED, { deferred: 'the secret operations' }),
  'DELETE /gsql/v1/secrets/{alias}': rule(AUTHENTICATED, { deferred: 'the secret operations' }),
  'POST /gsql/v1/tokens': OPEN,
  'DELETE /gsql/v1/tokens': OPEN,
  // It tells whose a token is and for which graph: only to a caller who proves who they are.
  'POST /gsql/v1/tokens/check': ANY_CALLER,
  'GET /gsql/v1/queries/install': rule(WRITE_QUERY, Q_GRAPH),
  'POST /gsql/v1/queries/install': rule(WRITE_QUERY, Q_GRAPH),
  'GET /gsql/v1/queries/install/{id}': rule(READ_QUERY, { lookup: 'installRequest', param: 'id' }),
  // The graph is the query text's FOR GRAPH (else ?graph); the handler also checks the writes.
  'POST /gsqlserver/interpreted_query': rule(READ_DATA, { deferred: 'the interpret handler' }),
  'POST /gsql/v1/queries/interpret': rule(READ_DATA, { deferred: 'the interpret handler' }),
  'GET /gsqlserver/gsql/queryinfo': rule(READ_QUERY, Q_GRAPH),
  'GET /gsql/v1/queries/signature': rule(READ_QUERY, Q_GRAPH),
  'POST /gsql/v1/queries/signature': rule(READ_QUERY, Q_GRAPH),
  'GET /gsql/v1/queries/info': rule(READ_QUERY, Q_GRAPH),
  'GET /gsql/v1/queries': rule(READ_QUERY, Q_GRAPH),
  'POST /gsql/v1/queries': rule(WRITE_QUERY, Q_GRAPH),
  'DELETE /gsql/v1/queries': rule(WRITE_QUERY, Q_GRAPH),
  'GET /gsql/v1/queries/{name}': rule(READ_QUERY, Q_GRAPH),
  'DELETE /gsql/v1/queries/{name}': rule(WRITE_QUERY, Q_GRAPH),
  'POST /gsql/v1/internal/check/query': rule(WRITE_QUERY, Q_GRAPH),
  'GET /gsql/v1/description': rule(READ_QUERY, Q_GRAPH),
  'PUT /gsql/v1/description': rule(WRITE_QUERY, Q_GRAPH),
  'DELETE /gsql/v1/description': rule(WRITE_QUERY, Q_GRAPH),
  'GET /gsqlserver/gsql/description': rule(READ_QUERY, Q_GRAPH),
  'PUT /gsqlserver/gsql/description': rule(WRITE_QUERY, Q_GRAPH),
  'DELETE /gsqlserver/gsql/description': rule(WRITE_QUERY, Q_GRAPH),
  // Host metrics (CPU, memory, disk, request rates): nothing of any graph's data.
  'GET /ts3/api/datapoints': ANY_CALLER,
  'GET /statesvc/api/datapoints': ANY_CALLER,
  'POST /informant/current-service-status': ANY_CALLER,
  'GET /informant/metrics': ANY_CALLER,
  'POST /informant/metrics': ANY_CALLER,
  'POST /informant/metrics/get/cpu-memory': ANY_CALLER,
  'POST /informant/metrics/get/diskspace': ANY_CALLER,
  'POST /informant/metrics/get/network': ANY_CALLER,
  'POST /informant/metrics/get/qps': ANY_CALLER,
  // GraphQL: mutations also need the write privileges of what they do (checked per mutation).
  'POST /api/graphql/gsql/{graph_name}': rule(READ_DATA, 'path'),
  'GET /api/graphql/gsql/{graph_name}': rule(READ_DATA, 'path'),
  'GET /graphql/{graph_name}': rule(READ_DATA, 'path'),
  'POST /graphql/{graph_name}': rule(READ_DATA, 'path'),
  'GET /graphql/{graph_name}/schema': rule(READ_DATA, 'path'),
  // GraphiQL's static scripts and styles (from node_modules): nothing of the database in them.
  'GET /graphiql/{file}': OPEN,
  // A cluster node's view of the cluster and its Prometheus metrics (served with --cluster only).
  'GET /api/cluster': ANY_CALLER,
  'GET /metrics': ANY_CALLER,
  // Loading jobs (4.x). Runs named by id are checked for EXECUTE_LOADINGJOB on their own graphs.
  'GET /gsql/v1/loading-jobs': rule(all('READ_LOADINGJOB'), Q_GRAPH),
  'GET /gsql/v1/loading-jobs/{jobName}': rule(all('READ_LOADINGJOB'), Q_GRAPH),
  'POST /gsql/v1/loading-jobs': rule(all('WRITE_LOADINGJOB'), Q_GRAPH),
  'PUT /gsql/v1/loading-jobs': rule(all('WRITE_LOADINGJOB'), Q_GRAPH),
  'DELETE /gsql/v1/loading-jobs/{jobName}': rule(all('WRITE_LOADINGJOB'), Q_GRAPH),
  'POST /gsql/v1/loading-jobs/run': rule(all('EXECUTE_LOADINGJOB'), Q_GRAPH),
  'GET /gsql/v1/loading-jobs/status': rule(AUTHENTICATED, { deferred: 'the loading-job handlers, per run' }),
  'GET /gsql/v1/loading-jobs/status/{jobId}': rule(AUTHENTICATED, { deferred: 'the loading-job handlers' }),
  'GET /gsql/v1/loading-jobs/abort': rule(AUTHENTICATED, { deferred: 'the loading-job handlers' }),
  'GET /gsql/v1/loading-jobs/abort/{jobId}': rule(AUTHENTICATED, { deferred: 'the loading-job handlers' }),
  'GET /gsql/v1/loading-jobs/resume/{jobId}': rule(AUTHENTICATED, { deferred: 'the loading-job handlers' }),
  // Online backup: every graph, the users and the secrets.
  'POST /ocelot/v1/backup': rule(SUPERUSER, 'global'),
  // Ocelot Studio: its page and bundled files hold nothing of the database; login and logout check
  // their own credentials, and the session endpoint its own cookie (server/studio).
  'GET /studio/': OPEN,
  'GET /studio/{file}': OPEN,
  'POST /studio/api/login': OPEN,
  'POST /studio/api/logout': OPEN,
  'GET /studio/api/session': OPEN,
};

const ADMIN: Record<string, RouteRule> = {
  ...shellTransport('/gsql'),
  // Removing another user's expired tokens needs WRITE_USER (checked by the operation).
  'DELETE /expiredtoken': ANY_CALLER,
  'POST /gsql/queries/install': rule(WRITE_QUERY, Q_GRAPH),
  'GET /gsql/queries/install/{id}': rule(READ_QUERY, { lookup: 'installRequest', param: 'id' }),
};

const GRAPHQL: Record<string, RouteRule> = {
  'POST /graphql': rule(READ_DATA, 'listener'),
  'GET /graphql': rule(READ_DATA, 'listener'),
  'GET /': rule(READ_DATA, 'listener'),
  'GET /schema': rule(READ_DATA, 'listener'),
  'GET /graphiql/{file}': OPEN,
};

export const ROUTE_RULES: Readonly<Record<ListenerKind, Readonly<Record<string, RouteRule>>>> = {
  restpp: RESTPP,
  gsql: GSQL,
  admin: ADMIN,
  graphql: GRAPHQL,
};

/** `/graph/:graph_name/x` → `/graph/{graph_name}/x`. */
export function routeKeyPath(fastifyUrl: string): string {
  return fastifyUrl.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/**
 * The rule of a route of `listener` (method and Fastify url as registered), or undefined when the
 * table has none. Routes under /restpp on the GSQL listener are REST++ routes.
 */
export function routeRule(
  listener: ListenerKind,
  method: string,
  fastifyUrl: string,
): { table: ListenerKind; rule: RouteRule | undefined; key: string } {
  let table = listener;
  let path = routeKeyPath(fastifyUrl);
  if (listener === 'gsql' && (path === '/restpp' || path.startsWith('/restpp/'))) {
    table = 'restpp';
    path = path.slice('/restpp'.length) || '/';
  }
  const key = `${method === 'HEAD' ? 'GET' : method} ${path}`;
  return { table, rule: Object.hasOwn(ROUTE_RULES[table], key) ? ROUTE_RULES[table][key] : undefined, key };
}
