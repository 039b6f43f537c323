/**
 * HTTP scenarios: REST++ point reads and a vertex list under autocannon at a fixed number of
 * concurrent clients, against a bare Fastify server with a same-sized body (the ceiling). The
 * GraphQL scenarios are in scenarios-graphql.ts.
 */
import { fileURLToPath } from 'node:url';
import type { Context } from './context.js';
import { RMAT_GRAPH } from './gsql-text.js';
import { load, type HttpLoad } from './http-load.js';
import { spawnReady, stopChild } from './server.js';
import { unavailable, type Outcome, type Row } from './stats.js';

const FASTIFY_PEER = fileURLToPath(new URL('./fastify-peer.js', import.meta.url));

async function measure(ctx: Context, url: string, paths: string[]): Promise<HttpLoad[]> {
  const out: HttpLoad[] = [];
  for (let i = 0; i < ctx.opts.runs; i++)
    out.push(await load(url, paths, ctx.opts.connections, ctx.opts.seconds));
  return out;
}

function rows(
  what: string,
  mine: HttpLoad[] | string,
  peer: HttpLoad[] | string,
  note: string,
  target?: number,
): Row[] {
  const pick = (x: HttpLoad[] | string, f: (l: HttpLoad) => number): Outcome =>
    typeof x === 'string' ? unavailable(x) : { samples: x.map(f) };
  const metric = (unit: string, better: Row['better'], f: (l: HttpLoad) => number, t?: number): Row => ({
    scenario: 'reads',
    what,
    unit,
    better,
    ocelot: pick(mine, f),
    peers: { fastify: pick(peer, f) },
    note,
    target: t,
  });
  return [
    metric('req/s', 'higher', (l) => l.rps, target),
    metric('p50 ms', 'lower', (l) => l.p50),
    metric('p99 ms', 'lower', (l) => l.p99),
  ];
}

const reason = (e: unknown): string => (e instanceof Error ? e.message.split('\n')[0] : String(e));

export async function reads(ctx: Context): Promise<void> {
  const ids = ctx.data.seeds.slice(0, 100);
  const point = ids.map((id) => `/graph/${RMAT_GRAPH}/vertices/MyNode/${id}`);
  const list = [`/graph/${RMAT_GRAPH}/vertices/MyNode?limit=100`];
  let fastifyUrl: string | undefined;
  let stop = async (): Promise<void> => {};
  let peerMissing = '';
  try {
    const { child, stdout } = await spawnReady([FASTIFY_PEER], /listening (\S+)/, 30_000);
    fastifyUrl = /listening (\S+)/.exec(stdout)![1];
    stop = () => stopChild(child);
  } catch (e) {
    peerMissing = `fastify peer did not start (${reason(e)})`;
  }
  const run = async (
    url: string | undefined,
    paths: string[],
    missing: string,
  ): Promise<HttpLoad[] | string> => {
    if (!url) return missing;
    try {
      return await measure(ctx, url, paths);
    } catch (e) {
      return reason(e);
    }
  };
  try {
    const note = `autocannon, ${ctx.opts.connections} connections, ${ctx.opts.seconds} s per run, loopback`;
    const mine = await run(ctx.server.urls.restpp, point, '');
    const peer = await run(fastifyUrl, point, peerMissing);
    // The target is 70% of bare Fastify on the same box.
    const target = typeof peer === 'string' ? undefined : 0.7 * Math.min(...peer.map((l) => l.rps));
    ctx.rows.push(...rows('point read GET /graph/{g}/vertices/{t}/{id}', mine, peer, note, target));
    const mineList = await run(ctx.server.urls.restpp, list, '');
    const peerList = await run(fastifyUrl, list, peerMissing);
    ctx.rows.push(...rows('vertex list, limit 100', mineList, peerList, note));
  } finally {
    await stop();
  }
}
