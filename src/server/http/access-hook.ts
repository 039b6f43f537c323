/**
 * The one access check of every listener, run when a request arrives and before its body is read:
 * the route's row of the route table (auth/route-rules.ts) says what the caller needs and where the
 * graph comes from; the caller is authenticated (Bearer token, Basic user/password or
 * `__GSQL__secret`/secret, throttled per user and address) and checked on that graph. A route
 * without a row is refused. A refusal closes the connection, so an unread body is not drained.
 *
 * Rows whose graph is in the body are `deferred`: here the caller is only authenticated, and the
 * handler (or the statement table) checks the row's rule once it knows the graph
 * (`requireAccess`). Public rows read at most PUBLIC_BODY_LIMIT bytes of body.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import type { AccessRule } from '../../auth/access-table.js';
import type { Principal } from '../../auth/authorize.js';
import { AuthError, forbidden } from '../../auth/errors.js';
import { requireQueryWrites, type DataWrite } from '../../auth/query-access.js';
import { routeRule, type GraphSource, type ListenerKind, type RouteRule } from '../../auth/route-rules.js';
import { AuthService, type CatalogHolder } from '../../auth/service.js';
import type { Catalog } from '../../catalog/types.js';
import { RestError } from './envelope.js';
import { runningQueriesFor } from './running-queries.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, once the access hook (or a handler) has checked it. */
    principal?: Principal;
    /** The user name of `principal` (routes of the GSQL server always have one). */
    gsqlUser?: string;
  }
}

/** TigerGraph's REST-10016 text for a REST++ request without a token. */
export const NO_TOKEN = "Access Denied because the input token = '' is empty or too short";
export const NO_CREDENTIALS =
  'Authentication failed: this endpoint requires a user name and password (HTTP Basic authentication).';
/** Endpoints that ask for no credentials read no more body than this (logins, token requests). */
export const PUBLIC_BODY_LIMIT = 64 * 1024;

export interface AccessHookOptions {
  listener: ListenerKind;
  db: CatalogHolder;
  /** The graph of the GraphQL listener. */
  graph?: string;
  /** The graph of an install request (the install queue lives above this layer). */
  installRequestGraph?: (id: string) => string | undefined;
  /**
   * A credential besides the Authorization header (the Studio's session cookie): asked for a
   * request without that header; undefined when the request carries none.
   */
  sessionCredential?: (request: FastifyRequest) => Promise<Principal | undefined>;
  /** How a refusal is answered; the TigerGraph envelope by default. */
  refuse?: (reply: FastifyReply, error: AuthError) => FastifyReply;
  /** Where a route without a rule is reported. */
  log?: (line: string) => void;
}

/** The only graph of a catalog, which a REST++ data path without a graph name means. */
export function onlyGraphName(catalog: Catalog): string | undefined {
  return catalog.graphs.length === 1 ? catalog.graphs[0].name : undefined;
}

/** What the access check reads of a request (a Fastify request, or the fast path's own). */
export interface AccessRequest {
  readonly headers: FastifyRequest['headers'];
  readonly ip: string;
  readonly params: unknown;
  readonly query: unknown;
}

function param(request: AccessRequest, name: string): string | undefined {
  const params = request.params as Record<string, string | undefined> | undefined;
  return params?.[name];
}

function queryParam(request: AccessRequest, name: string): string | undefined {
  const q = request.query as { get?: (name: string) => string | undefined } | undefined;
  const v = typeof q?.get === 'function' ? q.get(name) : undefined;
  return v === '' ? undefined : v;
}

/** The graph a row's source names for this request (undefined: the global scope). */
function graphOf(
  source: Exclude<GraphSource, { deferred: string }>,
  request: AccessRequest,
  o: AccessHookOptions,
): string | undefined {
  if (source === 'global') return undefined;
  if (source === 'path') return param(request, 'graph_name') ?? param(request, 'graph');
  if (source === 'only') return onlyGraphName(o.db.catalog);
  if (source === 'listener') return o.graph;
  if ('query' in source) {
    const named = queryParam(request, source.query);
    return named ?? (source.fallback === 'first' ? o.db.catalog.graphs[0]?.name : undefined);
  }
  const id = queryParam(request, source.param) ?? param(request, source.param);
  if (id === undefined) return undefined;
  return source.lookup === 'queryRun' ? runningQueriesFor(o.db).get(id)?.graph : o.installRequestGraph?.(id);
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Caps a public route's body: more is refused with 413 as soon as it arrives, and the connection
 * closes after the answer (the rest is never read).
 */
class BodyCap extends Transform {
  private seen = 0;
  constructor(private readonly reply: FastifyReply) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen <= PUBLIC_BODY_LIMIT) return done(null, chunk);
    void this.reply.header('Connection', 'close');
    done(publicBodyTooLarge());
  }
}

function publicBodyTooLarge(): RestError {
  return new RestError(
    'REST-30000',
    `The request body exceeds ${PUBLIC_BODY_LIMIT} bytes, the limit of an endpoint that needs no credentials.`,
    { status: 413 },
  );
}

