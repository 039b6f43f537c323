import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Stmt } from '../../src/gsql/ast.js';
import { GsqlSyntaxError } from '../../src/gsql/lexer.js';
import { parseOne, parseScript } from '../../src/gsql/parser.js';

function stmts(src: string): Stmt[] {
  return parseScript(src).map((i) => {
    if (!i.ok) throw i.error;
    return i.stmt;
  });
}

function syntaxError(src: string): GsqlSyntaxError {
  const bad = parseScript(src).find((i) => !i.ok);
  assert.ok(bad && !bad.ok, `expected a syntax error in: ${src}`);
  return bad.error;
}

test('CREATE VERTEX with PRIMARY_ID, defaults and WITH options', () => {
  const s = parseOne(
    'create vertex Person (primary_id id STRING, age INT DEFAULT -3, ok BOOL default TRUE, name STRING DEFAULT "x") ' +
      'WITH STATS="NONE", primary_id_as_attribute="true"',
  );
  assert.equal(s.kind, 'create_vertex');
  if (s.kind !== 'create_vertex') return;
  assert.deepEqual(s.vertex.primaryId, {
    name: 'id',
    type: { kind: 'STRING', compress: false },
    line: 1,
    column: 34,
  });
  assert.deepEqual(
    s.vertex.attributes.map((a) => [a.name, a.type.kind, a.default?.kind, a.default?.text]),
    [
      ['age', 'INT', 'number', '-3'],
      ['ok', 'BOOL', 'bool', 'true'],
      ['name', 'STRING', 'string', 'x'],
    ],
  );
  assert.deepEqual(
    s.vertex.options.map((o) => [o.name, o.value]),
    [
      ['STATS', 'NONE'],
      ['primary_id_as_attribute', 'true'],
    ],
  );
});

test('inline PRIMARY KEY and composite PRIMARY KEY', () => {
  const [a, b] = stmts(
    'CREATE VERTEX a (id UINT PRIMARY KEY, x DATETIME)\nCREATE VERTEX b (x INT, y STRING, PRIMARY KEY (y, x))',
  );
  assert.ok(a.kind === 'create_vertex' && b.kind === 'create_vertex');
  assert.equal(a.vertex.primaryKey, 'id');
  assert.deepEqual(b.vertex.compositeKey, ['y', 'x']);
  assert.deepEqual(
    b.vertex.attributes.map((x) => x.name),
    ['x', 'y'],
  );
});

test('every attribute type form', () => {
  const s = parseOne(
    'CREATE VERTEX v (PRIMARY_ID id INT, a UINT, b FLOAT, c DOUBLE, d STRING COMPRESS, e FIXED_BINARY(16), ' +
      'f LIST<INT>, g SET<STRING>, h MAP<DATETIME, tup>, i tup, j LIST<SET<INT>>)',
  );
  assert.ok(s.kind === 'create_vertex');
  assert.deepEqual(
    s.vertex.attributes.map((a) => a.type),
    [
      { kind: 'UINT', bytes: 8 },
      { kind: 'FLOAT' },
      { kind: 'DOUBLE' },
      { kind: 'STRING', compress: true },
      { kind: 'FIXED_BINARY', length: 16 },
      { kind: 'LIST', element: { kind: 'INT', bytes: 8 } },
      { kind: 'SET', element: { kind: 'STRING', compress: false } },
      { kind: 'MAP', key: { kind: 'DATETIME' }, value: { kind: 'UDT', name: 'tup' } },
      { kind: 'UDT', name: 'tup' },
      { kind: 'LIST', element: { kind: 'SET', element: { kind: 'INT', bytes: 8 } } },
    ],
  );
});

test('TYPEDEF TUPLE with sized fields, in both field orders', () => {
  const s = parseOne('TYPEDEF TUPLE <a INT(1), b UINT(4), c STRING(10), INT(2) d, DOUBLE e> t');
  assert.ok(s.kind === 'typedef_tuple');
  assert.equal(s.name, 't');
  assert.deepEqual(
    s.fields.map((f) => [f.name, f.type]),
    [
      ['a', { kind: 'INT', bytes: 1 }],
      ['b', { kind: 'UINT', bytes: 4 }],
      ['c', { kind: 'STRING', compress: false, maxLength: 10 }],
      ['d', { kind: 'INT', bytes: 2 }],
      ['e', { kind: 'DOUBLE' }],
    ],
  );
  const e = syntaxError('TYPEDEF TUPLE <a INT(3)> t');
  assert.deepEqual(
    [e.line, e.column, e.detail],
    [1, 22, 'an integer width must be 1, 2, 4 or 8 bytes, got 3'],
  );
});

