/**
 * Which requests change the database, so that a cluster follower forwards them to the leader: by
 * endpoint (`<METHOD> <TigerGraph path>`, the routes' `config.endpoint`), and for GSQL text, query
 * runs and GraphQL by what the request carries (its parsed statements, the stored query's body, the
 * GraphQL operation).
 *
 * Fail-closed: a GET is a read unless listed as a write; any other method is a write unless listed
 * as a read. Forwarding a read is only slower; serving a write locally is impossible anyway (the
 * follower's engine refuses it), so a missing row costs speed, never data.
 */
import type { FastifyRequest } from 'fastify';
import { parse as parseGraphql, type DocumentNode } from 'graphql';
import type { Catalog } from '../../catalog/types.js';
import type { Stmt } from '../../gsql/ast.js';
import type { QueryDef } from '../../gsql/ast-query.js';
import { parseScript } from '../../gsql/parser.js';
import { GsqlSyntaxError } from '../../gsql/lexer.js';
import { parseQueryText } from '../../gsql/parser-query.js';
import {
  queryWrites,
  storedQueryWrites as storedQueryWritesOf,
  type StoredQueries,
} from '../../query/index.js';
import { textBody } from '../http/body.js';
import { decodeRequest } from '../graphql/transport.js';
import { decodeFormText } from '../gsqlserver/shell-transport.js';

export type RequestClass =
  /** Served here once this node caught up. */
  | 'read'
  /** Forwarded to the leader. */
  | 'write'
  /** Served here at once (health, this node's status). */
  | 'node';

/** Writes reached with GET. */
const GET_WRITES = new Set([
  'GET /graph/{graph_name}/delete_by_type/vertices/{vertex_type}',
  'GET /requesttoken',
  'GET /gsql/v1/queries/install',
  // Install requests are tracked where they run: on the leader.
  'GET /gsql/v1/queries/install/{request_id}',
  'GET /gsql/queries/install/{request_id}',
]);

/** Reads reached with another method than GET. */
const OTHER_READS = new Set([
  'POST /echo',
  'POST /builtins/{graph_name}',
  'POST /shortestpath/{graph_name}',
  'POST /allpaths/{graph_name}',
  'POST /rebuildnow/{graph_name}',
  'POST /gsql/v1/tokens/check',
  'POST /gsql/v1/queries/signature',
  'POST /gsql/v1/internal/check/query',
  'POST /gsqlserver/gsql/login',
  'POST /gsql/login',
  'POST /gsqlserver/gsql/abortclientsession',
  'POST /gsql/abortclientsession',
  'POST /gsqlserver/gsql/version',
  'POST /gsql/version',
  'POST /informant/metrics',
  'POST /informant/current-service-status',
]);

/** Answered by this node whatever its state. */
const NODE_ENDPOINTS = new Set([
  'GET /api/ping',
  'GET /echo',
  'POST /echo',
  'GET /api/cluster',
  'GET /metrics',
]);

const GSQL_TEXT = new Set([
  'POST /gsql/v1/statements',
  'POST /gsqlserver/gsql/file',
  'POST /gsqlserver/gsql/command',
  'POST /gsql/file',
  'POST /gsql/command',
]);
/** Their GSQL text is URL-encoded (the 3.x shell transport). */
const FORM_ENCODED = new Set(
  ['/file', '/command'].flatMap((k) => [`POST /gsqlserver/gsql${k}`, `POST /gsql${k}`]),
);
const INTERPRET = new Set(['POST /gsqlserver/interpreted_query', 'POST /gsql/v1/queries/interpret']);
const QUERY_RUN = new Set(['GET /query/{graph_name}/{query_name}', 'POST /query/{graph_name}/{query_name}']);
const GRAPHQL = new Set([
  'POST /graphql/{graph_name}',
  'GET /graphql/{graph_name}',
  'POST /graphql',
  'GET /graphql',
]);

/** Statement kinds that change nothing stored. */
const READ_STATEMENTS = new Set<Stmt['kind']>([
  'use_graph',
  'use_global',
  'show',
  'show_job',
  'ls',
  'help',
  'set',
  'show_user',
  'show_role',
  'show_privilege',
  'show_secret',
]);

/** The class of a routed request (`endpoint` is its route's `config.endpoint`). */
export function classifyRequest(endpoint: string, request: FastifyRequest, catalog: Catalog): RequestClass {
  if (NODE_ENDPOINTS.has(endpoint) || endpoint.startsWith('POST /informant/metrics/get/')) return 'node';
  if (GSQL_TEXT.has(endpoint)) {
    const body = textBody(request);
    let text = body;
    if (FORM_ENCODED.has(endpoint)) {
      try {
        text = decodeFormText(body);
      } catch {
        return 'read';
      }
    }
    return scriptWrites(text, catalog) ? 'write' : 'read';
  }
  if (INTERPRET.has(endpoint)) return interpretWrites(textBody(request), catalog) ? 'write' : 'read';
  if (QUERY_RUN.has(endpoint)) {
    const params = request.params as Record<string, string | undefined>;
    return storedQueryWrites(catalog, params.graph_name, params.query_name ?? '') ? 'write' : 'read';
  }
  if (GRAPHQL.has(endpoint)) return graphqlWrites(request) ? 'write' : 'read';
  const get = endpoint.startsWith('GET ');
  if (get) return GET_WRITES.has(endpoint) ? 'write' : 'read';
  return OTHER_READS.has(endpoint) ? 'read' : 'write';
}

