/**
 * The 4.x GSQL endpoint POST /gsql/v1/statements: a raw text/plain GSQL body, answered with the
 * shell's plain-text output (streamed). Always 200: pyTigerGraph treats the text as the result and
 * looks for failure phrases in it; an HTTP error would hide the message. Each call is independent.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { textBody } from '../http/body.js';
import { RestError } from '../http/envelope.js';
import { queryOf } from '../http/app.js';
import { gsqlUser } from './auth-hook.js';
import { streamScript } from './script-stream.js';

export function registerStatementRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post(
    '/gsql/v1/statements',
    { config: { endpoint: 'POST /gsql/v1/statements' } },
    async (request, reply) => {
      if (queryOf(request).bool('async', false)) {
        throw new RestError(
          'REST-30001',
          'Asynchronous GSQL statements (async=true) are not supported by this server.',
        );
      }
      // The session keeps the caller as authenticated: a token's or secret's graph limits it.
      return streamScript(ctx, reply, textBody(request), {
        user: gsqlUser(request),
        ...(request.principal ? { principal: request.principal } : {}),
      });
    },
  );
}
