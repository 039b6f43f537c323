/** Top-level schema statements: CREATE VERTEX|EDGE|GRAPH, TYPEDEF TUPLE, DROP …, CLEAR GRAPH STORE. */
import {
  createEdgeType,
  createGraph,
  createTupleType,
  createVertexType,
  dropAll,
  dropEdgeTypes,
  dropGraph,
  dropTupleTypes,
  dropVertexTypes,
} from '../catalog/ddl.js';
import { forgetGraphs } from '../auth/graph-drop.js';
import { CatalogError } from '../catalog/errors.js';
import { findGraph } from '../catalog/lookup.js';
import type { Catalog } from '../catalog/types.js';
import { ShellError, type HandlerTable, type ShellContext } from './context.js';
import { edgeFromDecl, tupleFromDecl, vertexFromDecl } from './convert.js';

/** A dropped graph takes its grants, local roles, secrets and tokens with it. */
export function withoutGraphSecurity(c: Catalog, graphs: readonly string[]): Catalog {
  return c.security ? { ...c, security: forgetGraphs(c.security, graphs) } : c;
}

/** Applies `change` to the current catalog and stores the result; a failure prints `failure` too. */
async function apply(
  ctx: ShellContext,
  pos: { line: number; column: number },
  change: (c: Catalog) => Catalog,
  failure?: string,
): Promise<void> {
  let next: Catalog;
  try {
    next = change(ctx.store.catalog);
  } catch (e) {
    if (e instanceof CatalogError || e instanceof ShellError) {
      const msg = e.message + (failure ? `\n${failure}` : '');
      throw new ShellError(msg, e instanceof ShellError && e.pos ? e.pos : pos);
    }
    throw e;
  }
  await ctx.store.changeCatalog(next);
}

export const ddlHandlers: Pick<
  HandlerTable,
  | 'create_vertex'
  | 'create_edge'
  | 'typedef_tuple'
  | 'create_graph'
  | 'drop_graph'
  | 'drop_all'
  | 'clear_graph_store'
  | 'drop_vertex'
  | 'drop_edge'
  | 'drop_tuple'
> = {
  async create_vertex(s, ctx) {
    const name = s.vertex.name;
    await apply(
      ctx,
      s,
      (c) => createVertexType(c, vertexFromDecl(s.vertex, undefined)),
      `Failed to create vertex types: [${name}].`,
    );
    ctx.print(`Successfully created vertex types: [${name}].`);
  },

  async create_edge(s, ctx) {
    const name = s.edge.name;
    await apply(
      ctx,
      s,
      (c) => createEdgeType(c, edgeFromDecl(s.edge, undefined)),
      `Failed to create edge types: [${name}].`,
    );
    ctx.print(`Successfully created edge types: [${name}].`);
  },

  async typedef_tuple(s, ctx) {
    await apply(ctx, s, (c) => createTupleType(c, tupleFromDecl(s.name, s.fields)));
    ctx.print(`Successfully created tuple types: [${s.name}].`);
  },

  async create_graph(s, ctx) {
    await apply(
      ctx,
      s,
      (c) => createGraph(c, s.name, s.members === '*' ? '*' : s.members.map((m) => m.name)),
      `The graph ${s.name} could not be created!`,
    );
    ctx.print(`The graph ${s.name} is created.`);
    // The gsql shell continues in the new graph, so a script can define its schema right away.
    ctx.session.graph = s.name;
  },

  async drop_graph(s, ctx) {
    if (!findGraph(ctx.store.catalog, s.name)) {
      throw new ShellError(`The graph ${s.name} does not exist.`, s);
    }
    await apply(ctx, s, (c) => withoutGraphSecurity(dropGraph(c, s.name), [s.name]));
    if (ctx.session.graph === s.name) delete ctx.session.graph;
    ctx.print(`The graph ${s.name} is dropped.`);
  },

  async drop_all(_s, ctx) {
    ctx.print('Dropping all, about 1 minute ...');
    await ctx.store.clearGraphStore();
    const before = ctx.store.catalog;
    await ctx.store.changeCatalog(
      withoutGraphSecurity(
        dropAll(before),
        before.graphs.map((g) => g.name),
      ),
    );
    delete ctx.session.graph;
    ctx.print('Everything is dropped.');
  },

  async clear_graph_store(_s, ctx) {
    await ctx.store.clearGraphStore();
    ctx.print('Successfully cleared graph store.');
  },

  async drop_vertex(s, ctx) {
    await apply(ctx, s, (c) => dropVertexTypes(c, s.names, { mode: 'statement' }));
    ctx.print(`Successfully dropped vertex types: [${s.names.join(', ')}].`);
  },

  async drop_edge(s, ctx) {
    await apply(ctx, s, (c) => dropEdgeTypes(c, s.names, { mode: 'statement' }));
    ctx.print(`Successfully dropped edge types: [${s.names.join(', ')}].`);
  },

  async drop_tuple(s, ctx) {
    await apply(ctx, s, (c) => dropTupleTypes(c, s.names));
    ctx.print(`Successfully dropped tuple types: [${s.names.join(', ')}].`);
  },
};
