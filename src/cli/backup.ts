/**
 * `ocelot backup create FILE`: asks a running server for an online backup (POST /ocelot/v1/backup)
 * and writes it to FILE, checked and fsynced before it takes FILE's name.
 * `ocelot backup restore FILE --data DIR`: offline; builds data directory DIR from FILE.
 */
import { createWriteStream } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { BackupError, parseBackup, restoreBackup } from '../engine/backup-file.js';
import { parseArgs, UsageError, type OptionSpec } from './args.js';

export const BACKUP_HELP = `Usage: ocelot backup create FILE [options]
       ocelot backup restore FILE --data DIR

create   Takes an online backup of a running server: a consistent snapshot of every graph, its data,
         the catalog (schema, loading jobs, queries, installed or not), users, roles and secrets,
         at one commit, while writes go on. Needs a superuser. FILE is written only once complete
         and checked.
restore  Offline: builds the data directory DIR (which must not exist or be empty) from FILE.
         Start a server on DIR afterwards ('ocelot serve --data DIR').

Options of create:
  -ip HOST:PORT     GSQL server address (default 127.0.0.1:14240)
  --url URL         GSQL server URL instead of -ip, e.g. http://db.example:14240
  -u, --user USER   user name (OCELOT_USER, default tigergraph)
  -p, --password P  password (OCELOT_PASSWORD, default tigergraph)
Options of restore:
  --data DIR        the data directory to create
  -h, --help        show this help

Exit codes: 0 done, 1 failed (the reason is printed).
`;

const SPECS: OptionSpec[] = [
  { names: ['-ip', '--ip'], key: 'ip' },
  { names: ['--url'], key: 'url' },
  { names: ['-u', '--user'], key: 'user' },
  { names: ['-p', '--password'], key: 'password' },
  { names: ['--data'], key: 'data' },
  { names: ['-h', '--help'], key: 'help', flag: true },
];

export interface BackupIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

/** The GSQL server's base URL for -ip/--url. */
function serverBase(ip: string | undefined, url: string | undefined): string {
  if (url !== undefined) {
    try {
      return new URL(url).origin;
    } catch {
      throw new UsageError(`--url '${url}' is not a URL`);
    }
  }
  const address = ip ?? '127.0.0.1:14240';
  if (!/^([^:]+|\[[^\]]+\])(:\d{1,5})?$/.test(address))
    throw new UsageError(`-ip '${address}' is not HOST:PORT`);
  return `http://${address.includes(':') && !address.endsWith(']') ? address : `${address}:14240`}`;
}

const megabytes = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;

async function create(
  file: string,
  base: string,
  user: string,
  password: string,
  io: BackupIo,
): Promise<number> {
  let res: Response;
  try {
    res = await fetch(`${base}/ocelot/v1/backup`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
    });
  } catch (e) {
    io.stderr(
      `ocelot backup: cannot reach the server at ${base}: ${(e as Error).cause ?? (e as Error).message}`,
    );
    return 1;
  }
  if (!res.ok || !res.body) {
    const text = await res.text();
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      // not the envelope: show the text as it is
    }
    io.stderr(`ocelot backup: the server refused the backup (HTTP ${res.status}): ${message}`);
    return 1;
  }
  const partial = `${file}.partial`;
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(partial));
    const { header } = parseBackup(await readFile(partial), partial);
    const handle = await open(partial, 'r');
    await handle.sync();
    await handle.close();
    await rename(partial, file);
    io.stdout(
      `Backup of version ${header.version} (${megabytes(header.snapshotBytes)}, taken ${header.createdAt}) written to ${file}`,
    );
    return 0;
  } catch (e) {
    await rm(partial, { force: true });
    io.stderr(
      `ocelot backup: ${e instanceof BackupError ? e.message : `cannot write ${file}: ${(e as Error).message}`}`,
    );
    return 1;
  }
}

async function restore(file: string, data: string, io: BackupIo): Promise<number> {
  try {
    const header = await restoreBackup(file, data);
    io.stdout(
      `Restored version ${header.version} (backup taken ${header.createdAt} by Ocelot ${header.ocelotVersion}) into ${data}`,
    );
    return 0;
  } catch (e) {
    io.stderr(`ocelot backup: ${(e as Error).message}`);
    return 1;
  }
}

export async function runBackup(argv: readonly string[], io: BackupIo): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, SPECS);
    if (args.flags.has('help')) {
      io.stdout(BACKUP_HELP.trimEnd());
      return 0;
    }
    const [action, file, ...extra] = args.positional;
    if (action !== 'create' && action !== 'restore') {
      throw new UsageError(action === undefined ? 'say create or restore' : `unknown action '${action}'`);
    }
    if (file === undefined) throw new UsageError(`${action} needs a FILE`);
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
    if (action === 'restore') {
      const data = args.options.get('data');
      if (data === undefined) throw new UsageError('restore needs --data DIR');
      return await restore(file, data, io);
    }
    if (args.options.has('data')) throw new UsageError('--data is an option of restore');
    const base = serverBase(args.options.get('ip'), args.options.get('url'));
    const user = args.options.get('user') ?? io.env.OCELOT_USER ?? 'tigergraph';
    const password = args.options.get('password') ?? io.env.OCELOT_PASSWORD ?? 'tigergraph';
    return await create(file, base, user, password, io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`ocelot backup: ${e.message}\nRun 'ocelot backup --help' for the options.`);
    return 1;
  }
}
