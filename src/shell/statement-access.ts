/**
 * The statement table: what each kind of GSQL statement requires, and on which scope, decided from
 * the parsed statement alone (its kind and typed fields, never its text) and the session. The
 * table's type lists every statement kind, so a new kind does not compile until it has a rule here;
 * a statement the shell recognises but does not run is refused before anything runs.
 *
 * The scope is the one the statement's handler acts on: global types, graphs, users, the whole
 * store live on the global scope; everything else on the graph the statement names, else the graph
 * in use (else the global scope, where only global grants count).
 */
import {
  all,
  any,
  AUTHENTICATED,
  DELETE_DATA,
  READ_DATA,
  READ_QUERY,
  READ_ROLE,
  READ_SCHEMA,
  UPSERT_DATA,
  WRITE_QUERY,
  WRITE_ROLE,
  WRITE_SCHEMA,
  WRITE_USER,
  type AccessRule,
} from '../auth/access-table.js';
import type { Stmt, StmtKind } from '../gsql/ast.js';
import type { QueryStatement } from '../gsql/ast-query.js';
import type { AuthScope } from '../gsql/parser-auth.js';
import type { ShellSession } from './context.js';
import { exportsUsers } from './graph-export.js';

/** What a statement needs before it runs: a rule on a scope (undefined: global), or a refusal. */
export type StatementRequirement = { rule: AccessRule; graph: string | undefined } | { refused: string };

type RuleOf<S> = (stmt: S, session: ShellSession) => StatementRequirement;

const onGlobal = (rule: AccessRule): StatementRequirement => ({ rule, graph: undefined });
const onGraph = (rule: AccessRule, graph: string | undefined): StatementRequirement => ({ rule, graph });
/** The graph in use (a statement that needs one and has none fails in its handler, changing nothing). */
const inUse =
  (rule: AccessRule) =>
  (_stmt: unknown, session: ShellSession): StatementRequirement =>
    onGraph(rule, session.graph);

/** ON GRAPH g / ON GLOBAL as written, else the graph in use. */
function scopeOf(scope: AuthScope | undefined, session: ShellSession): string | undefined {
  if (scope === undefined) return session.graph;
  return scope.kind === 'graph' ? scope.name : undefined;
}

const QUERY_ACCESS: { readonly [K in QueryStatement['kind']]: RuleOf<Extract<QueryStatement, { kind: K }>> } =
  {
    createQuery: (s, session) => onGraph(WRITE_QUERY, s.query.graph ?? session.graph),
    // Running a query also needs the write privileges of what it does (query/effects.ts), checked
    // by the handler once the query is compiled, before it runs.
    interpretAnonymous: (s, session) => onGraph(READ_DATA, s.query.graph ?? session.graph),
    interpretQuery: inUse(READ_DATA),
    runQuery: inUse(READ_DATA),
    installQuery: inUse(WRITE_QUERY),
    showQuery: inUse(READ_QUERY),
    dropQuery: inUse(WRITE_QUERY),
    // GSQL functions and packages are global objects.
    createFunction: () => onGlobal(WRITE_QUERY),
    installFunction: () => onGlobal(WRITE_QUERY),
    showFunction: () => onGlobal(READ_QUERY),
    dropFunction: () => onGlobal(WRITE_QUERY),
    createPackage: () => onGlobal(WRITE_QUERY),
    showPackage: () => onGlobal(READ_QUERY),
    dropPackage: () => onGlobal(WRITE_QUERY),
    // GSQL 101's built-in SELECT reads the graph in use; the one-block SELECT runs as an
    // interpreted query there (what it writes is checked by the handler, as for INTERPRET).
    builtinSelect: inUse(READ_DATA),
    oneBlockSelect: inUse(READ_DATA),
    // UDF files are code the server runs (PUT also needs --allow-udf-put); the privileges are global-only.
    putUdfFile: () => onGlobal(all('WRITE_FILE')),
    getUdfFile: () => onGlobal(all('READ_FILE')),
  };

