/**
 * GraphQL over HTTP for both listeners: decoding a request (POST JSON `{query, variables,
 * operationName}`, POST `application/graphql` text, GET query parameters) and answering with the
 * service's result as JSON (64-bit integers exact). Write privileges of mutations are checked
 * here, per mutation, against the caller the listener authenticated.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/authorize.js';
import { AuthService, type CatalogHolder } from '../../auth/service.js';
import type { Privilege } from '../../auth/privileges.js';
import { GraphQLService, type GraphQLAnswer, type GraphQLRequest } from '../../graphql/service.js';
import type { WriteKind } from '../../graphql/runtime.js';
import type { Database } from '../../engine/database.js';
import { stringifyJson } from '../../util/json.js';
import { JsonSyntaxError, parseJsonStrict } from '../../util/json-parse.js';
import { queryOf } from '../http/app.js';
import { textBody } from '../http/body.js';

const services = new WeakMap<Database, GraphQLService>();

/** The one GraphQL service of a Database (both listeners share its schema cache). */
export function serviceOf(db: Database): GraphQLService {
  let s = services.get(db);
  if (!s) services.set(db, (s = new GraphQLService(db)));
  return s;
}

const WRITE_PRIVILEGES: Record<WriteKind, Privilege[]> = {
  insert: ['CREATE_DATA', 'UPDATE_DATA'],
  delete: ['DELETE_DATA'],
};

class BadRequest extends Error {}

function parseJsonText(text: string, what: string): unknown {
  try {
    return parseJsonStrict(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new BadRequest(`${what} is not valid JSON: ${e.message}`);
    throw e;
  }
}

/** The GraphQL request an HTTP request carries. */
export function decodeRequest(request: FastifyRequest): GraphQLRequest {
  if (request.method === 'GET') {
    const q = queryOf(request);
    const variables = q.get('variables');
    return {
      query: q.get('query'),
      variables:
        variables === undefined || variables === '' ? undefined : parseJsonText(variables, '"variables"'),
      operationName: q.get('operationName') || undefined,
    };
  }
  const text = textBody(request);
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/graphql') && !type.startsWith('application/graphql-response')) {
    return { query: text };
  }
  if (text.trim() === '') return {};
  const body = parseJsonText(text, 'The request body');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequest(
      'The request body must be a JSON object {"query": …, "variables": …, "operationName": …}.',
    );
  }
  return body as GraphQLRequest;
}

function send(reply: FastifyReply, answer: GraphQLAnswer): FastifyReply {
  return reply.code(answer.status).type('application/json; charset=utf-8').send(stringifyJson(answer.body));
}

/** Serves one GraphQL HTTP request for `graph` on behalf of `principal`. */
export async function serveGraphql(
  db: Database,
  graph: string,
  principal: Principal | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  let decoded: GraphQLRequest;
  try {
    decoded = decodeRequest(request);
  } catch (e) {
    if (e instanceof BadRequest)
      return send(reply, { status: 400, body: { errors: [{ message: e.message }] } });
    throw e;
  }
  const holder: CatalogHolder = db;
  const answer = await serviceOf(db).execute(graph, decoded, {
    method: request.method === 'GET' ? 'GET' : 'POST',
    authorizeWrite: async (kind) => {
      if (!principal) return;
      await AuthService.for(holder).check(
        principal,
        { kind: 'all', privileges: WRITE_PRIVILEGES[kind] },
        graph,
      );
    },
  });
  return send(reply, answer);
}