test('edges: several pairs, FROM a|b, FROM *, DISCRIMINATOR, REVERSE_EDGE', () => {
  const [a, b] = stmts(
    'CREATE DIRECTED EDGE e (FROM A|B, TO C | FROM C, TO *, DISCRIMINATOR(d DATETIME, k INT), w DOUBLE) WITH REVERSE_EDGE="re"\n' +
      'CREATE UNDIRECTED EDGE u (FROM *, TO *)',
  );
  assert.ok(a.kind === 'create_edge' && b.kind === 'create_edge');
  assert.equal(a.edge.directed, true);
  assert.deepEqual(
    a.edge.pairs.map((p) => [p.from, p.to]),
    [
      [['A', 'B'], ['C']],
      [['C'], ['*']],
    ],
  );
  assert.deepEqual(a.edge.discriminator, ['d', 'k']);
  assert.deepEqual(
    a.edge.attributes.map((x) => x.name),
    ['d', 'k', 'w'],
  );
  assert.deepEqual(a.edge.options, [{ name: 'REVERSE_EDGE', value: 're', line: 1, column: 105 }]);
  assert.equal(b.edge.directed, false);
  assert.deepEqual(
    b.edge.pairs.map((p) => [p.from, p.to]),
    [[['*'], ['*']]],
  );
});

test('graph, session and catalog commands', () => {
  const s = stmts(
    'CREATE GRAPH g(*)\nCREATE GRAPH h(A, e)\nCREATE GRAPH k()\nUSE GRAPH g\nUSE GLOBAL\nDROP GRAPH g CASCADE\n' +
      'DROP ALL\nCLEAR GRAPH STORE -HARD\nCLEAR GRAPH STORE\nDROP VERTEX a, b\nDROP EDGE e\nDROP TUPLE t\n' +
      'SHOW VERTEX *\nSHOW EDGE e1, e2\nSHOW GRAPH g\nSHOW JOB\nls\nhelp\nSET exit_on_error = FALSE\nSET syntax_version = "v2"\n' +
      'DROP JOB ALL\nDROP JOB a, b',
  );
  assert.deepEqual(
    s.map((x) => x.kind),
    [
      'create_graph',
      'create_graph',
      'create_graph',
      'use_graph',
      'use_global',
      'drop_graph',
      'drop_all',
      'clear_graph_store',
      'clear_graph_store',
      'drop_vertex',
      'drop_edge',
      'drop_tuple',
      'show',
      'show',
      'show',
      'show_job',
      'ls',
      'help',
      'set',
      'set',
      'drop_job',
      'drop_job',
    ],
  );
  const [all, some, empty] = s;
  assert.ok(all.kind === 'create_graph' && some.kind === 'create_graph' && empty.kind === 'create_graph');
  assert.equal(all.members, '*');
  assert.deepEqual(some.members !== '*' && some.members.map((m) => m.name), ['A', 'e']);
  assert.deepEqual(empty.members, []);
  assert.ok(s[5].kind === 'drop_graph' && s[5].cascade);
  assert.ok(
    s[7].kind === 'clear_graph_store' && s[7].hard && s[8].kind === 'clear_graph_store' && !s[8].hard,
  );
  assert.ok(s[13].kind === 'show' && s[13].what === 'edge');
  assert.deepEqual(s[13].names, ['e1', 'e2']);
  assert.ok(s[15].kind === 'show_job' && s[15].names === '*');
  assert.ok(s[18].kind === 'set' && s[18].name === 'exit_on_error' && s[18].value.text === 'false');
  assert.ok(s[19].kind === 'set' && s[19].value.text === 'v2');
  assert.ok(s[20].kind === 'drop_job' && s[20].names === '*');
});

test('statements need no separator: "USE GRAPH g SHOW VERTEX *" is two statements', () => {
  assert.deepEqual(
    stmts('USE GRAPH g SHOW VERTEX *; ls;;').map((x) => x.kind),
    ['use_graph', 'show', 'ls'],
  );
});

