/**
 * The access log: one line per answered request, written when the response is finished, with the
 * method, the url (credentials masked), the status, the response time in milliseconds, the request
 * id and the authenticated user (when the request had one). Headers and bodies are never logged.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../util/logger.js';
import { redactUrl } from './redact.js';

export function installAccessLog(app: FastifyInstance, logger: Logger): void {
  // Below the log's level (fixed at start, e.g. --log-level warn) no hook runs at all.
  if (logger.enabled?.('info') === false) return;
  // Its fields hold no credential (the url is masked here), so the line skips field redaction.
  const log = logger.unredacted?.() ?? logger;
  app.addHook('onResponse', (request, reply, done) => {
    log.info(
      {
        reqId: request.id,
        method: request.method,
        url: redactUrl(request.url),
        status: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
        user: request.principal?.user,
      },
      'request',
    );
    done();
  });
}
