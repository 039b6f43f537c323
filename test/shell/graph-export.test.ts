/**
 * EXPORT GRAPH / IMPORT GRAPH ALL round trip: a database exported to ExportedGraph.zip and imported
 * into an empty one has the same schema, jobs, queries (installed ones installed), users and
 * data — every vertex with every attribute, every edge once.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Tuple, type Value } from '../../src/catalog/value.js';
import type { AttrUpdate } from '../../src/engine/api.js';
import { Database } from '../../src/engine/database.js';
import { EXPORT_FILE, exportGraphs, ExportError, exportParts } from '../../src/shell/graph-export.js';
import { importGraphs } from '../../src/shell/graph-import.js';
import { runScript } from '../../src/shell/run-script.js';
import { readZip } from '../../src/util/zip.js';

const SCHEMA = `TYPEDEF TUPLE <x INT, y DOUBLE> Point
CREATE VERTEX Person (PRIMARY_ID id STRING, age INT, big INT, u UINT, score DOUBLE, ok BOOL, born DATETIME,
  tag STRING, nums LIST<INT>, tags SET<STRING>, m MAP<STRING, INT>, pt Point) WITH primary_id_as_attribute="true"
CREATE VERTEX Item (sku INT PRIMARY KEY, title STRING)
CREATE VERTEX Acct (owner STRING, no INT, balance INT, PRIMARY KEY (owner, no))
CREATE UNDIRECTED EDGE knows (FROM Person, TO Person, weight DOUBLE)
CREATE DIRECTED EDGE follows (FROM Person, TO Person, since DATETIME) WITH REVERSE_EDGE="followed_by"
CREATE DIRECTED EDGE owns (FROM Person, TO Item | FROM Acct, TO Item)
CREATE DIRECTED EDGE transfer (FROM Acct, TO Acct, DISCRIMINATOR(ts DATETIME), amount INT)
CREATE GRAPH g (Person, Item, Acct, knows, follows, owns, transfer)
CREATE GRAPH h (Person, knows)
USE GRAPH g
CREATE SCHEMA_CHANGE JOB add_local FOR GRAPH g { ADD VERTEX Note (PRIMARY_ID id STRING, text STRING); }
RUN SCHEMA_CHANGE JOB add_local
CREATE LOADING JOB load_items FOR GRAPH g { DEFINE FILENAME f; LOAD f TO VERTEX Item VALUES ($0, $1); }
CREATE QUERY people() FOR GRAPH g { S = {Person.*}; PRINT S.size() AS n; }
CREATE QUERY two() FOR GRAPH g { PRINT 2 AS two; }
INSTALL QUERY people
CREATE USER alice WITH PASSWORD "alice-pw"
GRANT ROLE queryreader ON GRAPH g TO alice`;

const set = (value: Value): AttrUpdate => ({ value, op: 'set' });
const at = (iso: string) => Date.parse(`${iso}Z`) / 1000;

async function populate(db: Database): Promise<void> {
  await db.write((tx) => {
    tx.upsertVertex('Person', 'ann', {
      age: set(41),
      big: set(9223372036854775807n),
      u: set(18446744073709551615n),
      score: set(-1.5),
      ok: set(true),
      born: set(at('2020-02-29T12:34:56')),
      tag: set('ünïcode, "quoted"; tab\there'),
      nums: set([3, 1, 2]),
      tags: set(['b', 'a']),
      m: set(
        new Map<string, number>([
          ['k1', 1],
          ['k2', -2],
        ]),
      ),
      pt: set(new Tuple('Point', [7, 0.25])),
    });
    tx.upsertVertex('Person', 'bob', { age: set(7), tags: set([]) });
    tx.upsertVertex('Person', 'cid', {});
    tx.upsertVertex('Item', 10, { title: set('lamp') });
    tx.upsertVertex('Item', 11, { title: set('') });
    tx.upsertVertex('Acct', 'ann,1', { balance: set(5) });
    tx.upsertVertex('Acct', 'bob,2', { balance: set(-5) });
    tx.upsertVertex('Note', 'n1', { text: set('local') });
    tx.upsertEdge('knows', 'Person', 'ann', 'Person', 'bob', { weight: set(0.5) });
    tx.upsertEdge('knows', 'Person', 'cid', 'Person', 'ann', { weight: set(2) });
    tx.upsertEdge('follows', 'Person', 'bob', 'Person', 'ann', { since: set(at('2021-01-01T00:00:00')) });
    tx.upsertEdge('owns', 'Person', 'ann', 'Item', 10, {});
    tx.upsertEdge('owns', 'Acct', 'bob,2', 'Item', 11, {});
    tx.upsertEdge('transfer', 'Acct', 'ann,1', 'Acct', 'bob,2', {
      ts: set(at('2022-01-01T00:00:00')),
      amount: set(1),
    });
    tx.upsertEdge('transfer', 'Acct', 'ann,1', 'Acct', 'bob,2', {
      ts: set(at('2022-01-02T00:00:00')),
      amount: set(2),
    });
  });
}

/** Every vertex and every edge (out-direction records), sorted, and the counts per type. */
function contents(db: Database): unknown {
  const r = db.read();
  try {
    const out: Record<string, unknown> = {};
    for (const vt of r.catalog.vertexTypes) {
      const rows = [...r.rows(vt.name)].map((row) => JSON.stringify(r.vertex(vt.name, row), replacer));
      const edges = [...r.rows(vt.name)].flatMap((row) =>
        r.edges(vt.name, row).map((e) => JSON.stringify(r.edgeRecord(e), replacer)),
      );
      out[vt.name] = { rows: rows.sort(), edges: edges.sort() };
    }
    return out;
  } finally {
    r.release();
  }
}

