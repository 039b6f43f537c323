/**
 * The stored queries of each graph: their text, whether they are installed, and the compiled form
 * of installed ones (compiled once at INSTALL, recompiled only when the schema changed or after a
 * restart). Definitions live in a QueryStore so they can be kept in the durable catalog.
 */
import type { Catalog, StoredQuery } from '../catalog/types.js';
import type { QueryDef } from '../gsql/ast-query.js';
import { parseQueryText } from '../gsql/parser-query.js';
import type { JsonValue } from '../util/json.js';
import {
  compileQuery,
  compileSubquery,
  type CompiledQuery,
  type CompiledSubquery,
  type CompileOptions,
  type QueryResolver,
} from './compile-query.js';
import type { RunOptions } from './context.js';
import type { QueryDatabase } from './graph.js';
import { executeQuery } from './run.js';
import { functionResolver } from './gsql-functions.js';
import { compileError, QueryRegistryError } from './errors.js';
import { QueryRuntimeError } from './values.js';

export type { StoredQuery };
export { QueryRegistryError };

/** Where query definitions are kept (the catalog, once it has a place for them). */
export interface QueryStore {
  list(): readonly StoredQuery[];
  put(q: StoredQuery): Promise<void>;
  remove(graph: string, name: string): Promise<void>;
}

export class MemoryQueryStore implements QueryStore {
  private readonly items: StoredQuery[] = [];
  list(): readonly StoredQuery[] {
    return this.items;
  }
  async put(q: StoredQuery): Promise<void> {
    const i = this.items.findIndex((x) => x.graph === q.graph && x.name === q.name);
    if (i >= 0) this.items[i] = q;
    else this.items.push(q);
  }
  async remove(graph: string, name: string): Promise<void> {
    const i = this.items.findIndex((x) => x.graph === graph && x.name === name);
    if (i >= 0) this.items.splice(i, 1);
  }
}

type CatalogWithQueries = Catalog & { queries: StoredQuery[] };

function hasQueryList(c: Catalog): c is CatalogWithQueries {
  return Array.isArray((c as Partial<CatalogWithQueries>).queries);
}

/**
 * Keeps query definitions in the durable catalog (`catalog.queries`), so they survive a restart and
 * every server component sees the same list. A catalog written before it had a query list reads as
 * having none.
 */
export class CatalogQueryStore implements QueryStore {
  constructor(
    private readonly db: { readonly catalog: Catalog; changeCatalog(next: Catalog): Promise<void> },
  ) {}
  private get current(): CatalogWithQueries {
    const c = this.db.catalog;
    return hasQueryList(c) ? c : { ...c, queries: [] };
  }
  list(): readonly StoredQuery[] {
    return this.current.queries;
  }
  async put(q: StoredQuery): Promise<void> {
    const c = this.current;
    const queries = c.queries.filter((x) => !(x.graph === q.graph && x.name === q.name));
    queries.push(q);
    const next: CatalogWithQueries = { ...c, queries };
    await this.db.changeCatalog(next);
  }
  async remove(graph: string, name: string): Promise<void> {
    const c = this.current;
    const next: CatalogWithQueries = {
      ...c,
      queries: c.queries.filter((x) => !(x.graph === graph && x.name === name)),
    };
    await this.db.changeCatalog(next);
  }
}

function parseDef(text: string): QueryDef {
  const [stmt] = parseQueryText(text);
  if (!stmt || stmt.kind !== 'createQuery')
    throw new QueryRegistryError('the stored query text is not a CREATE QUERY');
  return stmt.query;
}

export class QueryRegistry {
  private readonly compiled = new Map<string, { version: number; query: CompiledQuery }>();

  constructor(readonly store: QueryStore) {}

  private readonly subqueries = new Map<string, { version: number; query: CompiledSubquery }>();

  /**
   * Resolves calls from one query to another stored query of the graph (compiled for calling, once
   * per schema version). A query that ends up calling itself is refused.
   */
  /** What compiling a query of `graph` needs: the stored queries and GSQL functions it may call. */
  options(graph: string, catalog: Catalog, calling: readonly string[] = []): CompileOptions {
    return {
      resolve: this.resolver(graph, catalog, calling),
      resolveFunction: functionResolver(catalog, graph),
    };
  }

  resolver(graph: string, catalog: Catalog, calling: readonly string[] = []): QueryResolver {
    return (name) => {
      const q = this.get(graph, name);
      if (!q) return undefined;
      const key = `${graph}/${name}`;
      const hit = this.subqueries.get(key);
      if (hit && hit.version === catalog.version) return hit.query;
      const def = parseDef(q.text);
      if (calling.includes(name))
        throw compileError(
          def.pos,
          `the query ${name} calls itself; recursive queries are not supported yet`,
        );
      const query = compileSubquery(def, catalog, graph, this.options(graph, catalog, [...calling, name]));
      this.subqueries.set(key, { version: catalog.version, query });
      return query;
    };
  }

