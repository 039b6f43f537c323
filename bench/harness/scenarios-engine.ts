/**
 * The in-process scripts other engineers own (bench/storage.ts, bench/paths.ts, bench/graphql.ts)
 * run as child processes (they run on import and export nothing), with the numbers the issue has
 * targets for picked out of their output. A line that is not found becomes "not available", not a zero.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Context } from './context.js';
import { unavailable, type Outcome } from './stats.js';

function script(name: string): string {
  return fileURLToPath(new URL(`../${name}.js`, import.meta.url));
}

function runScript(name: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', script(name), ...args],
      { timeout: timeoutMs, maxBuffer: 1 << 24, killSignal: 'SIGKILL' },
      (err, stdout, stderr) =>
        err
          ? reject(
              new Error(`${name} failed: ${stderr.split('\n').find((l) => /Error/.test(l)) ?? err.message}`),
            )
          : resolve(stdout),
    );
  });
}

function pick(out: string | Error, line: RegExp, num: RegExp): Outcome {
  if (out instanceof Error) return unavailable(out.message.split('\n')[0]);
  const l = out.split('\n').find((x) => line.test(x));
  const m = l && num.exec(l);
  return m ? { samples: [Number(m[1])] } : unavailable(`${line.source} not in the script's output`);
}

export async function engine(ctx: Context): Promise<void> {
  const scale = String(ctx.opts.scale);
  const storage = await runScript('storage', ['--scale', scale], 1_800_000).catch((e: Error) => e);
  const paths = await runScript(
    'paths',
    ['--scale', scale, '--queries', String(ctx.opts.pairs)],
    1_800_000,
  ).catch((e: Error) => e);
  const graphql = await runScript(
    'graphql',
    ['--scale', scale, '--queries', String(ctx.opts.pairs)],
    1_800_000,
  ).catch((e: Error) => e);
  const row = (
    what: string,
    unit: string,
    better: 'higher' | 'lower',
    ocelot: Outcome,
    target?: number,
  ): void => {
    ctx.rows.push({
      scenario: 'engine',
      what,
      unit,
      better,
      ocelot,
      peers: {},
      target,
      note: 'in-process, one run',
    });
  };
  row(
    'insert, sync always (bench/storage)',
    'edges/s',
    'higher',
    pick(storage, /^insert/, /(\d+) edges\/s wall/),
    1_000_000,
  );
  row(
    'adjacency bytes per edge (bench/storage)',
    'bytes/edge',
    'lower',
    pick(storage, /^adjacency bytes/, /([\d.]+) bytes/),
    16,
  );
  row('restart, checkpoint load (bench/storage)', 'ms', 'lower', pick(storage, /^restart/, /(\d+) ms/), 3000);
  row(
    'shortest path p50 (bench/paths)',
    'ms',
    'lower',
    pick(paths, /^shortest path, one per pair/, /p50 ([\d.]+) ms/),
  );
  row(
    'GraphQL 2-hop p50, service without HTTP (bench/graphql)',
    'ms',
    'lower',
    pick(graphql, /^2-hop from one person/, /p50 ([\d.]+) ms/),
  );
}
