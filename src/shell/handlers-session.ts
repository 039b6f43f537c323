/** Session and catalog-browsing commands: USE GRAPH|GLOBAL, SET, ls, SHOW VERTEX|EDGE|GRAPH, help. */
import { edgeTypeText, graphText, tupleTypeText, vertexTypeText } from '../catalog/ddl-text.js';
import { findGraph, globalTypes, graphJobs, graphTypes } from '../catalog/lookup.js';
import type { Catalog } from '../catalog/types.js';
import { ShellError, type HandlerTable, type ShellContext } from './context.js';
import { helpText } from './help-text.js';
import { queryListing } from './query-list.js';

function scopeTypes(catalog: Catalog, graph: string | undefined) {
  return graph === undefined ? globalTypes(catalog) : (graphTypes(catalog, graph) ?? globalTypes(catalog));
}

function list(ctx: ShellContext): void {
  const catalog = ctx.store.catalog;
  const graph = ctx.session.graph;
  const types = scopeTypes(catalog, graph);
  ctx.print(graph === undefined ? '---- Global vertices, edges, and all graphs' : `---- Graph ${graph}`);
  ctx.print('Vertex Types:');
  for (const v of types.vertexTypes) ctx.print(`  - ${vertexTypeText(v)}`);
  ctx.print('Edge Types:');
  for (const e of types.edgeTypes) ctx.print(`  - ${edgeTypeText(e)}`);
  ctx.print('');
  ctx.print('Graphs:');
  for (const g of catalog.graphs)
    if (graph === undefined || g.name === graph) ctx.print(`  - ${graphText(g)}`);
  ctx.print('Jobs:');
  for (const j of graphJobs(catalog, graph)) ctx.print(`  - ${j.text.replace(/\n/g, '\n    ')}`);
  if (graph === undefined) {
    if (catalog.tuples.length > 0) {
      ctx.print('Tuples:');
      for (const t of catalog.tuples) ctx.print(`  - ${tupleTypeText(t)}`);
    }
    ctx.print('');
    ctx.print('JSON API version: v2');
    ctx.print('Syntax version: v2');
  } else {
    ctx.print('Queries:');
    for (const line of queryListing(ctx.store, graph)) ctx.print(line);
    ctx.print('');
  }
}

/** A glob pattern of SHOW (`*` any run of characters, `?` one character) as a RegExp. */
function globRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/**
 * What SHOW lists for its names: each plain name's item, each glob's matches (none is no error),
 * in catalog order within a glob; `missing` is the first plain name with no item.
 */
function shownByName<T extends { name: string }>(
  items: readonly T[],
  names: readonly string[],
): { found: T[]; missing?: string } {
  const found: T[] = [];
  for (const n of names) {
    if (/[*?]/.test(n)) {
      const re = globRegExp(n);
      found.push(...items.filter((t) => re.test(t.name)));
      continue;
    }
    const item = items.find((t) => t.name === n);
    if (!item) return { found, missing: n };
    found.push(item);
  }
  return { found };
}

export const sessionHandlers: Pick<
  HandlerTable,
  'use_graph' | 'use_global' | 'set' | 'ls' | 'help' | 'show' | 'unsupported'
> = {
  async use_graph(s, ctx) {
    if (!findGraph(ctx.store.catalog, s.name)) {
      // Names are case-sensitive in GSQL (tutorials spell the same graph Social and social).
      const lower = s.name.toLowerCase();
      const near = ctx.store.catalog.graphs.find((g) => g.name.toLowerCase() === lower);
      const hint = near ? ` Graph names are case-sensitive: did you mean '${near.name}'?` : '';
      throw new ShellError(`Graph '${s.name}' does not exist.${hint}`, s);
    }
    ctx.session.graph = s.name;
    ctx.print(`Using graph '${s.name}'`);
  },

  async use_global(_s, ctx) {
    delete ctx.session.graph;
    ctx.print('Using global graph');
  },

  async set(s, ctx) {
    ctx.settings.set(s.name.toLowerCase(), s.value.text);
  },

  async ls(_s, ctx) {
    list(ctx);
  },

  async help(s, ctx) {
    ctx.print(helpText(s.topic));
  },

  async show(s, ctx) {
    const catalog = ctx.store.catalog;
    if (s.what === 'graph') {
      const { found, missing } =
        s.names === '*' ? { found: catalog.graphs } : shownByName(catalog.graphs, s.names);
      if (missing !== undefined) throw new ShellError(`Graph '${missing}' does not exist.`, s);
      for (const g of found) ctx.print(`  - ${graphText(g)}`);
      return;
    }
    const types = scopeTypes(catalog, ctx.session.graph);
    const all =
      s.what === 'vertex'
        ? types.vertexTypes.map((v) => ({ name: v.name, text: vertexTypeText(v) }))
        : types.edgeTypes.map((e) => ({ name: e.name, text: edgeTypeText(e) }));
    const { found, missing } = s.names === '*' ? { found: all } : shownByName(all, s.names);
    if (missing !== undefined) {
      const where =
        ctx.session.graph === undefined ? 'among global types' : `in graph '${ctx.session.graph}'`;
      throw new ShellError(`The ${s.what} type '${missing}' does not exist ${where}.`, s);
    }
    for (const t of found) ctx.print(`  - ${t.text}`);
  },

  async unsupported(s, _ctx) {
    throw new ShellError(`${s.feature} is not supported yet.`, s, undefined, false);
  },
};
