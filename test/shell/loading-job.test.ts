import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Database } from '../../src/engine/database.js';
import { runScript } from '../../src/shell/run-script.js';
import { openTestDb, SOCIAL_SCHEMA } from '../loading/helpers.js';

let importDir = '';

async function gsql(db: Database, text: string, graph?: string): Promise<{ code: number; out: string }> {
  let out = '';
  const session = graph === undefined ? { user: 'tigergraph' } : { user: 'tigergraph', graph };
  const code = await runScript(db, text, session, (t) => (out += t), { importDirs: [importDir] });
  return { code, out };
}

const PERSONS = 'name,gender,age,state\nIvo,male,40,ca\nJia,male,34,ny\nKofi,female,25,tx\n';
const FRIENDS = 'Ivo,Jia,2017-06-03\nIvo,Kofi,2015-01-01\n';

test('CREATE / SHOW / RUN / DROP LOADING JOB in the shell, job kept across a restart', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  importDir = t.dir;
  let db: Database = t.db;
  try {
    const persons = await t.file('person.csv', PERSONS);
    const friends = await t.file('friendship.csv', FRIENDS);
    const create = await gsql(
      db,
      `USE GRAPH social
CREATE LOADING JOB load_social FOR GRAPH social {
  DEFINE FILENAME file1;
  DEFINE FILENAME file2 = "${friends}";
  LOAD file1 TO VERTEX person VALUES ($"name", $"name", $"age", $"gender", $"state") USING header="true", separator=",";
  LOAD file2 TO EDGE friendship VALUES ($0, $1, $2) USING separator=",";
}
`,
    );
    assert.equal(create.code, 0, create.out);
    assert.match(create.out, /Successfully created loading jobs: \[load_social\]\./);

    const show = await gsql(db, 'SHOW JOB load_social', 'social');
    assert.match(show.out, /CREATE LOADING JOB load_social FOR GRAPH social \{/);

    // The job is in the durable catalog: it survives closing and reopening the data directory.
    await db.close();
    db = await Database.open({ dataDir: join(t.dir, 'data'), rebuildIntervalMs: 0 });

    const run = await gsql(db, `RUN LOADING JOB load_social USING file1="${persons}", EOF="true"`, 'social');
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /LOAD SUCCESSFUL for loading jobid: social\.load_social\.file\.m1\.\d+/);
    assert.match(run.out, /person\.csv \|\s+3 \|/);
    const r = db.read();
    try {
      assert.equal(r.vertexCount('person'), 3);
      assert.equal(r.edgeCount('friendship'), 2);
    } finally {
      r.release();
    }

    const drop = await gsql(db, 'DROP JOB load_social', 'social');
    assert.equal(drop.code, 0, drop.out);
    const again = await gsql(db, `RUN LOADING JOB load_social USING file1="${persons}"`, 'social');
    assert.notEqual(again.code, 0);
    assert.match(again.out, /loading job load_social does not exist/);
  } finally {
    t.db = db;
    await t.close();
  }
});

test('a job that does not fit the schema is refused with its position', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  importDir = t.dir;
  try {
    const bad = await gsql(
      t.db,
      `CREATE LOADING JOB j FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX people VALUES ($0, $1, $2, $3, $4);
}`,
    );
    assert.equal(bad.code, 212);
    assert.match(
      bad.out,
      /Semantic Check Fails: Vertex type "people" is not a vertex type of graph "social"\. \(line 3, column 10\)/,
    );
    const count = await gsql(
      t.db,
      `CREATE LOADING JOB j FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX person VALUES ($0, $1);
}`,
    );
    assert.equal(count.code, 212);
    assert.match(
      count.out,
      /Vertex type "person" takes 5 values \(name, name, age, gender, state\), but 2 are given\./,
    );
    const missing = await gsql(
      t.db,
      `CREATE LOADING JOB j2 FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX person VALUES ($0, $0, $1, $2, $3);
}
RUN LOADING JOB j2`,
      'social',
    );
    assert.match(missing.out, /Successfully created loading jobs: \[j2\]/);
    assert.match(missing.out, /Filename variable "f" has no file/);
  } finally {
    await t.close();
  }
});

test('RUN of a job the schema no longer fits names the place inside the stored job', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  importDir = t.dir;
  try {
    const out = await gsql(
      t.db,
      `USE GRAPH social
CREATE LOADING JOB j FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO EDGE friendship VALUES ($0, $1, $2);
}
CREATE GLOBAL SCHEMA_CHANGE JOB s { DROP EDGE friendship; }
RUN GLOBAL SCHEMA_CHANGE JOB s
USE GRAPH social
RUN LOADING JOB j USING f="/nonexistent"`,
    );
    assert.match(
      out.out,
      /Semantic Check Fails: Edge type "friendship" is not an edge type of graph "social"\. \(loading job j, line 3, column 10\) \(line 9, column 1\)/,
    );
  } finally {
    await t.close();
  }
});
