/**
 * The one table of what each endpoint and GSQL statement requires. The servers and the shell look
 * a request up here and call `checkAccess`; adding an endpoint or a statement means adding a row.
 *
 * Scope: a rule is checked on the graph the request or session names (a privilege held globally
 * counts on every graph), or on the global scope when it names none.
 */
import type { SecurityState } from '../catalog/security.js';
import { requireAll, requireAny, requireGraphScope, type Principal } from './authorize.js';
import type { Privilege } from './privileges.js';

export type AccessRule =
  /** No credentials at all (health checks, echo, the token endpoints that check their own). */
  | { kind: 'public' }
  /** Any valid caller; finer checks, if any, happen in the handler. */
  | { kind: 'authenticated' }
  /** Every one of these privileges. */
  | { kind: 'all'; privileges: readonly Privilege[] }
  /** At least one of these privileges. */
  | { kind: 'any'; privileges: readonly Privilege[] };

const PUBLIC: AccessRule = { kind: 'public' };
const AUTHENTICATED: AccessRule = { kind: 'authenticated' };
const all = (...privileges: Privilege[]): AccessRule => ({ kind: 'all', privileges });
const any = (...privileges: Privilege[]): AccessRule => ({ kind: 'any', privileges });

const READ_DATA = all('READ_DATA');
const DELETE_DATA = all('DELETE_DATA');
/** TigerGraph: creating a secret needs one of these (queryreader and up, not observer). */
export const SECRET_PRIVILEGES: readonly Privilege[] = [
  'READ_DATA',
  'CREATE_DATA',
  'UPDATE_DATA',
  'DELETE_DATA',
  'EXECUTE_LOADINGJOB',
];

const V = '/graph/{graph_name}/vertices/{vertex_type}';
const E = '/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}';

