/**
 * The crash loop: `ocelot serve` as a child process under concurrent writers (atomic REST upserts of
 * vertex groups with their edges, POST /ddl loading, GSQL query DML through the shell transport,
 * register overwrites), snapshot readers and a /rebuildnow loop, killed with SIGKILL at a random
 * moment, restarted and checked against the history (history.ts). Used by crash-loop.test.ts (a
 * short run) and soak.ts (a long one).
 */
import { join } from 'node:path';
import {
  checkSnapshot,
  History,
  memberId,
  REGISTER_PREFIX,
  type Op,
  type SeenEdge,
  type SeenVertex,
} from './history.js';
import { gsql, request, startServe, type ServeProcess } from './server-process.js';

export interface CrashLoopOptions {
  dataDir: string;
  iterations: number;
  writers: number;
  readers: number;
  /** Each run lasts a random time in [minRunMs, maxRunMs] before the kill. */
  minRunMs: number;
  maxRunMs: number;
  sync?: 'always' | 'batch' | 'none';
  /** Pause of the /rebuildnow loop between calls. */
  rebuildEveryMs: number;
  random?: () => number;
  log?: (line: string) => void;
}

export interface CrashLoopReport {
  iterations: number;
  kills: number;
  killsDuringRebuild: number;
  acknowledged: Record<Op['kind'] | 'register', number>;
  unknown: number;
  refused: number;
  snapshotReads: number;
  rebuilds: number;
  violations: string[];
}

const SCHEMA = `CREATE VERTEX Item (PRIMARY_ID id STRING, req INT, k INT) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE Link (FROM Item, TO Item, req INT)
CREATE GRAPH G (Item, Link)
USE GRAPH G
CREATE LOADING JOB load_items FOR GRAPH G { DEFINE FILENAME f; LOAD f TO VERTEX Item VALUES ($0, $1, $2); }
CREATE QUERY ins(INT r, INT n) FOR GRAPH G {
  FOREACH i IN RANGE[0, n - 1] DO INSERT INTO Item VALUES ("q" + to_string(r) + "-" + to_string(i), r, i); END;
  FOREACH i IN RANGE[0, n - 2] DO
    INSERT INTO Link VALUES ("q" + to_string(r) + "-" + to_string(i), "q" + to_string(r) + "-" + to_string(i + 1), r);
  END;
}
CREATE QUERY edges_all() FOR GRAPH G {
  ListAccum<STRING> @@e;
  S = {Item.*};
  S = SELECT s FROM S:s -(Link:e)-> Item:t
      ACCUM @@e += to_string(s.req) + "/" + to_string(s.k) + ">" + to_string(t.req) + "/" + to_string(t.k) + ":" + to_string(e.req);
  PRINT @@e AS e;
}
INSTALL QUERY ins, edges_all
`;

interface Envelope {
  error?: boolean;
  results?: unknown;
}

function isOk(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as Envelope).error === false;
}

/** A definite refusal: the server answered, in the envelope, that it did not apply the write. */
function isRefusal(status: number, json: unknown): boolean {
  return (
    status >= 400 &&
    status < 500 &&
    typeof json === 'object' &&
    json !== null &&
    (json as Envelope).error === true
  );
}

class Run {
  stop = false;
  rebuildInFlight = false;
  rebuilds = 0;
  snapshotReads = 0;
  readonly violations: string[] = [];
  constructor(
    readonly server: ServeProcess,
    readonly history: History,
    readonly opts: CrashLoopOptions,
    readonly rnd: () => number,
  ) {}

