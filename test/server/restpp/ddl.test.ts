import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServers, type RunningServers } from '../../../src/server/start.js';
import { openTestDb, type TestDb } from '../../loading/helpers.js';

const SCHEMA = `
CREATE VERTEX person (PRIMARY_ID name STRING, name STRING, age INT, tags SET<STRING>)
CREATE VERTEX company (PRIMARY_ID id INT, cname STRING)
CREATE DIRECTED EDGE works_for (FROM person, TO company, since DATETIME)
CREATE GRAPH work (person, company, works_for)
CREATE LOADING JOB load_work FOR GRAPH work {
  DEFINE FILENAME people;
  DEFINE FILENAME jobs;
  LOAD people TO VERTEX person VALUES ($0, $0, $1, SPLIT($2, "|")) USING SEPARATOR=",", HEADER="false";
  LOAD jobs TO VERTEX company VALUES ($1, $2), TO EDGE works_for VALUES ($0, $1, $3) WHERE $3 != "" USING SEPARATOR="|";
  LOAD "/nonexistent/companies.csv" TO VERTEX company VALUES ($0, $1);
}
`;

let t: TestDb;
let servers: RunningServers;
let base: string;

before(async () => {
  t = await openTestDb(SCHEMA);
  servers = await startServers({
    database: t.db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    importDirs: [t.dir],
    log: () => {},
  });
  base = servers.urls.restpp;
});

after(async () => {
  await servers.close();
  await t.close();
});