/** `<METHOD> <TigerGraph path pattern>` -> rule (REST++ paths without the /restpp prefix). */
export const ENDPOINT_ACCESS: ReadonlyMap<string, AccessRule> = new Map<string, AccessRule>([
  // System (REST++)
  ['GET /echo', PUBLIC],
  ['POST /echo', PUBLIC],
  ['GET /endpoints', AUTHENTICATED],
  ['GET /endpoints/{graph_name}', AUTHENTICATED],
  ['GET /version', AUTHENTICATED],
  ['GET /statistics/{graph_name}', AUTHENTICATED],
  ['GET /rebuildnow', AUTHENTICATED],
  ['GET /rebuildnow/{graph_name}', AUTHENTICATED],
  ['GET /deleted_vertex_check', AUTHENTICATED],
  ['GET /data_consistency_check', AUTHENTICATED],
  ['GET /showprocesslist/{graph_name}', AUTHENTICATED],
  ['GET /abortquery/{graph_name}', AUTHENTICATED],
  ['GET /query_status/{graph_name}', READ_DATA],
  ['GET /query_result/{requestid}', READ_DATA],
  ['GET /informant/metrics', AUTHENTICATED],
  ['POST /informant/metrics', AUTHENTICATED],
  ['POST /informant/current-service-status', AUTHENTICATED],
  ['GET /ts3/api/datapoints', AUTHENTICATED],
  // Tokens: the handlers check the secret or the credentials themselves.
  ['GET /requesttoken', PUBLIC],
  ['POST /requesttoken', PUBLIC],
  ['PUT /requesttoken', PUBLIC],
  ['DELETE /requesttoken', PUBLIC],
  ['POST /gsql/v1/tokens', PUBLIC],
  ['DELETE /gsql/v1/tokens', PUBLIC],
  ['POST /gsql/v1/tokens/check', PUBLIC],
  ['DELETE /expiredtoken', AUTHENTICATED],
  ['GET /gsql/v1/secrets', AUTHENTICATED],
  ['GET /gsql/v1/secrets/{alias}', AUTHENTICATED],
  /** Checked by the operation: SECRET_PRIVILEGES on the secret's graph, or on some graph. */
  ['POST /gsql/v1/secrets', AUTHENTICATED],
  ['DELETE /gsql/v1/secrets', AUTHENTICATED],
  ['DELETE /gsql/v1/secrets/{alias}', AUTHENTICATED],
  // Loading and data
  ['POST /ddl/{graph_name}', all('EXECUTE_LOADINGJOB')],
  ['POST /builtins/{graph_name}', READ_DATA],
  ['POST /graph/{graph_name}', all('CREATE_DATA', 'UPDATE_DATA')],
  ['POST /graph', all('CREATE_DATA', 'UPDATE_DATA')],
  [`GET ${V}`, READ_DATA],
  [`GET ${V}/{vertex_id}`, READ_DATA],
  [`DELETE ${V}`, DELETE_DATA],
  [`DELETE ${V}/{vertex_id}`, DELETE_DATA],
  ['GET /graph/{graph_name}/delete_by_type/vertices/{vertex_type}', DELETE_DATA],
  [`GET ${E}`, READ_DATA],
  [`GET ${E}/{edge_type}`, READ_DATA],
  [`GET ${E}/{edge_type}/{target_vertex_type}`, READ_DATA],
  [`GET ${E}/{edge_type}/{target_vertex_type}/{target_vertex_id}`, READ_DATA],
  [`DELETE ${E}`, DELETE_DATA],
  [`DELETE ${E}/{edge_type}`, DELETE_DATA],
  [`DELETE ${E}/{edge_type}/{target_vertex_type}`, DELETE_DATA],
  [`DELETE ${E}/{edge_type}/{target_vertex_type}/{target_vertex_id}`, DELETE_DATA],
  // Queries and paths (a query that writes is checked for the write privileges when it runs)
  ['GET /query/{graph_name}/{query_name}', READ_DATA],
  ['POST /query/{graph_name}/{query_name}', READ_DATA],
  ['POST /shortestpath/{graph_name}', READ_DATA],
  ['POST /allpaths/{graph_name}', READ_DATA],
  // GSQL server
  ['GET /api/ping', PUBLIC],
  // The gsql client's login checks the credentials in its body; it and the session end need none.
  ['POST /gsqlserver/gsql/login', PUBLIC],
  ['POST /gsql/login', PUBLIC],
  ['POST /gsqlserver/gsql/abortclientsession', PUBLIC],
  ['POST /gsql/abortclientsession', PUBLIC],
  ['GET /gsql/v1/version', AUTHENTICATED],
  ['POST /gsql/v1/statements', AUTHENTICATED],
  ['POST /gsqlserver/gsql/file', AUTHENTICATED],
  ['POST /gsqlserver/gsql/command', AUTHENTICATED],
  ['POST /gsqlserver/gsql/version', AUTHENTICATED],
  ['POST /gsql/file', AUTHENTICATED],
  ['POST /gsql/command', AUTHENTICATED],
  ['POST /gsql/version', AUTHENTICATED],
  ['GET /gsqlserver/gsql/schema', all('READ_SCHEMA')],
  ['GET /gsql/v1/schema/graphs/{graph_name}', all('READ_SCHEMA')],
  ['GET /gsql/v1/schema', all('READ_SCHEMA')],
  ['GET /gsql/v1/schema/graphs', all('READ_SCHEMA')],
  ['POST /gsql/v1/schema/graphs', all('WRITE_SCHEMA')],
  ['DELETE /gsql/v1/schema/graphs', all('DROP_GRAPH')],
  ['DELETE /gsql/v1/schema/graphs/{graph_name}', all('DROP_GRAPH')],
  ['GET /gsql/v1/schema/vertices', all('READ_SCHEMA')],
  ['GET /gsql/v1/schema/vertices/{name}', all('READ_SCHEMA')],
  ['POST /gsql/v1/schema/vertices', all('WRITE_SCHEMA')],
  ['PUT /gsql/v1/schema/vertices/{name}', all('WRITE_SCHEMA')],
  ['DELETE /gsql/v1/schema/vertices', all('WRITE_SCHEMA')],
  ['DELETE /gsql/v1/schema/vertices/{name}', all('WRITE_SCHEMA')],
  ['GET /gsql/v1/schema/edges', all('READ_SCHEMA')],
  ['GET /gsql/v1/schema/edges/{name}', all('READ_SCHEMA')],
  ['POST /gsql/v1/schema/edges', all('WRITE_SCHEMA')],
  ['PUT /gsql/v1/schema/edges/{name}', all('WRITE_SCHEMA')],
  ['DELETE /gsql/v1/schema/edges', all('WRITE_SCHEMA')],
  ['DELETE /gsql/v1/schema/edges/{name}', all('WRITE_SCHEMA')],
  ['POST /gsql/v1/schema/change', all('WRITE_SCHEMA')],
  ['POST /gsql/v1/schema/check', all('READ_SCHEMA')],
  ['POST /gsql/v1/schema/recover', all('WRITE_SCHEMA')],
  ['GET /gsqlserver/gsql/udtlist', all('READ_SCHEMA')],
  ['GET /gsql/v1/udt/tuples', all('READ_SCHEMA')],
  ['GET /gsqlserver/gsql/queryinfo', all('READ_QUERY')],
  ['GET /gsql/v1/queries/info', all('READ_QUERY')],
  ['GET /gsqlserver/interpreted_query', READ_DATA],
  ['POST /gsqlserver/interpreted_query', READ_DATA],
  ['POST /gsql/v1/queries/interpret', READ_DATA],
  ['GET /gsql/v1/auth/simple', AUTHENTICATED],
  ['POST /gsql/v1/queries/install', all('WRITE_QUERY')],
  ['GET /gsql/v1/queries/install/{request_id}', all('READ_QUERY')],
  ['GET /gsql/v1/queries/install', all('WRITE_QUERY')],
  ['POST /gsql/queries/install', all('WRITE_QUERY')],
  ['GET /gsql/queries/install/{request_id}', all('READ_QUERY')],
  ['GET /gsql/v1/queries', all('READ_QUERY')],
  ['POST /gsql/v1/queries', all('WRITE_QUERY')],
  ['DELETE /gsql/v1/queries', all('WRITE_QUERY')],
  ['GET /gsql/v1/queries/{query_name}', all('READ_QUERY')],
  ['DELETE /gsql/v1/queries/{query_name}', all('WRITE_QUERY')],
  ['GET /gsql/v1/queries/signature', all('READ_QUERY')],
  ['POST /gsql/v1/queries/signature', all('READ_QUERY')],
  ['GET /gsql/v1/description', all('READ_QUERY')],
  ['PUT /gsql/v1/description', all('WRITE_QUERY')],
  ['DELETE /gsql/v1/description', all('WRITE_QUERY')],
  ['GET /query_status', READ_DATA],
  ['GET /query_result', READ_DATA],
  ['GET /statesvc/api/datapoints', AUTHENTICATED],
  // GraphQL (mutations are checked for the write privileges by the resolver)
  ['POST /graphql/{graph_name}', READ_DATA],
  ['GET /graphql/{graph_name}', READ_DATA],
  // CORS preflights carry no credentials (browsers never send them there); they answer headers only.
  ['OPTIONS /graphql/{graph_name}', PUBLIC],
  // GraphiQL's static scripts and styles (from node_modules): nothing of the database in them.
  ['GET /graphiql/{file}', PUBLIC],
  // Ocelot Studio: its page and bundled files hold nothing of the database; login and logout check
  // their own credentials, and the session endpoint its own cookie (src/server/studio).
  ['GET /studio/', PUBLIC],
  ['GET /studio/{file}', PUBLIC],
  ['POST /studio/api/login', PUBLIC],
  ['POST /studio/api/logout', PUBLIC],
  ['GET /studio/api/session', PUBLIC],
]);