export const STATEMENT_ACCESS: { readonly [K in StmtKind]: RuleOf<Extract<Stmt, { kind: K }>> } = {
  // Vertex, edge and tuple types created or dropped by these statements are global.
  create_vertex: () => onGlobal(WRITE_SCHEMA),
  create_edge: () => onGlobal(WRITE_SCHEMA),
  typedef_tuple: () => onGlobal(WRITE_SCHEMA),
  drop_vertex: () => onGlobal(WRITE_SCHEMA),
  drop_edge: () => onGlobal(WRITE_SCHEMA),
  drop_tuple: () => onGlobal(WRITE_SCHEMA),
  create_graph: () => onGlobal(WRITE_SCHEMA),
  drop_graph: () => onGlobal(all('DROP_GRAPH')),
  drop_all: () => onGlobal(all('DROP_ALL')),
  clear_graph_store: () => onGlobal(all('CLEAR_GRAPHSTORE')),
  use_graph: (s) => onGraph(AUTHENTICATED, s.name),
  use_global: () => onGlobal(AUTHENTICATED),
  show: inUse(READ_SCHEMA),
  show_job: inUse(all('READ_LOADINGJOB')),
  ls: inUse(READ_SCHEMA),
  help: inUse(AUTHENTICATED),
  set: inUse(AUTHENTICATED),
  create_schema_change_job: (s, session) =>
    s.global ? onGlobal(WRITE_SCHEMA) : onGraph(WRITE_SCHEMA, s.graph ?? session.graph),
  run_schema_change_job: (s, session) =>
    s.global ? onGlobal(WRITE_SCHEMA) : onGraph(WRITE_SCHEMA, session.graph),
  drop_job: inUse(any('WRITE_LOADINGJOB', 'WRITE_SCHEMA')),
  create_loading_job: (s, session) => onGraph(all('WRITE_LOADINGJOB'), s.job.graph ?? session.graph),
  run_loading_job: inUse(all('EXECUTE_LOADINGJOB')),
  upsert_vertex: inUse(UPSERT_DATA),
  upsert_edge: inUse(UPSERT_DATA),
  delete_vertex: inUse(DELETE_DATA),
  delete_edge: inUse(DELETE_DATA),
  query: (s, session) => {
    const rule = QUERY_ACCESS[s.statement.kind] as RuleOf<QueryStatement>;
    return rule(s.statement, session);
  },
  create_user: () => onGlobal(WRITE_USER),
  drop_user: () => onGlobal(WRITE_USER),
  alter_password: (s, session) =>
    s.user === undefined || s.user === session.user ? onGlobal(AUTHENTICATED) : onGlobal(WRITE_USER),
  // Everyone sees their own roles and secrets; the handlers show more to READ_USER.
  show_user: () => onGlobal(AUTHENTICATED),
  create_role: (s, session) => onGraph(WRITE_ROLE, scopeOf(s.scope, session)),
  drop_role: inUse(WRITE_ROLE),
  show_role: inUse(READ_ROLE),
  grant_role: (s, session) => onGraph(WRITE_ROLE, scopeOf(s.scope, session)),
  revoke_role: (s, session) => onGraph(WRITE_ROLE, scopeOf(s.scope, session)),
  grant_privilege: (s, session) => onGraph(WRITE_ROLE, scopeOf(s.scope, session)),
  revoke_privilege: (s, session) => onGraph(WRITE_ROLE, scopeOf(s.scope, session)),
  show_privilege: (s, session) =>
    s.on === 'user' ? onGlobal(AUTHENTICATED) : onGraph(READ_ROLE, session.graph),
  // The secret operations check SECRET_PRIVILEGES and WRITE_USER/READ_USER themselves.
  create_secret: inUse(AUTHENTICATED),
  show_secret: () => onGlobal(AUTHENTICATED),
  drop_secret: () => onGlobal(AUTHENTICATED),
  // Loading-job runs of the graph in use (without one, every graph's runs: global grants only).
  show_loading_status: inUse(all('EXECUTE_LOADINGJOB')),
  abort_loading_job: inUse(all('EXECUTE_LOADINGJOB')),
  resume_loading_job: inUse(all('EXECUTE_LOADINGJOB')),
  // EXPORT_GRAPH is a global privilege; a package with the users carries their password hashes and
  // the secrets, which takes WRITE_USER too.
  export_graph: (s) =>
    onGlobal(
      all('EXPORT_GRAPH', ...(exportsUsers(s.options, s.graphs === 'ALL') ? ['WRITE_USER' as const] : [])),
    ),
  // IMPORT GRAPH ALL drops everything, then recreates the schema, jobs, queries and users.
  import_graph: () =>
    onGlobal(all('DROP_ALL', 'WRITE_SCHEMA', 'WRITE_LOADINGJOB', 'WRITE_QUERY', 'WRITE_USER')),
  unsupported: (s) => ({ refused: `${s.feature} is not supported yet.` }),
};

/** The requirement of one parsed statement in a session. */
export function statementRequirement(stmt: Stmt, session: ShellSession): StatementRequirement {
  const rule = STATEMENT_ACCESS[stmt.kind] as RuleOf<Stmt> | undefined;
  // Only reachable through a cast around the table's type: still refused, never open.
  if (rule === undefined) return { refused: `The statement ${stmt.kind} has no access rule.` };
  return rule(stmt, session);
}
