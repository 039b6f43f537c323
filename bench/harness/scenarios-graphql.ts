/**
 * GraphQL scenarios, against the same RMAT data and the same server as the rest of the run:
 *  - the 2-level nested query from each seed (`MyNode(where: {_id: {_eq: s}}) { MyEdge { to {
 *    _id MyEdge { to { _id } } } } }`) over HTTP (POST :14240/api/graphql/gsql/rmat), against the
 *    installed GSQL query two_hop that returns the same two hops (target: at most 1.25x its time);
 *  - a point query by id under autocannon, against REST++ point reads of the same ids at the same
 *    concurrency (target: at least half of REST++'s requests per second).
 */
import { Agent, request } from 'node:http';
import type { Context } from './context.js';
import { RMAT_GRAPH } from './gsql-text.js';
import { load, type HttpLoad } from './http-load.js';
import type { Outcome } from './stats.js';

const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;
const TWO_HOP = `query($s: Int64) { ${RMAT_GRAPH} { MyNode(where: {_id: {_eq: $s}}) { MyEdge { to { _id MyEdge { to { _id } } } } } } }`;
const POINT = (id: number) => `{ ${RMAT_GRAPH} { MyNode(where: {_id: {_eq: ${id}}}) { _id } } }`;

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

export async function graphqlPoint(ctx: Context): Promise<void> {
  const ids = ctx.data.seeds.slice(0, 100);
  const graphqlPath = `/api/graphql/gsql/${RMAT_GRAPH}`;
  const headers = { authorization: BASIC, 'content-type': 'application/json' };
  const requests = ids.map((id) => ({
    method: 'POST' as const,
    path: graphqlPath,
    body: JSON.stringify({ query: POINT(id) }),
    headers,
  }));
  const restpp = ids.map((id) => `/graph/${RMAT_GRAPH}/vertices/MyNode/${id}`);
  const mine: HttpLoad[] = [];
  const rest: HttpLoad[] = [];
  for (let i = 0; i < ctx.opts.runs; i++) {
    rest.push(await load(ctx.server.urls.restpp, restpp, ctx.opts.connections, ctx.opts.seconds));
    mine.push(await load(ctx.server.urls.gsql, requests, ctx.opts.connections, ctx.opts.seconds));
  }
  const pick = (x: HttpLoad[], f: (l: HttpLoad) => number): Outcome => ({ samples: x.map(f) });
  const restRps = [...rest.map((l) => l.rps)].sort((a, b) => a - b)[rest.length >> 1];
  const note = `autocannon, ${ctx.opts.connections} connections, ${ctx.opts.seconds} s per run, loopback; target half of REST++`;
  ctx.rows.push(
    {
      scenario: 'gqlpoint',
      what: 'point query by _id (HTTP)',
      unit: 'req/s',
      better: 'higher',
      ocelot: pick(mine, (l) => l.rps),
      peers: { 'REST++ point read': pick(rest, (l) => l.rps) },
      note,
      target: restRps / 2,
    },
    {
      scenario: 'gqlpoint',
      what: 'point query by _id (HTTP)',
      unit: 'p99 ms',
      better: 'lower',
      ocelot: pick(mine, (l) => l.p99),
      peers: { 'REST++ point read': pick(rest, (l) => l.p99) },
      note,
    },
  );
}
