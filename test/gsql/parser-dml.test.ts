import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Stmt } from '../../src/gsql/ast.js';
import { GsqlSyntaxError } from '../../src/gsql/lexer.js';
import { parseOne, parseScript } from '../../src/gsql/parser.js';

/** A data statement is a statement kind of its own, parsed with the script. */
function parseDmlText(text: string): Stmt {
  return parseOne(text);
}

test('UPSERT a vertex: type and literal values with positions', () => {
  const s = parseDmlText('UPSERT vertex4 VALUES(1, -2.5, "a b", true, [1, 2])');
  assert.equal(s.kind, 'upsert_vertex');
  if (s.kind !== 'upsert_vertex') return;
  assert.equal(s.vertexType, 'vertex4');
  assert.deepEqual(
    s.values.map((v) => [v.kind, v.text]),
    [
      ['number', '1'],
      ['number', '-2.5'],
      ['string', 'a b'],
      ['bool', 'true'],
      ['list', ''],
    ],
  );
  assert.deepEqual(
    s.values[4].items?.map((v) => v.text),
    ['1', '2'],
  );
  assert.equal(s.values[1].column, 26);
});

test('UPSERT an edge with -(e)-> and -(e)-, as pyTigerGraph’s test script writes it', () => {
  const s = parseDmlText('upsert vertex4 -(edge1_undirected)->            vertex5 VALUES (1, 1, 1)');
  assert.equal(s.kind, 'upsert_edge');
  if (s.kind !== 'upsert_edge') return;
  assert.deepEqual(
    [s.edge.sourceType, s.edge.edgeType, s.edge.targetType],
    ['vertex4', 'edge1_undirected', 'vertex5'],
  );
  assert.deepEqual(
    s.values.map((v) => v.text),
    ['1', '1', '1'],
  );
  const u = parseDmlText('UPSERT a -(e)- b VALUES ("x", "y");');
  assert.equal(u.kind, 'upsert_edge');
});

test('DELETE vertices and edges with AND/OR/parenthesised conditions', () => {
  const s = parseDmlText('DELETE FROM vertex4 WHERE primary_id == 3 OR (a01 >= 2 AND a01 < 4)');
  assert.equal(s.kind, 'delete_vertex');
  if (s.kind !== 'delete_vertex') return;
  assert.equal(s.where?.kind, 'or');
  if (s.where?.kind !== 'or') return;
  assert.deepEqual(s.where.left, {
    kind: 'compare',
    name: 'primary_id',
    op: '==',
    value: { kind: 'number', text: '3', line: 1, column: 41 },
    line: 1,
    column: 27,
  });
  assert.equal(s.where.right.kind, 'and');
  const e = parseDmlText(
    'DELETE FROM vertex4 -(edge2_directed)-> vertex5 WHERE from_id = "2" and to_id <> "1"',
  );
  assert.equal(e.kind, 'delete_edge');
  if (e.kind !== 'delete_edge') return;
  assert.equal(e.where?.kind, 'and');
  const all = parseDmlText('DELETE FROM vertex6');
  assert.deepEqual(all, {
    kind: 'delete_vertex',
    vertexType: 'vertex6',
    line: 1,
    column: 1,
    text: 'DELETE FROM vertex6',
  });
});

test('positions are those of the script', () => {
  const [first, second] = parseScript('ls\n\n\n\n\n\n  UPSERT v VALUES (1)\nUPSERT v VALUES (1,)');
  assert.ok(first.ok && second.ok);
  assert.deepEqual([second.stmt.line, second.stmt.column, second.stmt.kind], [7, 3, 'upsert_vertex']);
  const third = parseScript('ls\n\n\nUPSERT v VALUES (1,)')[1];
  assert.ok(
    !third.ok &&
      third.error.line === 4 &&
      third.error.column === 20 &&
      third.error.detail.startsWith('expected a value'),
    JSON.stringify(third),
  );
});

test('syntax errors say what was expected', () => {
  const cases: [string, string][] = [
    ['UPSERT VALUES (1)', 'expected "VALUES"'],
    ['UPSERT v (1)', 'expected "VALUES"'],
    ['UPSERT v VALUES 1', 'expected "("'],
    ['UPSERT a -(e) b VALUES (1)', 'expected "-"'],
    ['DELETE v', 'expected "FROM"'],
    ['DELETE FROM v WHERE a01 ~ 3', 'comparison operator'],
    ['DELETE FROM v WHERE a01 == ', 'expected a value'],
  ];
  for (const [text, fragment] of cases) {
    assert.throws(
      () => parseDmlText(text),
      (e: unknown) => e instanceof GsqlSyntaxError && e.message.includes(fragment),
      text,
    );
  }
  // What follows a complete statement is the next statement.
  const [, extra] = parseScript('UPSERT v VALUES (1) extra');
  assert.ok(!extra.ok && extra.error.message.includes('expected a statement'), JSON.stringify(extra));
});
