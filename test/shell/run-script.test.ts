import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ShellSession } from '../../src/shell/run-script.js';
import { MemoryStore, run } from './memory-store.js';

const SCHEMA = `CREATE VERTEX Person (PRIMARY_ID name STRING, name STRING, age INT DEFAULT 18) WITH primary_id_as_attribute="true"
CREATE VERTEX City (id UINT PRIMARY KEY, label STRING)
CREATE DIRECTED EDGE lives_in (FROM Person, TO City, since DATETIME) WITH REVERSE_EDGE="home_of"
CREATE UNDIRECTED EDGE friend (FROM Person, TO Person)
CREATE GRAPH social(*)
`;

test('schema statements print TigerGraph messages and land in the catalog', async () => {
  const store = new MemoryStore();
  const r = await run(store, SCHEMA);
  assert.equal(r.code, 0);
  assert.equal(
    r.output,
    'Successfully created vertex types: [Person].\n' +
      'Successfully created vertex types: [City].\n' +
      'Successfully created edge types: [lives_in].\n' +
      'Successfully created edge types: [friend].\n' +
      'The graph social is created.\n',
  );
  assert.equal(r.session.graph, 'social');
  assert.deepEqual(store.catalog.graphs, [
    { name: 'social', vertexTypes: ['Person', 'City'], edgeTypes: ['lives_in', 'friend'] },
  ]);
  const person = store.catalog.vertexTypes[0];
  assert.equal(person.primaryIdAsAttribute, true);
  assert.deepEqual(person.attributes[1], {
    name: 'age',
    type: { kind: 'INT', bytes: 8 },
    defaultLiteral: '18',
  });
  assert.equal(store.catalog.edgeTypes[0].reverseEdge, 'home_of');
  assert.equal(store.changes, 5);
});

test('USE GRAPH, USE GLOBAL and ls', async () => {
  const store = new MemoryStore();
  await run(store, SCHEMA);
  const session: ShellSession = { user: 'tigergraph' };
  const missing = await run(store, 'USE GRAPH nope', session);
  assert.equal(missing.code, 212);
  assert.equal(missing.output, "Semantic Check Fails: Graph 'nope' does not exist. (line 1, column 1)\n");
  // Graph names are case-sensitive, as TigerGraph documents identifiers; the message names the graph meant.
  const cased = await run(store, 'USE GRAPH Social', session);
  assert.equal(cased.code, 212);
  assert.equal(
    cased.output,
    "Semantic Check Fails: Graph 'Social' does not exist. Graph names are case-sensitive: did you mean 'social'? (line 1, column 1)\n",
  );
  assert.equal(session.graph, undefined);
  const r = await run(store, 'USE GRAPH social\nls', session);
  assert.equal(r.code, 0);
  assert.equal(
    r.output,
    `Using graph 'social'
---- Graph social
Vertex Types:
  - VERTEX Person(PRIMARY_ID name STRING, name STRING, age INT DEFAULT 18) WITH STATS="OUTDEGREE_BY_EDGETYPE", PRIMARY_ID_AS_ATTRIBUTE="true"
  - VERTEX City(id UINT PRIMARY KEY, label STRING) WITH STATS="OUTDEGREE_BY_EDGETYPE"
Edge Types:
  - DIRECTED EDGE lives_in(FROM Person, TO City, since DATETIME) WITH REVERSE_EDGE="home_of"
  - UNDIRECTED EDGE friend(FROM Person, TO Person)

Graphs:
  - Graph social(Person:v, City:v, lives_in:e, friend:e)
Jobs:
Queries:

`,
  );
  assert.equal(session.graph, 'social');
  const global = await run(store, 'USE GLOBAL\nls', session);
  assert.equal(session.graph, undefined);
  assert.match(global.output, /^Using global graph\n---- Global vertices, edges, and all graphs\n/);
  assert.match(global.output, /\nJSON API version: v2\nSyntax version: v2\n$/);
});