function replacer(_k: string, v: unknown): unknown {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Map) return Object.fromEntries(v);
  if (v instanceof Tuple) return { tuple: v.typeName, values: v.values };
  return v;
}

function schemaOf(db: Database): unknown {
  const c = db.catalog;
  return {
    tuples: c.tuples,
    vertexTypes: c.vertexTypes,
    edgeTypes: c.edgeTypes,
    graphs: c.graphs,
    loadingJobs: c.jobs.filter((j) => j.kind === 'loading').map((j) => [j.name, j.graph, j.text]),
    queries: (c.queries ?? []).map((x) => [x.name, x.graph, x.installed]),
    users: c.security?.users.map((u) => [u.name, u.password, u.graphRoles]),
  };
}

test('a full export imports into an empty database as the same database', async () => {
  const root = await mkdtemp(join(tmpdir(), 'ocelot-export-'));
  const session = { user: 'tigergraph' };
  let out = '';
  const print = (t: string) => (out += t);
  const a = await Database.open({ dataDir: join(root, 'a'), rebuildIntervalMs: 0 });
  const b = await Database.open({ dataDir: join(root, 'b'), rebuildIntervalMs: 0 });
  try {
    assert.equal(await runScript(a, SCHEMA, { ...session }, print), 0, out);
    await populate(a);
    const dir = join(root, 'export');
    const summary = await exportGraphs(a, dir, {
      graphs: 'ALL',
      parts: { template: true, data: true, users: true },
    });
    assert.deepEqual([summary.graphs, summary.vertices, summary.edges], [['g', 'h'], 8, 7]);
    const entries = await readZip(join(dir, EXPORT_FILE));
    assert.deepEqual([...entries.keys()].sort(), [
      'DBImportExport_g.gsql',
      'DBImportExport_h.gsql',
      'ExportInfo.json',
      'GlobalTypes/edge_follows.csv',
      'GlobalTypes/edge_knows.csv',
      'GlobalTypes/edge_owns.csv',
      'GlobalTypes/edge_transfer.csv',
      'GlobalTypes/vertex_Acct.csv',
      'GlobalTypes/vertex_Item.csv',
      'GlobalTypes/vertex_Person.csv',
      'SchemaChangeJob/Global_Schema_Change_Jobs.gsql',
      'SchemaChangeJob/g_Schema_Change_Jobs.gsql',
      'SchemaChangeJob/h_Schema_Change_Jobs.gsql',
      'global.gsql',
      'graph_g/vertex_Note.csv',
      'run_loading_jobs.gsql',
      'tuple.gsql',
      'users.json',
    ]);
    await assert.rejects(
      exportGraphs(a, dir, { graphs: 'ALL', parts: { template: true, data: true, users: true } }),
      ExportError,
    );

    out = '';
    const imported = await importGraphs(
      // The package's data is read from beside it: inside the import directory.
      { store: b, run: (text) => runScript(b, text, { ...session }, print, { importDirs: [root] }), print },
      dir,
      { keepUsers: false },
    );
    assert.deepEqual(imported, ['g', 'h'], out);
    assert.deepEqual(schemaOf(b), schemaOf(a));
    assert.deepEqual(contents(b), contents(a));
    assert.deepEqual(await readdir(dir), [EXPORT_FILE], 'the extracted data is gone');
    let result = '';
    assert.equal(
      await runScript(b, 'USE GRAPH g\nRUN QUERY people()', { ...session }, (t) => (result += t)),
      0,
      result,
    );
    assert.match(result, /"n": 3/);
  } finally {
    await a.close();
    await b.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('what cannot be exported is refused with the reason, leaving no package', async () => {
  const root = await mkdtemp(join(tmpdir(), 'ocelot-export-'));
  const db = await Database.open({ dataDir: join(root, 'a'), rebuildIntervalMs: 0 });
  try {
    let out = '';
    const code = await runScript(
      db,
      'CREATE VERTEX V (PRIMARY_ID id STRING, s STRING)\nCREATE GRAPH g (V)',
      { user: 'tigergraph' },
      (t) => (out += t),
    );
    assert.equal(code, 0, out);
    await db.write((tx) => tx.upsertVertex('V', 'x', { s: set('a\u001eb') }));
    await assert.rejects(
      exportGraphs(db, join(root, 'e'), {
        graphs: 'ALL',
        parts: { template: true, data: true, users: false },
      }),
      /V\.s: the value contains an ASCII 28-31 control character/,
    );
    await assert.rejects(
      exportGraphs(db, join(root, 'e2'), {
        graphs: ['nope'],
        parts: { template: true, data: false, users: false },
      }),
      /The graph nope does not exist\./,
    );
  } finally {
    await db.close();
    await rm(root, { recursive: true, force: true });
  }
});

test("TigerGraph's export options select the parts", () => {
  const none = { schema: false, template: false, data: false, users: false, password: false };
  const o = (set: Partial<typeof none>) => ({ ...none, ...set });
  assert.deepEqual(exportParts(none, true), { template: true, data: true, users: true });
  assert.deepEqual(exportParts(none, false), { template: true, data: true, users: false });
  assert.deepEqual(exportParts(o({ schema: true }), true), { template: false, data: false, users: false });
  assert.deepEqual(exportParts(o({ template: true, data: true }), true), {
    template: true,
    data: true,
    users: false,
  });
  assert.deepEqual(exportParts(o({ schema: true, users: true }), false), {
    template: false,
    data: false,
    users: true,
  });
  assert.throws(() => exportParts(o({ data: true }), true), /-D and -U must be used with -S or -T\./);
  assert.throws(() => exportParts(o({ password: true }), true), /with a password \(-P\) is not supported/);
});
