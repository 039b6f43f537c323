/**
 * GSQL packages and functions, kept in the catalog: `CREATE PACKAGE lib.sub`, `CREATE FUNCTION
 * lib.sub.f(INT x) RETURNS (INT) { … RETURN …; }`, INSTALL/SHOW/DROP. A function is global (it
 * belongs to no graph) and reads no graph data: its body is checked against an empty graph, and
 * a query calls it like a subquery, `lib.sub.f(3)`. Patterns name several functions: `lib.*`
 * (the package's own), `lib.**` (with its sub-packages'), `**` or ALL (every function).
 */
import type { Catalog, StoredFunction } from '../catalog/types.js';
import type { QueryDef } from '../gsql/ast-query.js';
import { parseQueryText } from '../gsql/parser-query.js';
import { compileSubquery, type CompiledSubquery, type QueryResolver } from './compile-query.js';
import { compileError, QueryRegistryError } from './errors.js';

/** The graph a function's body is checked against: it has no vertex or edge types. */
const NO_GRAPH = '__gsql_function__';

export interface CatalogHolder {
  readonly catalog: Catalog;
  changeCatalog(next: Catalog): Promise<void>;
}

function packagesOf(c: Catalog): string[] {
  return c.packages ?? [];
}

function functionsOf(c: Catalog): StoredFunction[] {
  return c.functions ?? [];
}

function packageOf(name: string): string {
  return name.slice(0, name.lastIndexOf('.'));
}

/** Whether a function or package name matches a target (`lib.f`, `lib.*`, `lib.**`, `**`, `*`). */
export function matches(name: string, target: string): boolean {
  if (target === '**') return true;
  if (target === '*') return !packageOf(name).includes('.');
  if (target.endsWith('.**')) return name.startsWith(target.slice(0, -2));
  if (target.endsWith('.*')) return packageOf(name) === target.slice(0, -2);
  return name === target;
}

export async function createPackage(db: CatalogHolder, name: string): Promise<void> {
  const c = db.catalog;
  if (packagesOf(c).includes(name)) throw new QueryRegistryError(`The package ${name} already exists.`);
  const parent = name.includes('.') ? packageOf(name) : undefined;
  if (parent !== undefined && !packagesOf(c).includes(parent))
    throw new QueryRegistryError(`The package ${parent} does not exist: create it first.`);
  await db.changeCatalog({ ...c, packages: [...packagesOf(c), name] });
}

/** Drops a package with its sub-packages and their functions; returns the packages dropped. */
export async function dropPackage(db: CatalogHolder, name: string): Promise<string[]> {
  const c = db.catalog;
  if (!packagesOf(c).includes(name)) throw new QueryRegistryError(`The package ${name} does not exist.`);
  const inside = (n: string): boolean => n === name || n.startsWith(`${name}.`);
  const dropped = packagesOf(c).filter(inside);
  await db.changeCatalog({
    ...c,
    packages: packagesOf(c).filter((p) => !inside(p)),
    functions: functionsOf(c).filter((f) => !inside(packageOf(f.name))),
  });
  return dropped;
}

/** The packages under `name` (all when absent), and the functions directly in it. */
export function showPackages(c: Catalog, name?: string): { packages: string[]; functions: StoredFunction[] } {
  if (name !== undefined && !packagesOf(c).includes(name))
    throw new QueryRegistryError(`The package ${name} does not exist.`);
  return {
    packages: packagesOf(c).filter((p) => (name === undefined ? !p.includes('.') : packageOf(p) === name)),
    functions: name === undefined ? [] : functionsOf(c).filter((f) => packageOf(f.name) === name),
  };
}

/** CREATE [OR REPLACE] FUNCTION: checks the body, then stores the function (not installed). */
export async function createFunction(db: CatalogHolder, def: QueryDef, orReplace: boolean): Promise<void> {
  const c = db.catalog;
  const pkg = packageOf(def.name);
  if (!packagesOf(c).includes(pkg))
    throw new QueryRegistryError(`The package ${pkg} does not exist: run CREATE PACKAGE ${pkg} first.`);
  if (!def.returns) throw compileError(def.pos, `the function ${def.name} needs RETURNS (type)`);
  if (functionsOf(c).some((f) => f.name === def.name) && !orReplace)
    throw new QueryRegistryError(
      `The function ${def.name} already exists. Use CREATE OR REPLACE FUNCTION to replace it.`,
    );
  const checkCatalog = withNoGraph(c);
  compileSubquery(def, checkCatalog, NO_GRAPH, {
    resolveFunction: functionResolver(checkCatalog, NO_GRAPH, [def.name]),
  });
  const functions = functionsOf(c).filter((f) => f.name !== def.name);
  functions.push({ name: def.name, text: def.text, installed: false });
  await db.changeCatalog({ ...c, functions });
}

function withNoGraph(c: Catalog): Catalog {
  return { ...c, graphs: [...c.graphs, { name: NO_GRAPH, vertexTypes: [], edgeTypes: [] }] };
}

function selected(c: Catalog, target: string): StoredFunction[] {
  const out = functionsOf(c).filter((f) => matches(f.name, target));
  if (out.length === 0 && !target.includes('*'))
    throw new QueryRegistryError(`The function ${target} does not exist.`);
  return out;
}

/** INSTALL FUNCTION: marks the functions installed; returns their names. */
export async function installFunctions(db: CatalogHolder, target: string): Promise<string[]> {
  const c = db.catalog;
  const names = selected(c, target).map((f) => f.name);
  await db.changeCatalog({
    ...c,
    functions: functionsOf(c).map((f) => (names.includes(f.name) ? { ...f, installed: true } : f)),
  });
  return names;
}

export async function dropFunctions(db: CatalogHolder, target: string): Promise<string[]> {
  const c = db.catalog;
  const names = selected(c, target).map((f) => f.name);
  await db.changeCatalog({ ...c, functions: functionsOf(c).filter((f) => !names.includes(f.name)) });
  return names;
}

export function showFunctions(c: Catalog, target = '**'): StoredFunction[] {
  return selected(c, target);
}

const compiled = new WeakMap<Catalog, Map<string, CompiledSubquery>>();

/**
 * Finds the catalog's functions for a query of `graph`, compiled for calling once per catalog; a
 * function that ends up calling itself is refused.
 */
export function functionResolver(
  catalog: Catalog,
  graph: string,
  calling: readonly string[] = [],
): QueryResolver {
  return (name) => {
    const stored = functionsOf(catalog).find((f) => f.name === name);
    if (!stored) return undefined;
    let byKey = compiled.get(catalog);
    if (!byKey) compiled.set(catalog, (byKey = new Map()));
    const key = `${graph}/${name}`;
    const hit = byKey.get(key);
    if (hit) return hit;
    const [stmt] = parseQueryText(stored.text);
    if (stmt?.kind !== 'createFunction')
      throw new QueryRegistryError(`the stored text of ${name} is not a function`);
    if (calling.includes(name))
      throw compileError(
        stmt.fn.pos,
        `the function ${name} calls itself; recursive functions are not supported`,
      );
    const fn = compileSubquery(
      stmt.fn,
      catalog.graphs.some((g) => g.name === graph) ? catalog : withNoGraph(catalog),
      graph,
      {
        resolveFunction: functionResolver(catalog, graph, [...calling, name]),
      },
    );
    byKey.set(key, fn);
    return fn;
  };
}
