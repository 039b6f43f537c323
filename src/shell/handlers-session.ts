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
      const graphs = s.names === '*' ? catalog.graphs : s.names.map((n) => findGraph(catalog, n));
      graphs.forEach((g, i) => {
        if (!g) throw new ShellError(`Graph '${(s.names as string[])[i]}' does not exist.`, s);
      });
      for (const g of graphs) if (g) ctx.print(`  - ${graphText(g)}`);
      return;
    }
    const types = scopeTypes(catalog, ctx.session.graph);
    const all =
      s.what === 'vertex'
        ? types.vertexTypes.map((v) => ({ name: v.name, text: vertexTypeText(v) }))
        : types.edgeTypes.map((e) => ({ name: e.name, text: edgeTypeText(e) }));
    const shown = s.names === '*' ? all : s.names.map((n) => all.find((t) => t.name === n));
    shown.forEach((t, i) => {
      if (!t) {
        const where =
          ctx.session.graph === undefined ? 'among global types' : `in graph '${ctx.session.graph}'`;
        throw new ShellError(`The ${s.what} type '${(s.names as string[])[i]}' does not exist ${where}.`, s);
      }
    });
    for (const t of shown) if (t) ctx.print(`  - ${t.text}`);
  },

  async unsupported(s, _ctx) {
    throw new ShellError(`${s.feature} is not supported yet.`, s, undefined, false);
  },
};
