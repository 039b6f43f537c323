/**
 * TigerGraph 4.x vertex and edge type endpoints (`/gsql/v1/schema/vertices`, `/gsql/v1/schema/edges`):
 * - GET [?graph]: the types of a graph, or the global types; GET /{name}[?graph]: one of them.
 * - POST ?gsql=true {"gsql": ["CREATE VERTEX …", …]}, POST {"createVertices": [schema objects]}:
 *   new global types; POST ?graph=g {"addVertices": [names]}: global types join graph g.
 * - PUT /{name}[?graph] {"dropAttributes": [names], "addAttributes": [attributes]}: alters a type.
 * - DELETE ?vertex=a,b|all[&graph], DELETE /{name}[?graph]: without a graph, drops global types
 *   (as a global schema change job does: they leave every graph, with the edges that need them);
 *   with a graph, drops its local types and takes global types out of it (they stay global).
 * Adding global types to a graph or taking them out is a global change: it needs WRITE_SCHEMA on
 * the global scope, beyond the graph-scoped row of the route table.
 * Edges are the same with `edge`, `createEdges`, `addEdges`. One request is one catalog change.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createEdgeType, createVertexType, dropEdgeTypes, dropVertexTypes } from '../../catalog/ddl.js';
import { globalTypes, graphTypes } from '../../catalog/lookup.js';
import { addTypesToGraph, dropTypesFromGraph } from '../../catalog/membership.js';
import {
  applySchemaChangeJson,
  edgeTypeFromJson,
  vertexTypeFromJson,
} from '../../catalog/schema-from-json.js';
import { edgeTypeJson, vertexTypeJson } from '../../catalog/schema-json.js';
import type { Catalog, EdgeType, VertexType } from '../../catalog/types.js';
import { edgeFromDecl, vertexFromDecl } from '../../shell/convert.js';
import type { JsonValue } from '../../util/json.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { okEnvelope } from '../http/envelope.js';
import {
  badSchemaRequest,
  bodyObject,
  changeSchema,
  gsqlStatements,
  nameList,
  requireGlobalWriteSchema,
  requiredList,
  scopeGraph,
  type JsonFields,
} from './schema-change.js';

type Target = 'vertex' | 'edge';
type SchemaType = VertexType | EdgeType;

/** What differs between the vertex and the edge endpoints. */
interface TypeKind {
  target: Target;
  path: string;
  createKey: string;
  addKey: string;
  alterKey: string;
  of(types: { vertexTypes: VertexType[]; edgeTypes: EdgeType[] }): SchemaType[];
  json(t: SchemaType): JsonValue;
  fromJson(v: unknown, path: string): SchemaType;
  fromGsql(fields: JsonFields): SchemaType[];
  create(c: Catalog, t: SchemaType): Catalog;
  drop(c: Catalog, names: string[], graph: string | undefined): Catalog;
  created(names: string[]): string;
  added(names: string[], graph: string): string;
  dropped(names: string[]): string;
}

const VERTEX: TypeKind = {
  target: 'vertex',
  path: '/gsql/v1/schema/vertices',
  createKey: 'createVertices',
  addKey: 'addVertices',
  alterKey: 'alterVertexTypes',
  of: (types) => types.vertexTypes,
  json: (t) => vertexTypeJson(t as VertexType),
  fromJson: (v, path) => vertexTypeFromJson(v, path),
  fromGsql: (fields) =>
    gsqlStatements(fields, ['create_vertex'], 'CREATE VERTEX').map((s) =>
      vertexFromDecl(s.vertex, undefined),
    ),
  create: (c, t) => createVertexType(c, t as VertexType),
  drop: (c, names, graph) => dropVertexTypes(c, names, { graph, mode: 'job' }),
  created: (names) => `Successfully create vertices: [${names.join(', ')}]`,
  added: (names, graph) => `Successfully add vertices: [${names.join(', ')}] on graph ${graph}`,
  dropped: (names) => `Vertices [${names.join(', ')}] deleted successfully.`,
};

const EDGE: TypeKind = {
  target: 'edge',
  path: '/gsql/v1/schema/edges',
  createKey: 'createEdges',
  addKey: 'addEdges',
  alterKey: 'alterEdgeTypes',
  of: (types) => types.edgeTypes,
  json: (t) => edgeTypeJson(t as EdgeType),
  fromJson: (v, path) => edgeTypeFromJson(v, path),
  fromGsql: (fields) =>
    gsqlStatements(fields, ['create_edge'], 'CREATE EDGE').map((s) => edgeFromDecl(s.edge, undefined)),
  create: (c, t) => createEdgeType(c, t as EdgeType),
  drop: (c, names, graph) => dropEdgeTypes(c, names, { graph, mode: 'job' }),
  created: (names) => `Successfully create edges: [${names.join(', ')}]`,
  added: (names, graph) => `Successfully added edges [${names.join(', ')}] to graph ${graph}.`,
  dropped: (names) => `Edges [${names.join(', ')}] deleted successfully.`,
};

/** The types in scope: a graph's (global members and local types), or the global ones. */
function typesInScope(kind: TypeKind, catalog: Catalog, graph: string | undefined): SchemaType[] {
  return kind.of(
    graph === undefined ? globalTypes(catalog) : (graphTypes(catalog, graph) ?? globalTypes(catalog)),
  );
}

