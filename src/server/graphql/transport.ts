/**
 * GraphQL over HTTP for both listeners: decoding a request (POST JSON `{query, variables,
 * operationName, extensions}` or an array of them — a batch, answered by an array in the same
 * order, as Apollo's BatchHttpLink expects —, POST `application/graphql` text, GET query
 * parameters) and answering with the service's JSON text. The request's limits come from the
 * caller's roles (see config.ts), its timeout from GSQL-TIMEOUT (16 s by default); it stops when
 * the client goes away. Write privileges of mutations are checked per mutation against the caller
 * the listener authenticated.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/authorize.js';
import type { Privilege } from '../../auth/privileges.js';
import { forbidden } from '../../auth/errors.js';
import { AuthService, type CatalogHolder } from '../../auth/service.js';
import {
  GraphQLService,
  type ExecuteOptions,
  type GraphQLAnswer,
  type GraphQLLimits,
  type GraphQLRequest,
  type WriteKind,
} from '../../graphql/index.js';
import { JsonSyntaxError, parseJsonStrict } from '../../util/json-parse.js';
import type { ServerContext } from '../context.js';
import { textBody } from '../http/body.js';
import { requestTimeoutMs } from '../http/limits.js';
import { poolFor, type QueryPool, TaskStopped } from '../../workers/index.js';
import type { GraphqlCall, GraphqlOutcome } from '../workers/calls.js';
import { limitsFor, serviceOptions } from './config.js';

/** Past the request's deadline, a worker that has not stopped by itself is stopped. */
const BACKSTOP_MS = 1000;

/** Runs a GraphQL query on a worker; a stopped worker answers as the service does for a timeout. */
async function onWorker(pool: QueryPool, call: GraphqlCall, deadline: number): Promise<GraphqlOutcome> {
  try {
    const r = await pool.run(
      { kind: 'call', fn: 'graphql', input: call },
      { deadline: deadline + BACKSTOP_MS },
    );
    if (r.kind !== 'call') throw new Error('a worker call answered something else');
    return r.output as GraphqlOutcome;
  } catch (e) {
    if (!(e instanceof TaskStopped)) throw e;
    const message =
      e.reason === 'timeout'
        ? `The request did not finish within its timeout of ${call.timeoutMs} ms.`
        : e.message;
    return { answer: { status: 200, text: JSON.stringify({ errors: [{ message }] }) }, cost: call.cost };
  }
}

const services = new WeakMap<ServerContext, GraphQLService>();

/** The one GraphQL service of a server (its listeners share its schema, document and plan caches). */
export function serviceOf(ctx: ServerContext): GraphQLService {
  let s = services.get(ctx);
  if (!s) services.set(ctx, (s = new GraphQLService(ctx.db, serviceOptions(ctx.graphql))));
  return s;
}

const WRITE_PRIVILEGES: Record<WriteKind, Privilege[]> = {
  insert: ['CREATE_DATA', 'UPDATE_DATA'],
  delete: ['DELETE_DATA'],
};

/** Requests one batch may hold. */
export const MAX_BATCH = 100;

class BadRequest extends Error {}

function parseJsonText(text: string, what: string): unknown {
  try {
    return parseJsonStrict(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new BadRequest(`${what} is not valid JSON: ${e.message}`);
    throw e;
  }
}

function isRequestObject(v: unknown): v is GraphQLRequest {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether a POST body is GraphQL text (`application/graphql`) rather than JSON. */
function isGraphqlText(request: FastifyRequest): boolean {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  return type.startsWith('application/graphql') && !type.startsWith('application/graphql-response');
}

/** Longest request text remembered as a point lookup's key. */
const MAX_POINT_KEY = 4096;

/**
 * The exact text of a request's GraphQL content, which decodeRequest reads and nothing else: the
 * query string of a GET, the body of a POST (its bytes one character each, so no decoding is
 * needed) marked by how it is read. Equal keys decode to equal requests. Undefined when too long.
 */
function pointKeyOf(request: FastifyRequest): string | undefined {
  if (request.method === 'GET') {
    const url = request.raw.url ?? '';
    const q = url.indexOf('?');
    return q < 0 || url.length - q > MAX_POINT_KEY ? undefined : `q${url.slice(q + 1)}`;
  }
  const body = request.body;
  if (!Buffer.isBuffer(body) || body.length > MAX_POINT_KEY) return undefined;
  return (isGraphqlText(request) ? 'g' : 'j') + body.toString('latin1');
}

/** The GraphQL request (or batch) an HTTP request carries. */
export function decodeRequest(request: FastifyRequest): GraphQLRequest | GraphQLRequest[] {
  if (request.method === 'GET') {
    // GraphQL over HTTP form-encodes GET parameters (`+` is a space, as URLSearchParams writes it),
    // unlike REST++'s query strings, where a `+` stays a plus.
    const url = request.raw.url ?? '';
    const mark = url.indexOf('?');
    const q = new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1));
    const get = (name: string) => q.get(name) ?? undefined;
    const json = (name: string) => {
      const v = get(name);
      return v === undefined || v === '' ? undefined : parseJsonText(v, `"${name}"`);
    };
    return {
      query: get('query'),
      variables: json('variables'),
      operationName: get('operationName') || undefined,
      extensions: json('extensions'),
    };
  }
  const text = textBody(request);
  if (isGraphqlText(request)) return { query: text };
  if (text.trim() === '') return {};
  const body = parseJsonText(text, 'The request body');
  if (Array.isArray(body)) {
    if (body.length === 0 || body.length > MAX_BATCH || !body.every(isRequestObject)) {
      throw new BadRequest(`A batch must be an array of 1 to ${MAX_BATCH} request objects.`);
    }
    return body;
  }
  if (!isRequestObject(body)) {
    throw new BadRequest(
      'The request body must be a JSON object {"query": …, "variables": …, "operationName": …} or an array of them.',
    );
  }
  return body;
}

