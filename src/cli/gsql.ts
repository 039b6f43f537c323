/**
 * `ocelot gsql`: a gsql client that talks to an Ocelot (or TigerGraph 3.x) GSQL server the way
 * TigerGraph's own client does. An argument naming an existing file runs it as a script, any other
 * argument is GSQL text; without one the interactive shell starts. Exit codes are the gsql client's:
 * the server's return code, 41 for a failed login, 201 for bad arguments, 202 for connection errors.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs, UsageError, type OptionSpec } from './args.js';
import { EXIT, GsqlClientError, GsqlSession } from './gsql-transport.js';
import { interactiveShell } from './gsql-shell.js';

export const GSQL_HELP = `Usage: ocelot gsql [options] [FILE | 'COMMAND']

A GSQL client. With FILE (an existing file) runs it as a script; with any other argument runs it as
GSQL text; with neither starts the interactive shell (exit or quit leaves; BEGIN … END for several lines).

Options:
  -ip HOST:PORT     GSQL server address (default 127.0.0.1:14240; port 8123 uses the admin path)
  --url URL         GSQL server URL instead of -ip, e.g. http://db.example:14240
  -u, --user USER   user name (default tigergraph)
  -p, --password P  password (default tigergraph)
  -g, --graph G     graph to use from the start
  -f FILE           run FILE as a script
  -c 'COMMAND'      run COMMAND
  -h, --help        show this help

Exit codes: the server's return code (0 ok, 211 syntax error, 212 runtime error, …),
41 login failed, 201 invalid argument, 202 connection error.
`;

const SPECS: OptionSpec[] = [
  { names: ['-ip', '--ip'], key: 'ip' },
  { names: ['--url'], key: 'url' },
  { names: ['-u', '--user'], key: 'user' },
  { names: ['-p', '--password'], key: 'password' },
  { names: ['-g', '--graph'], key: 'graph' },
  { names: ['-f', '--file'], key: 'file' },
  { names: ['-c', '--command'], key: 'command' },
  { names: ['-h', '--help'], key: 'help', flag: true },
];

export interface GsqlIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** The base URL of the 3.x endpoints for -ip/--url. */
export function endpointBase(ip: string | undefined, url: string | undefined): string {
  if (url !== undefined) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new UsageError(`--url '${url}' is not a URL`);
    }
    const path = u.pathname.replace(/\/+$/, '');
    return `${u.origin}${path === '' ? (u.port === '8123' ? '/gsql' : '/gsqlserver/gsql') : path}`;
  }
  const address = ip ?? '127.0.0.1:14240';
  const m = /^([^:]+|\[[^\]]+\])(?::(\d+))?$/.exec(address);
  if (!m || (m[2] !== undefined && Number(m[2]) > 65535))
    throw new UsageError(`-ip '${address}' is not HOST:PORT`);
  const port = m[2] ?? '14240';
  return `http://${m[1]}:${port}${port === '8123' ? '/gsql' : '/gsqlserver/gsql'}`;
}

export async function runGsql(argv: readonly string[], io: GsqlIo): Promise<number> {
  const err = (text: string) => io.stderr.write(`${text}\n`);
  let args;
  let base: string;
  try {
    args = parseArgs(argv, SPECS);
    base = endpointBase(args.options.get('ip'), args.options.get('url'));
    if (args.positional.length > 1)
      throw new UsageError(`expected one FILE or COMMAND, got ${args.positional.length}`);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`ocelot gsql: ${e.message}\nRun 'ocelot gsql --help' for the options.`);
      return EXIT.INVALID_ARGUMENT;
    }
    throw e;
  }
  if (args.flags.has('help')) {
    io.stdout.write(GSQL_HELP);
    return EXIT.OK;
  }

  const out = (text: string) => io.stdout.write(text);
  const user = args.options.get('user') ?? 'tigergraph';
  const passwordGiven = args.options.has('password');
  const session = new GsqlSession(
    base,
    user,
    args.options.get('password') ?? 'tigergraph',
    args.options.get('graph'),
    out,
    io.stdout.isTTY ? ((io.stdout as { columns?: number }).columns ?? 80) : undefined,
  );

  let script: { endpoint: 'file'; text: string } | undefined;
  const file = args.options.get('file');
  const command = args.options.get('command') ?? (file === undefined ? args.positional[0] : undefined);
  if (file !== undefined) {
    const text = readScript(file);
    if (text === undefined) {
      err(`File "${file}" does not exist!`);
      return EXIT.INVALID_ARGUMENT;
    }
    script = { endpoint: 'file', text };
  } else if (command !== undefined) {
    const text = args.options.has('command') ? undefined : readScript(command);
    script = { endpoint: 'file', text: text ?? command };
  }

  try {
    if (!(await login(session, user, passwordGiven, io))) return EXIT.LOGIN_OR_AUTH_ERROR;
    if (script) return await session.run(script.endpoint, script.text);
    return await interactiveShell(session, {
      input: io.stdin,
      output: io.stdout,
      terminal: Boolean(io.stdin.isTTY && io.stdout.isTTY),
      readFile: (path) => readFileSync(path, 'utf8'),
    });
  } catch (e) {
    if (e instanceof GsqlClientError) {
      err(e.message);
      return e.exitCode;
    }
    throw e;
  }
}

/** The content of `path` when it names an existing file. */
function readScript(path: string): string | undefined {
  try {
    if (!existsSync(path) || !statSync(path).isFile()) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Logs in; on a terminal, a wrong default password is asked for again (twice), as gsql does. */
async function login(
  session: GsqlSession,
  user: string,
  passwordGiven: boolean,
  io: GsqlIo,
): Promise<boolean> {
  const attempts = !passwordGiven && io.stdin.isTTY ? 3 : 1;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) session.setPassword(await askPassword(user, io));
    const r = await session.login();
    if (r.ok) return true;
    io.stdout.write(`${r.message}\n`);
  }
  return false;
}

async function askPassword(user: string, io: GsqlIo): Promise<string> {
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: true });
  const muted = rl as unknown as { _writeToOutput?: (s: string) => void };
  const prompt = `Password for ${user} : `;
  muted._writeToOutput = (s: string) => {
    if (s.startsWith(prompt)) io.stdout.write(prompt);
  };
  try {
    return await new Promise<string>((resolve) => rl.question(prompt, resolve));
  } finally {
    rl.close();
    io.stdout.write('\n');
  }
}
