/**
 * The table statements refuse at CREATE time what cannot run: unknown tables, columns and aliases,
 * tables consumed by UNION, tables that do not unite, SEMIJOIN projections of the right table,
 * conditions that are not BOOL, aggregates; each message names the place.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { financeDb, printedJson, type FinanceDb } from '../fixtures/query/finance.js';
import { compileErrorOf } from '../fixtures/query/run.js';

let f: FinanceDb;
before(async () => {
  f = await financeDb();
});
after(async () => {
  await f.close();
});

const SUMS = 'SELECT s.name AS acct, sum(e.amount) AS amt INTO S FROM (s:Account)-[e:transfer]->(t:Account);';

/** The compile error of a query whose body starts on line 2, column 1. */
function errorOf(body: string): string {
  return compileErrorOf(f.db, `CREATE QUERY q() SYNTAX v3 {\n${body}\n}`);
}

test('an unknown table is refused with its line and column', () => {
  assert.match(errorOf('FILTER Nope ON x > 1;'), /line 2, col 8[\s\S]*"Nope" is not declared/);
  assert.match(errorOf('INT n = 1;\nORDER n BY n;'), /line 3, col 7[\s\S]*"n" is not a table/);
  assert.match(
    errorOf(`${SUMS}\nJOIN S a WITH Missing b PROJECT a.acct AS x INTO J;`),
    /line 3, col 15[\s\S]*Missing/,
  );
});

test('an unknown column or alias is refused where it is written', () => {
  assert.match(
    errorOf(`${SUMS}\nFILTER S ON amount > 1;`),
    /line 3, col 13[\s\S]*"amount" is not a column of S \(acct, amt\), nor a variable or parameter/,
  );
  assert.match(
    errorOf(`${SUMS}\nPROJECT S ON S.total AS t INTO T;`),
    /line 3, col 16[\s\S]*has no field "total"/,
  );
  assert.match(
    errorOf(`${SUMS}\nINIT P 1 AS k;\nJOIN S a WITH P b ON a.acct == c.k PROJECT a.acct INTO J;`),
    /line 4, col 32[\s\S]*"c" is not defined: the rows of the join are a \(S\) and b \(P\)/,
  );
  assert.match(
    errorOf(`${SUMS}\nPROJECT S ON VERTEX COLUMN acct INTO V;`),
    /line 3, col 28[\s\S]*holds STRING, not vertices/,
  );
  assert.match(
    errorOf(`${SUMS}\nPROJECT S ON VERTEX COLUMN who INTO V;`),
    /line 3, col 28[\s\S]*no column who/,
  );
});

test('a bare column in a join is refused with the alias to read it through', () => {
  const msg = errorOf(
    `${SUMS}\nINIT P "Ava" AS name;\nJOIN S s WITH P p ON acct == p.name PROJECT s.amt AS amt INTO J;`,
  );
  assert.match(
    msg,
    /line 4, col 22[\s\S]*"acct" is a column of S; in a join, read it through the table's alias \(s\.acct\)/,
  );
  // A type mismatch on a column is reported as such.
  assert.match(errorOf(`${SUMS}\nFILTER S ON acct;`), /FILTER … ON needs BOOL, but this is STRING/);
});

test('a table consumed by UNION cannot be read again; its new name can', () => {
  const msg = errorOf(`${SUMS}\nINIT X "a" AS acct, 1 AS amt;\nUNION S WITH X INTO U;\nFILTER S ON amt > 1;`);
  assert.match(msg, /line 5, col 8[\s\S]*consumed by the UNION at line 4, column 1.*U/);
  assert.equal(
    errorOf(`${SUMS}\nINIT X "a" AS acct, 1 AS amt;\nUNION S WITH X INTO U;\nFILTER U ON amt > 1;`),
    '',
  );
});

test('UNION refuses tables of other column counts or types', () => {
  assert.match(
    errorOf('INIT A 1 AS x;\nINIT B 1 AS x, 2 AS y;\nUNION A WITH B INTO U;'),
    /line 4, col 14[\s\S]*B has 2, A has 1/,
  );
  assert.match(
    errorOf('INIT A 1 AS x;\nINIT B "s" AS x;\nUNION ALL A WITH B INTO U;'),
    /line 4, col 18[\s\S]*column 1 of B is STRING, of A INT/,
  );
});

test('a SEMIJOIN projects only the left table', () => {
  const msg = errorOf(
    `${SUMS}\nINIT P "Ava" AS name;\nSEMIJOIN S s WITH P p ON s.acct == p.name PROJECT p.name AS n INTO J;`,
  );
  assert.match(msg, /line 4,[\s\S]*SEMIJOIN projects only the left table's columns; p \(P\)/);
});

test('conditions must be BOOL, statements do not aggregate, names are not reused', () => {
  assert.match(errorOf(`${SUMS}\nFILTER S ON amt;`), /line 3, col 13[\s\S]*FILTER … ON needs BOOL/);
  assert.match(
    errorOf(`${SUMS}\nPROJECT S ON sum(amt) AS t INTO T;`),
    /line 3, col 14[\s\S]*cannot aggregate/,
  );
  assert.match(errorOf(`${SUMS}\nINIT S 1 AS k;`), /line 3, col 6[\s\S]*"S" is already declared/);
  assert.match(errorOf(`${SUMS}\nPROJECT S ON S.amt, amt INTO T;`), /two columns are named amt/);
  assert.match(errorOf(`${SUMS}\nUNWIND S ON acct AS c INTO T;`), /UNWIND needs a list, not STRING/);
  assert.match(errorOf(`${SUMS}\nUNWIND S ON [1] AS amt INTO T;`), /already has a column amt/);
});

test('syntax errors name what was expected', () => {
  assert.match(errorOf(`${SUMS}\nINIT T 1;`), /line 3, column 9: expected "AS column_name"/);
  assert.match(errorOf(`${SUMS}\nLEFT JOIN S a WITH S b PROJECT a.acct INTO J;`), /LEFT JOIN needs one/);
  assert.match(errorOf(`${SUMS}\nUNION S INTO U;`), /expected "WITH table"/);
  assert.match(errorOf(`${SUMS}\nORDER S amt;`), /expected "BY"/);
});

test('the gsql shell reports a bad table statement as a semantic error and installs nothing', async () => {
  const { code, out } = await f.shell(`USE GRAPH finance
CREATE QUERY bad_table() SYNTAX v3 {
  ${SUMS}
  FILTER T ON amt > 1;
  PRINT S;
}
SHOW QUERY bad_table`);
  assert.notEqual(code, 0);
  assert.match(out, /"T" is not declared/);
  assert.match(out, /line 4, column 10/);
  assert.deepEqual(printedJson(out), []);
});