function send(reply: FastifyReply, a: GraphQLAnswer): FastifyReply {
  return reply.code(a.status).type('application/json; charset=utf-8').send(a.text);
}

/**
 * Serves one GraphQL HTTP request for `graph` on behalf of `principal`. A point lookup whose exact
 * request text was answered before is answered at once (GraphQLService.answerPoint), with nothing
 * decoded, prepared or planned, and undefined is returned (the reply is sent); everything else is
 * served by serveRequest.
 */
export function serveGraphql(
  ctx: ServerContext,
  graph: string,
  principal: Principal | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> | undefined {
  const service = serviceOf(ctx);
  const limits = limitsFor(ctx.graphql, ctx.db.catalog, principal?.user, graph, service.limits);
  const pointKey = pointKeyOf(request);
  if (pointKey !== undefined) {
    const text = service.answerPoint(graph, pointKey, limits);
    if (text !== undefined) {
      send(reply, { status: 200, text });
      return undefined;
    }
  }
  return serveRequest(ctx, graph, principal, request, reply, limits, pointKey);
}

async function serveRequest(
  ctx: ServerContext,
  graph: string,
  principal: Principal | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  limits: GraphQLLimits,
  pointKey: string | undefined,
): Promise<FastifyReply> {
  let decoded: GraphQLRequest | GraphQLRequest[];
  try {
    decoded = decodeRequest(request);
  } catch (e) {
    if (e instanceof BadRequest)
      return send(reply, { status: 400, text: JSON.stringify({ errors: [{ message: e.message }] }) });
    throw e;
  }
  const service = serviceOf(ctx);
  const holder: CatalogHolder = ctx.db;
  // The client went away when its socket is gone before the answer was written.
  const socket = request.raw.socket;
  const gone = {
    get aborted(): boolean {
      return socket.destroyed && !reply.raw.writableFinished;
    },
  };
  const timeoutMs = requestTimeoutMs(request);
  const deadline = Date.now() + timeoutMs;
  const spent = { cost: 0 };
  const pool = poolFor(ctx.db);
  const method = request.method === 'GET' ? 'GET' : 'POST';
  const options: ExecuteOptions = {
    method,
    limits,
    // A batch shares one deadline and one cost budget.
    timeoutMs,
    deadline,
    budget: spent,
    signal: gone,
    authorizeWrite: async (kind) => {
      // Every GraphQL route needs a caller (route table), so none here is refused, never open.
      if (!principal) throw forbidden('Access denied: a mutation needs an authenticated caller.');
      await AuthService.for(holder).check(
        principal,
        { kind: 'all', privileges: WRITE_PRIVILEGES[kind] },
        graph,
      );
    },
  };
  // A batch's requests are not remembered as point lookups (its text is not theirs).
  const key = Array.isArray(decoded) ? undefined : pointKey;
  const run = async (r: GraphQLRequest): Promise<GraphQLAnswer> => {
    if (!pool) return service.execute(graph, r, options, key);
    // Queries run on a query worker; mutations here, where the writer is, and so do point lookups
    // (a worker round trip would cost more than they do).
    const here = service.executeHere(graph, r, options, key);
    if (here) return here;
    const call: GraphqlCall = {
      graph,
      request: r,
      options: serviceOptions(ctx.graphql),
      method,
      limits,
      timeoutMs,
      deadline,
      cost: spent.cost,
    };
    const out = await onWorker(pool, call, deadline);
    if (!('answer' in out)) return service.execute(graph, r, options);
    spent.cost = out.cost;
    return out.answer;
  };
  if (!Array.isArray(decoded)) return send(reply, await run(decoded));
  const texts: string[] = [];
  for (const r of decoded) texts.push((await run(r)).text);
  return send(reply, { status: 200, text: `[${texts.join(',')}]` });
}
