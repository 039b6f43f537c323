/**
 * What the 4.x schema endpoints share: reading their JSON bodies and parameters, the GSQL
 * statements some of them carry (`?gsql=true`), and applying one catalog change as a whole (a
 * refused change is a REST-30000 naming what is wrong, and nothing is changed).
 */
import type { FastifyRequest } from 'fastify';
import { AuthService } from '../../auth/service.js';
import { CatalogError } from '../../catalog/errors.js';
import { findGraph } from '../../catalog/lookup.js';
import type { Catalog } from '../../catalog/types.js';
import type { Stmt } from '../../gsql/ast.js';
import { GsqlSyntaxError } from '../../gsql/lexer.js';
import { parseOne } from '../../gsql/parser.js';
import { ShellError } from '../../shell/context.js';
import type { JsonValue } from '../../util/json.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { jsonBody } from '../http/body.js';
import { RestError } from '../http/envelope.js';
import { asRest } from '../restpp/token-auth.js';

export type JsonFields = { [key: string]: JsonValue };

export function badSchemaRequest(message: string): RestError {
  return new RestError('REST-30000', message);
}

/** The body, which must be a JSON object. */
export function bodyObject(request: FastifyRequest): JsonFields {
  const body = jsonBody(request);
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badSchemaRequest('The request body must be a JSON object.');
  }
  return body;
}

/** A list of names in the body (`{"addVertices": ["a", "b"]}`). */
export function nameList(fields: JsonFields, key: string): string[] {
  const v = fields[key];
  if (!Array.isArray(v) || v.length === 0 || v.some((n) => typeof n !== 'string' || n === '')) {
    throw badSchemaRequest(`'${key}' must be a non-empty JSON array of names.`);
  }
  return v as string[];
}

/** The `graph` parameter: undefined (global scope) when absent or empty; an existing graph otherwise. */
export function scopeGraph(ctx: ServerContext, request: FastifyRequest): string | undefined {
  const graph = queryOf(request).get('graph');
  if (graph === undefined || graph === '') return undefined;
  if (!findGraph(ctx.db.catalog, graph))
    throw new RestError('REST-1004', `The graph ${graph} does not exist.`);
  return graph;
}

/** A comma-separated list parameter that must be given (`vertex=a,b`). */
export function requiredList(request: FastifyRequest, name: string): string[] {
  const names = queryOf(request).list(name);
  if (names.length === 0) throw new RestError('REST-30001', `The parameter '${name}' is required.`);
  return names;
}

/**
 * The GSQL statements of a `?gsql=true` body (`{"gsql": "…"}` or `{"gsql": ["…", …]}`), each
 * parsed alone and required to be one of `kinds`.
 */
export function gsqlStatements<K extends Stmt['kind']>(
  fields: JsonFields,
  kinds: readonly K[],
  what: string,
): Extract<Stmt, { kind: K }>[] {
  const v = fields.gsql;
  const texts = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(texts) || texts.length === 0 || texts.some((t) => typeof t !== 'string')) {
    throw badSchemaRequest(`With gsql=true the body must be {"gsql": [${what} statements]}.`);
  }
  return (texts as string[]).map((text) => {
    let stmt: Stmt;
    try {
      stmt = parseOne(text);
    } catch (e) {
      if (e instanceof GsqlSyntaxError) throw badSchemaRequest(`${e.message} in "${text}".`);
      throw e;
    }
    if (!(kinds as readonly string[]).includes(stmt.kind)) {
      throw badSchemaRequest(`"${text}" is not a ${what} statement.`);
    }
    return stmt as Extract<Stmt, { kind: K }>;
  });
}

/** Applies one catalog change: all of it, or (on a broken rule) none of it and a REST-30000. */
export async function changeSchema(ctx: ServerContext, change: (c: Catalog) => Catalog): Promise<void> {
  let next: Catalog;
  try {
    next = change(ctx.db.catalog);
  } catch (e) {
    if (e instanceof CatalogError || e instanceof ShellError) throw badSchemaRequest(e.message);
    throw e;
  }
  await ctx.db.changeCatalog(next);
}

/**
 * Putting global types into a graph or taking them out changes the global schema (TigerGraph does
 * it in a global schema change job), so it needs WRITE_SCHEMA on the global scope, not only on the
 * graph the request names.
 */
export async function requireGlobalWriteSchema(ctx: ServerContext, request: FastifyRequest): Promise<void> {
  const principal = request.principal;
  if (!principal)
    throw new RestError('REST-10016', 'The request has no authenticated caller.', { status: 401 });
  await asRest(() =>
    AuthService.for(ctx.db).check(principal, { kind: 'all', privileges: ['WRITE_SCHEMA'] }, undefined),
  );
}
