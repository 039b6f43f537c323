import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Tuple } from '../../src/catalog/value.js';
import { prepareJob, runJobOnData } from '../../src/loading/job.js';
import type { LoadStatistics } from '../../src/loading/statistics.js';
import { openTestDb, type TestDb } from './helpers.js';

const SCHEMA = `
TYPEDEF TUPLE <code STRING, level INT> Secret_Info
CREATE VERTEX person (PRIMARY_ID id STRING, name STRING, active BOOL, born DATETIME, skills LIST<STRING>, scores MAP<STRING, INT>, secret Secret_Info, visits INT)
CREATE VERTEX company (id UINT PRIMARY KEY, cname STRING)
CREATE VERTEX city (country STRING, name STRING, pop INT, PRIMARY KEY (country, name))
CREATE VERTEX skill (PRIMARY_ID id STRING)
CREATE DIRECTED EDGE located (FROM person, TO city | FROM company, TO city)
CREATE UNDIRECTED EDGE knows (FROM person, TO person)
CREATE GRAPH net (*)
`;

let t: TestDb;
before(async () => {
  t = await openTestDb(SCHEMA);
});
after(async () => {
  await t.close();
});

async function load(jobText: string, variable: string, data: string): Promise<LoadStatistics> {
  return runJobOnData(t.db, prepareJob(jobText, 'net', t.db), variable, Buffer.from(data));
}

function attr(type: string, id: string, name: string): unknown {
  const r = t.db.read();
  try {
    const row = r.lookup(type, id);
    assert.notEqual(row, undefined, `${type} ${id} exists`);
    return r.attr(type, row as number, name);
  } finally {
    r.release();
  }
}

test('token functions, BOOL, DATETIME, SPLIT to LIST and MAP, UDT constructor, REDUCE(add)', async () => {
  const job = `CREATE LOADING JOB j FOR GRAPH net {
    DEFINE FILENAME f;
    LOAD f TO VERTEX person VALUES ($0, gsql_upper(gsql_concat($1, "_", gsql_trim($2))), gsql_to_bool($3), $4,
      SPLIT($5, "|"), SPLIT($6, ":", ";"), Secret_Info($7, $8), REDUCE(add($9))) USING QUOTE="double";
  }`;
  const s = await load(
    job,
    'f',
    'p1,ann,"  lee ",T,2001-02-03 04:05:06,a|b,x:1;y:2,c1,3,5\np1,ann,lee,t,2001-02-03,c,z:9,c2,4,7\n',
  );
  assert.equal(s.validLine, 2);
  assert.equal(s.toJSON().vertex[0].validObject, 2);
  assert.equal(attr('person', 'p1', 'name'), 'ANN_LEE');
  assert.equal(attr('person', 'p1', 'active'), true);
  assert.equal(attr('person', 'p1', 'born'), Date.UTC(2001, 1, 3) / 1000);
  // Collections accumulate over lines; REDUCE(add) sums.
  assert.deepEqual(attr('person', 'p1', 'skills'), ['a', 'b', 'c']);
  assert.deepEqual(
    attr('person', 'p1', 'scores'),
    new Map([
      ['x', 1],
      ['y', 2],
      ['z', 9],
    ]),
  );
  assert.deepEqual(attr('person', 'p1', 'secret'), new Tuple('Secret_Info', ['c2', 4]));
  assert.equal(attr('person', 'p1', 'visits'), 12);
});

test('PRIMARY KEY and composite keys; typed endpoints of a multi-pair edge; WHERE with to_int and IS NUMERIC', async () => {
  const job = `CREATE LOADING JOB j FOR GRAPH net {
    DEFINE FILENAME f;
    LOAD f TO VERTEX city VALUES ($1, $2, $3) WHERE $3 IS NUMERIC,
           TO VERTEX company VALUES ($0, "c") WHERE to_int($0) < 100,
           TO EDGE located VALUES ($0 company, $1 city) WHERE to_int($0) < 100 AND $3 IS NUMERIC
      USING SEPARATOR="|";
  }`;
  // located's TO end is city, whose id is "country,name".
  const s = await load(
    job.replace('VALUES ($0 company, $1 city)', 'VALUES ($0 company, gsql_concat($1, ",", $2) city)'),
    'f',
    '7|NL|Delft|100000\n200|FR|Lyon|500000\n8|DE|Ulm|many\n',
  );
  const j = s.toJSON();
  assert.equal(j.validLine, 3);
  assert.equal(j.failedConditionLine, 2);
  assert.deepEqual(
    j.vertex.map((v) => [v.typeName, v.validObject]),
    [
      ['city', 2],
      ['company', 2],
    ],
  );
  assert.deepEqual(
    j.edge.map((v) => [v.typeName, v.validObject]),
    [['located', 1]],
  );
  assert.equal(attr('city', 'FR,Lyon', 'pop'), 500000);
  assert.equal(attr('company', '7', 'cname'), 'c');
  const r = t.db.read();
  try {
    assert.equal(r.edgeCount('located'), 1);
  } finally {
    r.release();
  }
});

