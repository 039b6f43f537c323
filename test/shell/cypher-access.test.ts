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
