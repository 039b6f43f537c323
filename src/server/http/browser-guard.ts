/**
 * Browser safety for every listener: a request a web page of another origin made the browser send
 * is refused before anything else happens (no credential check, no body read), and CORS answers
 * only origins the operator listed (`--cors-origin`, OCELOT_CORS_ORIGIN); none by default.
 *
 * Browsers mark what they send: every cross-origin POST, PUT or DELETE (a form, fetch, or an
 * `text/plain` beacon alike) carries `Origin`, and current browsers send `Sec-Fetch-Site` on every
 * request, images and scripts included. Clients that are not browsers (curl, pyTigerGraph, the
 * gsql client) send neither, so a request is refused when
 *   - its `Origin` is neither this server's own origin nor a listed one (`null` included), or
 *   - it has no `Origin` but `Sec-Fetch-Site` says another site or origin made it, unless it is a
 *     plain navigation (a followed link) to a page the listener marks `navigable` (GraphiQL).
 * This is what keeps a browser that holds Basic credentials (GraphiQL's login) or a REST++ server
 * without authentication from being driven by a foreign page: the credentials a browser adds on
 * its own are never what lets such a request through. The listeners, GraphQL and the Studio all
 * get it from createListenerApp.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RestError } from './envelope.js';

export interface BrowserPolicy {
  /** Origins (`scheme://host[:port]`) whose pages may call this server (CORS); default none. */
  allowedOrigins?: readonly string[];
  /** GET routes a link from another site may open (pages, not API calls). */
  navigable?: (request: FastifyRequest) => boolean;
}

const ALLOWED_METHODS = 'GET, POST, PUT, DELETE';
const ALLOWED_HEADERS =
  'Authorization, Content-Type, GSQL-TIMEOUT, GSQL-ASYNC, RESPONSE-LIMIT, GSQL-REPLICA, GSQL-THREAD-LIMIT, gsql-atomic-level';

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** True when `origin` names the host this request was sent to (any scheme: a proxy may add TLS). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** Why a request is refused as coming from a foreign page, or undefined when it is not. */
export function foreignPage(request: FastifyRequest, policy: BrowserPolicy): string | undefined {
  const origin = header(request, 'origin');
  const allowed = policy.allowedOrigins ?? [];
  if (origin !== undefined) {
    if (sameOrigin(origin, header(request, 'host')) || allowed.includes(origin)) return undefined;
    return `a page of origin '${origin}'`;
  }
  const site = header(request, 'sec-fetch-site');
  if (site === undefined || site === 'same-origin' || site === 'none') return undefined;
  const navigation =
    header(request, 'sec-fetch-mode') === 'navigate' &&
    (request.method === 'GET' || request.method === 'HEAD');
  if (navigation && policy.navigable?.(request)) return undefined;
  return `a page of another ${site === 'same-site' ? 'origin' : 'site'}`;
}

function corsHeaders(reply: FastifyReply, origin: string): void {
  void reply
    .header('Access-Control-Allow-Origin', origin)
    .header('Access-Control-Allow-Credentials', 'true')
    .header('Vary', 'Origin');
}

export function installBrowserGuard(app: FastifyInstance, policy: BrowserPolicy): void {
  const allowed = policy.allowedOrigins ?? [];
  app.addHook('onRequest', async (request, reply) => {
    const origin = header(request, 'origin');
    if (origin !== undefined && allowed.includes(origin)) {
      corsHeaders(reply, origin);
      if (request.method === 'OPTIONS' && header(request, 'access-control-request-method') !== undefined) {
        return reply
          .code(204)
          .header('Access-Control-Allow-Methods', ALLOWED_METHODS)
          .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
          .header('Access-Control-Max-Age', '600')
          .send();
      }
    }
    const why = foreignPage(request, policy);
    if (why === undefined) return undefined;
    // The body stays unread: the connection closes after the answer.
    void reply.header('Connection', 'close');
    throw new RestError(
      'REST-10016',
      `Refused: this request was sent by ${why}. Cross-origin requests are refused unless the server lists the origin with --cors-origin.`,
      { status: 403 },
    );
  });
}
