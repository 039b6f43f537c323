/**
 * Fresh data (issue #25, "Fresh data is as fast as merged data"): the RMAT CSV loaded through
 * POST /ddl (the loading job `load_rmat`) into an emptied graph store, then 3-hop reach, PageRank
 * and WCC run at once, then /rebuildnow and the same queries again. Each run does both, so fresh
 * and rebuilt alternate; the note gives the median over runs of each run's fresh/rebuilt ratio
 * (the target: at most 1.3).
 */
import { readFile } from 'node:fs/promises';
import type { Context } from './context.js';
import { RMAT_GRAPH } from './gsql-text.js';
import type { QueryClient } from './query-client.js';
import { median, percentile, type Row } from './stats.js';

async function seconds(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return (performance.now() - t0) / 1000;
}

/** 3-hop reach from every seed, PageRank and WCC, once each, timed into `into`; returns the answers. */
async function once(q: QueryClient, ctx: Context, into: number[][]): Promise<string> {
  let reach = 0;
  into[0].push(
    await seconds(async () => {
      for (const s of ctx.data.seeds) reach += Number((await q.run('khop', { s, k: 3 }))[0]['@@reached']);
    }),
  );
  let pr = 0;
  into[1].push(
    await seconds(async () => {
      pr = Number((await q.run('page_rank', { iterations: 10, damping: 0.85 }))[0]['@@total']);
    }),
  );
  let cc = 0;
  into[2].push(
    await seconds(async () => {
      cc = Number((await q.run('wcc', {}))[0]['@@components']);
    }),
  );
  return `reach ${reach}, PageRank total ${pr.toFixed(6)}, ${cc} components`;
}

/** GET /echo one request at a time until `stop`, which returns each request's milliseconds. */
function echoWhile(ctx: Context): { stop: () => Promise<number[]> } {
  const times: number[] = [];
  let going = true;
  const loop = (async () => {
    while (going) {
      const t0 = performance.now();
      await (await fetch(`${ctx.server.urls.restpp}/echo`)).arrayBuffer();
      times.push(performance.now() - t0);
    }
  })();
  return {
    stop: async () => {
      going = false;
      await loop;
      return times;
    },
  };
}

export async function fresh(ctx: Context): Promise<void> {
  const body = await readFile(ctx.data.edgesCsv);
  const measures = ['3-hop distinct reach', 'PageRank, 10 iterations', 'WCC'];
  const freshS: number[][] = measures.map(() => []);
  const rebuiltS: number[][] = measures.map(() => []);
  const loadS: number[] = [];
  const echoMs: number[] = [];
  const answers = new Set<string>();
  const q = await ctx.queries();
  // One untimed round on the graph the suite loaded compiles the queries: both sides start warm.
  await once(
    q,
    ctx,
    measures.map(() => []),
  );
  for (let run = 0; run < ctx.opts.runs; run++) {
    await ctx.server.gsql('CLEAR GRAPH STORE -HARD');
    const sampler = echoWhile(ctx);
    loadS.push(
      await seconds(async () => {
        const res = await fetch(`${ctx.server.urls.restpp}/ddl/${RMAT_GRAPH}?tag=load_rmat&filename=f`, {
          method: 'POST',
          body,
        });
        const json = (await res.json()) as { error?: boolean; message?: string };
        if (!res.ok || json.error === true)
          throw new Error(`POST /ddl failed: ${json.message ?? res.status}`);
      }),
    );
    echoMs.push(...(await sampler.stop()));
    answers.add(await once(q, ctx, freshS));
    await ctx.server.rest('GET', `/rebuildnow/${RMAT_GRAPH}`);
    answers.add(await once(q, ctx, rebuiltS));
    ctx.log(
      `fresh: run ${run + 1}: load ${loadS[run].toFixed(2)} s; ` +
        measures
          .map(
            (m, i) => `${m} ${freshS[i][run].toFixed(3)} s fresh, ${rebuiltS[i][run].toFixed(3)} s rebuilt`,
          )
          .join('; '),
    );
  }
  const same = answers.size === 1 ? [...answers][0] : `ANSWERS DIFFER: ${[...answers].join(' | ')}`;
  const rows: Row[] = measures.map((m, i) => {
    const ratio = median(freshS[i].map((s, k) => s / rebuiltS[i][k]));
    return {
      scenario: 'fresh',
      what: `${m} straight after POST /ddl of RMAT 2^${ctx.opts.scale}`,
      unit: 's',
      better: 'lower',
      ocelot: { samples: freshS[i] },
      peers: { 'Ocelot after /rebuildnow': { samples: rebuiltS[i] } },
      note: `fresh/rebuilt ${ratio.toFixed(2)} (median of per-run ratios; target ≤ 1.3)${i === 0 ? `; ${same}` : ''}`,
    };
  });
  rows.push({
    scenario: 'fresh',
    what: `POST /ddl of RMAT 2^${ctx.opts.scale} into an empty graph`,
    unit: 'edges/s',
    better: 'higher',
    ocelot: { samples: loadS.map((s) => ctx.data.edgeLines / s) },
    peers: {},
    note: 'one request; includes the background merge the load ends with',
  });
  rows.push({
    scenario: 'fresh',
    what: '/echo p99 while POST /ddl loads and merges (one request at a time)',
    unit: 'ms',
    better: 'lower',
    ocelot: { samples: [percentile(echoMs, 0.99)] },
    peers: {},
    note: `${echoMs.length} requests; max ${Math.max(...echoMs).toFixed(1)} ms, median ${median(echoMs).toFixed(2)} ms`,
  });
  ctx.rows.push(...rows);
}
