/**
 * GraphQL scenarios, against the same RMAT data and the same server as the rest of the run:
 *  - the 2-level nested query from each seed (`MyNode(where: {_id: {_eq: s}}) { MyEdge { to {
 *    _id MyEdge { to { _id } } } } }`) over HTTP (POST :14240/api/graphql/gsql/rmat), against the
 *    installed GSQL query two_hop that returns the same two hops (target: at most 1.25x its time);
 *  - a point query by id under autocannon, against REST++ point reads of the same ids at the same
 *    concurrency (target: at least half of REST++'s requests per second), with REST++ asking for
 *    no credentials and, restarted with `--auth`, with a token and with Basic credentials.
 */
import { Agent, request } from 'node:http';
import type { Context } from './context.js';
import { RMAT_GRAPH } from './gsql-text.js';
import { WARM_UP_SECONDS, warmLoad, type HttpLoad, type LoadRequest } from './http-load.js';
import { OcelotServer } from './server.js';
import { median, type Outcome, type Row } from './stats.js';

const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;
const TWO_HOP = `query($s: Int64) { ${RMAT_GRAPH} { MyNode(where: {_id: {_eq: $s}}) { MyEdge { to { _id MyEdge { to { _id } } } } } } }`;
const POINT = (id: number) => `{ ${RMAT_GRAPH} { MyNode(where: {_id: {_eq: ${id}}}) { _id } } }`;
/** The same point query as a client library sends it: one document, the id as a variable. */
const POINT_VARIABLE = `query($id: Int64) { ${RMAT_GRAPH} { MyNode(where: {_id: {_eq: $id}}) { _id } } }`;
/** More distinct ids than the service remembers request texts (1,000): every request is new to it. */
const DISTINCT_IDS = 5000;

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

interface TwoHops {
  MyEdge: { to: { _id: number; MyEdge: { to: { _id: number } }[] } }[];
}

/** The distinct ids at one and two hops of a nested answer (GSQL's One and Two). */
function hopIds(roots: TwoHops[]): [Set<string>, Set<string>] {
  const one = new Set<string>();
  const two = new Set<string>();
  for (const r of roots) {
    for (const e of r.MyEdge) {
      one.add(String(e.to._id));
      for (const f of e.to.MyEdge) two.add(String(f.to._id));
    }
  }
  return [one, two];
}

