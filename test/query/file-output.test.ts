import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { startServers } from '../../src/server/start.js';
import { runScript } from '../../src/shell/run-script.js';

const SCHEMA = `CREATE VERTEX city (PRIMARY_ID name STRING, pop INT) WITH primary_id_as_attribute="true"
CREATE UNDIRECTED EDGE road (FROM city, TO city, km FLOAT)
CREATE GRAPH atlas (city, road)
USE GRAPH atlas
UPSERT city VALUES ("Oslo", 700)
UPSERT city VALUES ("Bergen", 285)
`;

/** A FILE variable and a FILE parameter, written from the body and from POST-ACCUM. */
const REPORT = `CREATE QUERY report(STRING path, FILE extra, BOOL fail = FALSE) SYNTAX V1 {
  SetAccum<STRING> @@names;
  FILE f (path);
  f.println("City", "Population");
  S = SELECT c FROM city:c POST-ACCUM f.println(c, c.pop), @@names += c.name;
  extra.println(@@names.size(), 2.5, TRUE);
  IF fail THEN
    PRINT 1 / 0;
  END;
  PRINT S.size() AS n;
}`;

interface Envelope {
  error: boolean;
  message: string;
  results: Record<string, unknown>[];
}

function envelopes(out: string): Envelope[] {
  return (out.match(/^\{\n[\s\S]*?^\}$/gm) ?? []).map((m) => JSON.parse(m) as Envelope);
}

async function withDb(fn: (db: Database, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-file-'));
  const db = await Database.open({ dataDir: join(dir, 'db'), sync: 'none', rebuildIntervalMs: 0 });
  try {
    let out = '';
    const code = await runScript(
      db,
      `${SCHEMA}${REPORT}\nINSTALL QUERY report\n`,
      { user: 'tigergraph' },
      (t) => (out += t),
    );
    assert.equal(code, 0, out);
    await fn(db, dir);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('RUN QUERY writes FILE variables and parameters inside the output directory, lines in order', async () => {
  await withDb(async (db, dir) => {
    const outDir = join(dir, 'out');
    mkdirSync(join(outDir, 'sub'), { recursive: true });
    let out = '';
    const run = (args: string) =>
      runScript(
        db,
        `USE GRAPH atlas\nRUN QUERY report(${args})\n`,
        { user: 'tigergraph' },
        (t) => (out += t),
        { outputDir: outDir },
      );
    assert.equal(await run(`"cities.csv", "${join(outDir, 'sub', 'extra.txt')}"`), 0, out);
    const [ok] = envelopes(out);
    assert.deepEqual(ok.results, [{ n: 2 }]);
    const lines = readFileSync(join(outDir, 'cities.csv'), 'utf8').split('\n');
    assert.equal(lines[0], 'City,Population');
    assert.deepEqual(lines.slice(1, 3).sort(), ['Bergen,285', 'Oslo,700']);
    assert.equal(lines[3], '');
    assert.equal(readFileSync(join(outDir, 'sub', 'extra.txt'), 'utf8'), '2,2.5,true\n');

    // A failed run writes nothing, not even the lines printed before the error.
    out = '';
    await run(`"failed.csv", "", TRUE`);
    const [failed] = envelopes(out);
    assert.equal(failed.error, true);
    assert.equal(existsSync(join(outDir, 'failed.csv')), false);

    // An empty path opens no file; writing to it is a run-time error.
    out = '';
    await run(`"again.csv", ""`);
    assert.equal(envelopes(out)[0].message, 'Runtime Error: println on a FILE opened with an empty path.');
    assert.equal(existsSync(join(outDir, 'again.csv')), false);
  });
});

test('FILE paths outside the output directory, or without one, are refused and write nothing', async () => {
  await withDb(async (db, dir) => {
    const outDir = join(dir, 'out');
    mkdirSync(outDir);
    symlinkSync(dir, join(outDir, 'escape'));
    symlinkSync(join(dir, 'made.csv'), join(outDir, 'dangling.csv'));
    const cases: [string, string | undefined, string][] = [
      ['../x.csv', outDir, "a path may not contain '..'"],
      [join(dir, 'x.csv'), outDir, 'it is outside the output directory'],
      ['escape/x.csv', outDir, 'it is outside the output directory'],
      ['dangling.csv', outDir, 'it is a symbolic link to a file that does not exist'],
      ['nodir/x.csv', outDir, 'the directory nodir does not exist'],
      ['x.csv', undefined, 'this server writes no query output files; start it with --output-dir DIR'],
    ];
    for (const [path, where, why] of cases) {
      let out = '';
      await runScript(
        db,
        `USE GRAPH atlas\nRUN QUERY report("${path}", "")\n`,
        { user: 'tigergraph' },
        (t) => (out += t),
        where === undefined ? {} : { outputDir: where },
      );
      const [env] = envelopes(out);
      assert.equal(env.error, true, path);
      assert.ok(env.message.startsWith(`Runtime Error: cannot open FILE "${path}": ${why}`), env.message);
    }
    assert.equal(existsSync(join(dir, 'x.csv')), false);
    assert.equal(existsSync(join(dir, 'made.csv')), false);
  });
});

test('REST++ query runs write FILE output into the server output directory', async () => {
  await withDb(async (db, dir) => {
    const outDir = join(dir, 'out');
    mkdirSync(outDir);
    const servers = await startServers({
      database: db,
      restppPort: 0,
      gsqlPort: 0,
      adminPort: 0,
      outputDir: outDir,
      log: () => {},
    });
    try {
      const res = await fetch(`${servers.urls.restpp}/query/atlas/report`, {
        method: 'POST',
        body: JSON.stringify({ path: 'rest.csv', extra: 'extra.csv' }),
      });
      const body = (await res.json()) as Envelope;
      assert.equal(body.error, false, body.message);
      assert.match(readFileSync(join(outDir, 'rest.csv'), 'utf8'), /^City,Population\n/);
      assert.equal(readFileSync(join(outDir, 'extra.csv'), 'utf8'), '2,2.5,true\n');
    } finally {
      await servers.close();
    }
  });
});

test('a FILE with a non-string path, or an unknown FILE method, is a compile error', async () => {
  await withDb(async (db) => {
    for (const [text, message] of [
      [
        'CREATE QUERY badfile() {\n  FILE f (42);\n  f.println(1);\n}',
        /the path of a FILE must be a STRING, not INT \(line 3, column 11\)/,
      ],
      ['CREATE QUERY badmethod(FILE f) {\n  f.print(1);\n}', /FILE has no method print\(\)/],
    ] as const) {
      let out = '';
      const code = await runScript(
        db,
        `USE GRAPH atlas\n${text}\n`,
        { user: 'tigergraph' },
        (t) => (out += t),
      );
      assert.equal(code, 212, out);
      assert.match(out, message);
    }
  });
});