  private int(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  async writer(client: number): Promise<void> {
    while (!this.stop) {
      const dice = this.rnd();
      try {
        if (dice < 0.45) await this.atomicUpsert();
        else if (dice < 0.6) await this.load();
        else if (dice < 0.72) await this.queryInsert();
        else await this.register(client);
      } catch {
        // The answer was lost (the server was killed): the write stays unknown.
      }
    }
  }

  private settle(op: Op, status: number, json: unknown): void {
    if (this.stop) return;
    if (isOk(json)) op.state = 'ok';
    else if (isRefusal(status, json)) op.state = 'refused';
  }

  private async atomicUpsert(): Promise<void> {
    const op = this.history.begin('atomic', 2 + this.int(6));
    const vertices: Record<string, unknown> = {};
    const edges: Record<string, unknown> = {};
    for (let k = 0; k < op.size; k++) {
      vertices[memberId('atomic', op.req, k)] = { req: { value: op.req }, k: { value: k } };
      if (k + 1 < op.size)
        edges[memberId('atomic', op.req, k)] = {
          Link: { Item: { [memberId('atomic', op.req, k + 1)]: { req: { value: op.req } } } },
        };
    }
    const r = await request(`${this.server.restpp}/graph/G`, {
      method: 'POST',
      body: JSON.stringify({ vertices: { Item: vertices }, edges: { Item: edges } }),
    });
    this.settle(op, r.status, r.json);
  }

  private async load(): Promise<void> {
    const op = this.history.begin('load', 1 + this.int(20));
    let body = '';
    for (let k = 0; k < op.size; k++) body += `${memberId('load', op.req, k)},${op.req},${k}\n`;
    const r = await request(`${this.server.restpp}/ddl/G?tag=load_items&filename=f`, {
      method: 'POST',
      body,
    });
    this.settle(op, r.status, r.json);
  }

  private async queryInsert(): Promise<void> {
    const op = this.history.begin('query', 2 + this.int(4));
    const r = await gsql(this.server.gsql, `RUN QUERY ins(${op.req}, ${op.size})`, 'G');
    if (this.stop) return;
    if (r.code === 0 && /"error": false/.test(r.out)) op.state = 'ok';
    else if (r.code > 0) op.state = 'refused';
  }

  /** Each client owns one register and writes it sequentially, so values only grow. */
  private async register(client: number): Promise<void> {
    const id = `${REGISTER_PREFIX}${client}`;
    const reg = this.history.registers.get(id)!;
    const value = ++reg.sent;
    const r = await request(`${this.server.restpp}/graph/G`, {
      method: 'POST',
      body: JSON.stringify({ vertices: { Item: { [id]: { req: { value: 0 }, k: { value } } } } }),
    });
    if (!this.stop && isOk(r.json)) reg.acked = Math.max(reg.acked, value);
  }

  async reader(): Promise<void> {
    while (!this.stop) {
      const acked = new Set<number>();
      for (const op of this.history.ops.values()) if (op.state === 'ok') acked.add(op.req);
      try {
        const vertices = await listVertices(this.server);
        if (this.stop) return;
        this.snapshotReads++;
        this.violations.push(...checkSnapshot(this.history, vertices, acked));
      } catch {
        // killed mid-read
      }
    }
  }

  async rebuilder(dir: string): Promise<void> {
    while (!this.stop) {
      this.rebuildInFlight = true;
      try {
        const r = await request(`${this.server.restpp}/rebuildnow/G?path=${encodeURIComponent(dir)}`);
        if (isOk(r.json)) this.rebuilds++;
      } catch {
        // killed mid-rebuild: the point of the exercise
      }
      this.rebuildInFlight = false;
      await new Promise((r) => setTimeout(r, this.opts.rebuildEveryMs));
    }
  }
}

export async function listVertices(server: ServeProcess): Promise<SeenVertex[]> {
  const r = await request(`${server.restpp}/graph/G/vertices/Item`);
  if (!isOk(r.json)) throw new Error(`vertex listing failed: ${r.text.slice(0, 300)}`);
  const rows = (r.json as { results: { v_id: string; attributes: { req: number; k: number } }[] }).results;
  return rows.map((v) => ({ id: v.v_id, req: v.attributes.req, k: v.attributes.k }));
}

export async function listEdges(server: ServeProcess): Promise<SeenEdge[]> {
  const r = await gsql(server.gsql, 'RUN QUERY edges_all()', 'G');
  const start = r.out.indexOf('{');
  const end = r.out.lastIndexOf('}');
  if (r.code !== 0 || start < 0) throw new Error(`edge listing failed: ${r.out.slice(0, 300)}`);
  const body = JSON.parse(r.out.slice(start, end + 1)) as { results: { e: string[] }[] };
  return body.results[0].e.map((s) => {
    const m = /^(\d+)\/(\d+)>(\d+)\/(\d+):(\d+)$/.exec(s);
    if (!m) throw new Error(`unexpected edge ${s}`);
    const n = m.slice(1).map(Number);
    return { from: { req: n[0], k: n[1] }, to: { req: n[2], k: n[3] }, req: n[4] };
  });
}

async function checkRecovered(server: ServeProcess, history: History): Promise<string[]> {
  const vertices = await listVertices(server);
  const edges = await listEdges(server);
  const registers = new Map<string, number>();
  for (const v of vertices) if (v.id.startsWith(REGISTER_PREFIX)) registers.set(v.id, v.k);
  return history.check(vertices, edges, registers);
}

export async function crashLoop(opts: CrashLoopOptions): Promise<CrashLoopReport> {
  const rnd = opts.random ?? Math.random;
  const log = opts.log ?? (() => undefined);
  const history = new History();
  for (let c = 0; c < opts.writers; c++)
    history.registers.set(`${REGISTER_PREFIX}${c}`, { acked: 0, sent: 0 });
  const report: CrashLoopReport = {
    iterations: 0,
    kills: 0,
    killsDuringRebuild: 0,
    acknowledged: { atomic: 0, load: 0, query: 0, register: 0 },
    unknown: 0,
    refused: 0,
    snapshotReads: 0,
    rebuilds: 0,
    violations: [],
  };
  const data = join(opts.dataDir, 'data');
  // Summary folders of /rebuildnow are written in the output directory, named relative to it.
  const rebuildDir = 'rebuild';
  const start = () => startServe({ dataDir: data, sync: opts.sync, args: ['--output-dir', opts.dataDir] });
  let server = await start();
  try {
    const setup = await gsql(server.gsql, SCHEMA);
    if (setup.code !== 0) throw new Error(`schema setup failed:\n${setup.out}`);
    // The schema, the loading job and the installed queries must survive the first kill too.
    await server.kill();
    server = await start();
    for (let i = 0; i < opts.iterations; i++) {
      const run = new Run(server, history, opts, rnd);
      const workers = [
        ...Array.from({ length: opts.writers }, (_, c) => run.writer(c)),
        ...Array.from({ length: opts.readers }, () => run.reader()),
        run.rebuilder(rebuildDir),
      ];
      await new Promise((r) => setTimeout(r, opts.minRunMs + rnd() * (opts.maxRunMs - opts.minRunMs)));
      if (run.rebuildInFlight) report.killsDuringRebuild++;
      // Stop recording outcomes first: answers arriving after the kill signal must not count.
      run.stop = true;
      await server.kill();
      report.kills++;
      await Promise.all(workers);
      report.snapshotReads += run.snapshotReads;
      report.rebuilds += run.rebuilds;
      server = await start();
      const found = [...run.violations, ...(await checkRecovered(server, history))];
      report.iterations++;
      for (const v of found) report.violations.push(`iteration ${i + 1}: ${v}`);
      log(
        `iteration ${i + 1}: ${history.ops.size} writes so far, ${run.snapshotReads} snapshot reads, ` +
          `${run.rebuilds} rebuilds, ${found.length} violations`,
      );
    }
  } finally {
    await server.kill();
  }
  for (const kind of ['atomic', 'load', 'query'] as const)
    report.acknowledged[kind] = history.count(kind, 'ok');
  for (const r of history.registers.values()) report.acknowledged.register += r.acked;
  for (const op of history.ops.values()) {
    if (op.state === 'pending') report.unknown++;
    if (op.state === 'refused') report.refused++;
  }
  return report;
}
