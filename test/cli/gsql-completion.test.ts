import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { complete, CompletionSource, KEYWORDS, NO_NAMES } from '../../src/cli/gsql-completion.js';
import { GsqlSession } from '../../src/cli/gsql-transport.js';
import { startServers } from '../../src/server/start.js';

const names = {
  graphs: ['social', 'shop'],
  types: ['person', 'friendship', 'product'],
  queries: ['hello', 'helper'],
  jobs: ['load_social'],
};

test('keywords complete in the case they were typed; names as they are', () => {
  assert.deepEqual(complete('cre', NO_NAMES), [['create'], 'cre']);
  assert.deepEqual(complete('CREATE VER', NO_NAMES), [['VERSION', 'VERTEX'], 'VER']);
  assert.deepEqual(complete('Sho', NO_NAMES), [['SHOW'], 'Sho']);
  assert.deepEqual(complete('pe', names), [['person'], 'pe']);
  assert.deepEqual(complete('se', names), [['secret', 'select', 'separator', 'set'], 'se']);
  assert.ok(KEYWORDS.every((k) => k === k.toUpperCase()));
});

test('after a statement that names one kind of thing, only those names', () => {
  assert.deepEqual(complete('USE GRAPH s', names), [['shop', 'social'], 's']);
  assert.deepEqual(complete('use graph ', names), [['shop', 'social'], '']);
  assert.deepEqual(complete('RUN QUERY hel', names), [['hello', 'helper'], 'hel']);
  assert.deepEqual(complete('INSTALL QUERY ', names), [['hello', 'helper'], '']);
  assert.deepEqual(complete('run loading job -noprint l', names), [['load_social'], 'l']);
  assert.deepEqual(complete('DROP JOB ', names), [['load_social'], '']);
  assert.deepEqual(complete('CREATE UNDIRECTED EDGE knows (FROM p', names), [['person', 'product'], 'p']);
  assert.deepEqual(complete('SHOW VERTEX f', names), [['friendship'], 'f']);
});

test("the server's names: graphs, global and local types, tuples, the current graph's queries and jobs", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-complete-'));
  const s = await startServers({
    dataDir: join(dir, 'data'),
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    log: () => {},
  });
  try {
    const session = new GsqlSession(
      `${s.urls.gsql}/gsqlserver/gsql`,
      'tigergraph',
      'tigergraph',
      undefined,
      () => {},
    );
    assert.deepEqual(await session.login(), { ok: true });
    const source = new CompletionSource(
      (p) => session.getJson(p),
      () => session.graph,
    );
    assert.deepEqual(await source.names(), NO_NAMES);
    await session.run(
      'file',
      `TYPEDEF TUPLE <a INT> pair
CREATE VERTEX person (PRIMARY_ID id STRING)
CREATE VERTEX loner (PRIMARY_ID id STRING)
CREATE UNDIRECTED EDGE knows (FROM person, TO person)
CREATE GRAPH social (person, knows)
USE GRAPH social
CREATE QUERY hello() FOR GRAPH social { PRINT 1; }
CREATE LOADING JOB load_people FOR GRAPH social { DEFINE FILENAME f; LOAD f TO VERTEX person VALUES ($0); }`,
    );
    assert.deepEqual(await source.names(), NO_NAMES, 'read once until invalidated');
    source.invalidate();
    // The script's USE GRAPH is the session's graph now: its queries and jobs are offered too.
    assert.equal(session.graph, 'social');
    assert.deepEqual(await source.names(), {
      graphs: ['social'],
      types: ['person', 'knows', 'loner', 'pair'],
      queries: ['hello'],
      jobs: ['load_people'],
    });
    const refused = new GsqlSession(
      `${s.urls.gsql}/gsqlserver/gsql`,
      'tigergraph',
      'wrong',
      undefined,
      () => {},
    );
    assert.equal(await refused.getJson('/gsql/v1/schema/graphs'), undefined);
  } finally {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  }
});
