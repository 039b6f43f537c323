/**
 * Browser safety for every listener: a request a web page of another origin made the browser send
 * is refused before anything else happens (no credential check, no body read), and CORS answers
 * only origins the operator listed (`--cors-origin`, OCELOT_CORS_ORIGIN); none by default. The
 * listeners, GraphQL (its WebSocket upgrades too) and the Studio all use this one piece.
 *
 * Browsers mark what they send: every cross-origin POST, PUT or DELETE (a form, fetch, or a
 * `text/plain` beacon alike) and every WebSocket upgrade carries `Origin`, and current browsers send
 * `Sec-Fetch-Site` on every request, images and scripts included. Clients that are not browsers
 * (curl, pyTigerGraph, the gsql client) send neither, so a request is refused when
 *   - its `Origin` is neither this server's own nor a listed one (`null` included) — with `*`
 *     listed, any origin may call, but only without credentials of its own (no Authorization,
 *     no cookie): the credentials a browser adds by itself are never usable from another page;
 *   - it has no `Origin` but `Sec-Fetch-Site` says another site or origin made it, unless it is a
 *     plain navigation (a followed link) to a page the listener marks `navigable` (GraphiQL).
 * So a browser that holds Basic credentials (GraphiQL's login) or the Studio's cookie, or a REST++
 * server without authentication, cannot be driven by a foreign page.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RestError } from './envelope.js';

export interface BrowserPolicy {
  /** Origins (`scheme://host[:port]`, or `*`) whose pages may call this server; default none. */
  allowedOrigins?: readonly string[];
  /** GET routes a link from another site may open (pages, not API calls). */
  navigable?: (request: FastifyRequest) => boolean;
}

const ALLOWED_METHODS = 'GET, POST, PUT, DELETE';
const ALLOWED_HEADERS =
  'authorization, content-type, gsql-timeout, gsql-async, response-limit, gsql-replica, gsql-thread-limit, gsql-atomic-level, apollographql-client-name, apollographql-client-version';

function one(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** True when `origin` names the host a request was sent to (any scheme: a proxy may add TLS). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** Credentials a browser could have added by itself (a cached Basic login, a cookie). */
function carriesCredentials(headers: IncomingHttpHeaders): boolean {
  return headers.authorization !== undefined || headers.cookie !== undefined;
}

/**
 * The CORS answer for a request's `Origin`: the origin itself (listed: credentials allowed), `*`
 * (any origin allowed, without credentials), or undefined.
 */
export function corsOrigin(policy: BrowserPolicy, origin: string | undefined): string | undefined {
  const allowed = policy.allowedOrigins ?? [];
  if (origin === undefined) return undefined;
  if (allowed.includes(origin)) return origin;
  return allowed.includes('*') ? '*' : undefined;
}

/**
 * Why a request with these headers is refused as coming from a foreign page, or undefined when it
 * is not (`navigation`: a GET a followed link made, to a page that may be opened so).
 */
export function foreignOrigin(
  headers: IncomingHttpHeaders,
  policy: BrowserPolicy,
  navigation: () => boolean = () => false,
): string | undefined {
  const origin = one(headers, 'origin');
  if (origin !== undefined) {
    if (sameOrigin(origin, one(headers, 'host'))) return undefined;
    const cors = corsOrigin(policy, origin);
    if (cors === origin || (cors === '*' && !carriesCredentials(headers))) return undefined;
    return `a page of origin '${origin}'`;
  }
  const site = one(headers, 'sec-fetch-site');
  if (site === undefined || site === 'same-origin' || site === 'none') return undefined;
  if (one(headers, 'sec-fetch-mode') === 'navigate' && navigation()) return undefined;
  return `a page of another ${site === 'same-site' ? 'origin' : 'site'}`;
}

/** The refusal's text (also sent by the WebSocket upgrade). */
export function crossOriginRefusal(why: string): string {
  return `Refused: this request was sent by ${why}. Cross-origin requests are refused unless the server lists the origin with --cors-origin.`;
}

function corsHeaders(reply: FastifyReply, allowed: string): void {
  void reply.header('Access-Control-Allow-Origin', allowed).header('Vary', 'Origin');
  if (allowed !== '*') void reply.header('Access-Control-Allow-Credentials', 'true');
}

export function installBrowserGuard(app: FastifyInstance, policy: BrowserPolicy): void {
  // A callback hook: no promise per request. A preflight is answered without calling `done`.
  app.addHook('onRequest', (request, reply, done) => {
    const allowed = corsOrigin(policy, one(request.headers, 'origin'));
    if (allowed !== undefined) {
      corsHeaders(reply, allowed);
      // A preflight carries no credentials; it is answered here, whatever route it names.
      if (
        request.method === 'OPTIONS' &&
        one(request.headers, 'access-control-request-method') !== undefined
      ) {
        void reply
          .code(204)
          .header('Access-Control-Allow-Methods', ALLOWED_METHODS)
          .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
          .header('Access-Control-Max-Age', '600')
          .send();
        return;
      }
    }
    const why = foreignOrigin(
      request.headers,
      policy,
      () => (request.method === 'GET' || request.method === 'HEAD') && policy.navigable?.(request) === true,
    );
    if (why === undefined) return done();
    // The body stays unread: the connection closes after the answer.
    void reply.header('Connection', 'close');
    done(new RestError('REST-10016', crossOriginRefusal(why), { status: 403 }));
  });
}
