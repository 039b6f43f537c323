/**
 * TigerGraph 4.x token endpoints on the GSQL server, served only when REST++ authentication is on:
 * - POST /gsql/v1/tokens {secret?, graph?, lifetime?}: a new token for the secret or for the Basic
 *   credentials; `expiration` as TigerGraph 4 prints it ("Fri Dec 20 09:07:39 UTC 2024").
 * - DELETE /gsql/v1/tokens {secret?, tokens}: deletes one token or a list (all or none).
 * - POST /gsql/v1/tokens/check {token}: whether the token is valid, for whom and until when.
 */
import type { FastifyInstance } from 'fastify';
import { deleteTokenOp, requestTokenOp } from '../../auth/operations.js';
import { AuthService } from '../../auth/service.js';
import { authenticateToken, findToken, parseLifetime } from '../../auth/tokens.js';
import { maskToken } from '../../auth/random.js';
import type { ServerContext } from '../context.js';
import { RestError } from '../http/envelope.js';
import { bodyFields, GENERATED, optionalString, tokenCaller } from '../restpp/token.js';
import { asRest } from '../restpp/token-auth.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Epoch seconds as Java's Date.toString() in UTC, TigerGraph 4's expiration format. */
export function javaDateText(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${time} UTC ${d.getUTCFullYear()}`;
}

export function registerTokenRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const svc = AuthService.for(ctx.db);
  if (!svc.restppAuth) return;

  app.post('/gsql/v1/tokens', { config: { endpoint: 'POST /gsql/v1/tokens' } }, async (request) => {
    const fields = bodyFields(request);
    const caller = await tokenCaller(request, ctx, fields);
    const graph = optionalString(fields, 'graph');
    const lifetime = await asRest(async () => parseLifetime(fields.lifetime));
    const grant = await asRest(() => requestTokenOp(svc, caller, graph === '' ? undefined : graph, lifetime));
    return {
      error: false,
      message: GENERATED,
      token: grant.token,
      expiration: javaDateText(grant.expiration),
    };
  });

  app.delete('/gsql/v1/tokens', { config: { endpoint: 'DELETE /gsql/v1/tokens' } }, async (request) => {
    const fields = bodyFields(request);
    const raw = fields.tokens ?? fields.token;
    const tokens = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : undefined;
    if (
      !tokens ||
      tokens.length === 0 ||
      !tokens.every((t): t is string => typeof t === 'string' && t !== '')
    ) {
      throw new RestError(
        'REST-30000',
        "The request body must name the 'tokens' to delete (a string or a list).",
      );
    }
    const caller = await tokenCaller(request, ctx, fields);
    // All or none: every token must exist before any is deleted.
    const state = await svc.state();
    const missing = tokens.filter((t) => !findToken(state, t));
    if (missing.length > 0) {
      throw new RestError(
        'REST-3300',
        `The tokens ${missing.map((t) => `'${maskToken(t)}'`).join(', ')} do not exist.`,
      );
    }
    for (const t of tokens) await asRest(() => deleteTokenOp(svc, caller, t));
    return { error: false, message: `Successfully deleted ${tokens.length} token(s).` };
  });

  app.post(
    '/gsql/v1/tokens/check',
    { config: { endpoint: 'POST /gsql/v1/tokens/check' } },
    async (request) => {
      const token = optionalString(bodyFields(request), 'token');
      if (token === undefined)
        throw new RestError('REST-30000', "The request body must name the 'token' to check.");
      const state = await svc.state();
      const principal = await asRest(async () => authenticateToken(state, token, svc.now()));
      const record = findToken(state, token);
      return {
        error: false,
        message: 'The token is valid.',
        results: {
          userName: principal.user,
          ...(principal.graph === undefined ? {} : { graph: principal.graph }),
          expiration: record?.expiresAt,
        },
      };
    },
  );
}
