import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { runScript } from '../../src/shell/run-script.js';
import { queryListing } from '../../src/shell/query-list.js';

const SCHEMA = `CREATE VERTEX person (PRIMARY_ID name STRING, name STRING, age INT, gender STRING, state STRING)
CREATE UNDIRECTED EDGE friendship (FROM person, TO person, connect_day DATETIME)
CREATE GRAPH social(person, friendship)
`;

async function withSocial(
  fn: (db: Database, run: (text: string) => Promise<{ code: number; output: string }>) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-query-shell-'));
  const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
  try {
    const session = { user: 'tigergraph' };
    const run = async (text: string) => {
      let output = '';
      const code = await runScript(db, text, session, (t) => (output += t));
      return { code, output };
    };
    assert.equal((await run(SCHEMA)).code, 0);
    await db.write((tx) => {
      for (const [name, age, gender, state] of [
        ['Tom', 40, 'male', 'ca'],
        ['Dan', 34, 'male', 'ny'],
        ['Jenny', 25, 'female', 'tx'],
      ] as const) {
        const set = (value: string | number) => ({ value, op: 'set' as const });
        tx.upsertVertex('person', name, {
          name: set(name),
          age: set(age),
          gender: set(gender),
          state: set(state),
        });
      }
      tx.upsertEdge('friendship', 'person', 'Tom', 'person', 'Dan', {});
      tx.upsertEdge('friendship', 'person', 'Tom', 'person', 'Jenny', {});
    });
    await fn(db, run);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const HELLO = `USE GRAPH social
CREATE QUERY hello(VERTEX<person> p) FOR GRAPH social {
  SumAccum<INT> @@total;
  Start = {p};
  Result = SELECT tgt FROM Start:s -(friendship:e)- person:tgt ACCUM @@total += tgt.age;
  PRINT @@total;
}
`;

test('CREATE, INSTALL, RUN, SHOW and DROP QUERY through the shell', async () => {
  await withSocial(async (db, run) => {
    const created = await run(HELLO);
    assert.equal(created.output, "Using graph 'social'\nSuccessfully created queries: [hello].\n");
    const notInstalled = await run('USE GRAPH social\nRUN QUERY hello("Tom")');
    assert.equal(notInstalled.code, 212);
    assert.match(
      notInstalled.output,
      /The query hello is not installed\. Run INSTALL QUERY hello first\. \(line 2, column 1\)/,
    );
    const shown = await run('USE GRAPH social\nSHOW QUERY hello');
    assert.equal(shown.output.split('\n')[1], 'CREATE QUERY hello(VERTEX<person> p) FOR GRAPH social {');
    assert.equal(shown.output.split('\n')[2], '  SumAccum<INT> @@total;');

    const installed = await run('USE GRAPH social\nINSTALL QUERY hello');
    assert.equal(installed.code, 0);
    assert.match(
      installed.output,
      /hello query: curl -X GET 'http:\/\/127\.0\.0\.1:9000\/query\/social\/hello\?p=VALUE'/,
    );
    assert.match(installed.output, /Query installation finished\.\n$/);
    const shownInstalled = await run('USE GRAPH social SHOW QUERY hello');
    assert.deepEqual(shownInstalled.output.split('\n').slice(0, 3), [
      "Using graph 'social'",
      '# installed v2',
      'CREATE QUERY hello(VERTEX<person> p) FOR GRAPH social {',
    ]);
    const shownAll = await run('USE GRAPH social\nSHOW QUERY *');
    assert.equal(shownAll.output, shownInstalled.output);

    const ran = await run('USE GRAPH social\nRUN QUERY hello("Tom")');
    assert.equal(ran.code, 0);
    assert.equal(
      ran.output,
      `Using graph 'social'
{
  "error": false,
  "message": "",
  "version": {
    "schema": 0,
    "edition": "enterprise",
    "api": "v2"
  },
  "results": [
    {
      "@@total": 59
    }
  ]
}
`,
    );
    assert.deepEqual(queryListing(db, 'social'), ['  - hello(VERTEX<person> p) (installed v2)']);
    const dropped = await run('USE GRAPH social\nDROP QUERY hello');
    assert.equal(
      dropped.output,
      "Using graph 'social'\nSuccessfully dropped queries on the graph 'social': [hello].\n",
    );
    assert.deepEqual(queryListing(db, 'social'), []);
  });
});

test('semantic errors name the line and column; anonymous INTERPRET runs at once', async () => {
  await withSocial(async (_db, run) => {
    const bad = await run(`USE GRAPH social
CREATE QUERY bad() FOR GRAPH social {
  SumAccum<INT> @@n;
  @@n += "x";
}`);
    assert.equal(bad.code, 212);
    assert.equal(
      bad.output,
      `Using graph 'social'\nSemantic Check Fails: "+=" on SumAccum<INT> needs INT, not STRING (line 4, column 10)\n`,
    );
    const syntax = await run('USE GRAPH social\nCREATE QUERY s() FOR GRAPH social { PRINT 1 +; }');
    assert.equal(syntax.code, 211);
    assert.match(syntax.output, /Syntax Error: line 2, column 46: expected an expression but found ";"/);
    const anon = await run('INTERPRET QUERY () FOR GRAPH social { PRINT "OK" AS status, 1 + 2; }');
    assert.equal(anon.code, 0);
    assert.match(anon.output, /"status": "OK",\n\s+"1\+2": 3/);
  });
});