/** Whether running a GSQL script may change the database (any statement that is not a read). */
export function scriptWrites(text: string, catalog: Catalog): boolean {
  let graph: string | undefined;
  for (const item of parseScript(text)) {
    if (!item.ok) continue;
    const s = item.stmt;
    if (s.kind === 'use_graph') graph = s.name;
    else if (s.kind === 'use_global') graph = undefined;
    if (statementWrites(s, catalog, graph)) return true;
  }
  return false;
}

function statementWrites(s: Stmt, catalog: Catalog, graph: string | undefined): boolean {
  if (READ_STATEMENTS.has(s.kind)) return false;
  if (s.kind === 'unsupported') return !(s.feature === 'SELECT' || s.feature.startsWith('SHOW'));
  if (s.kind !== 'query') return true;
  const q = s.statement;
  switch (q.kind) {
    case 'showQuery':
    case 'builtinSelect':
      return false;
    case 'runQuery':
    case 'interpretQuery':
      return storedQueryWrites(catalog, graph, q.name);
    case 'interpretAnonymous':
      return queryDefWrites(q.query, catalog, q.query.graph ?? graph);
    default:
      return true;
  }
}

function interpretWrites(text: string, catalog: Catalog): boolean {
  let stmts;
  try {
    stmts = parseQueryText(text);
  } catch {
    // The node answers the syntax error itself.
    return false;
  }
  return stmts.some((q) =>
    q.kind === 'interpretAnonymous' || q.kind === 'createQuery'
      ? queryDefWrites(q.query, catalog, q.query.graph)
      : q.kind !== 'showQuery',
  );
}

interface StoredQueryRef {
  graph: string;
  name: string;
  text: string;
}

function storedQueries(catalog: Catalog): readonly StoredQueryRef[] {
  const list = (catalog as { queries?: unknown }).queries;
  return Array.isArray(list) ? (list as StoredQueryRef[]) : [];
}

/** The stored queries of `graph` (of every graph when unknown) as query/effects.ts reads them. */
function storedOf(catalog: Catalog, graph: string | undefined): StoredQueries {
  const of = () => storedQueries(catalog).filter((q) => graph === undefined || q.graph === graph);
  return {
    text: (name) => of().find((q) => q.name === name)?.text,
    names: () => of().map((q) => q.name),
  };
}

/** Answers per catalog version: stored queries are parsed once per version, not per request. */
const cache = new WeakMap<Catalog, Map<string, boolean>>();

/** Whether the stored query `name` (of `graph`, or of any graph when unknown) may write. */
export function storedQueryWrites(catalog: Catalog, graph: string | undefined, name: string): boolean {
  let answers = cache.get(catalog);
  if (!answers) cache.set(catalog, (answers = new Map()));
  const key = `${graph ?? '*'}/${name}`;
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = storedQueries(catalog)
      .filter((q) => q.name === name && (graph === undefined || q.graph === graph))
      .some((q) => writesOf(() => storedQueryWritesOf(q.name, storedOf(catalog, q.graph))));
    answers.set(key, answer);
  }
  return answer;
}

/** Whether a query may change the database (query/effects.ts: itself and the queries it calls). */
function queryDefWrites(def: QueryDef, catalog: Catalog, graph: string | undefined): boolean {
  return writesOf(() => queryWrites(def, storedOf(catalog, graph)));
}

/** A stored text that no longer parses cannot run anywhere: it writes nothing. */
function writesOf(f: () => ReadonlySet<unknown>): boolean {
  try {
    return f().size > 0;
  } catch (e) {
    if (e instanceof GsqlSyntaxError) return false;
    throw e;
  }
}

/**
 * Whether a GraphQL request (or any request of a batch) runs a mutation (an unreadable one is
 * answered by the node itself).
 */
function graphqlWrites(request: FastifyRequest): boolean {
  let decoded: ReturnType<typeof decodeRequest>;
  try {
    decoded = decodeRequest(request);
  } catch {
    return false;
  }
  return (Array.isArray(decoded) ? decoded : [decoded]).some((r) => mutates(r.query, r.operationName));
}

function mutates(query: unknown, operationName: unknown): boolean {
  if (typeof query !== 'string') return false;
  let doc: DocumentNode;
  try {
    doc = parseGraphql(query);
  } catch {
    return false;
  }
  return doc.definitions.some(
    (d) =>
      d.kind === 'OperationDefinition' &&
      d.operation === 'mutation' &&
      (typeof operationName !== 'string' || operationName === '' || d.name?.value === operationName),
  );
}
