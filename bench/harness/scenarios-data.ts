/**
 * Data scenarios: CSV load through a loading job (RMAT and the social graph, Kùzu COPY of the
 * same files as the peer), REST++ upsert batches, memory per edge and restart time.
 */
import { join } from 'node:path';
import { writeSocial } from '../generators/social.js';
import type { Context } from './context.js';
import { RMAT_GRAPH, SOCIAL_GRAPH, SOCIAL_SCHEMA } from './gsql-text.js';
import { KuzuPeer } from './kuzu-peer.js';
import { OcelotServer } from './server.js';
import { repeat, unavailable, type Outcome, type Row } from './stats.js';

async function edgeCount(ctx: Context, graph: string, type: string): Promise<number> {
  const r = (await ctx.server.rest('POST', `/builtins/${graph}`, { function: 'stat_edge_number', type })) as {
    results: { count: number }[];
  };
  return r.results.reduce((n, x) => n + x.count, 0);
}

/** RUN LOADING JOB over the RMAT CSV, timed from the client; also leaves the graph loaded. */
export async function loadRmat(ctx: Context): Promise<void> {
  const t0 = performance.now();
  await ctx.server.gsql(`USE GRAPH ${RMAT_GRAPH}\nRUN LOADING JOB load_rmat USING f="${ctx.data.edgesCsv}"`);
  const s = (performance.now() - t0) / 1000;
  ctx.edges = await edgeCount(ctx, RMAT_GRAPH, 'MyEdge');
  // Taken here, before queries leave accumulators and garbage behind.
  await ctx.server.rest('GET', `/rebuildnow/${RMAT_GRAPH}`);
  ctx.loadedRss = ctx.server.rss();
  let kuzu: Outcome = unavailable(typeof ctx.kuzu === 'string' ? ctx.kuzu : '');
  let kuzuMb: Outcome = kuzu;
  if (typeof ctx.kuzu !== 'string') {
    const ms = await ctx.kuzu.loadRmat(ctx.data);
    kuzu = { samples: [ctx.data.edgeLines / (ms / 1000)] };
    kuzuMb = { samples: [ctx.data.edgesBytes / 1048576 / (ms / 1000)] };
  }
  const note = `one run; ${ctx.data.edgeLines} lines, ${ctx.edges} distinct edges, RUN LOADING JOB via gsql shell`;
  ctx.rows.push(
    {
      scenario: 'load',
      what: `RMAT 2^${ctx.opts.scale} CSV`,
      unit: 'edges/s',
      better: 'higher',
      ocelot: { samples: [ctx.data.edgeLines / s] },
      peers: { kuzu },
      note,
      target: 1_000_000,
    },
    {
      scenario: 'load',
      what: `RMAT 2^${ctx.opts.scale} CSV`,
      unit: 'MB/s',
      better: 'higher',
      ocelot: { samples: [ctx.data.edgesBytes / 1048576 / s] },
      peers: { kuzu: kuzuMb },
    },
  );
}

/** The social graph (STRING ids, DATETIME, STRING, LIST attributes) through its loading job. */
export async function loadSocial(ctx: Context): Promise<void> {
  const persons = join(ctx.dir, 'person.csv');
  const knows = join(ctx.dir, 'knows.csv');
  const files = await writeSocial(persons, knows, ctx.opts.socialPersons);
  await ctx.server.gsql(SOCIAL_SCHEMA);
  const t0 = performance.now();
  await ctx.server.gsql(
    `USE GRAPH ${SOCIAL_GRAPH}\nRUN LOADING JOB load_social USING persons="${persons}", friends="${knows}"`,
  );
  const s = (performance.now() - t0) / 1000;
  let kuzu: Outcome;
  const peer = await KuzuPeer.open(join(ctx.dir, 'kuzu-social'));
  if (typeof peer === 'string') kuzu = unavailable(peer);
  else {
    try {
      kuzu = { samples: [(files.persons + files.knows) / ((await peer.loadSocial(persons, knows)) / 1000)] };
    } finally {
      await peer.close();
    }
  }
  ctx.rows.push({
    scenario: 'load',
    what: `social CSV (${files.persons} persons, ${files.knows} knows)`,
    unit: 'lines/s',
    better: 'higher',
    ocelot: { samples: [(files.persons + files.knows) / s] },
    peers: { kuzu },
    note: 'one run; Kùzu keeps the LIST as one STRING',
  });
}

/**
 * POST /graph/{g} batches of 1,000 new vertices, then 1,000 new edges between them: one after another
 * over one keep-alive connection, and again with `upsertConnections` batches in flight at once over
 * as many connections (as parallel loaders send them; the WAL's group commit lets concurrent batches
 * share an fsync). One untimed run of each kind warms the server up first. The bodies of a run are
 * encoded before its clock starts, so the figure is the server's, not the harness's JSON building.
 * The server's CPU per batch (user + system, all its threads) is reported too: it varies far less
 * with the machine's load than the rate.
 */
