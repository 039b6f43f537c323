/**
 * User token functions (the TokenBank UDF file as a JavaScript module): loading jobs call them in
 * VALUES and WHERE; signatures other than tokens in, a token out are refused at PUT; a function
 * that fails stops the job with its name.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowUdfPut } from '../../src/query/index.js';
import { tokenBankFunctions } from '../../src/loading/token-bank.js';
import { runScript } from '../../src/shell/run-script.js';
import { openTestDb, SOCIAL_SCHEMA } from './helpers.js';

const BANK = `
export const initials = { params: ['STRING', 'STRING'], returns: 'STRING', fn: (a, b) => a[0] + b[0] };
export const is_adult = { params: ['STRING'], returns: 'BOOL', fn: (age) => Number(age) >= 18 };
export const double_age = { params: ['STRING'], returns: 'INT', fn: (age) => Number(age) * 2 };
export const broken = { params: ['STRING'], returns: 'INT', fn: () => 'x' };
`;

test('a job calls TokenBank functions in VALUES and WHERE', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  try {
    allowUdfPut(t.db, true);
    const bank = await t.file('bank.mjs', BANK);
    const data = await t.file('p.csv', 'Ann,Lee,30\nBo,Kim,12\nCy,Roe,41\n');
    let out = '';
    const code = await runScript(
      t.db,
      `PUT TokenBank FROM "${bank}"
CREATE LOADING JOB j FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX person VALUES (initials($0, $1), $0, double_age($2), _, _) WHERE is_adult($2);
}
RUN LOADING JOB j USING f="${data}"`,
      { user: 'tigergraph', graph: 'social' },
      (x) => (out += x),
      { importDirs: [t.dir] },
    );
    assert.equal(code, 0, out);
    const r = t.db.read();
    try {
      assert.deepEqual(
        [...r.rows('person')].map((row) => [r.vertexId('person', row), r.attr('person', row, 'age')]),
        [
          ['AL', 60],
          ['CR', 82],
        ],
      );
    } finally {
      r.release();
    }

    out = '';
    await runScript(
      t.db,
      `CREATE LOADING JOB k FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX person VALUES ($0, $0, broken($2), _, _);
}
RUN LOADING JOB k USING f="${data}"`,
      { user: 'tigergraph', graph: 'social' },
      (x) => (out += x),
      { importDirs: [t.dir] },
    );
    assert.match(out, /broken\(\): returned x, not INT/);
  } finally {
    await t.close();
  }
});

test('TokenBank exports must take tokens and return a token', () => {
  assert.throws(
    () => tokenBankFunctions(`export const f = { params: ['INT'], returns: 'STRING', fn: (x) => '' + x };`),
    /parameter 1 of f: a token function takes tokens \(STRING\), not INT/,
  );
  assert.throws(
    () => tokenBankFunctions(`export const f = { params: [], returns: 'LIST<INT>', fn: () => [] };`),
    /the return type of f: a token function returns STRING, BOOL, INT, UINT, FLOAT or DOUBLE, not LIST<INT>/,
  );
});
