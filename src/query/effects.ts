/**
 * What a query does to the graph's data, read from its syntax tree: whether it inserts (INSERT
 * INTO), updates (UPDATE … SET, an attribute assignment) or deletes (DELETE), itself or through
 * any query it calls. The caller's CREATE_DATA, UPDATE_DATA and DELETE_DATA are checked against
 * this before a query runs.
 *
 * The walk is structural: it descends into every object of the tree, so a construct added to the
 * grammar later is still searched. It errs towards more writes, never fewer: every called name
 * that is a stored query of the graph counts (even where a built-in of that name wins), and
 * `evaluate()` of a string that is not a literal may call any stored query of the graph.
 */
import type { DataWrite } from '../auth/query-access.js';
import type { QueryDef } from '../gsql/ast-query.js';
import { GsqlSyntaxError, tokenize } from '../gsql/lexer.js';
import { parseExpr, TokenCursor } from '../gsql/parser-expr.js';
import { parseQueryText } from '../gsql/parser-query.js';
import type { QueryRegistry } from './registry.js';

export type { DataWrite };

/** A query's own writes and the names it calls (other queries among them). */
interface DirectEffects {
  writes: Set<DataWrite>;
  /** The query's virtual edge types: inserting into them writes nothing to the graph. */
  virtualEdges?: Set<string>;
  calls: Set<string>;
  /** evaluate() of a computed string: it may call any query. */
  dynamic: boolean;
}

type Node = { readonly [key: string]: unknown };

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null;
}

function visit(v: unknown, out: DirectEffects): void {
  if (Array.isArray(v)) {
    for (const item of v) visit(item, out);
    return;
  }
  if (!isNode(v)) return;
  switch (v.kind) {
    case 'insert':
      if (!out.virtualEdges?.has(v.typeName as string)) out.writes.add('insert');
      break;
    case 'update':
      out.writes.add('update');
      break;
    case 'delete':
      // DELETE s FROM … and DELETE (x) are statements (the expression grammar has no delete).
      out.writes.add('delete');
      break;
    case 'assign':
      // Assignments to `x.attr` change a vertex's or an edge's attribute (accumulators are `@`).
      if (isNode(v.target) && v.target.kind === 'field') out.writes.add('update');
      break;
    case 'call':
      if (typeof v.name === 'string') callEffects(v.name, v.args, out);
      break;
  }
  for (const key of Object.keys(v)) visit(v[key], out);
}

function callEffects(name: string, args: unknown, out: DirectEffects): void {
  if (name.toLowerCase() !== 'evaluate') {
    out.calls.add(name);
    return;
  }
  const first = Array.isArray(args) ? (args[0] as unknown) : undefined;
  if (!isNode(first) || first.kind !== 'string' || typeof first.value !== 'string') {
    out.dynamic = true;
    return;
  }
  try {
    visit(parseExpr(TokenCursor.of(first.value, tokenize(first.value))), out);
  } catch (e) {
    // A string that is no expression fails when it runs; it calls nothing.
    if (!(e instanceof GsqlSyntaxError)) throw e;
  }
}

/** The names of the virtual edge types a query body declares. */
function collectVirtualEdges(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) {
    for (const item of v) collectVirtualEdges(item, out);
    return;
  }
  if (!isNode(v)) return;
  if (v.kind === 'createVirtualEdge' && typeof v.name === 'string') out.add(v.name);
  for (const key of Object.keys(v)) collectVirtualEdges(v[key], out);
}

function directEffects(def: QueryDef): DirectEffects {
  const out: DirectEffects = { writes: new Set(), calls: new Set(), dynamic: false };
  const virtualEdges = new Set<string>();
  collectVirtualEdges(def.body, virtualEdges);
  if (virtualEdges.size > 0) out.virtualEdges = virtualEdges;
  visit(def.body, out);
  visit(def.params, out);
  return out;
}

/** Stored query texts already analysed (texts are immutable; a replaced query has a new one). */
const byText = new Map<string, DirectEffects>();
const MAX_CACHED = 4096;

function storedEffects(text: string): DirectEffects {
  let hit = byText.get(text);
  if (!hit) {
    const [stmt] = parseQueryText(text);
    hit =
      stmt?.kind === 'createQuery'
        ? directEffects(stmt.query)
        : { writes: new Set<DataWrite>(), calls: new Set<string>(), dynamic: false };
    if (byText.size >= MAX_CACHED) byText.clear();
    byText.set(text, hit);
  }
  return hit;
}

/** The stored queries of the graph the query runs in: name -> CREATE QUERY text. */
export interface StoredQueries {
  text(name: string): string | undefined;
  names(): Iterable<string>;
}

/** The stored queries of `graph` in a registry. */
export function storedQueriesOf(registry: QueryRegistry, graph: string): StoredQueries {
  return {
    text: (name) => registry.get(graph, name)?.text,
    names: () => registry.list(graph).map((q) => q.name),
  };
}

function transitive(self: string, start: DirectEffects, stored: StoredQueries): Set<DataWrite> {
  const writes = new Set<DataWrite>();
  const seen = new Set<string>([self]);
  const pending: DirectEffects[] = [start];
  for (let e = pending.pop(); e !== undefined; e = pending.pop()) {
    for (const w of e.writes) writes.add(w);
    const callees = e.dynamic ? [...e.calls, ...stored.names()] : e.calls;
    for (const name of callees) {
      if (seen.has(name)) continue;
      seen.add(name);
      const text = stored.text(name);
      if (text !== undefined) pending.push(storedEffects(text));
    }
  }
  return writes;
}

/**
 * Everything `def` writes when it runs, through the queries it calls too (their stored texts, as
 * they are compiled for the call).
 */
export function queryWrites(def: QueryDef, stored: StoredQueries): Set<DataWrite> {
  return transitive(def.name, directEffects(def), stored);
}

/** queryWrites of a stored query, by name (nothing when there is no such query). */
export function storedQueryWrites(name: string, stored: StoredQueries): Set<DataWrite> {
  const text = stored.text(name);
  return text === undefined ? new Set() : transitive(name, storedEffects(text), stored);
}
