/**
 * GraphQL over WebSocket (the `graphql-ws` protocol, graphql-transport-ws) at the GraphQL API's
 * own paths, served by the graphql-ws package's server core over `ws` sockets. Subscriptions stream
 * committed changes; queries and mutations run as over HTTP.
 *
 * The upgrade is refused unless its Origin is the server's own or one `--cors-origin` allows
 * (another site's page must not reuse a browser's login). The caller authenticates with the
 * upgrade's Authorization header or, as browsers cannot set one, with `connection_init`'s payload
 * `{"Authorization": "Basic …"}` (or `headers.Authorization`), and needs READ_DATA on the graph.
 *
 * Responses are written as the service's JSON text (64-bit integers exact): results reach
 * graphql-ws as placeholders that the socket's send replaces by the text. Each connection may hold
 * MAX_SUBSCRIPTIONS operations and EVENTS_PER_CONNECTION undelivered events; a client that reads
 * too slowly (more than MAX_BUFFERED bytes unsent) is disconnected.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { CloseCode, handleProtocols, makeServer } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Principal } from '../../auth/authorize.js';
import { AuthError, forbidden } from '../../auth/errors.js';
import { AuthService } from '../../auth/service.js';
import {
  EventBudget,
  type ChangeStream,
  type GraphQLAnswer,
  type GraphQLRequest,
} from '../../graphql/index.js';
import type { ServerContext } from '../context.js';
import { crossOriginRefusal, foreignOrigin } from '../http/browser-guard.js';
import { NO_CREDENTIALS } from '../gsqlserver/tokens-credentials.js';
import { limitsFor } from './config.js';
import { serviceOf } from './transport.js';

export const MAX_SUBSCRIPTIONS = 64;
export const EVENTS_PER_CONNECTION = 1000;
const MAX_BUFFERED = 16 * 1024 * 1024;
const KEEP_ALIVE_MS = 12_000;

/** A placeholder graphql-ws serializes in place of a JSON text. */
interface Placeholder {
  toJSON(): string;
}

/** The JSON texts of one connection's placeholders until its socket writes them. */
class RawTexts {
  private readonly texts = new Map<string, string>();
  private next = 0;

  wrap(text: string): Placeholder {
    const token = `\u0000ocelot-raw-${this.next++}`;
    this.texts.set(JSON.stringify(token), text);
    return { toJSON: () => token };
  }

  /** A serialized message with its placeholders replaced by their texts. */
  expand(data: string): string {
    return data.replace(/"\\u0000ocelot-raw-\d+"/g, (quoted) => {
      const text = this.texts.get(quoted);
      this.texts.delete(quoted);
      return text ?? 'null';
    });
  }

  clear(): void {
    this.texts.clear();
  }
}

interface Extra {
  graph: string;
  principal: Principal | undefined;
  /** The client's address, for the login throttle. */
  address: string | undefined;
  budget: EventBudget;
  raws: RawTexts;
  /** Ids of the operations running on the connection. */
  operations: Set<string>;
}

type Ctx = ServerContext;

async function authenticate(
  ctx: Ctx,
  header: unknown,
  graph: string,
  address: string | undefined,
): Promise<Principal | undefined> {
  if (typeof header !== 'string' || header === '') return undefined;
  const auth = AuthService.for(ctx.db);
  const principal = await auth.authenticateHeader(header, NO_CREDENTIALS, address);
  await auth.check(principal, { kind: 'all', privileges: ['READ_DATA'] }, graph);
  return principal;
}

/** The Authorization a `connection_init` payload carries, in the forms clients send it. */
function payloadAuthorization(p: Record<string, unknown> | undefined): unknown {
  if (!p) return undefined;
  const headers = p.headers as Record<string, unknown> | undefined;
  return p.Authorization ?? p.authorization ?? headers?.Authorization ?? headers?.authorization;
}

function errorsOf(a: GraphQLAnswer): GraphQLError[] {
  const body = JSON.parse(a.text) as { errors?: { message: string; extensions?: Record<string, unknown> }[] };
  return (body.errors ?? [{ message: 'The request was refused.' }]).map(
    (e) => new GraphQLError(e.message, e.extensions ? { extensions: e.extensions } : {}),
  );
}

/** A ChangeStream's texts as the results graphql-ws sends (its `return()` ends the subscription). */
function results(stream: ChangeStream, raws: RawTexts): AsyncGenerator<Placeholder> {
  const gen = {
    [Symbol.asyncIterator]: () => gen,
    next: async () => {
      const r = await stream.next();
      return r.done
        ? { value: undefined, done: true as const }
        : { value: raws.wrap(r.value), done: false as const };
    },
    return: async () => {
      await stream.return();
      return { value: undefined, done: true as const };
    },
    throw: async (e: unknown) => {
      await stream.return();
      throw e;
    },
  };
  return gen as unknown as AsyncGenerator<Placeholder>;
}

