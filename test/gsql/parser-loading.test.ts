import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../src/gsql/lexer.js';
import { Parser } from '../../src/gsql/parser-core.js';
import { parseCreateLoadingJob, parseRunLoadingJob } from '../../src/gsql/parser-loading.js';
import { parseScript } from '../../src/gsql/parser.js';

function job(text: string) {
  return parseCreateLoadingJob(new Parser(text, tokenize(text)));
}

test('DEFINE FILENAME / HEADER, several targets, WHERE, USING and the stored text', () => {
  const text = `CREATE LOADING JOB load_ldbc FOR GRAPH ldbc {
  DEFINE FILENAME f1 = "/data/org.csv", f2;
  DEFINE HEADER h = "id", "type", "name";
  LOAD f1 TO VERTEX Company VALUES ($0, $2) WHERE $1 == "Company" OR to_int($0) < 111,
          TO EDGE isLocatedIn VALUES ($0 Company, $3 Country) WHERE NOT $"type" IS EMPTY
          USING SEPARATOR="|", HEADER="true", QUOTE="double";
  LOAD "/data/x.csv" TO VERTEX Tag VALUES ($0, _, gsql_concat($1, "-", $2), REDUCE(add($3)));
  DELETE VERTEX Tag (PRIMARY_ID $0) FROM f2 WHERE $1 IN ("old", "stale");
  DELETE EDGE knows (FROM $0 Person, TO $1) FROM f2;
}`;
  const j = job(text);
  assert.equal(j.name, 'load_ldbc');
  assert.equal(j.graph, 'ldbc');
  assert.equal(j.text, text);
  assert.deepEqual(
    j.filenames.map((f) => [f.name, f.path]),
    [
      ['f1', '/data/org.csv'],
      ['f2', undefined],
    ],
  );
  assert.deepEqual(j.headers[0].columns, ['id', 'type', 'name']);
  const [load1, load2, delV, delE] = j.statements;
  assert.equal(load1.kind, 'load');
  if (load1.kind !== 'load') return;
  assert.equal(load1.targets.length, 2);
  assert.deepEqual(
    load1.using.map((u) => [u.name, u.value]),
    [
      ['SEPARATOR', '|'],
      ['HEADER', 'true'],
      ['QUOTE', 'double'],
    ],
  );
  const where = load1.targets[0].where;
  assert.equal(where?.kind, 'or');
  const edgeVals = load1.targets[1].values;
  assert.equal(edgeVals[0].kind, 'typed');
  assert.equal(edgeVals[0].kind === 'typed' && edgeVals[0].vertexType, 'Company');
  assert.deepEqual(load1.targets[1].where?.kind, 'not');
  assert.equal(load2.kind === 'load' && load2.source.kind, 'path');
  const vals = load2.kind === 'load' ? load2.targets[0].values : [];
  assert.deepEqual(
    vals.map((v) => v.kind),
    ['position', 'skip', 'call', 'reduce'],
  );
  assert.equal(delV.kind, 'delete_vertex');
  assert.equal(delV.kind === 'delete_vertex' && delV.where?.kind, 'in');
  assert.equal(delE.kind, 'delete_edge');
  assert.equal(delE.kind === 'delete_edge' && delE.from.kind, 'typed');
});

test('TEMP_TABLE with flatten, JSON paths, MAP entries and UDT constructors', () => {
  const j = job(`CREATE LOADING JOB j {
  DEFINE FILENAME f;
  LOAD f TO TEMP_TABLE t (id, skill) VALUES ($0, flatten($2, "|", 1)) USING SEPARATOR=",";
  LOAD TEMP_TABLE t TO VERTEX Skill VALUES ($"skill");
  LOAD f TO VERTEX P VALUES ($"a":"b", ($1 -> $2), Secret_Info($2, $3)) USING JSON_FILE="true";
}`);
  const [tt, fromT, json] = j.statements;
  assert.equal(tt.kind === 'load' && tt.targets[0].kind, 'temp_table');
  assert.deepEqual(tt.kind === 'load' && tt.targets[0].kind === 'temp_table' && tt.targets[0].columns, [
    'id',
    'skill',
  ]);
  assert.equal(fromT.kind === 'load' && fromT.source.kind, 'temp_table');
  const vals = json.kind === 'load' ? json.targets[0].values : [];
  assert.deepEqual(vals[0].kind === 'column' && vals[0].path, ['a', 'b']);
  assert.equal(vals[1].kind, 'map_entry');
  assert.equal(vals[2].kind === 'call' && vals[2].name, 'Secret_Info');
});

test('syntax errors name the line, column and what was expected', () => {
  assert.throws(
    () => job('CREATE LOADING JOB j {\n  LOAD f TO VERTEX V VALUES ($0, );\n}'),
    /line 2, column 34: expected a value \(\$n, \$"column", a literal, _ or a function call\) but found "\)"/,
  );
  assert.throws(
    () => job('CREATE LOADING JOB j {\n  LOAD f INTO VERTEX V VALUES ($0);\n}'),
    /line 2, column 10: expected "TO"/,
  );
  assert.throws(
    () => job('CREATE LOADING JOB j {\n  DEFINE FILE f;\n}'),
    /expected FILENAME or HEADER after DEFINE/,
  );
  assert.throws(
    () => job('CREATE LOADING JOB j { LOAD f TO VERTEX V VALUES ($x); }'),
    /a column number or a quoted column name after "\$"/,
  );
});

test('RUN LOADING JOB with -noprint and USING', () => {
  const text = 'RUN LOADING JOB -noprint load_social USING file1="/tmp/p.csv", EOF="true"';
  const r = parseRunLoadingJob(new Parser(text, tokenize(text)));
  assert.equal(r.name, 'load_social');
  assert.equal(r.noPrint, true);
  assert.deepEqual(
    r.using.map((u) => [u.name, u.value]),
    [
      ['file1', '/tmp/p.csv'],
      ['EOF', 'true'],
    ],
  );
});

test('the statement parser routes CREATE and RUN LOADING JOB to the loading grammar', () => {
  const items = parseScript(
    'CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f; LOAD f TO VERTEX V VALUES ($0); }\nRUN LOADING JOB j USING f="x"\n',
  );
  assert.deepEqual(
    items.map((i) => (i.ok ? i.stmt.kind : 'error')),
    ['create_loading_job', 'run_loading_job'],
  );
});
