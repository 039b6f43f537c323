/** Shared set-up for loading tests: a Database in a fresh temporary directory with a GSQL schema. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importRoots, type FileRoot } from '../../src/auth/file-roots.js';
import type { WriteTx } from '../../src/engine/api.js';
import { Database } from '../../src/engine/database.js';
import type { CompiledJob } from '../../src/loading/compiler.js';
import { runJobOnFiles, type RunFilesOptions } from '../../src/loading/job.js';
import type { LoadingDatabase } from '../../src/loading/runner.js';
import { runScript } from '../../src/shell/run-script.js';
import { stringifyJson } from '../../src/util/json.js';

export interface TestDb {
  /** Replaceable: a test that reopens the directory stores the new Database here for close(). */
  db: Database;
  dir: string;
  /** The temporary directory as the only import directory loading jobs may read. */
  roots: FileRoot[];
  /** Writes a file in the temporary directory and returns its path. */
  file(name: string, text: string | Buffer): Promise<string>;
  close(): Promise<void>;
}

export async function openTestDb(schema: string): Promise<TestDb> {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-loading-'));
  const db = await Database.open({ dataDir: join(dir, 'data'), rebuildIntervalMs: 0 });
  let out = '';
  const code = await runScript(db, schema, { user: 'tigergraph' }, (t) => (out += t));
  if (code !== 0) throw new Error(`schema failed: ${out}`);
  const t: TestDb = {
    db,
    dir,
    roots: importRoots([dir]),
    async file(name, text) {
      const p = join(dir, name);
      await writeFile(p, text);
      return p;
    },
    async close() {
      await t.db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/** The GSQL 101-style social schema the loading tests share. */
export const SOCIAL_SCHEMA = `
CREATE VERTEX person (PRIMARY_ID name STRING, name STRING, age INT, gender STRING, state STRING)
CREATE UNDIRECTED EDGE friendship (FROM person, TO person, connect_day DATETIME)
CREATE GRAPH social (person, friendship)
`;

/** Every vertex and edge record of the graph, as sorted JSON lines (to compare two loads). */
export function dumpGraph(t: TestDb): string[] {
  const r = t.db.read();
  try {
    const out: string[] = [];
    for (const vt of r.catalog.vertexTypes) {
      for (const row of r.rows(vt.name)) {
        out.push(stringifyJson(r.vertex(vt.name, row)));
        for (const e of r.edges(vt.name, row)) out.push(stringifyJson(r.edgeRecord(e)));
      }
    }
    return out.sort();
  } finally {
    r.release();
  }
}

/** Runs `job` over files into `t`: the graph it leaves (dumpGraph) and each file's statistics. */
export async function loadJobFiles(
  t: TestDb,
  job: CompiledJob,
  opts: RunFilesOptions,
): Promise<{ graph: string[]; stats: unknown }> {
  const res = await runJobOnFiles(t.db, job, opts);
  return {
    graph: dumpGraph(t),
    stats: res.map((x) => ({ key: x.key, stats: x.stats.toJSON(), bytes: x.stats.bytes })),
  };
}

/**
 * The database, with a hook that runs after each durable commit (to stop a run at a known point);
 * from commit `failAt` on (when given), every commit fails, as when the disk is gone.
 */
export function hooked(t: TestDb, afterCommit: (n: number) => void, failAt = -1): LoadingDatabase {
  let commits = 0;
  return {
    get catalog() {
      return t.db.catalog;
    },
    async write<T>(fn: (tx: WriteTx) => T): Promise<T> {
      // Numbered before the await: two commits may be in flight at once.
      const n = ++commits;
      if (failAt > 0 && n >= failAt) throw new Error('disk gone');
      const r = await t.db.write(fn);
      afterCommit(n);
      return r;
    },
  };
}
