/**
 * The long reliability run (`npm run soak`): a long crash loop, a long load run, and the fault and
 * fuzz property tests at OCELOT_SOAK_SCALE times their `npm test` bounds. Prints every figure and
 * exits non-zero on any violation or error.
 *
 *   node dist/test/reliability/soak.js --soak [--iterations N] [--load-seconds S] [--scale K] [--sync MODE]
 *
 * `--soak` is required so that `node --test dist/test/` (which loads every file under test/) never
 * starts a soak by accident.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { crashLoop } from './crash-loop.js';
import { loadRun } from './load.js';
import { cleanup, tempDir } from './server-process.js';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const PROPERTY_FILES = [
  'db-faults.property.test.js',
  'fuzz-rest.test.js',
  'fuzz-gsql-loading.test.js',
  'fuzz-graphql.test.js',
  'limits.test.js',
  'security.test.js',
];

function runPropertyTests(scale: number): Promise<number> {
  const files = PROPERTY_FILES.map((f) => fileURLToPath(new URL(f, import.meta.url)));
  const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...files], {
    env: { ...process.env, OCELOT_SOAK_SCALE: String(scale) },
    stdio: 'inherit',
  });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

async function main(): Promise<number> {
  const iterations = Number(option('iterations', '100'));
  const loadSeconds = Number(option('load-seconds', '60'));
  const scale = Number(option('scale', '20'));
  const sync = option('sync', 'always');
  if (sync !== 'always' && sync !== 'batch' && sync !== 'none') throw new Error(`--sync ${sync}`);
  let failed = false;
  try {
    const started = Date.now();
    const crash = await crashLoop({
      dataDir: tempDir('ocelot-soak-'),
      iterations,
      writers: 8,
      readers: 2,
      minRunMs: 300,
      maxRunMs: 3_000,
      rebuildEveryMs: 50,
      sync,
      log: (l) => console.log(l),
    });
    console.log(`crash loop (${((Date.now() - started) / 1000).toFixed(0)} s, --sync ${sync}):`);
    console.log(JSON.stringify({ ...crash, violations: crash.violations.length }, null, 2));
    for (const v of crash.violations) console.log(`VIOLATION ${v}`);
    failed ||= crash.violations.length > 0;

    const load = await loadRun({
      dir: tempDir('ocelot-soak-'),
      clients: 32,
      durationMs: loadSeconds * 1000,
      vertices: 20_000,
    });
    console.log(`load (${loadSeconds} s, 32 clients):`);
    console.log(JSON.stringify(load, null, 2));
    failed ||= load.errors > 0 || load.rssAfterMb >= load.rssBaselineMb * 1.5 + 32;

    const code = await runPropertyTests(scale);
    console.log(`fault and fuzz properties at scale ${scale}: ${code === 0 ? 'passed' : 'FAILED'}`);
    failed ||= code !== 0;
  } finally {
    cleanup();
  }
  console.log(failed ? 'soak: FAILED' : 'soak: passed, 0 violations, 0 errors');
  return failed ? 1 : 0;
}

if (process.argv.includes('--soak')) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      cleanup();
      process.exit(1);
    },
  );
}
