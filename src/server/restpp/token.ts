/**
 * REST++ token endpoints (spec §4.10–4.12), served only when REST++ authentication is on:
 * - POST /requesttoken: a secret in the body (no other credentials needed; the token is at the
 *   top level), or Basic credentials plus `graph` (the token is also under `results.token`).
 * - PUT /requesttoken: renews `token` for `lifetime` seconds; the token itself stays the same.
 * - DELETE /requesttoken: deletes `token`; `expiration` is -1.
 * - GET /requesttoken?secret=…&lifetime=…: the pre-3.5 form of POST.
 * The caller of PUT/DELETE proves itself with a secret in the body or Basic credentials, and must
 * own the token (or hold WRITE_USER). PUT answers with the renewed token itself, as TigerGraph does
 * (the caller sent it); DELETE shows the dropped token masked.
 */
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/authorize.js';
import { deleteTokenOp, principalOfSecret, refreshTokenOp, requestTokenOp } from '../../auth/operations.js';
import { maskToken } from '../../auth/random.js';
import { AuthService } from '../../auth/service.js';
import { parseLifetime } from '../../auth/tokens.js';
import type { JsonValue } from '../../util/json.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { jsonBody } from '../http/body.js';
import { RestError } from '../http/envelope.js';
import type { RestppRouteModule } from './route-module.js';
import { asRest, callerOf } from './token-auth.js';

export const TOKEN_WARNING =
  'Warning: Tigergraph Support cannot restore access to secrets/tokens for security reasons. Please save your secret/token and keep it safe and accessible.';
export const GENERATED = `Generate new token successfully.\n${TOKEN_WARNING}`;
const NEED_CREDENTIALS =
  "Access Denied: give a 'secret' in the request body, or a user name and password (HTTP Basic authentication).";

type Fields = Record<string, JsonValue | undefined>;

/** The body's fields (an object), or REST-30000. */
export function bodyFields(request: FastifyRequest): Fields {
  const body = jsonBody(request);
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new RestError('REST-30000', 'The request body must be a JSON object.');
  }
  return body as Fields;
}

export function optionalString(fields: Fields, name: string): string | undefined {
  const v = fields[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new RestError('REST-30000', `The field '${name}' must be a string.`);
  return v;
}

/** The caller: a `secret` in the body, else Basic credentials (a token cannot vouch for itself). */
export async function tokenCaller(
  request: FastifyRequest,
  ctx: ServerContext,
  fields: Fields,
): Promise<Principal> {
  const secret = optionalString(fields, 'secret');
  if (secret !== undefined) return asRest(() => principalOfSecret(AuthService.for(ctx.db), secret));
  if (!/^\s*basic\s/i.test(request.headers.authorization ?? '')) {
    throw new RestError('REST-10016', NEED_CREDENTIALS, { status: 401 });
  }
  return callerOf(request, ctx.db, NEED_CREDENTIALS);
}

function requiredToken(fields: Fields): string {
  const token = optionalString(fields, 'token');
  if (token === undefined || token === '')
    throw new RestError('REST-30000', "The request body must name the 'token'.");
  return token;
}

async function issue(request: FastifyRequest, ctx: ServerContext, fields: Fields): Promise<object> {
  const svc = AuthService.for(ctx.db);
  const caller = await tokenCaller(request, ctx, fields);
  const graph = optionalString(fields, 'graph');
  const lifetime = await asRest(async () => parseLifetime(fields.lifetime));
  const grant = await asRest(() => requestTokenOp(svc, caller, graph === '' ? undefined : graph, lifetime));
  const base = { code: 'REST-0000', expiration: grant.expiration, error: false, message: GENERATED };
  return caller.via === 'secret'
    ? { ...base, token: grant.token }
    : { ...base, results: { token: grant.token }, token: grant.token };
}

export const tokenRoutes: RestppRouteModule = {
  name: 'tokens',
  register(app, ctx) {
    // Without REST++ authentication TigerGraph has no token endpoints: they answer REST-1000.
    if (!AuthService.for(ctx.db).restppAuth) return;
    const svc = AuthService.for(ctx.db);

    app.route({
      method: 'POST',
      path: '/requesttoken',
      handler: (request) => issue(request, ctx, bodyFields(request)),
    });

    app.route({
      method: 'GET',
      path: '/requesttoken',
      parameters: { secret: { type: 'STRING' }, lifetime: { type: 'INT' }, graph: { type: 'STRING' } },
      handler: (request) => {
        const q = queryOf(request);
        const fields: Fields = {
          secret: q.get('secret'),
          lifetime: q.get('lifetime'),
          graph: q.get('graph'),
        };
        return issue(request, ctx, fields);
      },
    });

    app.route({
      method: 'PUT',
      path: '/requesttoken',
      handler: async (request) => {
        const fields = bodyFields(request);
        const token = requiredToken(fields);
        const caller = await tokenCaller(request, ctx, fields);
        const lifetime = await asRest(async () => parseLifetime(fields.lifetime));
        const expiration = await asRest(() => refreshTokenOp(svc, caller, token, lifetime));
        return {
          code: 'REST-0000',
          expiration,
          error: false,
          message: 'Refresh token successfully.',
          token,
        };
      },
    });

    app.route({
      method: 'DELETE',
      path: '/requesttoken',
      handler: async (request) => {
        const fields = bodyFields(request);
        const token = requiredToken(fields);
        const caller = await tokenCaller(request, ctx, fields);
        await asRest(() => deleteTokenOp(svc, caller, token));
        return {
          code: 'REST-0000',
          expiration: -1,
          error: false,
          message: 'Drop token successfully.',
          token: maskToken(token),
        };
      },
    });
  },
};
