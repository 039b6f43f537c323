/**
 * GSQL packages and functions, and the UDF file statements, through the shell over a real Database:
 * what they print, what they refuse, and that their state survives a restart.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { allowUdfPut } from '../../src/query/index.js';
import { runScript } from '../../src/shell/run-script.js';

let dir = '';
let db: Database;

async function gsql(text: string, outputDir?: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runScript(db, text, { user: 'tigergraph', graph: 'g' }, (t) => (out += t), {
    importDirs: [dir],
    ...(outputDir === undefined ? {} : { outputDir }),
  });
  return { code, out };
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ocelot-functions-'));
  db = await Database.open({ dataDir: join(dir, 'data'), sync: 'none', rebuildIntervalMs: 0 });
  const r = await gsql('CREATE VERTEX V (PRIMARY_ID id STRING, n INT)\nCREATE GRAPH g (V)');
  assert.equal(r.code, 0, r.out);
});

after(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('packages and functions: create, call from a query, install, show, drop', async () => {
  let r = await gsql(`CREATE PACKAGE lib
CREATE PACKAGE lib.math
CREATE FUNCTION lib.math.clamp(INT x, INT lo, INT hi) RETURNS (INT) {
  IF x < lo THEN RETURN lo; END;
  IF x > hi THEN RETURN hi; END;
  RETURN x;
}
CREATE FUNCTION lib.twice(STRING s) RETURNS (STRING) { RETURN s + s; }
INSTALL FUNCTION lib.**
INTERPRET QUERY () FOR GRAPH g { PRINT lib.math.clamp(15, 0, 10) AS c, lib.twice("ab") AS t; }
SHOW PACKAGE lib
SHOW FUNCTION lib.math.*`);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /Successfully created Packages: \[lib\.math\]\./);
  assert.match(r.out, /Successfully created functions: \[lib\.math\.clamp\]\./);
  assert.match(r.out, /Successfully installed functions: \[lib\.math\.clamp, lib\.twice\]\./);
  assert.match(r.out, /"c": 10,\s*"t": "abab"/);
  assert.match(r.out, /Package lib:\n- lib\.math\n- lib\.twice\(\)/);
  assert.match(r.out, /CREATE FUNCTION lib\.math\.clamp\(INT x, INT lo, INT hi\) RETURNS \(INT\)/);
  r = await gsql('DROP FUNCTION lib.twice\nINTERPRET QUERY () FOR GRAPH g { PRINT lib.twice("x"); }');
  assert.equal(r.code, 212);
  assert.match(r.out, /Successfully dropped functions: \[lib\.twice\]\./);
  assert.match(r.out, /unknown function lib\.twice\(\) \(line 2, column \d+\)/);
});

test('function errors: no package, no RETURNS, a type error in the body, a name taken', async () => {
  const fails = async (text: string, why: RegExp) => {
    const r = await gsql(text);
    assert.equal(r.code, 212, r.out);
    assert.match(r.out, why);
  };
  await fails(
    'CREATE FUNCTION nopkg.f() RETURNS (INT) { RETURN 1; }',
    /The package nopkg does not exist: run CREATE PACKAGE nopkg first\./,
  );
  await gsql('CREATE PACKAGE p2');
  await fails('CREATE FUNCTION p2.f() { RETURN 1; }', /the function p2\.f needs RETURNS \(type\)/);
  await fails('CREATE FUNCTION p2.f(INT x) RETURNS (INT) { RETURN x + "a"; }', /line 1, column \d+\)/);
  await gsql('CREATE FUNCTION p2.f() RETURNS (INT) { RETURN 1; }');
  await fails(
    'CREATE FUNCTION p2.f() RETURNS (INT) { RETURN 2; }',
    /already exists\. Use CREATE OR REPLACE FUNCTION/,
  );
  await fails('CREATE PACKAGE p2', /The package p2 already exists\./);
  const r = await gsql('DROP PACKAGE p2\nSHOW FUNCTION p2.f');
  assert.match(r.out, /Successfully dropped Packages: \[p2\]\./);
  assert.match(r.out, /The function p2\.f does not exist\./);
});

test('PUT ExprFunctions: refused unless the server allows it; then queries call the module', async () => {
  const file = join(dir, 'udf.mjs');
  writeFileSync(
    file,
    `export const inc = { params: ['INT'], returns: 'INT', fn: (x) => x + 1 };
export const reverse = { params: ['STRING'], returns: 'STRING', fn: (s) => 'mine' };`,
  );
  let r = await gsql(`PUT ExprFunctions FROM "${file}"`);
  assert.equal(r.code, 212);
  assert.match(r.out, /PUT ExprFunctions is disabled on this server; start it with --allow-udf-put/);
  allowUdfPut(db, true);
  try {
    r = await gsql('PUT ExprFunctions FROM "/etc/hostname"');
    assert.match(
      r.out,
      /PUT ExprFunctions failed: cannot read "\/etc\/hostname": it is outside the import directory/,
    );
    writeFileSync(join(dir, 'bad.mjs'), `import x from 'y';`);
    r = await gsql(`PUT ExprFunctions FROM "${join(dir, 'bad.mjs')}"`);
    assert.match(r.out, /PUT ExprFunctions failed: line 1: a UDF module cannot import other modules/);
    r = await gsql(
      `PUT ExprFunctions FROM "${file}"\nINTERPRET QUERY () FOR GRAPH g { PRINT inc(41) AS x, reverse("ab") AS r; }\nGET ExprFunctions`,
    );
    assert.equal(r.code, 0, r.out);
    assert.match(
      r.out,
      /PUT ExprFunctions successfully\. Built-in functions of the same name are called instead of reverse\./,
    );
    assert.match(r.out, /"x": 42/);
    assert.match(r.out, /"r": "ba"/);
    assert.match(r.out, /export const inc/);
    r = await gsql('GET ExprFunctions TO "copy.mjs"', dir);
    assert.equal(r.code, 0, r.out);
    assert.equal(readFileSync(join(dir, 'copy.mjs'), 'utf8'), readFileSync(file, 'utf8'));
    r = await gsql('GET ExprFunctions TO "/tmp/outside.mjs"', dir);
    assert.match(
      r.out,
      /GET ExprFunctions TO failed: cannot write "\/tmp\/outside\.mjs": it is outside the output directory/,
    );
    r = await gsql('GET ExprFunctions TO "copy.mjs"');
    assert.match(r.out, /GET ExprFunctions TO failed: cannot write "copy\.mjs": this server writes no files/);
  } finally {
    allowUdfPut(db, false);
  }
});

test('functions, packages and UDF files survive a restart', async () => {
  await db.close();
  db = await Database.open({ dataDir: join(dir, 'data'), sync: 'none', rebuildIntervalMs: 0 });
  const r = await gsql('INTERPRET QUERY () FOR GRAPH g { PRINT inc(lib.math.clamp(-5, 0, 3)) AS y; }');
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /"y": 1/);
});