test('SHOW VERTEX, SHOW EDGE, SHOW GRAPH', async () => {
  const store = new MemoryStore();
  await run(store, SCHEMA);
  const r = await run(store, 'SHOW VERTEX City\nSHOW EDGE *\nSHOW GRAPH *', {
    user: 'tigergraph',
    graph: 'social',
  });
  assert.equal(
    r.output,
    '  - VERTEX City(id UINT PRIMARY KEY, label STRING) WITH STATS="OUTDEGREE_BY_EDGETYPE"\n' +
      '  - DIRECTED EDGE lives_in(FROM Person, TO City, since DATETIME) WITH REVERSE_EDGE="home_of"\n' +
      '  - UNDIRECTED EDGE friend(FROM Person, TO Person)\n' +
      '  - Graph social(Person:v, City:v, lives_in:e, friend:e)\n',
  );
  const bad = await run(store, 'SHOW VERTEX Nope', { user: 'tigergraph', graph: 'social' });
  assert.equal(
    bad.output,
    "Semantic Check Fails: The vertex type 'Nope' does not exist in graph 'social'. (line 1, column 1)\n",
  );
});

test('SHOW VERTEX | EDGE | GRAPH take glob patterns: * any run of characters, ? one character', async () => {
  const store = new MemoryStore();
  await run(store, SCHEMA);
  const session = { user: 'tigergraph', graph: 'social' };
  const r = await run(
    store,
    'SHOW VERTEX Pe*\nSHOW VERTEX C?t?\nSHOW VERTEX ????\nSHOW EDGE *_*\nSHOW GRAPH s*l',
    session,
  );
  assert.equal(
    r.output,
    '  - VERTEX Person(PRIMARY_ID name STRING, name STRING, age INT DEFAULT 18) WITH STATS="OUTDEGREE_BY_EDGETYPE", PRIMARY_ID_AS_ATTRIBUTE="true"\n' +
      '  - VERTEX City(id UINT PRIMARY KEY, label STRING) WITH STATS="OUTDEGREE_BY_EDGETYPE"\n' +
      '  - VERTEX City(id UINT PRIMARY KEY, label STRING) WITH STATS="OUTDEGREE_BY_EDGETYPE"\n' +
      '  - DIRECTED EDGE lives_in(FROM Person, TO City, since DATETIME) WITH REVERSE_EDGE="home_of"\n' +
      '  - Graph social(Person:v, City:v, lives_in:e, friend:e)\n',
  );
  // A glob matching nothing lists nothing; a plain name that matches nothing is still an error.
  const none = await run(store, 'SHOW VERTEX X*', session);
  assert.equal(none.code, 0);
  assert.equal(none.output, '');
  const bad = await run(store, 'SHOW VERTEX P*, Nope', session);
  assert.match(bad.output, /The vertex type 'Nope' does not exist in graph 'social'\./);
});

test('a failing statement changes nothing; the script stops unless exit_on_error is FALSE', async () => {
  const store = new MemoryStore();
  await run(store, SCHEMA);
  const before = store.catalog;
  const r = await run(
    store,
    'CREATE VERTEX Person (PRIMARY_ID id INT)\nCREATE VERTEX Other (PRIMARY_ID id INT)',
  );
  assert.equal(r.code, 212);
  assert.equal(
    r.output,
    "Semantic Check Fails: The vertex type 'Person' already exists. (line 1, column 1)\n" +
      'Failed to create vertex types: [Person].\n',
  );
  assert.equal(store.catalog, before);

  const go = await run(
    store,
    'SET exit_on_error = FALSE\nCREATE VERTEX Person (PRIMARY_ID id INT)\nCREATE VERTEX Other (PRIMARY_ID id INT)',
  );
  assert.equal(go.code, 212);
  assert.match(go.output, /Successfully created vertex types: \[Other\]\.\n$/);
});

