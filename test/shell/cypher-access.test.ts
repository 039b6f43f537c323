/** The statements this dialect adds are checked like their GSQL twins before they run. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runScript } from '../../src/shell/run-script.js';
import { financeDb } from '../fixtures/query/finance.js';

test('creating an openCypher query needs WRITE_QUERY; running one, a SELECT or LET needs READ_DATA', async () => {
  const f = await financeDb();
  try {
    assert.equal(
      (
        await f.shell(
          'CREATE USER obs WITH PASSWORD "p"\nGRANT ROLE observer ON GRAPH finance TO obs\nCREATE USER qr WITH PASSWORD "p"\nGRANT ROLE queryreader ON GRAPH finance TO qr',
        )
      ).code,
      0,
    );
    const as = async (user: string, text: string): Promise<string> => {
      let out = '';

      await runScript(f.db, `USE GRAPH finance\n${text}`, { user }, (t) => (out += t));
      return out;
    };
    assert.match(
      await as('qr', 'CREATE OPENCYPHER QUERY c() { MATCH (a:Account) RETURN a }'),
      /does not have the privilege WRITE_QUERY on graph 'finance'/,
    );
    assert.match(
      await as('qr', 'CREATE OR REPLACE OPENCYPHER QUERY c() { MATCH (a:Account) RETURN a }'),
      /does not have the privilege WRITE_QUERY on graph 'finance'/,
    );
    for (const text of [
      'INTERPRET OPENCYPHER QUERY () FOR GRAPH finance { MATCH (a:Account) RETURN count(*) AS n }',
      'SELECT count(*) FROM Account',
      'SELECT count(*) FROM (a:Account)',
      'LET INT k = 1; IN SELECT count(*) FROM (a:Account)',
    ]) {
      assert.match(
        await as('obs', text),
        /does not have the privilege READ_DATA|needs one of the privileges READ_DATA/,
        text,
      );
      assert.doesNotMatch(await as('qr', text), /privilege/, text);
    }
  } finally {
    await f.close();
  }
});

test("a queryreader's openCypher CREATE, SET and DELETE are refused as GSQL's INSERT, UPDATE and DELETE are, changing nothing", async () => {
  const f = await financeDb();
  try {
    const grant = await f.shell(
      'CREATE USER qr WITH PASSWORD "p"\nGRANT ROLE queryreader ON GRAPH finance TO qr',
    );
    assert.equal(grant.code, 0, grant.out);
    const as = async (text: string): Promise<string> => {
      let out = '';
      await runScript(f.db, `USE GRAPH finance\n${text}`, { user: 'qr' }, (t) => (out += t));
      return out;
    };
    const interpret = (body: string, cypher: boolean): string =>
      `INTERPRET ${cypher ? 'OPENCYPHER ' : ''}QUERY () FOR GRAPH finance { ${body} }`;
    // The refusal without its position (the statements differ in length).
    const refusal = (out: string): string => {
      const m = /Access denied: .*$/m.exec(out);
      assert.ok(m, out);
      return m[0];
    };
    const pairs: [string, string, RegExp][] = [
      [
        'INSERT INTO Account VALUES ("Zed", false);',
        'CREATE (z:Account {name: "Zed", isBlocked: false})',
        /privilege CREATE_DATA on graph 'finance'/,
      ],
      [
        'S = SELECT a FROM Account:a WHERE a.name == "Ava" POST-ACCUM a.isBlocked = true;',
        'MATCH (a:Account {name: "Ava"}) SET a.isBlocked = true',
        /privilege UPDATE_DATA on graph 'finance'/,
      ],
      [
        'S = SELECT a FROM Account:a WHERE a.name == "Fay"; DELETE a FROM S:a;',
        'MATCH (a:Account {name: "Fay"}) DETACH DELETE a',
        /privilege DELETE_DATA on graph 'finance'/,
      ],
    ];
    for (const [gsql, cypher, privilege] of pairs) {
      const expected = refusal(await as(interpret(gsql, false)));
      assert.match(expected, privilege, gsql);
      assert.equal(refusal(await as(interpret(cypher, true))), expected, cypher);
    }
    const check = await f.shell(
      'USE GRAPH finance\nSELECT count() FROM Account\nSELECT * FROM Account WHERE primary_id == "Ava"',
    );
    assert.match(check.out, /"count": 6/);
    assert.match(check.out, /"isBlocked": false/);
  } finally {
    await f.close();
  }
});
