/** The operations statements' reader: job ids and dash options as written, clear syntax errors. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GsqlSyntaxError } from '../../src/gsql/lexer.js';
import { parseOpsStatement } from '../../src/gsql/parser-ops.js';
import { parseScript } from '../../src/gsql/parser.js';

test('loading-job control statements take a job id as written, or ALL', () => {
  assert.deepEqual(parseOpsStatement('SHOW LOADING STATUS g.load_x.file.m1.1712345678901;', 1, 1), {
    kind: 'show_loading_status',
    target: { all: false, id: 'g.load_x.file.m1.1712345678901' },
  });
  assert.deepEqual(parseOpsStatement('show loading status all', 1, 1), {
    kind: 'show_loading_status',
    target: { all: true },
  });
  assert.deepEqual(parseOpsStatement('ABORT LOADING JOB ALL', 1, 1), {
    kind: 'abort_loading_job',
    target: { all: true },
  });
  assert.deepEqual(parseOpsStatement('RESUME LOADING JOB g.j.file.m1.5', 1, 1), {
    kind: 'resume_loading_job',
    id: 'g.j.file.m1.5',
  });
});

test('EXPORT GRAPH takes ALL or graph names, options and a quoted folder; IMPORT GRAPH ALL its options', () => {
  assert.deepEqual(parseOpsStatement('EXPORT GRAPH ALL -S -d TO "/tmp/x"', 1, 1), {
    kind: 'export_graph',
    graphs: 'ALL',
    options: { schema: true, template: false, data: true, users: false, password: false },
    dir: '/tmp/x',
  });
  assert.deepEqual(parseOpsStatement('EXPORT GRAPH g1, g2 --TEMPLATE TO "out"', 1, 1), {
    kind: 'export_graph',
    graphs: ['g1', 'g2'],
    options: { schema: false, template: true, data: false, users: false, password: false },
    dir: 'out',
  });
  assert.deepEqual(parseOpsStatement("IMPORT GRAPH ALL -KU FROM 'pkg'", 1, 1), {
    kind: 'import_graph',
    options: { keepUsers: true, password: false },
    path: 'pkg',
  });
});

test('a malformed statement is a syntax error at the word that is wrong', () => {
  const fails = (text: string, column: number, message: RegExp) =>
    assert.throws(
      () => parseOpsStatement(text, 3, 1),
      (e: unknown) =>
        e instanceof GsqlSyntaxError && e.line === 3 && e.column === column && message.test(e.message),
      text,
    );
  fails('ABORT LOADING', 14, /expected JOB at the end of the statement/);
  fails('RESUME LOADING JOB ALL x', 24, /expected the end of the statement, found 'x'/);
  fails('EXPORT GRAPH ALL TO /tmp/x', 21, /expected the folder, as a quoted string, found '\/tmp\/x'/);
  fails('IMPORT GRAPH g FROM "x"', 14, /expected ALL, found 'g'/);
  fails('EXPORT GRAPH ALL TO "x', 21, /unterminated string literal/);
  fails('EXPORT GRAPH ALL -X TO "x"', 18, /unknown option '-X'; expected one of -S, --SCHEMA, /);
  assert.equal(parseOpsStatement('LOAD x', 1, 1), undefined);
});

test('in a script they are statements of their own kinds, ending at the end of the line', () => {
  const items = parseScript(
    'SHOW LOADING STATUS ALL\nEXPORT GRAPH ALL -S TO "d"; ABORT LOADING JOB g.j.file.m1.2\nSHOW JOB *',
  );
  assert.deepEqual(
    items.map((i) => (i.ok ? [i.stmt.kind, i.stmt.line, i.stmt.column] : i.error.message)),
    [
      ['show_loading_status', 1, 1],
      ['export_graph', 2, 1],
      ['abort_loading_job', 2, 29],
      ['show_job', 3, 1],
    ],
  );
  const broken = parseScript('RESUME LOADING JOB\nls');
  assert.equal(broken.length, 2);
  assert.ok(!broken[0].ok && /expected a loading job id/.test(broken[0].error.message));
  assert.ok(broken[1].ok && broken[1].stmt.kind === 'ls');
});
