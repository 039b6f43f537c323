import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Stmt } from '../../src/gsql/ast-query.js';
import { parseQueryText } from '../../src/gsql/parser-query.js';

/** The kinds of every node of a tree, as a structural walk (the query-effects check) sees them. */
function kinds(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) kinds(n, out);
  else if (node && typeof node === 'object') {
    const k = (node as { kind?: unknown }).kind;
    if (typeof k === 'string') out.add(k);
    for (const v of Object.values(node)) kinds(v, out);
  }
  return out;
}

function body(text: string): Stmt[] {
  const [s] = parseQueryText(text);
  assert.ok(s.kind === 'createQuery' || s.kind === 'interpretAnonymous');
  return s.query.body;
}

test('an openCypher body is one statement whose writes read as GSQL writes (insert, assign, delete)', () => {
  const writes = body(`CREATE OPENCYPHER QUERY w(STRING n) {
    MATCH (a:Account {name: $n})-[e:transfer]->(b)
    SET a.isBlocked = true, e.amount = 1
    CREATE (b)-[:transfer {amount: 2}]->(c:Account {name: "x"})
    DELETE e
  }`);
  assert.equal(writes.length, 1);
  assert.equal(writes[0].kind, 'cypher');
  const k = kinds(writes);
  for (const w of ['insert', 'assign', 'delete']) assert.ok(k.has(w), w);
  const reads = kinds(
    body('INTERPRET OPENCYPHER QUERY () { MATCH (a) WHERE a.x = 1 RETURN a, count(*) AS n }'),
  );
  for (const w of ['insert', 'assign', 'delete', 'update']) assert.ok(!reads.has(w), w);
});

test('openCypher syntax errors name line and column', () => {
  const err = (text: string): string => {
    try {
      parseQueryText(text);
      return '';
    } catch (e) {
      return (e as Error).message;
    }
  };
  assert.equal(
    err('CREATE OPENCYPHER QUERY q() {\n  MATCH (a:Account RETURN a\n}'),
    'Syntax Error: line 2, column 20: expected ")" but found "RETURN"',
  );
  assert.equal(
    err('CREATE OPENCYPHER QUERY q() {\n  MATCH p = (a)-->(b) RETURN p\n}'),
    'Syntax Error: line 2, column 9: named paths (p = (a)-[…]->(b)) are not supported',
  );
  assert.equal(
    err('CREATE OPENCYPHER QUERY q() {\n  MATCH (a) RETURN a ORDER\n}'),
    'Syntax Error: line 3, column 1: expected "BY" but found "}"',
  );
  assert.match(
    err('CREATE OPENCYPHER QUERY q() { CREATE (a:A)-[:T]-(b:B) }'),
    /needs a direction: expected "->"/,
  );
});
