/**
 * `ocelot bench [scenario] [args…]`: runs a benchmark scenario compiled to dist/bench/. A scenario is
 * a module `bench/<name>.ts` exporting `run(args: string[]): Promise<void> | void`; files whose
 * name starts with `_` are helpers, not scenarios.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BENCH_HELP = `Usage: ocelot bench [SCENARIO [ARGS…]]

Runs a benchmark scenario (bench/<SCENARIO>.ts, compiled to dist/bench/). Without SCENARIO, lists them.
\`ocelot bench all --help\` prints the harness scenarios and their options; docs/performance.md says how each measures.
`;

/** dist/bench, next to dist/src where this file is compiled. */
const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));

export function listScenarios(dir = BENCH_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.js') && !f.startsWith('_'))
    .map((f) => f.slice(0, -3))
    .sort();
}

export async function runBench(
  argv: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
  dir = BENCH_DIR,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '-h' || name === '--help') {
    out(BENCH_HELP.trimEnd());
    return 0;
  }
  const scenarios = listScenarios(dir);
  if (name === undefined) {
    out(scenarios.length === 0 ? 'No benchmark scenarios are built (bench/ is empty).' : 'Scenarios:');
    for (const s of scenarios) out(`  ${s}`);
    return 0;
  }
  if (!scenarios.includes(name)) {
    err(
      `ocelot bench: unknown scenario '${name}'${scenarios.length ? `; choose one of: ${scenarios.join(', ')}` : ''}`,
    );
    return 1;
  }
  const mod = (await import(pathToFileURL(`${dir}/${name}.js`).href)) as { run?: unknown };
  if (typeof mod.run !== 'function') {
    err(`ocelot bench: scenario '${name}' does not export run(args)`);
    return 1;
  }
  try {
    await (mod.run as (args: string[]) => unknown)(rest);
  } catch (e) {
    // A bad option or a failed run: its message, not a stack trace.
    err(`ocelot bench ${name}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  return 0;
}