/** One POST of a GraphQL request on a kept-alive connection; the answer's text. */
function post(url: string, body: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent: keepAlive,
        headers: {
          authorization: BASIC,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'GSQL-TIMEOUT': '3600000',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () =>
          res.statusCode === 200 && !text.startsWith('{"errors"')
            ? resolve(text)
            : reject(new Error(`GraphQL answered ${res.statusCode}: ${text.slice(0, 300)}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function graphqlTwoHop(ctx: Context): Promise<void> {
  const url = `${ctx.server.urls.gsql}/api/graphql/gsql/${RMAT_GRAPH}`;
  const seeds = ctx.data.seeds;
  const q = await ctx.queries();
  // Warm both (the GSQL query compiles at first use, GraphQL caches the document and degree
  // statistics) and check they return the same two hops.
  for (const s of seeds) {
    const gsql = (await q.run('two_hop', { s }))[0] as { One: { v_id: string }[]; Two: { v_id: string }[] };
    const text = await post(url, JSON.stringify({ query: TWO_HOP, variables: { s } }));
    const mine = JSON.parse(text) as { data: { [g: string]: { MyNode: TwoHops[] } } };
    const [one, two] = hopIds(mine.data[RMAT_GRAPH].MyNode);
    const same = (a: Set<string>, b: { v_id: string }[]) =>
      a.size === new Set(b.map((v) => v.v_id)).size && b.every((v) => a.has(v.v_id));
    if (!same(one, gsql.One) || !same(two, gsql.Two)) {
      throw new Error(`GraphQL and GSQL disagree on the 2-hop neighbourhood of seed ${s}`);
    }
  }
  const gsql: number[] = [];
  const graphql: number[] = [];
  // Alternating runs, so both see the same machine state.
  for (let run = 0; run < ctx.opts.runs; run++) {
    let t0 = performance.now();
    for (const s of seeds) await q.run('two_hop', { s });
    gsql.push((performance.now() - t0) / seeds.length);
    t0 = performance.now();
    for (const s of seeds) await post(url, JSON.stringify({ query: TWO_HOP, variables: { s } }));
    graphql.push((performance.now() - t0) / seeds.length);
  }
  const gsqlMs = [...gsql].sort((a, b) => a - b)[gsql.length >> 1];
  ctx.rows.push({
    scenario: 'gql2hop',
    what: '2-hop nested query (HTTP)',
    unit: 'ms',
    better: 'lower',
    ocelot: { samples: graphql },
    peers: { 'GSQL two_hop': { samples: gsql } },
    note: `mean over ${seeds.length} seeds, the same two hops checked (GraphQL returns every path, GSQL the distinct vertices); GSQL via ${q.via}; target 1.25x GSQL`,
    target: 1.25 * gsqlMs,
  });
}

/** A REST++ token for the benchmark graph (POST /requesttoken with Basic credentials). */
async function restppToken(restpp: string): Promise<string> {
  const res = await fetch(`${restpp}/requesttoken`, {
    method: 'POST',
    headers: { authorization: BASIC, 'content-type': 'application/json' },
    body: JSON.stringify({ graph: RMAT_GRAPH }),
  });
  const env = (await res.json()) as { results?: { token?: string }; token?: string };
  const token = env.results?.token ?? env.token;
  if (res.status !== 200 || !token) throw new Error(`POST /requesttoken answered ${res.status}`);
  return token;
}

interface PointSeries {
  label: string;
  url: string;
  requests: LoadRequest[];
  loads: HttpLoad[];
}

/** Alternating warm runs of each series, `runs` rounds, on one server (its CPU counted). */
async function alternate(ctx: Context, series: PointSeries[]): Promise<void> {
  const cpu = () => ctx.server.cpuMs();
  for (let i = 0; i < ctx.opts.runs; i++) {
    for (const s of series) {
      s.loads.push(await warmLoad(s.url, s.requests, ctx.opts.connections, ctx.opts.seconds, cpu));
    }
  }
}

/**
 * The GraphQL point query (POST, Basic credentials, as every GraphQL request has) against REST++
 * point reads of the same ids: first on the server as the run started it (REST++ without
 * authentication, TigerGraph's default), then on the same data restarted with `--auth`, where
 * REST++ reads carry a token or the same Basic credentials: the like-for-like comparison. The
 * GraphQL series repeats 100 request texts (the service answers a repeated point lookup from a
 * remembered program); a third series sends the id as a variable over 5,000 ids, so every
 * request takes the general path.
 */
export async function graphqlPoint(ctx: Context): Promise<void> {
  const ids = ctx.data.seeds.slice(0, 100);
  const graphqlPath = `/api/graphql/gsql/${RMAT_GRAPH}`;
  const headers = { authorization: BASIC, 'content-type': 'application/json' };
  const graphql = (): PointSeries => ({
    label: 'GraphQL',
    url: ctx.server.urls.gsql,
    requests: ids.map((id) => ({
      method: 'POST' as const,
      path: graphqlPath,
      body: JSON.stringify({ query: POINT(id) }),
      headers,
    })),
    loads: [],
  });
  const restpp = (label: string, authorization?: string): PointSeries => ({
    label,
    url: ctx.server.urls.restpp,
    requests: ids.map((id) => {
      const path = `/graph/${RMAT_GRAPH}/vertices/MyNode/${id}`;
      return authorization ? { method: 'GET' as const, path, headers: { authorization } } : path;
    }),
    loads: [],
  });
  const distinct = [...new Set(ctx.data.src)].slice(0, DISTINCT_IDS);
  const graphqlVariables: PointSeries = {
    label: 'GraphQL, id as a variable',
    url: ctx.server.urls.gsql,
    requests: distinct.map((id) => ({
      method: 'POST' as const,
      path: graphqlPath,
      body: JSON.stringify({ query: POINT_VARIABLE, variables: { id } }),
      headers,
    })),
    loads: [],
  };
  const open = [restpp('REST++ point read, no credentials'), graphql()];
  await alternate(ctx, [...open, graphqlVariables]);
  // The same data with REST++ authentication on; the server is restarted as it was afterwards.
  const threads = ctx.opts.threads === undefined ? {} : { threads: ctx.opts.threads };
  await ctx.server.stop();
  ctx.server = await OcelotServer.start(ctx.server.dataDir, { ...threads, auth: true });
  let authed: PointSeries[];
  try {
    const token = await restppToken(ctx.server.urls.restpp);
    authed = [
      restpp('REST++ point read, token', `Bearer ${token}`),
      restpp('REST++ point read, Basic', BASIC),
      graphql(),
    ];
    await alternate(ctx, authed);
  } finally {
    await ctx.server.stop();
    ctx.server = await OcelotServer.start(ctx.server.dataDir, threads);
  }
  const note = (what: string) =>
    `autocannon, ${ctx.opts.connections} connections, ${ctx.opts.seconds} s per run after a ${WARM_UP_SECONDS} s warm-up, runs alternating, loopback; ${what}`;
  const rowsOf = (series: PointSeries[], what: string, noteText: string): Row[] => {
    const mine = series[series.length - 1];
    const peers = series.slice(0, -1);
    const pick = (x: HttpLoad[], f: (l: HttpLoad) => number): Outcome => ({ samples: x.map(f) });
    const peerOutcomes = (f: (l: HttpLoad) => number) =>
      Object.fromEntries(peers.map((p) => [p.label, pick(p.loads, f)]));
    const best = Math.max(...peers.map((p) => median(p.loads.map((l) => l.rps))));
    return [
      {
        scenario: 'gqlpoint',
        what,
        unit: 'req/s',
        better: 'higher',
        ocelot: pick(mine.loads, (l) => l.rps),
        peers: peerOutcomes((l) => l.rps),
        note: noteText,
        target: best / 2,
      },
      {
        scenario: 'gqlpoint',
        what,
        unit: 'server CPU µs/request',
        better: 'lower',
        ocelot: pick(mine.loads, (l) => l.cpuUs ?? NaN),
        peers: peerOutcomes((l) => l.cpuUs ?? NaN),
        note: 'server user + system CPU over the measured run (all threads, /proc, 10 ms ticks) / requests answered',
      },
      {
        scenario: 'gqlpoint',
        what,
        unit: 'p99 ms',
        better: 'lower',
        ocelot: pick(mine.loads, (l) => l.p99),
        peers: peerOutcomes((l) => l.p99),
        note: noteText,
      },
    ];
  };
  ctx.rows.push(
    ...rowsOf(
      open,
      'point query by _id (HTTP, Basic) vs REST++ without --auth',
      note('REST++ asks for no credentials; target half of REST++'),
    ),
    ...rowsOf(
      [open[0], graphqlVariables],
      `point query, id as a variable, ${distinct.length.toLocaleString('en-US')} distinct ids (HTTP, Basic) vs REST++ without --auth`,
      note(
        'REST++ asks for no credentials; each GraphQL request text is new to the service (the general path: parse, plan, estimate, run)',
      ),
    ),
    ...rowsOf(
      authed,
      'point query by _id (HTTP, Basic) vs REST++ with --auth',
      note(
        'server restarted with --auth; REST++ reads carry a Bearer token or the same Basic credentials; target half of the faster',
      ),
    ),
  );
}