/** GSQL statement (its leading words, upper case) -> rule. */
export const STATEMENT_ACCESS: ReadonlyMap<string, AccessRule> = new Map<string, AccessRule>([
  ['LS', all('READ_SCHEMA')],
  ['SHOW VERTEX', all('READ_SCHEMA')],
  ['SHOW EDGE', all('READ_SCHEMA')],
  ['SHOW GRAPH', all('READ_SCHEMA')],
  ['SHOW JOB', all('READ_LOADINGJOB')],
  ['SHOW QUERY', all('READ_QUERY')],
  ['USE GRAPH', AUTHENTICATED],
  ['USE GLOBAL', AUTHENTICATED],
  ['HELP', AUTHENTICATED],
  ['VERSION', AUTHENTICATED],
  ['SET', AUTHENTICATED],
  ['CREATE VERTEX', all('WRITE_SCHEMA')],
  ['CREATE EDGE', all('WRITE_SCHEMA')],
  ['CREATE DIRECTED EDGE', all('WRITE_SCHEMA')],
  ['CREATE UNDIRECTED EDGE', all('WRITE_SCHEMA')],
  ['CREATE GRAPH', all('WRITE_SCHEMA')],
  ['DROP VERTEX', all('WRITE_SCHEMA')],
  ['DROP EDGE', all('WRITE_SCHEMA')],
  ['DROP GRAPH', all('DROP_GRAPH')],
  ['TYPEDEF TUPLE', all('WRITE_SCHEMA')],
  ['DROP TUPLE', all('WRITE_SCHEMA')],
  ['CREATE SCHEMA_CHANGE JOB', all('WRITE_SCHEMA')],
  ['CREATE GLOBAL SCHEMA_CHANGE JOB', all('WRITE_SCHEMA')],
  ['RUN SCHEMA_CHANGE JOB', all('WRITE_SCHEMA')],
  ['RUN GLOBAL SCHEMA_CHANGE JOB', all('WRITE_SCHEMA')],
  ['CREATE LOADING JOB', all('WRITE_LOADINGJOB')],
  ['RUN LOADING JOB', all('EXECUTE_LOADINGJOB')],
  ['RUN JOB', all('EXECUTE_LOADINGJOB')],
  ['SHOW LOADING STATUS', all('EXECUTE_LOADINGJOB')],
  ['ABORT LOADING JOB', all('EXECUTE_LOADINGJOB')],
  ['RESUME LOADING JOB', all('EXECUTE_LOADINGJOB')],
  ['SHOW DATA_SOURCE', all('READ_LOADINGJOB')],
  ['UPSERT', all('CREATE_DATA', 'UPDATE_DATA')],
  ['INSERT', all('CREATE_DATA')],
  ['DELETE', DELETE_DATA],
  ['SELECT', READ_DATA],
  ['DROP JOB', any('WRITE_LOADINGJOB', 'WRITE_SCHEMA')],
  ['CREATE DATA_SOURCE', all('WRITE_DATASOURCE')],
  ['DROP DATA_SOURCE', all('WRITE_DATASOURCE')],
  ['CREATE QUERY', all('WRITE_QUERY')],
  ['CREATE OR REPLACE QUERY', all('WRITE_QUERY')],
  ['CREATE DISTRIBUTED QUERY', all('WRITE_QUERY')],
  ['CREATE OR REPLACE DISTRIBUTED QUERY', all('WRITE_QUERY')],
  ['CREATE TEMPLATE QUERY', all('WRITE_QUERY')],
  ['INTERPRET QUERY', READ_DATA],
  ['INSTALL QUERY', all('WRITE_QUERY')],
  ['DROP QUERY', all('WRITE_QUERY')],
  ['RUN QUERY', READ_DATA],
  ['CLEAR GRAPH STORE', all('CLEAR_GRAPHSTORE')],
  ['DROP ALL', all('DROP_ALL')],
  ['EXPORT GRAPH', all('EXPORT_GRAPH')],
  ['IMPORT GRAPH', all('WRITE_SCHEMA', 'WRITE_LOADINGJOB', 'WRITE_QUERY')],
  // Security statements
  ['CREATE USER', all('WRITE_USER')],
  ['DROP USER', all('WRITE_USER')],
  /** Changing one's own password needs nothing; another user's needs WRITE_USER (checked in the handler). */
  ['ALTER PASSWORD', AUTHENTICATED],
  /** Everyone sees their own roles; READ_USER shows all users (checked in the handler). */
  ['SHOW USER', AUTHENTICATED],
  ['CREATE ROLE', all('WRITE_ROLE')],
  ['DROP ROLE', all('WRITE_ROLE')],
  ['SHOW ROLE', all('READ_ROLE')],
  ['GRANT ROLE', all('WRITE_ROLE')],
  ['REVOKE ROLE', all('WRITE_ROLE')],
  ['GRANT PRIVILEGE', all('WRITE_ROLE')],
  ['REVOKE PRIVILEGE', all('WRITE_ROLE')],
  ['SHOW PRIVILEGE', all('READ_ROLE')],
  /** Checked by the operation: SECRET_PRIVILEGES on the secret's graph, or on some graph. */
  ['CREATE SECRET', AUTHENTICATED],
  ['SHOW SECRET', AUTHENTICATED],
  ['DROP SECRET', AUTHENTICATED],
]);