async function post(
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(base + path, { method: 'POST', body, headers });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const ZERO = {
  noIdFound: 0,
  invalidAttribute: 0,
  invalidPrimaryId: 0,
  invalidSecondaryId: 0,
  incorrectFixedBinaryLength: 0,
};

test('pyTigerGraph-style runLoadingJobWithData: form content type, body taken raw', async () => {
  const r = await post(
    '/ddl/work?tag=load_work&filename=people&sep=%2C&eol=%0A',
    'amy,31,a|b\nbob,x,c\ncid,40\n',
    {
      'Content-Type': 'application/x-www-form-urlencoded; Charset=utf-8',
      'GSQL-TIMEOUT': '16000',
      'RESPONSE-LIMIT': '1000000',
    },
  );
  assert.equal(r.status, 200);
  assert.equal(r.json.error, false);
  assert.equal(r.json.code, 'REST-0000');
  assert.deepEqual(r.json.results, [
    {
      sourceFileName: 'Online_POST',
      statistics: {
        validLine: 2,
        rejectLine: 0,
        failedConditionLine: 0,
        notEnoughToken: 1,
        invalidJson: 0,
        oversizeToken: 0,
        vertex: [{ typeName: 'person', validObject: 1, ...ZERO, invalidAttribute: 1 }],
        edge: [],
        deleteVertex: [],
        deleteEdge: [],
      },
    },
  ]);
  const rd = t.db.read();
  try {
    const row = rd.lookup('person', 'amy') as number;
    assert.deepEqual(rd.attr('person', row, 'tags'), ['a', 'b']);
    assert.equal(rd.lookup('person', 'bob'), undefined);
  } finally {
    rd.release();
  }
});

test('one request feeds one variable; WHERE failures and bad ids are counted; concise form', async () => {
  const body = 'amy|7|Acme|2020-01-02\nbob|x|Bad|2020-01-02\ncid|8|Beta|\n';
  const r = await post('/ddl/work?tag=load_work&filename=jobs', body);
  assert.equal(r.status, 200);
  const stats = (r.json.results as { statistics: Record<string, unknown> }[])[0].statistics;
  assert.equal(stats.validLine, 3);
  assert.equal(stats.failedConditionLine, 1);
  assert.deepEqual(stats.vertex, [{ typeName: 'company', validObject: 2, ...ZERO, invalidPrimaryId: 1 }]);
  assert.deepEqual(stats.edge, [{ typeName: 'works_for', validObject: 1, ...ZERO, invalidSecondaryId: 1 }]);

  const c = await post('/ddl/work?tag=load_work&filename=jobs&concise=true', 'dan|9|Gamma|2021-05-06\n');
  assert.deepEqual((c.json.results as unknown[])[0], {
    sourceFileName: 'Online_POST',
    statistics: {
      vertex: [{ typeName: 'company', validObject: 1 }],
      edge: [{ typeName: 'works_for', validObject: 1 }],
      deleteVertex: [],
      deleteEdge: [],
    },
  });
  const rd = t.db.read();
  try {
    assert.equal(rd.edgeCount('works_for'), 2);
    assert.equal(rd.vertexCount('company'), 3);
  } finally {
    rd.release();
  }
});

test('__GSQL_FILENAME_n__ names a LOAD statement with a literal path', async () => {
  const r = await post('/ddl/work?tag=load_work&filename=__GSQL_FILENAME_0__', '100,Initech\n');
  assert.equal(r.status, 200);
  const stats = (r.json.results as { statistics: { vertex: unknown[] } }[])[0].statistics;
  assert.deepEqual(stats.vertex, [{ typeName: 'company', validObject: 1, ...ZERO }]);
});

test('unknown job, filename, graph and missing parameters are clear errors', async () => {
  const noJob = await post('/ddl/work?tag=nope&filename=people', 'a,1\n');
  assert.equal(noJob.status, 400);
  assert.equal(noJob.json.error, true);
  assert.equal(noJob.json.message, "The loading job 'nope' does not exist in graph 'work'.");
  const noVar = await post('/ddl/work?tag=load_work&filename=f9', 'a,1\n');
  assert.equal(noVar.status, 400);
  assert.match(
    String(noVar.json.message),
    /"f9" is not a filename variable of loading job "load_work" \(its filename variables: people, jobs\)/,
  );
  const noTag = await post('/ddl/work?filename=people', 'a,1\n');
  assert.match(String(noTag.json.message), /The parameter 'tag' \(the loading job name\) is required/);
  const noGraph = await post('/ddl/nograph?tag=load_work&filename=people', 'a,1\n');
  assert.equal(noGraph.json.code, 'REST-1004');
  const badTimeout = await post('/ddl/work?tag=load_work&filename=people&timeout=soon', 'a,1\n');
  assert.equal(badTimeout.json.code, 'REST-30001');
  assert.match(
    String(badTimeout.json.message),
    /The value 'soon' of parameter 'timeout' is not a valid number of seconds\./,
  );
  const badSep = await post('/ddl/work?tag=load_work&filename=people&eol=abc', 'a,1\n');
  assert.match(String(badSep.json.message), /EOL "abc" must be one or two characters/);
});

test('pyTigerGraph flow: conn.gsql() creates and runs a job, runLoadingJobWithData feeds it', async () => {
  const auth = { Authorization: `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}` };
  const file = await t.file('people.csv', 'gus,50,g\n');
  const gsql = async (text: string): Promise<string> => {
    const res = await fetch(`${servers.urls.gsql}/gsql/v1/statements`, {
      method: 'POST',
      body: text,
      headers: { ...auth, 'Content-Type': 'text/plain' },
    });
    return res.text();
  };
  const created = await gsql(
    'USE GRAPH work\nCREATE LOADING JOB job1 FOR GRAPH work { DEFINE FILENAME f1; LOAD f1 TO VERTEX person VALUES ($0, $0, $1, _); }',
  );
  assert.match(created, /Successfully created loading jobs: \[job1\]/);
  const ran = await gsql(`USE GRAPH work\nRUN LOADING JOB job1 USING f1="${file}"`);
  assert.match(ran, /LOAD SUCCESSFUL/);
  const r = await post('/ddl/work?tag=job1&filename=f1&sep=%2C&eol=%0A', 'hal,60\n', {
    'Content-Type': 'application/x-www-form-urlencoded; Charset=utf-8',
  });
  const stats = (
    r.json.results as { statistics: { vertex: { typeName: string; validObject: number }[] } }[]
  )[0].statistics;
  assert.deepEqual(
    stats.vertex.map((v) => [v.typeName, v.validObject]),
    [['person', 1]],
  );
  const rd = t.db.read();
  try {
    assert.equal(rd.attr('person', rd.lookup('person', 'gus') as number, 'age'), 50);
    assert.equal(rd.attr('person', rd.lookup('person', 'hal') as number, 'age'), 60);
  } finally {
    rd.release();
  }
});
