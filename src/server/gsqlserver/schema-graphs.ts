/**
 * TigerGraph 4.x graph endpoints:
 * - GET /gsql/v1/schema/graphs: every graph with the names of its vertex and edge types (reverse
 *   edges listed after their edge), under the top-level `graphs` key pyTigerGraph reads.
 * - POST /gsql/v1/schema/graphs?graphName=G&gsql=true {"gsql": "CREATE GRAPH G(…)"}, or without
 *   gsql {"VertexTypes": [names], "EdgeTypes": [names]}: a graph of global types.
 * - DELETE /gsql/v1/schema/graphs/{G}[?cascade=true] and DELETE ?graphNames=a,b|all: without
 *   cascade a graph that still has queries or loading jobs is refused; with it they go too. A
 *   dropped graph takes its local types, jobs, queries and the grants, secrets and tokens on it.
 * (GET /gsql/v1/schema/graphs/{G}, the schema of one graph, is in schema.ts.)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createGraph, dropGraph } from '../../catalog/ddl.js';
import { findGraph } from '../../catalog/lookup.js';
import type { Catalog, GraphDef } from '../../catalog/types.js';
import { withoutGraphSecurity } from '../../shell/handlers-ddl.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { RestError } from '../http/envelope.js';
import { badSchemaRequest, bodyObject, changeSchema, gsqlStatements, requiredList } from './schema-change.js';

function graphSummary(
  catalog: Catalog,
  g: GraphDef,
): { graphName: string; vertices: string[]; edges: string[] } {
  const edges: string[] = [];
  for (const name of g.edgeTypes) {
    edges.push(name);
    const reverse = catalog.edgeTypes.find((e) => e.name === name)?.reverseEdge;
    if (reverse !== undefined) edges.push(reverse);
  }
  return { graphName: g.name, vertices: [...g.vertexTypes], edges };
}

function typeNames(value: unknown, key: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((n) => typeof n !== 'string' || n === '')) {
    throw badSchemaRequest(`'${key}' must be a JSON array of type names.`);
  }
  return value as string[];
}

async function create(ctx: ServerContext, request: FastifyRequest): Promise<unknown> {
  const q = queryOf(request);
  const fields = bodyObject(request);
  let name = q.get('graphName');
  let members: '*' | string[];
  if (q.bool('gsql', false)) {
    const [stmt, ...rest] = gsqlStatements(fields, ['create_graph'], 'CREATE GRAPH');
    if (rest.length > 0) throw badSchemaRequest('Create one graph per request.');
    if (name !== undefined && name !== '' && name !== stmt.name) {
      throw badSchemaRequest(`graphName=${name} does not match the graph '${stmt.name}' of the statement.`);
    }
    name = stmt.name;
    members = stmt.members === '*' ? '*' : stmt.members.map((m) => m.name);
  } else {
    if (name === undefined || name === '')
      throw new RestError('REST-30001', "The parameter 'graphName' is required.");
    members = [...typeNames(fields.VertexTypes, 'VertexTypes'), ...typeNames(fields.EdgeTypes, 'EdgeTypes')];
  }
  const graph = name;
  await changeSchema(ctx, (c) => createGraph(c, graph, members));
  return { error: false, message: `Successfully created graph: [${graph}].` };
}

/** Drops `names` in one change; see the file header for cascade. */
async function drop(ctx: ServerContext, request: FastifyRequest, names: string[]): Promise<string[]> {
  const catalog = ctx.db.catalog;
  const all = names.length === 1 && names[0].toLowerCase() === 'all';
  const targets = all ? catalog.graphs.map((g) => g.name) : names;
  for (const n of targets) {
    if (!findGraph(catalog, n)) throw badSchemaRequest(`The graph ${n} does not exist.`);
  }
  if (!queryOf(request).bool('cascade', false)) {
    for (const n of targets) {
      const queries = (catalog.queries ?? []).filter((q) => q.graph === n).length;
      const jobs = catalog.jobs.filter((j) => j.graph === n && j.kind === 'loading').length;
      if (queries + jobs > 0) {
        throw badSchemaRequest(
          `The graph ${n} still has ${queries} queries and ${jobs} loading jobs; drop them first, or use cascade=true.`,
        );
      }
    }
  }
  await changeSchema(ctx, (c) =>
    withoutGraphSecurity(
      targets.reduce((next, n) => dropGraph(next, n), c),
      targets,
    ),
  );
  return targets;
}

export function registerSchemaGraphRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const cfg = (endpoint: string) => ({ config: { endpoint } });
  const path = '/gsql/v1/schema/graphs';
  app.get(path, cfg(`GET ${path}`), async () => ({
    graphs: ctx.db.catalog.graphs.map((g) => graphSummary(ctx.db.catalog, g)),
    error: false,
    message: '',
  }));
  app.post(path, cfg(`POST ${path}`), async (r) => create(ctx, r));
  app.delete<{ Params: { graph: string } }>(
    `${path}/:graph`,
    cfg(`DELETE ${path}/{graph_name}`),
    async (r) => {
      const [name] = await drop(ctx, r, [r.params.graph]);
      return { error: false, message: `Successfully dropped graph: ${name}.` };
    },
  );
  app.delete(path, cfg(`DELETE ${path}`), async (r) => {
    const names = await drop(ctx, r, requiredList(r, 'graphNames'));
    return { error: false, message: `Successfully dropped graphs: [${names.join(', ')}].` };
  });
}