/** An endpoint without a row still requires a valid caller: never open by omission. */
export function endpointRule(endpoint: string): AccessRule {
  return ENDPOINT_ACCESS.get(endpoint) ?? AUTHENTICATED;
}

/** A statement without a row still requires a valid caller. */
export function statementRule(statement: string): AccessRule {
  return STATEMENT_ACCESS.get(statement.toUpperCase()) ?? AUTHENTICATED;
}

const MAX_KEY_WORDS = 5;

/**
 * The rule of a statement given its source text: the longest run of its leading words that has a
 * row (`CREATE OR REPLACE QUERY q(…)` -> `CREATE OR REPLACE QUERY`).
 */
export function statementRuleForText(text: string): AccessRule {
  const words = /^\s*([A-Za-z_]+(?:\s+[A-Za-z_]+)*)/.exec(text)?.[1].toUpperCase().split(/\s+/) ?? [];
  for (let n = Math.min(words.length, MAX_KEY_WORDS); n > 0; n--) {
    const rule = STATEMENT_ACCESS.get(words.slice(0, n).join(' '));
    if (rule) return rule;
  }
  return AUTHENTICATED;
}

/**
 * Throws a 403 AuthError unless `principal` may do what `rule` asks on `graph` (undefined: the
 * global scope). Public and authenticated rules still honour a token's or secret's graph.
 */
export function checkAccess(
  state: SecurityState,
  principal: Principal,
  rule: AccessRule,
  graph: string | undefined,
): void {
  switch (rule.kind) {
    case 'public':
      return;
    case 'authenticated':
      if (graph !== undefined) requireGraphScope(principal, graph);
      return;
    case 'all':
      requireAll(state, principal, rule.privileges, graph);
      return;
    case 'any':
      requireAny(state, principal, rule.privileges, graph);
      return;
  }
}