  list(graph: string): StoredQuery[] {
    return this.store.list().filter((q) => q.graph === graph);
  }

  get(graph: string, name: string): StoredQuery | undefined {
    return this.store.list().find((q) => q.graph === graph && q.name === name);
  }

  /** CREATE [OR REPLACE] QUERY: checks the query, then stores it (not installed). */
  async create(def: QueryDef, graph: string, catalog: Catalog, orReplace: boolean): Promise<void> {
    if (this.get(graph, def.name) && !orReplace) {
      throw new QueryRegistryError(
        `The query ${def.name} already exists in graph ${graph}. Use CREATE OR REPLACE QUERY to replace it.`,
      );
    }
    compileQuery(def, catalog, graph, this.options(graph, catalog, [def.name]));
    this.compiled.delete(`${graph}/${def.name}`);
    this.subqueries.delete(`${graph}/${def.name}`);
    await this.store.put({ name: def.name, graph, text: def.text, installed: false });
  }

  /** INSTALL QUERY: compiles and keeps the compiled form. Returns the names installed. */
  async install(graph: string, names: string[] | 'all', catalog: Catalog, force: boolean): Promise<string[]> {
    const targets =
      names === 'all'
        ? this.list(graph).filter((q) => force || !q.installed)
        : names.map((n) => this.require(graph, n));
    for (const q of targets) {
      const query = compileQuery(parseDef(q.text), catalog, graph, this.options(graph, catalog, [q.name]));
      this.compiled.set(`${graph}/${q.name}`, { version: catalog.version, query });
      if (!q.installed) await this.store.put({ ...q, installed: true });
    }
    return targets.map((q) => q.name);
  }

  async drop(graph: string, names: string[] | 'all'): Promise<string[]> {
    const targets = names === 'all' ? this.list(graph) : names.map((n) => this.require(graph, n));
    for (const q of targets) {
      this.compiled.delete(`${graph}/${q.name}`);
      this.subqueries.delete(`${graph}/${q.name}`);
      await this.store.remove(graph, q.name);
    }
    return targets.map((q) => q.name);
  }

  require(graph: string, name: string): StoredQuery {
    const q = this.get(graph, name);
    if (!q) throw new QueryRegistryError(`The query ${name} does not exist in graph ${graph}.`);
    return q;
  }

  /** The compiled form of any stored query (installed or not). */
  compile(graph: string, name: string, catalog: Catalog): CompiledQuery {
    const key = `${graph}/${name}`;
    const hit = this.compiled.get(key);
    if (hit && hit.version === catalog.version) return hit.query;
    const q = this.require(graph, name);
    const query = compileQuery(parseDef(q.text), catalog, graph, this.options(graph, catalog, [name]));
    if (q.installed) this.compiled.set(key, { version: catalog.version, query });
    return query;
  }

  /** The compiled form of an installed query; an error when it is not installed. */
  installed(graph: string, name: string, catalog: Catalog): CompiledQuery {
    const q = this.require(graph, name);
    if (!q.installed)
      throw new QueryRegistryError(`The query ${name} is not installed. Run INSTALL QUERY ${name} first.`);
    return this.compile(graph, name, catalog);
  }
}

const registries = new WeakMap<object, QueryRegistry>();

/**
 * The query registry of a database (one per database object): backed by its durable catalog, or by
 * memory for a bare graph without one (tests).
 */
export function registryFor(db: object): QueryRegistry {
  let r = registries.get(db);
  if (!r) {
    const store = isCatalogHolder(db) ? new CatalogQueryStore(db) : new MemoryQueryStore();
    r = new QueryRegistry(store);
    registries.set(db, r);
  }
  return r;
}

function isCatalogHolder(
  db: object,
): db is { readonly catalog: Catalog; changeCatalog(next: Catalog): Promise<void> } {
  const d = db as { catalog?: unknown; changeCatalog?: unknown };
  return typeof d.changeCatalog === 'function' && typeof d.catalog === 'object' && d.catalog !== null;
}

/**
 * Runs an installed query (for REST++ `/query/{graph}/{name}`): `params` are already decoded (see
 * params.ts). Throws QueryRuntimeError (with a code) or QueryRegistryError.
 */
export async function runInstalledQuery(
  db: QueryDatabase,
  graph: string,
  name: string,
  params: Record<string, unknown>,
  opts: RunOptions = {},
): Promise<{ [key: string]: JsonValue }[]> {
  if (!db.catalog.graphs.some((g) => g.name === graph)) {
    throw new QueryRuntimeError(`Graph ${graph} does not exist.`, 'REST-1004');
  }
  const query = registryFor(db).installed(graph, name, db.catalog);
  return (await executeQuery(db, query, params, opts)).results;
}
