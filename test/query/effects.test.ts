/** What a query writes, read from its syntax tree (query/effects.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueryDef } from '../../src/gsql/ast-query.js';
import { parseQueryText } from '../../src/gsql/parser-query.js';
import { queryWrites, storedQueryWrites, type StoredQueries } from '../../src/query/effects.js';

function def(text: string): QueryDef {
  const [stmt] = parseQueryText(text);
  assert.ok(stmt && (stmt.kind === 'createQuery' || stmt.kind === 'interpretAnonymous'), text);
  return stmt.query;
}

function stored(texts: Record<string, string>): StoredQueries {
  return { text: (name) => texts[name], names: () => Object.keys(texts) };
}

const NONE = stored({});

function writes(body: string, queries: StoredQueries = NONE): string[] {
  return [...queryWrites(def(`CREATE QUERY q() FOR GRAPH g { ${body} }`), queries)].sort();
}

test('a query that only reads writes nothing', () => {
  assert.deepEqual(
    writes(`
      SumAccum<INT> @@n; MapAccum<STRING, INT> @m;
      S = {Person.*};
      R = SELECT t FROM S:s -(Knows:e)- Person:t WHERE s.age > 3
          ACCUM @@n += 1, t.@m += ("a" -> 1) POST-ACCUM t.@m += ("b" -> 2);
      PRINT R[R.name], @@n;`),
    [],
  );
});

test('INSERT, attribute assignment, UPDATE and DELETE are found wherever they stand', () => {
  assert.deepEqual(writes(`INSERT INTO Person VALUES ("x", 1);`), ['insert']);
  assert.deepEqual(writes(`S = {Person.*}; S = SELECT s FROM S:s POST-ACCUM s.age = s.age + 1;`), ['update']);
  assert.deepEqual(writes(`S = {Person.*}; S = SELECT s FROM S:s -(Knows:e)- Person:t ACCUM e.w += 1;`), [
    'update',
  ]);
  assert.deepEqual(writes(`UPDATE s FROM Person:s SET s.age = 3 WHERE s.age > 1;`), ['update']);
  assert.deepEqual(writes(`S = {Person.*}; DELETE s FROM S:s WHERE s.age > 3;`), ['delete']);
  assert.deepEqual(writes(`S = {Person.*}; S = SELECT s FROM S:s ACCUM DELETE (s);`), ['delete']);
  assert.deepEqual(
    writes(`
      IF 1 > 2 THEN
        FOREACH i IN RANGE[1, 3] DO
          WHILE TRUE LIMIT 2 DO INSERT INTO Person VALUES ("y", 2); END;
        END;
      ELSE
        S = {Person.*};
        S = SELECT s FROM S:s POST-ACCUM DELETE (s);
      END;`),
    ['delete', 'insert'],
  );
});

test('a called query contributes its writes, transitively; built-in calls do not', () => {
  const queries = stored({
    adder: 'CREATE QUERY adder() FOR GRAPH g { INSERT INTO Person VALUES ("z", 3); }',
    middle: 'CREATE QUERY middle() FOR GRAPH g { adder(); }',
    loop: 'CREATE QUERY loop() FOR GRAPH g { loop(); }',
  });
  assert.deepEqual(writes('middle();', queries), ['insert']);
  assert.deepEqual(writes('PRINT abs(-1), to_string(3);', queries), []);
  assert.deepEqual(writes('loop();', queries), []);
  assert.deepEqual([...storedQueryWrites('middle', queries)], ['insert']);
  assert.deepEqual([...storedQueryWrites('nope', queries)], []);
});

test('evaluate(): a literal is searched, a computed string may call any stored query', () => {
  const queries = stored({
    wiper: 'CREATE QUERY wiper() FOR GRAPH g { S = {Person.*}; DELETE s FROM S:s; }',
  });
  assert.deepEqual(writes('PRINT evaluate("1 + 2", "int");', queries), []);
  assert.deepEqual(writes('PRINT evaluate("wiper()", "int");', queries), ['delete']);
  assert.deepEqual(writes('STRING e = "1"; PRINT evaluate(e, "int");', queries), ['delete']);
});

test('an anonymous INTERPRET QUERY is analysed like a stored one', () => {
  const d = def('INTERPRET QUERY () FOR GRAPH g { INSERT INTO Person VALUES ("a", 1); }');
  assert.deepEqual([...queryWrites(d, NONE)], ['insert']);
});
