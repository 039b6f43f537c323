/**
 * The benchmark harness: `ocelot bench <scenario|all> [--scale N] [--runs N] [--json out.json]
 * [--quick] …`. Generates the RMAT data, starts `ocelot serve` on loopback in a child process,
 * loads the data through a loading job, installs the queries, runs the chosen scenarios against
 * the server and the peers, and prints one table (median ± spread, ratio to each peer and target).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context, Options } from './context.js';
import { makeData } from './data.js';
import { GraphologyPeer } from './graphology-peer.js';
import { RMAT_QUERIES, RMAT_GRAPH, RMAT_SCHEMA } from './gsql-text.js';
import { KuzuPeer } from './kuzu-peer.js';
import { queryClient, type QueryClient } from './query-client.js';
import { engine } from './scenarios-engine.js';
import { algo, khop, pattern, shortest } from './scenarios-graph.js';
import { reads } from './scenarios-http.js';
import { graphqlPoint, graphqlTwoHop } from './scenarios-graphql.js';
import { footprint, loadRmat, loadSocial, upsert } from './scenarios-data.js';
import { loadThreads } from './scenarios-load-threads.js';
import { isolation } from './scenarios-parallel.js';
import { scaling } from './scenarios-scaling.js';
import { fresh } from './scenarios-fresh.js';
import { OcelotServer } from './server.js';
import { renderTable, unavailable, type Row } from './stats.js';

/** In run order; footprint restarts the server, so it comes after everything that uses it. */
export const SCENARIOS: Record<string, (ctx: Context) => Promise<void>> = {
  load: async (ctx) => {
    await loadSocial(ctx);
    await loadThreads(ctx);
  },
  upsert,
  reads,
  khop,
  pattern,
  shortest,
  algo,
  scaling,
  isolation,
  gql2hop: graphqlTwoHop,
  gqlpoint: graphqlPoint,
  footprint,
  engine,
  // Last: it empties the graph store (the social graph and upserted vertices too) and reloads RMAT.
  fresh,
};

const USAGE = `Usage: ocelot bench <${['all', ...Object.keys(SCENARIOS)].join('|')}> [options]
  --scale N        RMAT scale: 2^N vertices, 16·2^N edges (default 20; --quick 8)
  --runs N         repeated runs per measurement (default 3; --quick 1)
  --seeds N        k-hop seeds (default 10); --pairs N shortest-path pairs (default 20)
  --connections N  concurrent HTTP clients (default 16); --seconds N per HTTP run (default 5)
  --upsert-batches N  1,000-vertex batches per upsert run (default 50)
  --upsert-connections N  connections of the concurrent upsert runs (default 4)
  --social N       persons in the social graph (default 100000)
  --graphology-max-edges N  largest graph given to graphology (default 4194304)
  --threads N      the server's query threads (default: its own, the machine's cores)
  --thread-list L  thread counts the scaling and load scenarios measure, comma-separated (default 1,2)
  --json FILE      also write the rows as JSON
  --quick          everything on a tiny graph (the test suite's smoke run)`;

