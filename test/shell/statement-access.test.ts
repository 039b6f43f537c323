/**
 * The statement table: the rule and the scope of a statement come from the parsed statement (its
 * kind and typed fields) and the session, never from its text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccessRule } from '../../src/auth/access-table.js';
import type { StmtKind } from '../../src/gsql/ast.js';
import { parseOne } from '../../src/gsql/parser.js';
import { STATEMENT_ACCESS, statementRequirement } from '../../src/shell/statement-access.js';

function required(text: string, graph?: string): { rule: AccessRule; graph: string | undefined } | string {
  const r = statementRequirement(parseOne(text), { user: 'u', ...(graph === undefined ? {} : { graph }) });
  return 'refused' in r ? r.refused : r;
}

const privileges = (r: ReturnType<typeof required>) =>
  typeof r === 'string'
    ? r
    : r.rule.kind === 'all' || r.rule.kind === 'any'
      ? r.rule.privileges
      : r.rule.kind;

test('the scope is the one the statement acts on: the graph it names, the graph in use, or global', () => {
  const cases: [string, string | undefined, readonly string[] | string, string | undefined][] = [
    ['CREATE QUERY q() FOR GRAPH other { PRINT 1; }', 'social', ['WRITE_QUERY'], 'other'],
    ['CREATE QUERY q() { PRINT 1; }', 'social', ['WRITE_QUERY'], 'social'],
    ['INTERPRET QUERY () FOR GRAPH other { PRINT 1; }', 'social', ['READ_DATA'], 'other'],
    [
      'CREATE OPENCYPHER QUERY c() FOR GRAPH other { MATCH (a) RETURN a }',
      'social',
      ['WRITE_QUERY'],
      'other',
    ],
    [
      'INTERPRET OPENCYPHER QUERY () FOR GRAPH other { MATCH (a) RETURN a }',
      'social',
      ['READ_DATA'],
      'other',
    ],
    ['SELECT count(*) FROM person', 'social', ['READ_DATA'], 'social'],
    ['LET INT k = 1; IN SELECT a FROM (a:person)', 'social', ['READ_DATA'], 'social'],
    [
      'CREATE LOADING JOB j FOR GRAPH other { LOAD "f" TO VERTEX v VALUES ($0); }',
      'social',
      ['WRITE_LOADINGJOB'],
      'other',
    ],
    ['CREATE SCHEMA_CHANGE JOB j FOR GRAPH other { DROP VERTEX v; }', 'social', ['WRITE_SCHEMA'], 'other'],
    ['CREATE GLOBAL SCHEMA_CHANGE JOB j { DROP VERTEX v; }', 'social', ['WRITE_SCHEMA'], undefined],
    ['RUN GLOBAL SCHEMA_CHANGE JOB j', 'social', ['WRITE_SCHEMA'], undefined],
    ['RUN SCHEMA_CHANGE JOB j', 'social', ['WRITE_SCHEMA'], 'social'],
    ['CREATE VERTEX v (PRIMARY_ID id STRING)', 'social', ['WRITE_SCHEMA'], undefined],
    ['DROP GRAPH social', 'social', ['DROP_GRAPH'], undefined],
    ['CLEAR GRAPH STORE -HARD', 'social', ['CLEAR_GRAPHSTORE'], undefined],
    ['GRANT ROLE designer ON GRAPH other TO x', 'social', ['WRITE_ROLE'], 'other'],
    ['GRANT ROLE designer ON GLOBAL TO x', 'social', ['WRITE_ROLE'], undefined],
    ['GRANT ROLE designer TO x', 'social', ['WRITE_ROLE'], 'social'],
    ['UPSERT v VALUES (1)', 'social', ['CREATE_DATA', 'UPDATE_DATA'], 'social'],
    ['DELETE FROM v', undefined, ['DELETE_DATA'], undefined],
    ['ALTER PASSWORD WITH PASSWORD "p"', 'social', 'authenticated', undefined],
    ['ALTER PASSWORD other WITH PASSWORD "p"', 'social', ['WRITE_USER'], undefined],
    ['SHOW PRIVILEGE ON ROLE r', 'social', ['READ_ROLE'], 'social'],
    ['SHOW LOADING STATUS ALL', 'social', ['EXECUTE_LOADINGJOB'], 'social'],
    ['ABORT LOADING JOB ALL', 'social', ['EXECUTE_LOADINGJOB'], 'social'],
    ['EXPORT GRAPH ALL TO "d"', 'social', ['EXPORT_GRAPH', 'WRITE_USER'], undefined],
    ['EXPORT GRAPH social -S TO "d"', 'social', ['EXPORT_GRAPH'], undefined],
    [
      'IMPORT GRAPH ALL FROM "d"',
      'social',
      ['DROP_ALL', 'WRITE_SCHEMA', 'WRITE_LOADINGJOB', 'WRITE_QUERY', 'WRITE_USER'],
      undefined,
    ],
    ['CREATE PACKAGE lib', 'social', ['WRITE_QUERY'], undefined],
    ['PUT ExprFunctions FROM "f.mjs"', 'social', ['WRITE_FILE'], undefined],
    ['CREATE DATA_SOURCE S3 s1', 'social', 'CREATE DATA_SOURCE is not supported yet.', undefined],
  ];
  for (const [text, inUse, expected, scope] of cases) {
    const r = required(text, inUse);
    assert.deepEqual(privileges(r), expected, text);
    if (typeof r !== 'string') assert.equal(r.graph, scope, text);
  }
});

test('words in strings, comments and defaults never change the scope', () => {
  // A parameter default and a body naming another graph: the query is still for graph social.
  const r = required(
    'CREATE QUERY q(STRING s = "FOR GRAPH other") FOR GRAPH social { PRINT "FOR GRAPH other"; }',
    'social',
  );
  assert.ok(typeof r !== 'string' && r.graph === 'social');
  const hidden = required('/* FOR GRAPH other */ CREATE QUERY q() { PRINT 1; } // FOR GRAPH other', 'social');
  assert.ok(typeof hidden !== 'string' && hidden.graph === 'social');
});

test('every statement kind has a rule; none of them is open to a caller without credentials', () => {
  const kinds = Object.keys(STATEMENT_ACCESS) as StmtKind[];
  assert.ok(kinds.length >= 40, `${kinds.length} kinds`);
  assert.ok(
    kinds.includes('upsert_vertex') && kinds.includes('delete_edge') && kinds.includes('unsupported'),
  );
  for (const text of ['ls', 'USE GRAPH social', 'HELP', 'SET exit_on_error = FALSE', 'SHOW USER']) {
    const r = required(text, 'social');
    assert.ok(typeof r !== 'string' && r.rule.kind !== 'public', text);
  }
});
