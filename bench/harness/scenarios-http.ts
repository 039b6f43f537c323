/**
 * HTTP scenarios: REST++ point reads and a vertex list under autocannon at a fixed number of
 * concurrent clients, against a bare Fastify server with a same-sized body (the ceiling). The
 * GraphQL scenarios are in scenarios-graphql.ts.
 */
import { fileURLToPath } from 'node:url';
import type { Context } from './context.js';
import { RMAT_GRAPH } from './gsql-text.js';
import { WARM_UP_SECONDS, warmLoad, type HttpLoad } from './http-load.js';
import { processCpuMs, spawnReady, stopChild } from './server.js';
import { median, unavailable, type Outcome, type Row } from './stats.js';

const FASTIFY_PEER = fileURLToPath(new URL('./fastify-peer.js', import.meta.url));

function rows(
  what: string,
  mine: HttpLoad[] | string,
  peer: HttpLoad[] | string,
  note: string,
  target?: number,
): Row[] {
  const pick = (x: HttpLoad[] | string, f: (l: HttpLoad) => number): Outcome =>
    typeof x === 'string' ? unavailable(x) : { samples: x.map(f) };
  const metric = (
    unit: string,
    better: Row['better'],
    f: (l: HttpLoad) => number,
    t?: number,
    why = note,
  ): Row => ({
    scenario: 'reads',
    what,
    unit,
    better,
    ocelot: pick(mine, f),
    peers: { fastify: pick(peer, f) },
    note: why,
    target: t,
  });
  return [
    metric('req/s', 'higher', (l) => l.rps, target),
    metric(
      'server CPU µs/request',
      'lower',
      (l) => l.cpuUs ?? NaN,
      undefined,
      'server user + system CPU over the measured run (all threads, /proc, 10 ms ticks) / requests answered',
    ),
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
  const peerPid = { pid: undefined as number | undefined };
  try {
    const { child, stdout } = await spawnReady([FASTIFY_PEER], /listening (\S+)/, 30_000);
    fastifyUrl = /listening (\S+)/.exec(stdout)![1];
    peerPid.pid = child.pid;
    stop = () => stopChild(child);
  } catch (e) {
    peerMissing = `fastify peer did not start (${reason(e)})`;
  }
  /** Ocelot and the peer alternating, each run warm: the samples of both, or why one is missing. */
  const measure = async (paths: string[]): Promise<[HttpLoad[] | string, HttpLoad[] | string]> => {
    let mine: HttpLoad[] | string = [];
    let peer: HttpLoad[] | string = fastifyUrl ? [] : peerMissing;
    for (let i = 0; i < ctx.opts.runs; i++) {
      const { connections, seconds } = ctx.opts;
      if (typeof mine !== 'string') {
        try {
          mine.push(
            await warmLoad(ctx.server.urls.restpp, paths, connections, seconds, () => ctx.server.cpuMs()),
          );
        } catch (e) {
          mine = reason(e);
        }
      }
      if (typeof peer !== 'string' && fastifyUrl) {
        try {
          peer.push(await warmLoad(fastifyUrl, paths, connections, seconds, () => processCpuMs(peerPid.pid)));
        } catch (e) {
          peer = reason(e);
        }
      }
    }
    return [mine, peer];
  };
  try {
    const note = `autocannon, ${ctx.opts.connections} connections, ${ctx.opts.seconds} s per run after a ${WARM_UP_SECONDS} s warm-up, Ocelot and the peer alternating, loopback`;
    const [mine, peer] = await measure(point);
    // The target is 80% of bare Fastify on the same box (issue #25).
    const target = typeof peer === 'string' ? undefined : 0.8 * median(peer.map((l) => l.rps));
    ctx.rows.push(...rows('point read GET /graph/{g}/vertices/{t}/{id}', mine, peer, note, target));
    const [mineList, peerList] = await measure(list);
    const listTarget = typeof peerList === 'string' ? undefined : 0.5 * median(peerList.map((l) => l.rps));
    ctx.rows.push(...rows('vertex list, limit 100', mineList, peerList, note, listTarget));
  } finally {
    await stop();
  }
}
