/**
 * CORS for the GraphQL API (`--cors-origin`), kept behind this one function until the server-wide
 * CORS/Origin middleware replaces it. A listed origin gets its own name back with credentials
 * allowed (a browser may send the user's Basic login); `*` lets any origin call without
 * credentials. Preflight requests (OPTIONS) are answered here, before authentication, as browsers
 * send them without credentials. Requests from other origins get no CORS headers, so browsers keep
 * their answers from the calling page.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const ALLOWED_HEADERS =
  'authorization, content-type, gsql-timeout, apollographql-client-name, apollographql-client-version';

/** The value of Access-Control-Allow-Origin for `origin`, or undefined when it is not allowed. */
export function allowedOrigin(origins: readonly string[], origin: string | undefined): string | undefined {
  if (origin === undefined || origins.length === 0) return undefined;
  if (origins.includes(origin)) return origin;
  return origins.includes('*') ? '*' : undefined;
}

function corsHeaders(reply: FastifyReply, allowed: string): void {
  void reply.header('Access-Control-Allow-Origin', allowed).header('Vary', 'Origin');
  if (allowed !== '*') void reply.header('Access-Control-Allow-Credentials', 'true');
}

/**
 * Adds CORS to the routes of `scope` whose path `isApi` accepts, and registers the preflight
 * routes `paths` (with their access-table endpoint names).
 */
export function installGraphqlCors(
  scope: FastifyInstance,
  origins: readonly string[],
  paths: readonly { path: string; endpoint: string }[],
): void {
  if (origins.length > 0) {
    scope.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
      const allowed = allowedOrigin(origins, request.headers.origin);
      if (allowed) corsHeaders(reply, allowed);
      done(null, payload);
    });
  }
  for (const { path, endpoint } of paths) {
    scope.options(path, { config: { endpoint } }, async (request, reply) => {
      const allowed = allowedOrigin(origins, request.headers.origin);
      if (!allowed) return reply.code(204).send();
      return reply
        .code(204)
        .header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS')
        .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
        .header('Access-Control-Max-Age', '600')
        .send();
    });
  }
}