export function installAccessHook(app: FastifyInstance, o: AccessHookOptions): void {
  const svc = AuthService.for(o.db);
  // The route table is static: one lookup per registered route, not one per request.
  const rules = new Map<string, ReturnType<typeof routeRule>>();
  const ruleOf = (request: FastifyRequest): ReturnType<typeof routeRule> | undefined => {
    const url = request.routeOptions.url;
    // No route (the not-found handler answers): nothing to authorize.
    if (url === undefined) return undefined;
    const key = `${request.method} ${url}`;
    let found = rules.get(key);
    if (!found) rules.set(key, (found = routeRule(o.listener, request.method, url)));
    return found;
  };
  const refused = (request: FastifyRequest, reply: FastifyReply, e: unknown, done: HookDone): void => {
    if (!(e instanceof AuthError)) return done(e as Error);
    if (hasBody(request)) void reply.header('Connection', 'close');
    if (!o.refuse) return done(e);
    // The refusal is the answer: the request goes no further.
    void o.refuse(reply, e);
  };

  // Callback hooks: a request that needs no credentials (an open route, REST++ without
  // authentication) passes without a promise; one that does waits for its check.
  app.addHook('onRequest', (request, reply, done) => {
    const found = ruleOf(request);
    if (!found) return done();
    let pending: Promise<void> | undefined;
    try {
      pending = authorize(request, found, svc, o);
    } catch (e) {
      return refused(request, reply, e, done);
    }
    if (!pending) return done();
    pending.then(
      () => done(),
      (e: unknown) => refused(request, reply, e, done),
    );
  });

  // Only routes that ask for no credentials get the body cap (a hook on every route would cost
  // every request a call).
  const capBody: preParsingHookHandler = (request, reply, payload, done) => {
    if (ruleOf(request)?.rule?.access.kind !== 'public') return done(null, payload);
    if (Number(request.headers['content-length'] ?? 0) > PUBLIC_BODY_LIMIT) {
      void reply.header('Connection', 'close');
      return done(publicBodyTooLarge());
    }
    const capped = new BodyCap(reply);
    payload.on('error', (e) => capped.destroy(e));
    done(null, payload.pipe(capped));
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => routeRule(o.listener, m, route.url).rule?.access.kind === 'public')) return;
    const own = route.preParsing;
    route.preParsing = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), capBody];
  });
}

type HookDone = (error?: Error) => void;

/**
 * The access check of a request: undefined when it is decided at once (allowed), a promise when a
 * credential or the security state must be waited for; throws (AuthError) when refused at once.
 */
function authorize(
  request: FastifyRequest,
  found: { table: ListenerKind; rule: RouteRule | undefined; key: string },
  svc: AuthService,
  o: AccessHookOptions,
): Promise<void> | undefined {
  const { table, rule, key } = found;
  if (!rule) {
    o.log?.(`[ocelot] refused ${o.listener} ${key}: the route has no access rule`);
    throw forbidden(`Access denied: the endpoint ${key} has no access rule.`);
  }
  const atOnce = allowedAtOnce(request, found, svc, o);
  if (atOnce === undefined) return authenticate(request, rule, table, svc, o);
  if (atOnce !== OPEN) {
    request.principal = atOnce;
    request.gsqlUser = atOnce.user;
  }
  return undefined;
}

/** A route that asks this request for no caller (a public row, REST++ without authentication). */
export const OPEN = 'open';

/**
 * The access decision that needs no waiting: OPEN, or the caller of a header verified before
 * under the current security state; undefined when the full check must run (no rule, no
 * header, an unknown or refused one: that check answers those).
 */
export function allowedAtOnce(
  request: AccessRequest,
  found: { table: ListenerKind; rule: RouteRule | undefined },
  svc: AuthService,
  o: AccessHookOptions,
): Principal | typeof OPEN | undefined {
  const { table, rule } = found;
  if (!rule) return undefined;
  if (rule.access.kind === 'public') return OPEN;
  // REST++ without authentication (TigerGraph's default) asks for no credentials.
  if (table === 'restpp' && !svc.restppAuth) return OPEN;
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const source = rule.graph;
  return typeof source === 'object' && 'deferred' in source
    ? svc.allowedAtOnce(header, request.ip)
    : svc.allowedAtOnce(header, request.ip, rule.access, graphOf(source, request, o));
}

async function authenticate(
  request: FastifyRequest,
  rule: RouteRule,
  table: ListenerKind,
  svc: AuthService,
  o: AccessHookOptions,
): Promise<void> {
  const session =
    request.headers.authorization === undefined ? await o.sessionCredential?.(request) : undefined;
  const principal =
    session ??
    (await svc.authenticateHeader(
      request.headers.authorization,
      table === 'restpp' ? NO_TOKEN : NO_CREDENTIALS,
      request.ip,
    ));
  request.principal = principal;
  request.gsqlUser = principal.user;
  if (typeof rule.graph === 'object' && 'deferred' in rule.graph) return;
  await svc.check(principal, rule.access, graphOf(rule.graph, request, o));
}

/**
 * The check a `deferred` row leaves to its handler, on the graph the handler found: a no-op when
 * the route needed no caller (REST++ without authentication), else a 403 AuthError.
 */
export async function requireAccess(
  request: FastifyRequest,
  db: CatalogHolder,
  rule: AccessRule,
  graph: string | undefined,
): Promise<void> {
  if (!request.principal) return;
  await AuthService.for(db).check(request.principal, rule, graph);
}

/**
 * A query about to run for this request: the caller also needs the privilege of each kind of
 * write it makes (none asked when the route needed no caller: REST++ without authentication).
 */
export async function requireQueryRun(
  request: FastifyRequest,
  db: CatalogHolder,
  graph: string,
  query: string,
  writes: ReadonlySet<DataWrite>,
): Promise<void> {
  if (!request.principal || writes.size === 0) return;
  requireQueryWrites(await AuthService.for(db).state(), request.principal, graph, query, writes);
}
