import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { listScenarios, runBench } from '../../src/cli/bench.js';

const dir = mkdtempSync(join(tmpdir(), 'ocelot-bench-'));
after(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'upsert.js'), 'export async function run(args) { globalThis.__benchArgs = args; }\n');
writeFileSync(join(dir, '_helpers.js'), 'export const x = 1;\n');
writeFileSync(join(dir, 'broken.js'), 'export const nothing = 1;\n');
writeFileSync(join(dir, 'upsert.js.map'), '{}');
writeFileSync(
  join(dir, 'picky.js'),
  "export async function run(args) { throw new Error(`unknown option '${args[0]}'`); }\n",
);

test('scenarios are the compiled modules, helpers (_*) excluded', () => {
  assert.deepEqual(listScenarios(dir), ['broken', 'picky', 'upsert']);
  assert.deepEqual(listScenarios(join(dir, 'missing')), []);
});

test('no scenario lists them; a scenario runs with its arguments', async () => {
  const out: string[] = [];
  assert.equal(
    await runBench(
      [],
      (l) => out.push(l),
      () => {},
      dir,
    ),
    0,
  );
  assert.deepEqual(out, ['Scenarios:', '  broken', '  picky', '  upsert']);
  assert.equal(
    await runBench(
      ['upsert', '--n', '5'],
      () => {},
      () => {},
      dir,
    ),
    0,
  );
  assert.deepEqual((globalThis as { __benchArgs?: string[] }).__benchArgs, ['--n', '5']);
});

test('unknown or malformed scenarios are errors', async () => {
  const err: string[] = [];
  assert.equal(
    await runBench(
      ['nope'],
      () => {},
      (l) => err.push(l),
      dir,
    ),
    1,
  );
  assert.equal(err[0], "ocelot bench: unknown scenario 'nope'; choose one of: broken, picky, upsert");
  assert.equal(
    await runBench(
      ['broken'],
      () => {},
      (l) => err.push(l),
      dir,
    ),
    1,
  );
  assert.equal(err[1], "ocelot bench: scenario 'broken' does not export run(args)");
  const empty: string[] = [];
  assert.equal(
    await runBench(
      [],
      (l) => empty.push(l),
      () => {},
      join(dir, 'missing'),
    ),
    0,
  );
  assert.deepEqual(empty, ['No benchmark scenarios are built (bench/ is empty).']);
});

test('a scenario that fails (a bad option) reports its message and exits 1, no stack trace', async () => {
  const err: string[] = [];
  assert.equal(
    await runBench(
      ['picky', '--bogus'],
      () => {},
      (l) => err.push(l),
      dir,
    ),
    1,
  );
  assert.deepEqual(err, ["ocelot bench picky: unknown option '--bogus'"]);
});

test('every scenario in bench/ is one: its module exports run(args)', async () => {
  // From the sources, so that a stale compiled file in a developer's dist/ does not count.
  const sources = fileURLToPath(new URL('../../../bench/', import.meta.url));
  const built = fileURLToPath(new URL('../../bench/', import.meta.url));
  const names = readdirSync(sources)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('_'))
    .map((f) => f.slice(0, -3));
  assert.ok(names.includes('scaling') && names.includes('storage'), `found: ${names.join(', ')}`);
  for (const n of names) {
    assert.ok(listScenarios(built).includes(n), `bench/${n}.ts is not listed by ocelot bench`);
    const mod = (await import(pathToFileURL(join(built, `${n}.js`)).href)) as { run?: unknown };
    assert.equal(
      typeof mod.run,
      'function',
      `bench/${n}.ts is listed as a scenario but exports no run(args)`,
    );
  }
});