export function parseOptions(argv: readonly string[]): Options {
  const quick = argv.includes('--quick');
  const o: Options = {
    scale: quick ? 8 : 20,
    runs: quick ? 1 : 3,
    seeds: quick ? 3 : 10,
    pairs: quick ? 3 : 20,
    connections: quick ? 4 : 16,
    seconds: quick ? 1 : 5,
    upsertBatches: quick ? 2 : 50,
    upsertConnections: quick ? 2 : 4,
    socialPersons: quick ? 500 : 100_000,
    graphologyMaxEdges: 1 << 22,
    quick,
    threadList: [1, 2],
  };
  const numeric: Record<string, keyof Options> = {
    '--scale': 'scale',
    '--runs': 'runs',
    '--seeds': 'seeds',
    '--pairs': 'pairs',
    '--connections': 'connections',
    '--seconds': 'seconds',
    '--upsert-batches': 'upsertBatches',
    '--upsert-connections': 'upsertConnections',
    '--social': 'socialPersons',
    '--graphology-max-edges': 'graphologyMaxEdges',
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') continue;
    if (a === '--json') {
      o.json = argv[++i];
      if (!o.json) throw new Error('--json needs a file name');
    } else if (a === '--threads') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 0) throw new Error('--threads needs a whole number');
      o.threads = n;
    } else if (a === '--thread-list') {
      const list = (argv[++i] ?? '').split(',').map(Number);
      if (list.length === 0 || !list.every((n) => Number.isInteger(n) && n >= 1))
        throw new Error('--thread-list needs positive whole numbers, e.g. 1,2,4');
      o.threadList = list;
    } else if (numeric[a]) {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${a} needs a positive integer`);
      (o[numeric[a]] as number) = n;
    } else throw new Error(`unknown option '${a}'\n${USAGE}`);
  }
  return o;
}

/** Runs `names` (or every scenario for 'all'); returns the rows and prints the table. */
/** The `run(args)` a scenario file in bench/ exports for `ocelot bench <name>`. */
export function scenarioEntry(name: string): (args: string[]) => Promise<void> {
  return async (args) => {
    await runSuite([name], args);
  };
}

export async function runSuite(
  names: readonly string[],
  argv: readonly string[],
  log: (line: string) => void = (l) => console.log(l),
): Promise<Row[]> {
  if (argv.includes('--help') || argv.includes('-h')) {
    log(USAGE);
    return [];
  }
  const opts = parseOptions(argv);
  const chosen = names.includes('all') ? Object.keys(SCENARIOS) : [...names];
  for (const n of chosen) if (!SCENARIOS[n]) throw new Error(`unknown scenario '${n}'\n${USAGE}`);
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-bench-'));
  let server: OcelotServer | undefined;
  let kuzu: KuzuPeer | string = 'not needed by the chosen scenarios';
  let ctx: Context | undefined;
  try {
    log(
      `machine: ${availableParallelism()} cores, load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}; server threads: ${opts.threads ?? 'default (the cores)'}`,
    );
    log(`generating RMAT scale ${opts.scale} (${16 * 2 ** opts.scale} edges) in ${dir}`);
    const data = await makeData(dir, opts.scale, opts.seeds, opts.pairs);
    server = await OcelotServer.start(
      join(dir, 'ocelot'),
      opts.threads === undefined ? {} : { threads: opts.threads },
    );
    await server.gsql(RMAT_SCHEMA);
    const needsKuzu = chosen.some((n) => ['load', 'khop', 'shortest', 'algo', 'scaling'].includes(n));
    if (needsKuzu) kuzu = await KuzuPeer.open(join(dir, 'kuzu'));
    let client: QueryClient | undefined;
    let clientOf: OcelotServer | undefined;
    let graphology: Promise<GraphologyPeer | string> | undefined;
    ctx = {
      opts,
      dir,
      data,
      server,
      kuzu,
      edges: 0,
      emptyRss: server.rss(),
      loadedRss: 0,
      rows: [],
      log,
      // A scenario that restarts the server (footprint, scaling, isolation) gets a new client.
      queries: async () => {
        if (!client || clientOf !== ctx!.server) {
          client = await queryClient(ctx!.server, RMAT_GRAPH, 'khop');
          clientOf = ctx!.server;
        }
        return client;
      },
      graphology: () =>
        (graphology ??= GraphologyPeer.build(data, opts.graphologyMaxEdges).then((r) =>
          typeof r === 'string' ? r : r.peer,
        )),
    };
    log('loading the RMAT CSV through the loading job');
    await loadRmat(ctx);
    await server.gsql(RMAT_QUERIES);
    for (const name of chosen) {
      const t0 = performance.now();
      const before = ctx.rows.length;
      log(`scenario ${name}`);
      try {
        await SCENARIOS[name](ctx);
      } catch (e) {
        // One broken scenario must not hide the others' numbers.
        const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
        ctx.rows.push({
          scenario: name,
          what: 'scenario',
          unit: '',
          better: 'higher',
          ocelot: unavailable(why),
          peers: {},
        });
      }
      // Printed as it finishes, so a long run shows its numbers early.
      log(`scenario ${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      log(renderTable(ctx.rows.slice(before)));
    }
    const table = renderTable(ctx.rows);
    log('');
    log(table);
    if (opts.json) {
      const machine = { cores: availableParallelism(), loadAverage: loadavg() };
      await writeFile(opts.json, JSON.stringify({ options: opts, machine, rows: ctx.rows }, null, 2));
    }
    return ctx.rows;
  } finally {
    if (typeof kuzu !== 'string') await kuzu.close();
    // footprint replaces the server with a restarted one.
    await (ctx?.server ?? server)?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
