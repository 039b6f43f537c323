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
import { unavailable, type Outcome, type Row } from './stats.js';

const FASTIFY_PEER = fileURLToPath(new URL('./fastify-peer.js', import.meta.url));

function rows(what: string, mine: HttpLoad[] | string, peer: HttpLoad[] | string, note: string): Row[] {
  const pick = (x: HttpLoad[] | string, f: (l: HttpLoad) => number): Outcome =>
    typeof x === 'string' ? unavailable(x) : { samples: x.map(f) };
  const metric = (unit: string, better: Row['better'], f: (l: HttpLoad) => number, why = note): Row => ({
    scenario: 'reads',
    what,
    unit,
    better,
    ocelot: pick(mine, f),
    peers: { fastify: pick(peer, f) },
    note: why,
  });
  return [
    metric('req/s', 'higher', (l) => l.rps),
    metric(
      'server CPU µs/request',
      'lower',
      (l) => l.cpuUs ?? NaN,
      'server user + system CPU over the measured run (all threads, /proc, 10 ms ticks) / requests answered',
    ),
    metric('p50 ms', 'lower', (l) => l.p50),
    metric('p99 ms', 'lower', (l) => l.p99),
  ];
}

/**
 * Ocelot's rate over the peer's, run by run: each run's pair is measured back to back, so a slow
 * spell of a shared host falls on both sides of the ratio; the row's value is the median ratio.
 */
function pairedRow(what: string, mine: HttpLoad[] | string, peer: HttpLoad[] | string, target: number): Row {
  const ratios =
    typeof mine === 'string' || typeof peer === 'string'
      ? []
      : mine.slice(0, peer.length).map((l, i) => l.rps / peer[i].rps);
  return {
    scenario: 'reads',
    what: `${what}: req/s against bare Fastify`,
    unit: 'x',
    better: 'higher',
    ocelot:
      ratios.length > 0
        ? { samples: ratios }
        : unavailable(typeof mine === 'string' ? mine : typeof peer === 'string' ? peer : 'no runs'),
    peers: {},
    note: `median of ${ratios.length} runs' paired ratios (each Ocelot run with the peer's run after it)`,
    target,
  };
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
    // The targets are 80% (point read) and 50% (list) of bare Fastify on the same box (issue #25).
    const [mine, peer] = await measure(point);
    ctx.rows.push(...rows('point read GET /graph/{g}/vertices/{t}/{id}', mine, peer, note));
    ctx.rows.push(pairedRow('point read', mine, peer, 0.8));
    const [mineList, peerList] = await measure(list);
    ctx.rows.push(...rows('vertex list, limit 100', mineList, peerList, note));
    ctx.rows.push(pairedRow('vertex list, limit 100', mineList, peerList, 0.5));
  } finally {
    await stop();
  }
}
