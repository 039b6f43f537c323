/** Shared set-up for loading tests: a Database in a fresh temporary directory with a GSQL schema. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importRoots, type FileRoot } from '../../src/auth/file-roots.js';
import { Database } from '../../src/engine/database.js';
import { runScript } from '../../src/shell/run-script.js';

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