test('syntax errors exit with 211 and name line and column; earlier statements have run', async () => {
  const store = new MemoryStore();
  const r = await run(
    store,
    'CREATE VERTEX A (PRIMARY_ID id INT)\nCREATE VERTEX B (PRIMARY_ID id INT,)\nCREATE VERTEX C (PRIMARY_ID id INT)',
  );
  assert.equal(r.code, 211);
  assert.equal(
    r.output,
    'Successfully created vertex types: [A].\nSyntax Error: line 2, column 36: expected an attribute name but found ")"\n',
  );
  assert.deepEqual(
    store.catalog.vertexTypes.map((v) => v.name),
    ['A'],
  );
});

test('semantic errors inside declarations: bad defaults, unknown types, missing endpoints', async () => {
  const store = new MemoryStore();
  const r = await run(
    store,
    'SET exit_on_error = FALSE\n' +
      'CREATE VERTEX A (PRIMARY_ID id INT, n INT DEFAULT "x")\n' +
      'CREATE VERTEX B (PRIMARY_ID id INT, t no_such_tuple)\n' +
      'CREATE DIRECTED EDGE e (FROM A, TO A)\n' +
      'CREATE VERTEX C (PRIMARY_ID id INT) WITH COLOR="red"\n' +
      'CREATE VERTEX D (x INT)\n' +
      'CREATE GRAPH g(A)\n',
  );
  assert.equal(r.code, 212);
  assert.equal(
    r.output,
    `Semantic Check Fails: Attribute 'n' of vertex type 'A': default value "x" is not a valid INT. (line 2, column 1)
Failed to create vertex types: [A].
Semantic Check Fails: Attribute 't' of vertex type 'B': unknown type 'no_such_tuple' (not a built-in type or a defined tuple). (line 3, column 1)
Failed to create vertex types: [B].
Semantic Check Fails: edge type 'e': the FROM vertex type 'A' does not exist. (line 4, column 1)
Failed to create edge types: [e].
Semantic Check Fails: Unknown option COLOR for vertex type 'C'; expected one of STATS, PRIMARY_ID_AS_ATTRIBUTE, TAGGABLE. (line 5, column 42)
Failed to create vertex types: [C].
Semantic Check Fails: The vertex type 'D' needs a PRIMARY_ID or a PRIMARY KEY. (line 6, column 15)
Failed to create vertex types: [D].
Semantic Check Fails: Graph 'g': the vertex or edge type 'A' does not exist. (line 7, column 1)
The graph g could not be created!
`,
  );
  assert.equal(store.changes, 0);
});