test('schema change job with every action, and RUN [GLOBAL]', () => {
  const src = `CREATE GLOBAL SCHEMA_CHANGE JOB j {
  ADD VERTEX v (PRIMARY_ID id STRING);
  ADD DIRECTED EDGE e (FROM v, TO v) WITH REVERSE_EDGE="r";
  ADD UNDIRECTED EDGE u (FROM v, TO v);
  DROP VERTEX a, b;
  DROP EDGE c;
  ALTER VERTEX v ADD ATTRIBUTE (x INT DEFAULT 2, y STRING);
  ALTER EDGE e DROP ATTRIBUTE (z);
  ALTER VERTEX v ADD INDEX ix ON (y);
  ALTER VERTEX v DROP INDEX ix
}
RUN GLOBAL SCHEMA_CHANGE JOB j
CREATE SCHEMA_CHANGE JOB k FOR GRAPH g { DROP VERTEX v; }
RUN SCHEMA_CHANGE JOB k`;
  const [job, run, local, runLocal] = stmts(src);
  assert.ok(job.kind === 'create_schema_change_job' && job.global && job.graph === undefined);
  assert.deepEqual(
    job.actions.map((a) => a.action),
    [
      'add_vertex',
      'add_edge',
      'add_edge',
      'drop_vertex',
      'drop_edge',
      'alter_add_attributes',
      'alter_drop_attributes',
      'add_index',
      'drop_index',
    ],
  );
  assert.equal(job.text, src.slice(0, src.indexOf('\nRUN')));
  assert.deepEqual([job.line, job.column], [1, 1]);
  assert.deepEqual([job.actions[5].line, job.actions[5].column], [7, 3]);
  assert.ok(run.kind === 'run_schema_change_job' && run.global && run.name === 'j');
  assert.ok(local.kind === 'create_schema_change_job' && !local.global && local.graph === 'g');
  assert.ok(runLocal.kind === 'run_schema_change_job' && !runLocal.global);
});

test('statements of later issues are skipped as whole units, keeping text and position', () => {
  // Features no parser handles yet: a braced body spanning lines, a one-line statement, an unterminated one.
  const src = `CREATE TEMPLATE QUERY lib.q(INT a)
FOR GRAPH g {
  IF a > 1 THEN PRINT "}"; END;
}
CREATE DATA_SOURCE S3 s1
DROP DATA_SOURCE s1; ls
SHOW DATA_SOURCE s1 (1,
  2)
ls`;
  const items = parseScript(src);
  assert.deepEqual(
    items.map((i) =>
      i.ok ? [i.stmt.kind === 'unsupported' ? i.stmt.feature : i.stmt.kind, i.stmt.line] : ['error'],
    ),
    [
      ['CREATE TEMPLATE QUERY', 1],
      ['CREATE DATA_SOURCE', 5],
      ['DROP DATA_SOURCE', 6],
      ['ls', 6],
      ['SHOW DATA_SOURCE', 7],
      ['ls', 9],
    ],
  );
  const first = items[0];
  assert.ok(first.ok);
  assert.equal(
    first.stmt.text,
    'CREATE TEMPLATE QUERY lib.q(INT a)\nFOR GRAPH g {\n  IF a > 1 THEN PRINT "}"; END;\n}',
  );
  // A newline inside a string literal is a lexical error: the statements on the lines before still parse.
  const broken = parseScript('CREATE DATA_SOURCE a\nls\nCREATE DATA_SOURCE "a\nb"\nls');
  assert.deepEqual(
    broken.map((i) => (i.ok ? i.stmt.kind : `error@${i.error.line}:${i.error.column}`)),
    ['unsupported', 'ls', 'error@3:20'],
  );
});

test('syntax errors name line, column and what was expected; parsing resumes on the next line', () => {
  const items = parseScript('ls\nCREATE VERTEX v (PRIMARY_ID id INT, x INT) WITH STATS\nCREATE GRAPH g(*)');
  assert.equal(items.length, 3);
  assert.ok(items[0].ok && !items[1].ok && items[2].ok);
  if (items[1].ok) return;
  assert.equal(items[1].error.message, 'Syntax Error: line 2, column 54: expected "=" but found end of line');

  const cases: [string, number, number, string][] = [
    ['CREATE VERTEX v PRIMARY_ID id INT)', 1, 17, 'expected "(" but found "PRIMARY_ID"'],
    ['CREATE DIRECTED EDGE e (TO a, FROM b)', 1, 25, 'expected "FROM" but found "TO"'],
    ['CREATE VERTEX v (PRIMARY_ID id INT, a MAP<INT INT>)', 1, 47, 'expected "," but found "INT"'],
    ['CREATE FOO x', 1, 8, 'expected a valid CREATE statement but found "FOO"'],
    ['frobnicate', 1, 1, 'expected a statement but found "frobnicate"'],
    ['USE GRAPH', 1, 10, 'expected a graph name but found end of input'],
    [
      'CREATE VERTEX v (x INT, PRIMARY_ID id INT)',
      1,
      25,
      'expected an attribute (PRIMARY_ID must come first) but found "PRIMARY_ID"',
    ],
    [
      'CREATE SCHEMA_CHANGE JOB j { ADD VERTEX v (PRIMARY_ID id INT) ADD VERTEX w (PRIMARY_ID id INT) }',
      1,
      63,
      'expected ";" but found "ADD"',
    ],
  ];
  for (const [src, line, column, detail] of cases) {
    const e = syntaxError(src);
    assert.deepEqual([e.line, e.column, e.detail], [line, column, detail], src);
  }
});