export async function upsert(ctx: Context): Promise<void> {
  const batches = ctx.opts.upsertBatches;
  const connections = ctx.opts.upsertConnections;
  const path = `/graph/${RMAT_GRAPH}`;
  const sequential = ctx.server.poster(path);
  const concurrent = ctx.server.poster(path, connections);
  let next = 0;
  const vertexBody = (base: number): Buffer => {
    const vs: Record<string, unknown> = {};
    for (let i = 0; i < 1000; i++)
      vs[base + i] = { name: { value: `v${base + i}` }, score: { value: i / 7 } };
    return Buffer.from(JSON.stringify({ vertices: { Extra: vs } }));
  };
  const edgeBody = (base: number): Buffer => {
    const from: Record<string, unknown> = {};
    for (let i = 0; i < 1000; i++)
      from[base + i] = { ExtraEdge: { Extra: { [base + ((i * 7919) % 1000)]: {} } } };
    return Buffer.from(JSON.stringify({ edges: { Extra: from } }));
  };
  /** Sends the bodies, `lanes` at a time; returns the rate and the server's CPU ms per batch. */
  const timed = async (bodies: Buffer[], lanes: number): Promise<[number, number]> => {
    const post = lanes === 1 ? sequential : concurrent;
    let at = 0;
    const lane = async (): Promise<void> => {
      while (at < bodies.length) await post(bodies[at++]!);
    };
    const cpu0 = ctx.server.cpuMs();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: lanes }, lane));
    const s = (performance.now() - t0) / 1000;
    return [(bodies.length * 1000) / s, (ctx.server.cpuMs() - cpu0) / bodies.length];
  };
  const bases: number[] = [];
  let used = 0;
  const measure = async (lanes: number, vertices: boolean): Promise<[Outcome, number[]]> => {
    const cpu: number[] = [];
    const rates = await repeat(ctx.opts.runs, async () => {
      const bodies: Buffer[] = [];
      for (let b = 0; b < batches; b++) {
        if (vertices) {
          bases.push(next);
          bodies.push(vertexBody(next));
          next += 1000;
        } else bodies.push(edgeBody(bases[used++]!));
      }
      const [rate, perBatch] = await timed(bodies, lanes);
      cpu.push(perBatch);
      return rate;
    });
    return [rates, cpu];
  };
  // Warm-up, not reported: otherwise the first measurement (sequential vertices) pays the server's JIT.
  const warm: Buffer[] = [];
  for (let b = 0; b < batches; b++) {
    bases.push(next);
    warm.push(vertexBody(next));
    next += 1000;
  }
  await timed(warm, 1);
  await timed(
    warm.map(() => edgeBody(bases[used++]!)),
    1,
  );
  const [vertices, vertexCpu] = await measure(1, true);
  const [verticesN, vertexCpuN] = await measure(connections, true);
  const [edges, edgeCpu] = await measure(1, false);
  const [edgesN, edgeCpuN] = await measure(connections, false);
  const note = `${batches} sequential batches of 1,000 per run, sync always`;
  const noteN = `${batches} batches of 1,000 per run, ${connections} in flight on ${connections} connections, sync always`;
  const cpuNote = 'server user + system CPU, all threads (/proc, 10 ms ticks)';
  const lanesWhat = `${connections} connections`;
  const row = (what: string, unit: string, ocelot: Outcome, note: string, target?: number): Row => ({
    scenario: 'upsert',
    what,
    unit,
    better: 'higher',
    ocelot,
    peers: {},
    note,
    ...(target === undefined ? {} : { target }),
  });
  const cpuRow = (what: string, samples: number[]): Row => ({
    scenario: 'upsert',
    what,
    unit: 'ms',
    better: 'lower',
    ocelot: { samples },
    peers: {},
    note: cpuNote,
  });
  ctx.rows.push(
    row('REST++ vertices, sequential', 'vertices/s', vertices, note, 200_000),
    cpuRow('server CPU per vertex batch, sequential', vertexCpu),
    row(`REST++ vertices, ${lanesWhat}`, 'vertices/s', verticesN, noteN, 200_000),
    cpuRow(`server CPU per vertex batch, ${lanesWhat}`, vertexCpuN),
    row('REST++ edges, sequential', 'edges/s', edges, note),
    cpuRow('server CPU per edge batch, sequential', edgeCpu),
    row(`REST++ edges, ${lanesWhat}`, 'edges/s', edgesN, noteN),
    cpuRow(`server CPU per edge batch, ${lanesWhat}`, edgeCpuN),
  );
}

/**
 * Server RSS growth per distinct edge (empty server to loaded and rebuilt), and the time to stop
 * and start the server again.
 */
export async function footprint(ctx: Context): Promise<void> {
  const perEdge = (ctx.loadedRss - ctx.emptyRss) / ctx.edges;
  const restart = await repeat(ctx.opts.runs, async () => {
    await ctx.server.stop();
    ctx.server = await OcelotServer.start(
      ctx.server.dataDir,
      ctx.opts.threads === undefined ? {} : { threads: ctx.opts.threads },
    );
    const now = await edgeCount(ctx, RMAT_GRAPH, 'MyEdge');
    if (now !== ctx.edges) throw new Error(`restart lost edges: ${now} of ${ctx.edges}`);
    return ctx.server.startMs / 1000;
  });
  ctx.rows.push(
    {
      scenario: 'footprint',
      what: 'server RSS growth per edge, after load and rebuild',
      unit: 'bytes/edge',
      better: 'lower',
      ocelot: { samples: [perEdge] },
      peers: {},
      note: 'whole process (heap incl. uncollected garbage, ids, vertices) minus the empty server',
      target: 16,
    },
    {
      scenario: 'footprint',
      what: 'restart (spawn to ready, data recovered)',
      unit: 's',
      better: 'lower',
      ocelot: restart,
      peers: {},
      note: 'includes Node start-up (~0.1 s)',
      target: 3,
    },
  );
}