function oneType(kind: TypeKind, catalog: Catalog, graph: string | undefined, name: string): SchemaType {
  const t = typesInScope(kind, catalog, graph).find((x) => x.name === name);
  if (!t) {
    const where = graph === undefined ? 'among the global types' : `in graph '${graph}'`;
    throw badSchemaRequest(`The ${kind.target} type '${name}' does not exist ${where}.`);
  }
  return t;
}

function message(text: string): { error: false; message: string } {
  return { error: false, message: text };
}

async function post(kind: TypeKind, ctx: ServerContext, request: FastifyRequest): Promise<unknown> {
  const graph = scopeGraph(ctx, request);
  const fields = bodyObject(request);
  if (graph !== undefined) {
    const names = nameList(fields, kind.addKey);
    await requireGlobalWriteSchema(ctx, request);
    await changeSchema(ctx, (c) => addTypesToGraph(c, graph, kind.target, names));
    return message(kind.added(names, graph));
  }
  const gsql = queryOf(request).bool('gsql', false);
  const list = fields[kind.createKey];
  if (!gsql && (!Array.isArray(list) || list.length === 0)) {
    throw badSchemaRequest(
      `The body must be {"${kind.createKey}": [schema objects]}; use gsql=true for GSQL statements, or ` +
        `graph=<graph> with {"${kind.addKey}": [names]} to add global types to a graph.`,
    );
  }
  let types: SchemaType[] = [];
  await changeSchema(ctx, (c) => {
    // Read inside the change, so a malformed type is refused like a broken rule.
    types = gsql
      ? kind.fromGsql(fields)
      : (list as unknown[]).map((v, i) => kind.fromJson(v, `${kind.createKey}[${i}]`));
    return types.reduce((next, t) => kind.create(next, t), c);
  });
  return message(kind.created(types.map((t) => t.name)));
}

async function alter(
  kind: TypeKind,
  ctx: ServerContext,
  request: FastifyRequest,
  name: string,
): Promise<unknown> {
  const graph = scopeGraph(ctx, request);
  const fields = bodyObject(request);
  const unknown = Object.keys(fields).filter((k) => k !== 'dropAttributes' && k !== 'addAttributes');
  if (unknown.length > 0 || Object.keys(fields).length === 0) {
    throw badSchemaRequest(
      `The body must have "dropAttributes" and/or "addAttributes"${unknown.length > 0 ? `, not '${unknown.join("', '")}'` : ''}.`,
    );
  }
  await changeSchema(ctx, (c) => applySchemaChangeJson(c, { [kind.alterKey]: [{ name, ...fields }] }, graph));
  return message(`Successfully update ${kind.target}: ${name}`);
}

/** Drops `names` in scope: see the file header. `all` is every type in scope. */
async function drop(
  kind: TypeKind,
  ctx: ServerContext,
  request: FastifyRequest,
  names: string[],
): Promise<unknown> {
  const graph = scopeGraph(ctx, request);
  const catalog = ctx.db.catalog;
  const targets =
    names.length === 1 && names[0].toLowerCase() === 'all'
      ? typesInScope(kind, catalog, graph).map((t) => t.name)
      : names;
  if (targets.length === 0) throw badSchemaRequest(`There is no ${kind.target} type to drop.`);
  const local = targets.filter(
    (n) => graph !== undefined && oneType(kind, catalog, graph, n).graph === graph,
  );
  const members = targets.filter((n) => !local.includes(n));
  if (graph !== undefined && members.length > 0) await requireGlobalWriteSchema(ctx, request);
  await changeSchema(ctx, (c) => {
    let next = c;
    if (graph !== undefined && members.length > 0)
      next = dropTypesFromGraph(next, graph, kind.target, members);
    if (graph === undefined) next = kind.drop(next, members, undefined);
    if (local.length > 0) next = kind.drop(next, local, graph);
    return next;
  });
  return message(kind.dropped(targets));
}

function register(app: FastifyInstance, ctx: ServerContext, kind: TypeKind): void {
  const cfg = (method: string, suffix = '') => ({
    config: { endpoint: `${method} ${kind.path}${suffix}` },
  });
  const one = '/{name}';
  app.get(kind.path, cfg('GET'), async (r) =>
    okEnvelope(typesInScope(kind, ctx.db.catalog, scopeGraph(ctx, r)).map(kind.json)),
  );
  app.get<{ Params: { name: string } }>(`${kind.path}/:name`, cfg('GET', one), async (r) =>
    okEnvelope(kind.json(oneType(kind, ctx.db.catalog, scopeGraph(ctx, r), r.params.name))),
  );
  app.post(kind.path, cfg('POST'), async (r) => post(kind, ctx, r));
  app.put<{ Params: { name: string } }>(`${kind.path}/:name`, cfg('PUT', one), async (r) =>
    alter(kind, ctx, r, r.params.name),
  );
  app.delete(kind.path, cfg('DELETE'), async (r) => drop(kind, ctx, r, requiredList(r, kind.target)));
  app.delete<{ Params: { name: string } }>(`${kind.path}/:name`, cfg('DELETE', one), async (r) =>
    drop(kind, ctx, r, [r.params.name]),
  );
}

export function registerSchemaTypeRoutes(app: FastifyInstance, ctx: ServerContext): void {
  register(app, ctx, VERTEX);
  register(app, ctx, EDGE);
}