test('schema change jobs: created, checked, run all-or-nothing, shown and dropped', async () => {
  const store = new MemoryStore();
  await run(store, SCHEMA);
  const session = { user: 'tigergraph', graph: 'social' };
  const job = `CREATE SCHEMA_CHANGE JOB grow {
  ADD VERTEX Pet (PRIMARY_ID id STRING, kind STRING);
  ADD UNDIRECTED EDGE owns (FROM Person, TO Pet);
  ALTER VERTEX Pet ADD ATTRIBUTE (legs INT DEFAULT 4);
}`;
  const created = await run(store, job, session);
  assert.equal(created.output, 'Successfully created schema change jobs: [grow].\n');
  assert.equal(store.catalog.jobs[0].text, job);
  assert.equal(store.catalog.vertexTypes.length, 2, 'creating a job changes no type');

  const v = store.catalog.version;
  const ran = await run(store, 'RUN SCHEMA_CHANGE JOB grow', session);
  assert.equal(ran.code, 0);
  const lines = ran.output.split('\n');
  assert.deepEqual(lines.slice(0, 7), [
    'Kick off schema change job grow',
    `Doing schema change on graph 'social' (current version: ${v})`,
    "Trying to add local vertex 'Pet' to the graph 'social'.",
    "Trying to add local edge 'owns' to the graph 'social'.",
    "Trying to add attribute 'legs' to local vertex 'Pet'.",
    '',
    `Graph social updated to new version ${v + 1}`,
  ]);
  assert.match(lines[7], /^The job grow completes in \d+\.\d{3} seconds!$/);
  assert.deepEqual(lines.slice(8), ['Local schema change succeeded.', '']);
  const pet = store.catalog.vertexTypes.find((x) => x.name === 'Pet');
  assert.equal(pet?.graph, 'social');
  assert.deepEqual(
    pet?.attributes.map((a) => a.name),
    ['kind', 'legs'],
  );
  assert.deepEqual(store.catalog.graphs[0].vertexTypes, ['Person', 'City', 'Pet']);

  // Running it again fails at its first statement and changes nothing.
  const again = await run(store, 'RUN SCHEMA_CHANGE JOB grow', session);
  assert.equal(again.code, 212);
  assert.equal(
    again.output,
    "Semantic Check Fails: The vertex type 'Pet' already exists. (line 1, column 1)\n" +
      'Failed to run schema change job grow; the schema is unchanged.\n',
  );

  const shown = await run(store, 'SHOW JOB grow', session);
  assert.equal(shown.output, `${job}\n`);

  const drop = await run(store, 'DROP JOB grow\nDROP JOB grow', session);
  assert.equal(
    drop.output,
    'The job grow is dropped!\n' +
      "The job 'grow' does not exist in graph 'social'; nothing to drop. (line 2, column 1)\n",
  );
});

test('DROP JOB of a job that is not there is reported and the script goes on, as TigerGraph scripts expect', async () => {
  const store = new MemoryStore();
  await run(store, SCHEMA);
  const session = { user: 'tigergraph', graph: 'social' };
  const job = 'CREATE SCHEMA_CHANGE JOB kept {\n  ADD VERTEX Pet (PRIMARY_ID id STRING);\n}';
  // A script written to be rerun: it drops its job before creating it, also on its first run.
  const first = await run(store, `DROP JOB kept\n${job}\nSHOW JOB kept`, session);
  assert.equal(first.code, 0, first.output);
  assert.equal(
    first.output,
    "The job 'kept' does not exist in graph 'social'; nothing to drop. (line 1, column 1)\n" +
      'Successfully created schema change jobs: [kept].\n' +
      `${job}\n`,
  );
  // Of several names, the jobs that exist are dropped and the others reported.
  const mixed = await run(store, 'DROP JOB ghost, kept\nSHOW JOB *', session);
  assert.equal(mixed.code, 0, mixed.output);
  assert.equal(
    mixed.output,
    'The job kept is dropped!\n' +
      "The job 'ghost' does not exist in graph 'social'; nothing to drop. (line 1, column 1)\n",
  );
  assert.deepEqual(store.catalog.jobs, []);
});

test('a job that does not fit the schema is refused at CREATE with the position of the bad statement', async () => {
  const store = new MemoryStore();
  await run(store, SCHEMA);
  const r = await run(
    store,
    'CREATE SCHEMA_CHANGE JOB j {\n  DROP VERTEX Person;\n  ALTER VERTEX Person ADD ATTRIBUTE (x INT);\n}',
    {
      user: 'tigergraph',
      graph: 'social',
    },
  );
  assert.equal(r.code, 212);
  assert.equal(
    r.output,
    "Semantic Check Fails: The vertex type 'Person' is global; change it with a global schema change job. (line 2, column 3)\n",
  );
  assert.deepEqual(store.catalog.jobs, []);
  const noGraph = await run(store, 'CREATE SCHEMA_CHANGE JOB j { DROP VERTEX Person; }');
  assert.equal(
    noGraph.output,
    'Semantic Check Fails: A schema change job needs a graph: run USE GRAPH <name> first. (line 1, column 1)\n',
  );
});