test('TEMP_TABLE with flatten feeds the statements that read it', async () => {
  const job = `CREATE LOADING JOB j FOR GRAPH net {
    DEFINE FILENAME f;
    LOAD f TO TEMP_TABLE t (pid, sk) VALUES ($0, flatten($1, ";", 1)) USING SEPARATOR=",";
    LOAD TEMP_TABLE t TO VERTEX skill VALUES ($"sk");
  }`;
  const s = await load(job, 'f', 'p1,go;rust;sql\np2,ts\n');
  assert.equal(s.toJSON().vertex[0].validObject, 4);
  const r = t.db.read();
  try {
    assert.equal(r.vertexCount('skill'), 4);
    assert.notEqual(r.lookup('skill', 'rust'), undefined);
  } finally {
    r.release();
  }
});

test('JSON_FILE lines with nested keys; invalid JSON lines are counted', async () => {
  const job = `CREATE LOADING JOB j FOR GRAPH net {
    DEFINE FILENAME f;
    LOAD f TO VERTEX person VALUES ($"id", $"info":"name", _, _, _, _, _, $"n") USING JSON_FILE="true";
  }`;
  const s = await load(job, 'f', '{"id":"j1","info":{"name":"Jo"},"n":5}\nnot json\n{"id":"j2","n":"x"}\n');
  const j = s.toJSON();
  assert.equal(j.validLine, 2);
  assert.equal(j.invalidJson, 1);
  assert.equal(j.vertex[0].validObject, 1);
  assert.equal(j.vertex[0].invalidAttribute, 1);
  assert.equal(attr('person', 'j1', 'name'), 'Jo');
  assert.equal(attr('person', 'j1', 'visits'), 5);
});

test('DELETE VERTEX and DELETE EDGE statements', async () => {
  await load(
    `CREATE LOADING JOB j FOR GRAPH net { DEFINE FILENAME f; LOAD f TO EDGE knows VALUES ($0, $1) USING SEPARATOR=","; }`,
    'f',
    'd1,d2\nd2,d3\nd3,d4\n',
  );
  const s = await load(
    `CREATE LOADING JOB j FOR GRAPH net {
      DEFINE FILENAME f;
      DELETE EDGE knows (FROM $0, TO $1) FROM f WHERE $2 == "edge";
      DELETE VERTEX person (PRIMARY_ID $0) FROM f WHERE $2 == "vertex";
    }`,
    'f',
    'd1,d2,edge\nd4,x,vertex\n',
  );
  const j = s.toJSON();
  assert.deepEqual(
    j.deleteEdge.map((o) => [o.typeName, o.validObject]),
    [['knows', 1]],
  );
  assert.deepEqual(
    j.deleteVertex.map((o) => [o.typeName, o.validObject]),
    [['person', 1]],
  );
  const r = t.db.read();
  try {
    assert.equal(r.lookup('person', 'd4'), undefined);
    assert.notEqual(r.lookup('person', 'd1'), undefined);
    assert.equal(r.edgeCount('knows'), 1);
  } finally {
    r.release();
  }
});

test('schema mismatches are refused when the job is compiled', () => {
  const bad =
    (body: string): (() => void) =>
    () =>
      prepareJob(`CREATE LOADING JOB j FOR GRAPH net { DEFINE FILENAME f; ${body} }`, 'net', t.db);
  assert.throws(
    bad('LOAD f TO EDGE located VALUES ($0, $1);'),
    /Edge type "located" has several FROM vertex types/,
  );
  assert.throws(
    bad('LOAD f TO EDGE located VALUES ($0 skill, $1 city);'),
    /Edge type "located" does not connect "skill" to "city"/,
  );
  assert.throws(bad('LOAD f TO VERTEX skill VALUES ($"id");'), /names a column, but the file has no header/);
  assert.throws(bad('LOAD f TO VERTEX skill VALUES (gsql_nope($0));'), /Unknown token function "gsql_nope"/);
  assert.throws(
    bad('LOAD f TO VERTEX skill VALUES ($0) USING SEPARATOR=",", QUOTE="triple";'),
    /QUOTE must be "double" or "single"/,
  );
  assert.throws(
    bad('LOAD g TO VERTEX skill VALUES ($0);'),
    /Filename variable "g" is not defined by DEFINE FILENAME/,
  );
  assert.throws(
    bad('LOAD f TO VERTEX person VALUES ($0, REDUCE(avg($1)), _, _, _, _, _, _);'),
    /Unknown REDUCE function "avg"/,
  );
});

test('a header without a named column stops the load with a clear error', async () => {
  const job = `CREATE LOADING JOB j FOR GRAPH net { DEFINE FILENAME f; LOAD f TO VERTEX skill VALUES ($"sid") USING HEADER="true"; }`;
  await assert.rejects(
    load(job, 'f', 'id,label\n1,x\n'),
    /Column "sid" is not in the header line of the file for "f"\./,
  );
});