function graphqlServer(ctx: Ctx) {
  const service = serviceOf(ctx);
  return makeServer<Record<string, unknown>, Extra>({
    onConnect: async (c) => {
      if (c.extra.principal) return true;
      try {
        c.extra.principal = await authenticate(
          ctx,
          payloadAuthorization(c.connectionParams),
          c.extra.graph,
          c.extra.address,
        );
      } catch (e) {
        if (e instanceof AuthError) return false;
        throw e;
      }
      return c.extra.principal !== undefined;
    },
    onSubscribe: async (c, id, payload) => {
      const { graph, principal } = c.extra;
      if (c.extra.operations.size >= MAX_SUBSCRIPTIONS) {
        return [new GraphQLError(`A connection may run at most ${MAX_SUBSCRIPTIONS} operations at once.`)];
      }
      const request: GraphQLRequest = payload;
      const prepared = service.prepare(graph, request);
      if ('text' in prepared) return errorsOf(prepared);
      const limits = limitsFor(ctx.graphql, ctx.db.catalog, principal?.user, graph, service.limits);
      const args: ExecutionArgs = {
        schema: prepared.entry.built.schema,
        document: prepared.document,
        ...(typeof request.operationName === 'string' ? { operationName: request.operationName } : {}),
      };
      if (prepared.operation.operation === 'subscription') {
        const stream = service.subscribe(graph, request, { limits, budget: c.extra.budget });
        if ('text' in stream) return errorsOf(stream);
        c.extra.operations.add(id);
        return { ...args, contextValue: { stream, raws: c.extra.raws } };
      }
      c.extra.operations.add(id);
      const run = () =>
        service.execute(graph, request, {
          method: 'POST',
          limits,
          authorizeWrite: async (kind) => {
            // onConnect admits only an authenticated caller; none here is refused, never open.
            if (!principal) throw forbidden('Access denied: a mutation needs an authenticated caller.');
            const privileges =
              kind === 'insert' ? (['CREATE_DATA', 'UPDATE_DATA'] as const) : (['DELETE_DATA'] as const);
            await AuthService.for(ctx.db).check(
              principal,
              { kind: 'all', privileges: [...privileges] },
              graph,
            );
          },
        });
      return { ...args, contextValue: { run, raws: c.extra.raws } };
    },
    execute: async (args) => {
      const { run, raws } = args.contextValue as { run: () => Promise<GraphQLAnswer>; raws: RawTexts };
      return raws.wrap((await run()).text) as never;
    },
    subscribe: async (args) => {
      const { stream, raws } = args.contextValue as { stream: ChangeStream; raws: RawTexts };
      return results(stream, raws) as never;
    },
    onNext: (_c, _id, _payload, _args, result) => result as never,
    onComplete: (c, id) => {
      c.extra.operations.delete(id);
    },
    onError: (c, id) => {
      c.extra.operations.delete(id);
    },
  });
}

/** Serves one accepted socket. */
function serveSocket(server: ReturnType<typeof graphqlServer>, socket: WebSocket, extra: Extra): void {
  const ping = setInterval(() => {
    if (socket.readyState !== socket.OPEN) return;
    const dead = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
    socket.once('pong', () => clearTimeout(dead));
    socket.ping();
  }, KEEP_ALIVE_MS);
  const closed = server.opened(
    {
      protocol: socket.protocol,
      send: (data) =>
        new Promise<void>((resolve, reject) => {
          if (socket.readyState !== socket.OPEN) return resolve();
          if (socket.bufferedAmount > MAX_BUFFERED) {
            socket.close(CloseCode.BadResponse, 'The client reads too slowly');
            return resolve();
          }
          socket.send(extra.raws.expand(data), (err) => (err ? reject(err) : resolve()));
        }),
      close: (code, reason) => socket.close(code, reason),
      onMessage: (cb) =>
        socket.on('message', async (event) => {
          try {
            await cb(String(event));
          } catch {
            socket.close(CloseCode.InternalServerError, 'Internal server error');
          }
        }),
    },
    extra,
  );
  socket.once('close', (code, reason) => {
    clearInterval(ping);
    extra.raws.clear();
    void closed(code, String(reason));
  });
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  429: 'Too Many Requests',
};

function reject(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ errors: [{ message }] });
  const head = [`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Not Found'}`];
  for (const [k, v] of Object.entries({
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...headers,
  }))
    head.push(`${k}: ${v}`);
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * Accepts graphql-ws upgrades on `app`'s server at the paths `graphOf` maps to a graph; other
 * upgrades are refused with 404.
 */
export function installGraphqlWebSocket(
  app: FastifyInstance,
  ctx: Ctx,
  graphOf: (pathname: string) => string | undefined,
): void {
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (p) => handleProtocols(p),
    maxPayload: 1024 * 1024,
  });
  const server = graphqlServer(ctx);
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const graph = graphOf(url.pathname);
      if (graph === undefined) {
        // Another upgrade handler of the server may own the path.
        if (app.server.listenerCount('upgrade') > 1) return;
        return reject(socket, 404, `No WebSocket endpoint at ${url.pathname}.`);
      }
      // Browsers send Origin on every upgrade: another site's page must not reuse their login.
      const foreign = foreignOrigin(req.headers, { allowedOrigins: ctx.corsOrigins ?? [] });
      if (foreign !== undefined) return reject(socket, 403, crossOriginRefusal(foreign));
      const address = req.socket.remoteAddress;
      let principal: Principal | undefined;
      try {
        principal = await authenticate(ctx, req.headers.authorization, graph, address);
      } catch (e) {
        if (!(e instanceof AuthError)) throw e;
        return reject(
          socket,
          e.status,
          e.message,
          e.status === 401
            ? { 'WWW-Authenticate': 'Basic realm="Ocelot GraphQL"' }
            : e.retryAfter === undefined
              ? {}
              : { 'Retry-After': String(e.retryAfter) },
        );
      }
      if (!serviceOf(ctx).graphExists(graph)) return reject(socket, 404, `Graph '${graph}' does not exist.`);
      wss.handleUpgrade(req, socket, head, (ws) =>
        serveSocket(server, ws, {
          graph,
          principal,
          address,
          budget: new EventBudget(EVENTS_PER_CONNECTION),
          raws: new RawTexts(),
          operations: new Set(),
        }),
      );
    })().catch(() => socket.destroy());
  });
  app.addHook('preClose', async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });
}
