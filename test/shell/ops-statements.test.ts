/**
 * The operations statements through the shell: SHOW LOADING STATUS / ABORT / RESUME on a run that
 * is loading, and EXPORT GRAPH / IMPORT GRAPH ALL confined to the output directory and to users
 * with the privileges.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { WriteTx } from '../../src/engine/api.js';
import { Database } from '../../src/engine/database.js';
import { LoadingJobRuns, type LoadingJobRun } from '../../src/loading/job-runs.js';
import type { LoadingDatabase } from '../../src/loading/runner.js';
import { runScript } from '../../src/shell/run-script.js';
import { openTestDb } from '../loading/helpers.js';
import { waitFor } from '../timing.js';

const SCHEMA = `CREATE VERTEX item (PRIMARY_ID id INT, label STRING)
CREATE GRAPH shop (item)`;
const JOB = `CREATE LOADING JOB load_items FOR GRAPH shop {
  DEFINE FILENAME f;
  LOAD f TO VERTEX item VALUES ($"id", $"label") USING header="true", separator=",";
}`;

function csv(n: number): string {
  let text = 'id,label\n';
  for (let i = 0; i < n; i++) text += `${i},item-${i}\n`;
  return text;
}

async function gsql(
  db: Database,
  text: string,
  options: { user?: string; graph?: string; outputDir?: string } = {},
) {
  let out = '';
  const session = { user: options.user ?? 'tigergraph', ...(options.graph ? { graph: options.graph } : {}) };
  // One folder is both the output directory (EXPORT writes there) and the import directory.
  const dirs =
    options.outputDir === undefined ? {} : { outputDir: options.outputDir, importDirs: [options.outputDir] };
  const code = await runScript(db, text, session, (t) => (out += t), dirs);
  return { code, out };
}

function count(db: Database, type: string): number {
  const r = db.read();
  try {
    return [...r.rows(type)].length;
  } finally {
    r.release();
  }
}

test('ABORT LOADING JOB stops a loading run, SHOW LOADING STATUS tells where, RESUME loads the rest once', async () => {
  const t = await openTestDb(SCHEMA);
  try {
    const file = await t.file('items.csv', csv(20_000));
    // The run's writes go through a gate: after its first commit it waits until it is asked to stop.
    const box: { run?: LoadingJobRun } = {};
    let commits = 0;
    const gated: LoadingDatabase = {
      get catalog() {
        return t.db.catalog;
      },
      async write<T>(fn: (tx: WriteTx) => T): Promise<T> {
        const r = await t.db.write(fn);
        if (++commits === 1) await waitFor('the abort request', () => box.run?.stopping);
        return r;
      },
    };
    const run = (box.run = await LoadingJobRuns.for(t.db).start(gated, {
      graph: 'shop',
      jobName: 'load_items',
      jobText: JOB,
      paths: new Map([['f', file]]),
      roots: t.roots,
      load: { readBytes: 16 * 1024, batchSize: 500 },
    }));
    await waitFor('the first commit', () => commits >= 1);

    let r = await gsql(t.db, `SHOW LOADING STATUS ${run.id}`, { graph: 'shop' });
    assert.equal(r.code, 0, r.out);
    assert.match(
      r.out,
      new RegExp(`^Job "${run.id.replace(/\./g, '\\.')}" loading status\n\\[RUNNING\\] m1`),
    );

    r = await gsql(t.db, `ABORT LOADING JOB ${run.id}`, { graph: 'shop' });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /\[ABORT_SUCCESS\] m1/);
    assert.equal(run.state, 'ABORTED');
    const loaded = count(t.db, 'item');
    assert.ok(loaded > 0 && loaded < 20_000, `${loaded} items loaded before the abort`);

    r = await gsql(t.db, 'SHOW LOADING STATUS ALL', { graph: 'shop' });
    assert.match(r.out, /\[ABORTED\] m1/);
    assert.match(r.out, new RegExp(`\\[RESUMABLE\\] from byte \\d+ of \\d+ \\(${loaded} lines committed\\)`));

    r = await gsql(t.db, 'ABORT LOADING JOB ALL', { graph: 'shop' });
    assert.equal(r.out, 'There is no running loading job to abort.\n');

    r = await gsql(t.db, `RESUME LOADING JOB ${run.id}`, { graph: 'shop' });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /^\[RESUME_SUCCESS\] m1\n/);
    await run.done;
    assert.equal(run.state, 'FINISHED');
    assert.equal(count(t.db, 'item'), 20_000);

    r = await gsql(t.db, 'SHOW LOADING STATUS shop.load_items.file.m1.1', { graph: 'shop' });
    assert.equal(r.code, 212);
    assert.match(
      r.out,
      /The loading job id shop\.load_items\.file\.m1\.1 does not exist in graph 'shop'\. \(line 1, column 1\)/,
    );
    r = await gsql(t.db, 'ABORT LOADING JOB', { graph: 'shop' });
    assert.equal(r.code, 211);
    assert.match(r.out, /expected a loading job id or ALL at the end of the statement/);
  } finally {
    await t.close();
  }
});

test('EXPORT GRAPH writes under the output directory and IMPORT GRAPH ALL brings it back', async () => {
  const root = await mkdtemp(join(tmpdir(), 'ocelot-ops-'));
  const outputDir = join(root, 'out');
  await mkdir(outputDir);
  const a = await Database.open({ dataDir: join(root, 'a'), rebuildIntervalMs: 0 });
  const b = await Database.open({ dataDir: join(root, 'b'), rebuildIntervalMs: 0 });
  try {
    let r = await gsql(
      a,
      `${SCHEMA}\nCREATE USER alice WITH PASSWORD "alice-pw"\nGRANT ROLE queryreader ON GRAPH shop TO alice`,
    );
    assert.equal(r.code, 0, r.out);
    assert.equal(
      (await gsql(a, 'USE GRAPH shop\nUPSERT item VALUES (1, "one")\nUPSERT item VALUES (2, "two")')).code,
      0,
    );

    r = await gsql(a, 'EXPORT GRAPH ALL TO "pkg"');
    assert.equal(r.code, 212);
    assert.match(r.out, /Cannot export to "pkg": this server writes no files\./);
    await symlink(root, join(outputDir, 'up'));
    for (const [dir, why] of [
      ['../pkg', "a path may not contain '..'"],
      ['/etc', 'it is outside the output directory'],
      ['up', 'it leads out of the output directory .* through a symbolic link'],
    ]) {
      r = await gsql(a, `EXPORT GRAPH ALL TO "${dir}"`, { outputDir });
      assert.match(r.out, new RegExp(`Cannot export to "${dir.replace('.', '\\.')}": ${why}`), dir);
    }
    r = await gsql(a, 'EXPORT GRAPH ALL TO "pkg"', { user: 'alice', graph: 'shop', outputDir });
    assert.equal(r.code, 212);
    assert.match(
      r.out,
      /Access denied: user 'alice' does not have the privilege EXPORT_GRAPH, WRITE_USER on the global scope/,
    );
    r = await gsql(a, 'EXPORT GRAPH shop -S TO "pkg"', { user: 'alice', graph: 'shop', outputDir });
    assert.match(
      r.out,
      /Access denied: user 'alice' does not have the privilege EXPORT_GRAPH on the global scope/,
    );
    r = await gsql(a, 'EXPORT GRAPH ALL -P TO "pkg"', { outputDir });
    assert.match(r.out, /with a password \(-P\) is not supported/);

    r = await gsql(a, 'EXPORT GRAPH ALL TO "pkg"', { outputDir });
    assert.equal(r.code, 0, r.out);
    assert.equal(
      r.out,
      `Exported the graph [shop] with 2 vertices and 0 edges to ${join(outputDir, 'pkg', 'ExportedGraph.zip')}.\n`,
    );

    r = await gsql(a, 'IMPORT GRAPH ALL FROM "pkg"', { outputDir, user: 'alice' });
    assert.match(
      r.out,
      /Access denied: user 'alice' does not have the privilege DROP_ALL, WRITE_SCHEMA, .* on the global scope/,
    );
    assert.equal(count(a, 'item'), 2, 'a refused import drops nothing');
    r = await gsql(b, `IMPORT GRAPH ALL FROM "${join(root, 'a')}"`, { outputDir });
    assert.match(r.out, /Cannot import ".*": it is outside the import directory/);
    r = await gsql(b, 'IMPORT GRAPH ALL FROM "pkg"', { outputDir });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /Imported the graph \[shop\] from .*pkg\.\n$/);
    assert.equal(count(b, 'item'), 2);
    assert.deepEqual(b.catalog.security?.users, a.catalog.security?.users);
    r = await gsql(b, 'INTERPRET QUERY () FOR GRAPH shop { S = {item.*}; PRINT S.size() AS n; }', {
      user: 'alice',
      graph: 'shop',
    });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /"n": 2/);
  } finally {
    await a.close();
    await b.close();
    await rm(root, { recursive: true, force: true });
  }
});