test('VERTEX_MUST_EXIST skips edges to missing vertices; CRLF files; oversize tokens', async () => {
  const job = `CREATE LOADING JOB j FOR GRAPH net {
    DEFINE FILENAME f;
    LOAD f TO EDGE knows VALUES ($0, $1) USING SEPARATOR=",", EOL="\\r\\n", VERTEX_MUST_EXIST="true";
  }`;
  await load(
    `CREATE LOADING JOB v FOR GRAPH net { DEFINE FILENAME f; LOAD f TO VERTEX person VALUES ($0, _, _, _, _, _, _, _); }`,
    'f',
    'm1\nm2\n',
  );
  const s = await load(job, 'f', 'm1,m2\r\nm1,ghost\r\n');
  assert.deepEqual(
    s.toJSON().edge.map((e) => [e.validObject, e.noIdFound]),
    [[1, 1]],
  );
  const r = t.db.read();
  try {
    assert.equal(r.lookup('person', 'ghost'), undefined);
  } finally {
    r.release();
  }
  const big = await runJobOnData(
    t.db,
    prepareJob(
      `CREATE LOADING JOB o FOR GRAPH net { DEFINE FILENAME f; LOAD f TO VERTEX skill VALUES ($0); }`,
      'net',
      t.db,
    ),
    'f',
    Buffer.from(`1\n${'9'.repeat(64)}\n2\n`),
    { maxTokenBytes: 32 },
  );
  assert.equal(big.oversizeToken, 1);
  assert.equal(big.validLine, 2);
});

test('flatten_json_array turns a JSON array into TEMP_TABLE rows', async () => {
  const job = `CREATE LOADING JOB j FOR GRAPH net {
    DEFINE FILENAME f;
    LOAD f TO TEMP_TABLE t (pid, sid, label) VALUES ($"id", flatten_json_array($"skills", $"sid", $"label")) USING JSON_FILE="true";
    LOAD TEMP_TABLE t TO VERTEX skill VALUES ($"label"), TO EDGE knows VALUES ($"pid", $"sid");
  }`;
  const s = await load(
    job,
    'f',
    '{"id":"fj1","skills":[{"sid":"fj2","label":"zig"},{"sid":"fj3","label":"ada"}]}\n',
  );
  const j = s.toJSON();
  assert.equal(j.validLine, 1);
  assert.deepEqual(
    j.vertex.map((v) => [v.typeName, v.validObject]),
    [['skill', 2]],
  );
  assert.deepEqual(
    j.edge.map((v) => [v.typeName, v.validObject]),
    [['knows', 2]],
  );
  const r = t.db.read();
  try {
    assert.notEqual(r.lookup('skill', 'zig'), undefined);
    assert.notEqual(r.lookup('person', 'fj3'), undefined);
  } finally {
    r.release();
  }
});

test('a line that is not UTF-8 is rejected, even split across chunks', async () => {
  const plan = prepareJob(
    `CREATE LOADING JOB u FOR GRAPH net { DEFINE FILENAME f; LOAD f TO VERTEX skill VALUES ($0); }`,
    'net',
    t.db,
  );
  const { loadInput } = await import('../../src/loading/runner.js');
  const input = plan.inputs[0];
  const bytes = Buffer.concat([Buffer.from('ok1\nbad'), Buffer.from([0xff, 0xfe]), Buffer.from('x\nok2\n')]);
  const s = await loadInput(t.db, input, [bytes.subarray(0, 9), bytes.subarray(9)]);
  assert.equal(s.rejectLine, 1);
  assert.equal(s.validLine, 2);
});

test('DEFINE HEADER names the columns of a file without a header line', async () => {
  const job = `CREATE LOADING JOB h FOR GRAPH net {
    DEFINE FILENAME f;
    DEFINE HEADER cols = "code", "title";
    LOAD f TO VERTEX skill VALUES ($"title") USING USER_DEFINED_HEADER="cols", SEPARATOR=";";
  }`;
  const s = await load(job, 'f', 'k1;kotlin\nk2\n');
  assert.equal(s.validLine, 1);
  assert.equal(s.notEnoughToken, 1);
  const r = t.db.read();
  try {
    assert.notEqual(r.lookup('skill', 'kotlin'), undefined);
  } finally {
    r.release();
  }
  assert.throws(
    () => prepareJob(job.replace('USER_DEFINED_HEADER="cols"', 'USER_DEFINED_HEADER="nope"'), 'net', t.db),
    /USER_DEFINED_HEADER "nope" is not defined by DEFINE HEADER/,
  );
});

test('USING escapes are read by the loader: "\\u001d" and "\\t" separators', async () => {
  const s = await load(
    `CREATE LOADING JOB e FOR GRAPH net { DEFINE FILENAME f; LOAD f TO VERTEX city VALUES ($0, $1, $2) USING SEPARATOR="\\u001d"; }`,
    'f',
    'SE\u001dLund\u001d90000\n',
  );
  assert.equal(s.toJSON().vertex[0].validObject, 1);
  assert.equal(attr('city', 'SE,Lund', 'pop'), 90000);
  const tab = await load(
    `CREATE LOADING JOB e2 FOR GRAPH net { DEFINE FILENAME f; LOAD f TO VERTEX city VALUES ($0, $1, $2) USING SEPARATOR="\\t"; }`,
    'f',
    'SE\tUmea\t80000\n',
  );
  assert.equal(tab.toJSON().vertex[0].validObject, 1);
});