test('global schema change job: DROP VERTEX takes dependent edges and graph membership along', async () => {
  const store = new MemoryStore();
  await run(store, SCHEMA);
  const r = await run(
    store,
    'CREATE GLOBAL SCHEMA_CHANGE JOB g1 {\n  DROP VERTEX City;\n  ALTER EDGE friend ADD ATTRIBUTE (w DOUBLE);\n}\nRUN GLOBAL SCHEMA_CHANGE JOB g1',
  );
  assert.equal(r.code, 0);
  const v = store.catalog.version;
  assert.equal(
    r.output,
    'Successfully created schema change jobs: [g1].\n' +
      'Kick off global schema change job g1\n' +
      `Doing schema change on the global schema (current version: ${v - 1})\n` +
      "Trying to drop global vertex 'City'.\n" +
      "Trying to add attribute 'w' to global edge 'friend'.\n" +
      '\n' +
      `Graph social updated to new version ${v}\n` +
      'Global schema change succeeded.\n',
  );
  assert.deepEqual(
    store.catalog.edgeTypes.map((e) => e.name),
    ['friend'],
  );
  assert.deepEqual(store.catalog.graphs[0], {
    name: 'social',
    vertexTypes: ['Person'],
    edgeTypes: ['friend'],
  });
  const wrong = await run(store, 'RUN SCHEMA_CHANGE JOB g1', { user: 'tigergraph', graph: 'social' });
  assert.equal(
    wrong.output,
    'Semantic Check Fails: The job g1 is a global schema change job; run it with RUN GLOBAL SCHEMA_CHANGE JOB. (line 1, column 1)\n',
  );
});

test('DROP VERTEX/EDGE at top level refuse types in use; DROP GRAPH, DROP ALL, CLEAR GRAPH STORE', async () => {
  const store = new MemoryStore();
  await run(store, SCHEMA);
  const inUse = await run(store, 'DROP EDGE friend');
  assert.equal(
    inUse.output,
    "Semantic Check Fails: The edge type 'friend' is used by graph 'social'; it cannot be dropped. (line 1, column 1)\n",
  );
  const session: ShellSession = { user: 'tigergraph', graph: 'social' };
  const dg = await run(store, 'DROP GRAPH social\nDROP EDGE friend, lives_in\nDROP VERTEX City', session);
  assert.equal(
    dg.output,
    'The graph social is dropped.\nSuccessfully dropped edge types: [friend, lives_in].\nSuccessfully dropped vertex types: [City].\n',
  );
  assert.equal(session.graph, undefined);
  const missing = await run(store, 'DROP GRAPH social');
  assert.equal(missing.output, 'Semantic Check Fails: The graph social does not exist. (line 1, column 1)\n');
  const clear = await run(store, 'CLEAR GRAPH STORE -HARD');
  assert.equal(clear.output, 'Successfully cleared graph store.\n');
  assert.equal(store.clears, 1);
  const all = await run(store, 'DROP ALL');
  assert.equal(all.output, 'Dropping all, about 1 minute ...\nEverything is dropped.\n');
  assert.equal(store.clears, 2);
  assert.deepEqual(store.catalog.vertexTypes, []);
});

test('statements of later issues report "not supported yet" and do not stop the script', async () => {
  const store = new MemoryStore();
  const r = await run(store, 'CREATE DATA_SOURCE S3 s1\nCREATE VERTEX A (PRIMARY_ID id INT)');
  assert.equal(r.code, 212);
  assert.equal(
    r.output,
    'CREATE DATA_SOURCE is not supported yet. (line 1, column 1)\nSuccessfully created vertex types: [A].\n',
  );
});

