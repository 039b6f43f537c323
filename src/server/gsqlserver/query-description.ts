/**
 * Query descriptions: GET|PUT|DELETE /gsql/v1/description?graph (4.1+) and the same on
 * /gsqlserver/gsql/description (4.0). PUT takes {"queries":[{"queryName","description",
 * "parameters":[{"paramName","description"}]}]}; GET ?query=a,b|all answers
 * results.queries = [{queryName, description?, parameters:[{paramName, description}]}] with the
 * described parameters in declaration order; DELETE takes {"queries":[names], "queryParameters":
 * ["q.p" or "q.*"]}. Descriptions are kept in memory for the life of the server (they are not part
 * of the durable catalog yet) and are forgotten with their query.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../engine/database.js';
import type { JsonValue } from '../../util/json.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { jsonBody } from '../http/body.js';
import { okEnvelope, RestError } from '../http/envelope.js';
import { definitionOf, graphParam, storedQuery } from './query-info.js';
import { registryFor } from '../../query/index.js';

interface Described {
  /** The query text described: a dropped and re-created query starts without descriptions. */
  text: string;
  description?: string;
  params: Map<string, string>;
}

const stores = new WeakMap<Database, Map<string, Described>>();

function storeOf(db: Database): Map<string, Described> {
  let s = stores.get(db);
  if (!s) stores.set(db, (s = new Map()));
  return s;
}

function bad(message: string): RestError {
  return new RestError('REST-30000', message);
}

function array(v: JsonValue | undefined, what: string): JsonValue[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw bad(`'${what}' must be an array.`);
  return v;
}

function str(v: JsonValue | undefined, what: string): string {
  if (typeof v !== 'string') throw bad(`'${what}' must be a string.`);
  return v;
}

function object(v: JsonValue | undefined, what: string): { [key: string]: JsonValue } {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad(`${what} must be a JSON object.`);
  return v as { [key: string]: JsonValue };
}

function paramNames(ctx: ServerContext, graph: string, name: string): string[] {
  return definitionOf(storedQuery(ctx, graph, name, 'queryName')).params.map((p) => p.name);
}

/** The descriptions of a query, if they were given for its current text. */
function described(ctx: ServerContext, graph: string, name: string): Described | undefined {
  const d = storeOf(ctx.db).get(`${graph}/${name}`);
  return d && d.text === storedQuery(ctx, graph, name, 'queryName').text ? d : undefined;
}

function put(ctx: ServerContext, request: FastifyRequest): unknown {
  const graph = graphParam(ctx, request);
  const body = object(jsonBody(request), 'The request body');
  const updates: [string, Described][] = [];
  const store = storeOf(ctx.db);
  for (const [i, item] of array(body.queries, 'queries').entries()) {
    const q = object(item, `queries[${i}]`);
    const name = str(q.queryName, `queries[${i}].queryName`);
    const declared = paramNames(ctx, graph, name);
    const prev = described(ctx, graph, name);
    const text = storedQuery(ctx, graph, name, 'queryName').text;
    const next: Described = { text, description: prev?.description, params: new Map(prev?.params) };
    if (q.description !== undefined) next.description = str(q.description, `queries[${i}].description`);
    for (const [j, p] of array(q.parameters, `queries[${i}].parameters`).entries()) {
      const po = object(p, `queries[${i}].parameters[${j}]`);
      const pname = str(po.paramName, `queries[${i}].parameters[${j}].paramName`);
      if (!declared.includes(pname)) throw bad(`The query ${name} has no parameter ${pname}.`);
      next.params.set(pname, str(po.description, `queries[${i}].parameters[${j}].description`));
    }
    updates.push([`${graph}/${name}`, next]);
  }
  // Checked as a whole first: a bad entry changes nothing.
  for (const [k, v] of updates) store.set(k, v);
  return okEnvelope([], 'Successfully updated descriptions.');
}

function get(ctx: ServerContext, request: FastifyRequest): unknown {
  const graph = graphParam(ctx, request);
  const asked = queryOf(request).list('query');
  const all = asked.length === 0 || asked.some((n) => n.toLowerCase() === 'all');
  const names = all
    ? registryFor(ctx.db)
        .list(graph)
        .map((q) => q.name)
    : asked;
  const queries = names.map((name) => {
    const declared = paramNames(ctx, graph, name);
    const d = described(ctx, graph, name);
    return {
      queryName: name,
      ...(d?.description !== undefined ? { description: d.description } : {}),
      parameters: declared
        .filter((p) => d?.params.has(p))
        .map((p) => ({ paramName: p, description: d?.params.get(p) ?? '' })),
    };
  });
  return okEnvelope({ queries });
}

function drop(ctx: ServerContext, request: FastifyRequest): unknown {
  const graph = graphParam(ctx, request);
  const body = object(jsonBody(request) ?? {}, 'The request body');
  const queries = array(body.queries, 'queries').map((v, i) => str(v, `queries[${i}]`));
  const params = array(body.queryParameters, 'queryParameters').map((v, i) => {
    const text = str(v, `queryParameters[${i}]`);
    const dot = text.indexOf('.');
    if (dot <= 0) throw bad(`queryParameters[${i}] must be <query>.<parameter> or <query>.*`);
    return [text.slice(0, dot), text.slice(dot + 1)] as const;
  });
  for (const n of queries) paramNames(ctx, graph, n);
  for (const [q, p] of params) {
    if (p !== '*' && !paramNames(ctx, graph, q).includes(p))
      throw bad(`The query ${q} has no parameter ${p}.`);
  }
  for (const n of queries) {
    const d = described(ctx, graph, n);
    if (d) d.description = undefined;
  }
  for (const [q, p] of params) {
    const d = described(ctx, graph, q);
    if (!d) continue;
    if (p === '*') d.params.clear();
    else d.params.delete(p);
  }
  return okEnvelope([], 'Successfully dropped descriptions.');
}

export function registerQueryDescriptionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  for (const url of ['/gsql/v1/description', '/gsqlserver/gsql/description']) {
    const cfg = (m: string) => ({ config: { endpoint: `${m} ${url}` } });
    app.get(url, cfg('GET'), async (r) => get(ctx, r));
    app.put(url, cfg('PUT'), async (r) => put(ctx, r));
    app.delete(url, cfg('DELETE'), async (r) => drop(ctx, r));
  }
}
