/**
 * DELETE /expiredtoken on the admin port (spec §4.13), served only when REST++ authentication is
 * on. Body optional: {"user": [...], "secret": [...]}. Without a body the caller's expired tokens
 * go (everyone's with WRITE_USER). Atomic: an unknown user or secret, or another user's tokens
 * without WRITE_USER, removes nothing.
 */
import type { FastifyInstance } from 'fastify';
import { removeExpiredTokensOp } from '../../auth/operations.js';
import { AuthService } from '../../auth/service.js';
import type { JsonValue } from '../../util/json.js';
import type { ServerContext } from '../context.js';
import { okEnvelope, RestError } from '../http/envelope.js';
import { bodyFields } from '../restpp/token.js';
import { asRest, callerOf } from '../restpp/token-auth.js';
import { NO_CREDENTIALS } from '../gsqlserver/tokens-credentials.js';

function stringList(value: JsonValue | undefined, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) {
    throw new RestError('REST-30000', `The field '${name}' must be a list of strings.`);
  }
  return list as string[];
}

export function registerExpiredTokenRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const svc = AuthService.for(ctx.db);
  if (!svc.restppAuth) return;
  app.delete('/expiredtoken', { config: { endpoint: 'DELETE /expiredtoken' } }, async (request) => {
    const who = await callerOf(request, ctx.db, NO_CREDENTIALS);
    const fields = bodyFields(request);
    const users = stringList(fields.user, 'user');
    const secrets = stringList(fields.secret, 'secret');
    const removed = await asRest(() => removeExpiredTokensOp(svc, who, { users, secrets }));
    return okEnvelope({ removed }, `Successfully removed ${removed} expired token(s).`);
  });
}
