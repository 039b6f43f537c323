/**
 * The access log: one line per answered request, written when the response is finished, with the
 * method, the url (credentials masked), the status, the response time in milliseconds, the request
 * id and the authenticated user (when the request had one). Headers and bodies are never logged.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../util/logger.js';
import { redactUrl } from './redact.js';

/** Writes the access line of one answered request. */
export type AccessLineWriter = (
  reqId: string,
  method: string,
  url: string,
  status: number,
  elapsedMs: number,
  user: string | undefined,
) => void;

/** The access line writer of a log; undefined below the log's level (fixed at start, e.g. --log-level warn). */
export function accessLineWriter(logger: Logger): AccessLineWriter | undefined {
  if (logger.enabled?.('info') === false) return undefined;
  // Its fields hold no credential (the url is masked here), so the line skips field redaction.
  const log = logger.unredacted?.() ?? logger;
  return (reqId, method, url, status, elapsedMs, user) =>
    log.info(
      {
        reqId,
        method,
        url: redactUrl(url),
        status,
        responseTime: Math.round(elapsedMs * 100) / 100,
        user,
      },
      'request',
    );
}

export function installAccessLog(app: FastifyInstance, logger: Logger): void {
  const write = accessLineWriter(logger);
  // Below the log's level no hook runs at all.
  if (!write) return;
  app.addHook('onResponse', (request, reply, done) => {
    write(
      request.id,
      request.method,
      request.url,
      reply.statusCode,
      reply.elapsedTime,
      request.principal?.user,
    );
    done();
  });
}
