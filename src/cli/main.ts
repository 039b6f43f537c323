/**
 * The `ocelot` command: `serve`, `gsql`, `backup`, `bench`, `--version`. bin/ocelot calls `main` with
 * the arguments after the program name and exits with the number it returns. Subcommands are
 * imported on use, so the gsql client starts without loading the server and the engine.
 */
import { ocelotVersionLine } from '../util/ocelot-version.js';

export const HELP = `Usage: ocelot <command> [options]

Ocelot: a TigerGraph-compatible graph database server.

Commands:
  serve    start the server (REST++ :9000, GSQL :14240, admin :8123)
  gsql     GSQL client: run a script or a command, or start the interactive shell
  backup   create (online, from a running server) or restore (offline) a backup file
  bench    run a benchmark scenario
  cluster  cluster status (ocelot cluster status)

Run 'ocelot <command> --help' for the options of a command, 'ocelot --version' for the version.
`;

/**
 * A reader that goes away early (`ocelot gsql -c 'SHOW …' | head`) is how pipelines end, not a
 * failure: stop quietly, as Unix tools do, instead of crashing with an unhandled EPIPE.
 */
function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

export async function main(argv: string[]): Promise<number> {
  endQuietlyOnClosedPipe(process.stdout);
  const [command, ...rest] = argv;
  const stdout = (line: string) => process.stdout.write(`${line}\n`);
  const stderr = (line: string) => process.stderr.write(`${line}\n`);
  switch (command) {
    case 'serve': {
      const { runServe } = await import('./serve.js');
      return runServe(rest, { stdout, stderr, env: process.env });
    }
    case 'gsql': {
      const { runGsql } = await import('./gsql.js');
      return runGsql(rest, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
    }
    case 'cluster': {
      const { runCluster } = await import('./cluster.js');
      return runCluster(rest, { stdout, stderr, env: process.env });
    }
    case 'backup': {
      const { runBackup } = await import('./backup.js');
      return runBackup(rest, { stdout, stderr, env: process.env });
    }
    case 'bench': {
      const { runBench } = await import('./bench.js');
      return runBench(rest, stdout, stderr);
    }
    case '--version':
    case '-V':
      stdout(ocelotVersionLine());
      return 0;
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(HELP);
      return command === undefined ? 1 : 0;
    default:
      stderr(`ocelot: unknown command '${command}'\n`);
      process.stderr.write(HELP);
      return 1;
  }
}