test("help: TigerGraph's first line, then one section per statement family", async () => {
  const r = await run(new MemoryStore(), 'help');
  assert.equal(r.code, 0);
  const lines = r.output.split('\n');
  assert.equal(lines[0], 'GSQL Help: Summary of TigerGraph GSQL Shell commands.');
  const titles = lines.filter((l) => /^[A-Z][^ ].*:$/.test(l));
  assert.deepEqual(titles, [
    'Session:',
    'Schema: types and graphs:',
    'Schema change jobs:',
    'Loading jobs and data sources:',
    'Queries:',
    'Data:',
    'Users, roles and privileges:',
    'Secrets and tokens:',
  ]);
  for (const statement of [
    'CREATE [GLOBAL] SCHEMA_CHANGE JOB',
    'CREATE LOADING JOB',
    'INSTALL QUERY',
    'UPSERT',
    'GRANT|REVOKE ROLE',
    'CREATE SECRET',
    'CLEAR GRAPH STORE',
    'PUT ExprFunctions',
    'GET ExprFunctions',
  ]) {
    assert.ok(r.output.includes(statement), statement);
  }
  const queries = await run(new MemoryStore(), 'help query');
  assert.deepEqual(
    queries.output.split('\n').filter((l) => l.endsWith(':')),
    ['Queries:'],
  );
  assert.equal(queries.output.split('\n')[0], 'GSQL Help: Summary of TigerGraph GSQL Shell commands.');
  const unknown = await run(new MemoryStore(), 'help nothing_like_this');
  assert.equal(unknown.output, r.output);
});

test('global jobs move global types in and out of graphs; ALTER EDGE adds and drops pairs; RUN takes options', async () => {
  const store = new MemoryStore();
  await run(store, SCHEMA);
  const r = await run(
    store,
    `CREATE VERTEX Dog (PRIMARY_ID id STRING, name STRING NULLABLE DEFAULT "rex")
CREATE GRAPH pets()
CREATE GLOBAL SCHEMA_CHANGE JOB move {
  ADD VERTEX Person, Dog TO GRAPH pets;
  ALTER EDGE friend ADD PAIR (FROM Person, TO Dog | FROM Dog, TO Dog);
  ADD EDGE friend TO GRAPH pets;
  DROP VERTEX City FROM GRAPH social;
}
RUN GLOBAL SCHEMA_CHANGE JOB move -force -N`,
  );
  assert.equal(r.code, 0, r.output);
  assert.match(r.output, /Trying to add global vertex 'Person', 'Dog' to the graph 'pets'\.\n/);
  assert.match(r.output, /Trying to add the pair \(FROM Dog, TO Dog\) to global edge 'friend'\.\n/);
  assert.match(
    r.output,
    /\nGraph social updated to new version \d+\nGraph pets updated to new version \d+\nGlobal schema change succeeded\.\n$/,
  );
  assert.deepEqual(store.catalog.graphs, [
    { name: 'social', vertexTypes: ['Person'], edgeTypes: ['friend'] },
    { name: 'pets', vertexTypes: ['Person', 'Dog'], edgeTypes: ['friend'] },
  ]);
  assert.deepEqual(store.catalog.edgeTypes.find((e) => e.name === 'friend')?.pairs, [
    { from: 'Person', to: 'Person' },
    { from: 'Person', to: 'Dog' },
    { from: 'Dog', to: 'Dog' },
  ]);
  // City and lives_in stay in the catalog: leaving a graph deletes no type.
  assert.deepEqual(
    store.catalog.vertexTypes.map((v) => v.name),
    ['Person', 'City', 'Dog'],
  );
  const bad = await run(
    store,
    'CREATE GLOBAL SCHEMA_CHANGE JOB bad {\n  ALTER EDGE friend DROP PAIR (FROM City, TO City);\n}',
  );
  assert.equal(
    bad.output,
    "Semantic Check Fails: The edge type 'friend' has no pair (FROM City, TO City). (line 2, column 3)\n",
  );
  const local = await run(store, 'CREATE SCHEMA_CHANGE JOB l { ADD VERTEX Dog TO GRAPH pets; }', {
    user: 'tigergraph',
    graph: 'pets',
  });
  assert.equal(
    local.output,
    'Semantic Check Fails: ADD … TO GRAPH belongs in a GLOBAL schema change job. (line 1, column 30)\n',
  );
});