test('a failed statement with a body is skipped past its closing brace', () => {
  const items = parseScript('CREATE SCHEMA_CHANGE JOB j {\n  ADD VERTX v;\n}\nls');
  assert.deepEqual(
    items.map((i) => (i.ok ? i.stmt.kind : `error@${i.error.line}:${i.error.column}`)),
    ['error@2:7', 'ls'],
  );
});

test('BEGIN … END blocks join lines into one statement', () => {
  const s = stmts('BEGIN\nCREATE VERTEX v (\n  PRIMARY_ID id INT\n)\nEND\nls');
  assert.deepEqual(
    s.map((x) => x.kind),
    ['create_vertex', 'ls'],
  );
});

test('one-line commands do not take their name from the next line', () => {
  const cases: [string, string][] = [
    ['USE GRAPH\nls', 'Syntax Error: line 1, column 10: expected a graph name but found end of line'],
    ['DROP GRAPH\nls', 'Syntax Error: line 1, column 11: expected a graph name but found end of line'],
    [
      'RUN SCHEMA_CHANGE JOB\nls',
      'Syntax Error: line 1, column 22: expected a job name but found end of line',
    ],
    ['SHOW VERTEX\nls', 'Syntax Error: line 1, column 12: expected a vertex name or * but found end of line'],
    ['DROP JOB\nls', 'Syntax Error: line 1, column 9: expected a job name but found end of line'],
  ];
  for (const [src, message] of cases) {
    const items = parseScript(src);
    assert.deepEqual(
      items.map((i) => (i.ok ? i.stmt.kind : i.error.message)),
      [message, 'ls'],
      src,
    );
  }
  // After a comma a list goes on on the next line.
  const [drop] = stmts('DROP VERTEX a,\n  b');
  assert.ok(drop.kind === 'drop_vertex');
  assert.deepEqual(drop.names, ['a', 'b']);
});

test('global job forms, ALTER EDGE … PAIR, NULLABLE and RUN options', () => {
  const [job, runJob] = stmts(`CREATE GLOBAL SCHEMA_CHANGE JOB j {
  ADD VERTEX a, b TO GRAPH g;
  ADD EDGE e TO GRAPH g;
  DROP VERTEX c FROM GRAPH g;
  ALTER EDGE e ADD PAIR (FROM a, TO b | FROM b, TO a);
  ALTER EDGE e DROP PAIR (FROM a, TO b);
  ALTER VERTEX a ADD ATTRIBUTE (n INT NULLABLE DEFAULT 1);
}
RUN GLOBAL SCHEMA_CHANGE JOB j -force -N`);
  assert.ok(job.kind === 'create_schema_change_job');
  const [addV, addE, dropV, addP, dropP, alter] = job.actions;
  assert.ok(addV.action === 'add_to_graph' && addV.target === 'vertex' && addV.graph === 'g');
  assert.deepEqual(addV.names, ['a', 'b']);
  assert.ok(addE.action === 'add_to_graph' && addE.target === 'edge');
  assert.ok(dropV.action === 'drop_from_graph' && dropV.target === 'vertex');
  assert.ok(addP.action === 'alter_add_pairs' && addP.pairs.length === 2);
  assert.ok(dropP.action === 'alter_drop_pairs');
  assert.deepEqual([dropP.pairs[0].from, dropP.pairs[0].to], [['a'], ['b']]);
  assert.ok(alter.action === 'alter_add_attributes');
  assert.deepEqual([alter.attributes[0].nullable, alter.attributes[0].default?.text], [true, '1']);
  assert.ok(runJob.kind === 'run_schema_change_job');
  assert.deepEqual(runJob.options, ['-force', '-N']);
});

test('package and function commands of exported scripts are recognised as units', () => {
  const items = parseScript('USE GLOBAL\nIMPORT PACKAGE GDS\nINSTALL FUNCTION GDS.**\nls');
  assert.deepEqual(
    items.map((i) => (i.ok ? (i.stmt.kind === 'unsupported' ? i.stmt.feature : i.stmt.kind) : 'error')),
    ['use_global', 'IMPORT', 'query', 'ls'],
  );
  const install = items[2].ok && items[2].stmt.kind === 'query' ? items[2].stmt.statement : undefined;
  assert.deepEqual(install, { kind: 'installFunction', target: 'GDS.**', pos: { line: 3, column: 1 } });
});
