/**
 * A cluster node's request hooks (installed on every listener with --cluster):
 * - a write reaching a follower is forwarded to the leader's same listener and the leader's answer
 *   relayed; the answer ends only once this node applied the version the leader reported, so a read
 *   here right after it sees the write (read-your-writes);
 * - a read waits until this node caught up with the log (after a start, or a write it acknowledged
 *   but had not applied in time);
 * - a leader answers a forwarded request with its version after the request's last commit, as a
 *   trailer (an error answer: as a header).
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClusterNode } from '../../cluster/index.js';
import type { Database } from '../../engine/database.js';
import { RestError } from '../http/envelope.js';
import { classifyRequest } from './classify.js';

export const FORWARDED_BY = 'x-ocelot-forwarded-by';
export const VERSION_HEADER = 'x-ocelot-version';
const NOT_LEADER = 'x-ocelot-not-leader';
export const LEADER_HEADER = 'x-ocelot-leader';

/** How long a request waits for a leader (fail-over) or for this node to catch up. */
const WAIT_MS = 15_000;
/** Headers that belong to one connection, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  // Where a browser request came from was judged by this node's browser guard against its own
  // host; the leader would see a foreign origin in them (server/http/browser-guard.ts).
  'origin',
  'sec-fetch-site',
  'sec-fetch-mode',
  'sec-fetch-dest',
  'sec-fetch-user',
]);

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export function installClusterHooks(
  app: FastifyInstance,
  listener: string,
  cluster: ClusterNode,
  db: Database,
): void {
  app.addHook('preHandler', async (request, reply) => {
    const endpoint = request.routeOptions.config.endpoint;
    if (endpoint === undefined) return;
    if (request.headers[FORWARDED_BY] !== undefined) return answerForwarded(reply, cluster, db);
    const kind = classifyRequest(endpoint, request, db.catalog);
    if (kind === 'node') return;
    if (kind === 'read' || cluster.role === 'leader') {
      if (!(await cluster.waitUntil(() => cluster.readable, WAIT_MS))) {
        throw new RestError(
          'SYS-0001',
          `Cluster node ${cluster.nodeId} has not caught up with the cluster log yet; retry, or ask another node.`,
        );
      }
      return;
    }
    await forward(request, reply, listener, cluster);
  });
  // An error answer carries no trailer (the framework cannot combine one with its length).
  app.addHook('onError', async (request, reply) => {
    if (request.headers[FORWARDED_BY] === undefined) return;
    reply.removeTrailer(VERSION_HEADER);
    void reply.header(VERSION_HEADER, String(db.version));
  });
}

/** The leader's side of a forwarded request; another node refuses it (the forwarder then retries). */
function answerForwarded(reply: FastifyReply, cluster: ClusterNode, db: Database): void {
  if (cluster.role !== 'leader') {
    void reply.header(NOT_LEADER, '1');
    throw new RestError('SYS-0001', `Cluster node ${cluster.nodeId} is not the leader; retry.`);
  }
  void reply.trailer(VERSION_HEADER, async () => String(db.version));
}

/**
 * Sends the request to the leader and relays its answer. A request that certainly did not reach a
 * leader (connection refused, or a node that is no longer leader refused it) is retried while a
 * new leader is found, when its body can be sent again.
 */
async function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  listener: string,
  cluster: ClusterNode,
): Promise<void> {
  const body = request.body;
  const replayable = body === undefined || body === null || Buffer.isBuffer(body);
  const deadline = performance.now() + WAIT_MS;
  for (;;) {
    const leader = (await cluster.waitUntil(() => cluster.leader !== undefined, deadline - performance.now()))
      ? cluster.leader
      : undefined;
    if (!leader) throw new RestError('SYS-0001', 'The cluster has no leader at the moment; retry.');
    const target = leader.urls[listener];
    if (target === undefined) throw new RestError('SYS-0001', `The leader serves no ${listener} listener.`);
    if (leader.nodeId === cluster.nodeId) {
      // Became the leader meanwhile: serve it here.
      return;
    }
    let res: IncomingMessage;
    try {
      res = await send(request, target, cluster.nodeId);
    } catch (e) {
      const refused = (e as { code?: string }).code === 'ECONNREFUSED';
      if (refused && replayable && performance.now() < deadline) {
        await delay(200);
        continue;
      }
      cluster.counters.forwardFailures++;
      throw new RestError(
        'SYS-0001',
        `The leader ${leader.nodeId} did not answer (${(e as Error).message}); the outcome of this write is unknown.`,
      );
    }
    if (res.headers[NOT_LEADER] !== undefined && replayable && performance.now() < deadline) {
      res.resume();
      await delay(200);
      continue;
    }
    cluster.counters.forwarded++;
    await relay(res, reply, leader.nodeId, cluster);
    return;
  }
}

function send(request: FastifyRequest, target: string, nodeId: string): Promise<IncomingMessage> {
  const url = new URL(request.url, target);
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(request.headers)) {
    if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
  }
  headers[FORWARDED_BY] = nodeId;
  const body = request.body;
  if (Buffer.isBuffer(body)) headers['content-length'] = String(body.length);
  else if (request.headers['content-length'] !== undefined && isStream(body))
    headers['content-length'] = request.headers['content-length'];
  return new Promise((resolve, reject) => {
    const out = httpRequest(url, { method: request.method, headers, agent }, resolve);
    out.on('error', reject);
    if (Buffer.isBuffer(body)) out.end(body);
    else if (isStream(body)) body.pipe(out);
    else out.end();
  });
}

/** Relays the leader's answer; it ends once this node applied the leader's version. */
async function relay(
  res: IncomingMessage,
  reply: FastifyReply,
  leader: string,
  cluster: ClusterNode,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(res.statusCode ?? 502, relayedHeaders(res.headers, leader));
  res.pipe(raw, { end: false });
  await new Promise<void>((resolve) => {
    res.once('end', resolve);
    res.once('error', resolve);
    res.once('aborted', resolve);
  });
  if (!res.complete) {
    // The leader went away mid-answer: the client must not take a cut answer for a whole one.
    raw.destroy();
    return;
  }
  const version = Number(res.trailers[VERSION_HEADER] ?? res.headers[VERSION_HEADER]);
  if (Number.isSafeInteger(version)) await cluster.waitForVersion(version, WAIT_MS);
  raw.end();
}

function relayedHeaders(h: IncomingHttpHeaders, leader: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v !== undefined && !HOP_BY_HOP.has(k) && k !== VERSION_HEADER) out[k] = v;
  }
  // The length is kept when the leader sent one: the body is relayed as it came.
  if (h['content-length'] !== undefined) out['content-length'] = h['content-length'];
  out[LEADER_HEADER] = leader;
  return out;
}

function isStream(body: unknown): body is Readable {
  return body !== null && typeof body === 'object' && typeof (body as Readable).pipe === 'function';
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
