/**
 * The Ocelot server under test, started as a child process on loopback exactly as a user would
 * (`node dist/src/cli/ocelot.js serve …`), with helpers to talk to it over REST++ and the gsql
 * shell transport. Every started child is killed when the bench process exits.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GsqlSession } from '../../src/cli/gsql-transport.js';

const OCELOT = fileURLToPath(new URL('../../src/cli/ocelot.js', import.meta.url));

/** GSQL-TIMEOUT for the bench's requests: whole-graph queries outlast the 16 s default. */
export const LONG_TIMEOUT_MS = 3_600_000;

const children = new Set<ChildProcess>();
function killChildren(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
process.on('exit', killChildren);
// A signal ends the process without 'exit' handlers: stop the servers first.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killChildren();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

export interface ServerUrls {
  restpp: string;
  gsql: string;
}

let taskset: string | null | undefined;

/**
 * `taskset -c 0-(n-1)` on Linux when it is installed and works here (a sandbox may refuse to set
 * affinities): the command prefix that pins to n cores; none otherwise, and the runs are not pinned.
 */
export function pinPrefix(cores: number | undefined): string[] {
  if (cores === undefined) return [];
  if (taskset === undefined) {
    const found = ['/usr/bin', '/bin', '/usr/local/bin']
      .map((d) => `${d}/taskset`)
      .find((p) => existsSync(p));
    taskset = found && spawnSync(found, ['-c', '0', 'true']).status === 0 ? found : null;
  }
  return taskset ? [taskset, '-c', cores === 1 ? '0' : `0-${cores - 1}`] : [];
}

/**
 * Moves every thread of process `pid` onto the cores in `cores` (`taskset -a -p`); false when
 * taskset is missing or refused.
 */
export function repin(pid: number | undefined, cores: readonly number[]): boolean {
  if (pid === undefined || pinPrefix(1).length === 0 || !taskset) return false;
  return (
    spawnSync(taskset, ['-a', '-p', '-c', cores.join(','), String(pid)], { stdio: 'ignore' }).status === 0
  );
}

/**
 * CPU milliseconds the hypervisor has taken from this machine's cores so far (steal time, all
 * cores; Linux /proc/stat, 100 ticks/s); 0 where it is not reported.
 */
export function hostStealMs(): number {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
    return Number(cpu[8] ?? 0) * 10;
  } catch {
    return 0;
  }
}

/**
 * Runs the node script `script` with `spec` as its JSON argument, pinned to `cores` cores (see
 * pinPrefix; unpinned when undefined), and resolves with the JSON of its last stdout line, or `<label> failed (code): <its
 * last stderr line>`.
 */
export function runPinnedChild<T>(
  script: string,
  spec: unknown,
  cores: number | undefined,
  label: string,
): Promise<T | string> {
  const [cmd, ...pre] = [...pinPrefix(cores), process.execPath];
  return new Promise((resolve) => {
    const child = spawn(cmd, [...pre, script, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-500)));
    child.on('exit', (code) => {
      if (code !== 0) resolve(`${label} failed (${code}): ${err.trim().split('\n').pop() ?? ''}`);
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}') as T);
    });
  });
}

/**
 * Resolves with the child once `pattern` matches its stdout; kills it after `timeoutMs` otherwise.
 * `prefix` (e.g. pinPrefix's taskset) runs node under another command.
 */
export function spawnReady(
  args: string[],
  pattern: RegExp,
  timeoutMs: number,
  prefix: string[] = [],
): Promise<{ child: ChildProcess; stdout: string }> {
  const [cmd, ...pre] = prefix.length > 0 ? prefix : [process.execPath];
  const child = spawn(cmd, prefix.length > 0 ? [...pre, process.execPath, ...args] : args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child did not become ready in ${timeoutMs} ms: ${stderr.slice(-300)}`));
    }, timeoutMs);
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (pattern.test(stdout)) {
        clearTimeout(timer);
        resolve({ child, stdout });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited with ${code} before it was ready: ${stderr.slice(-300)}`));
    });
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/** User + system CPU milliseconds a process (all its threads) has used (Linux /proc, 100 ticks/s). */
export function processCpuMs(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

export class OcelotServer {
  private constructor(
    readonly child: ChildProcess,
    readonly urls: ServerUrls,
    readonly dataDir: string,
    /** Milliseconds from spawn to the ready line (includes Node start-up and data recovery). */
    readonly startMs: number,
  ) {}

  /**
   * The generated data files lie beside the data directory: that is where loading jobs read.
   * `threads` is the server's --threads; `cores` pins the process to the first that many cores;
   * `auth` turns on REST++ authentication (`--auth`: tokens or Basic credentials required).
   */
  static async start(
    dataDir: string,
    opts: { timeoutMs?: number; threads?: number; cores?: number; auth?: boolean } = {},
  ): Promise<OcelotServer> {
    const t0 = performance.now();
    const { child, stdout } = await spawnReady(
      [
        OCELOT,
        'serve',
        '--data',
        dataDir,
        '--import-dir',
        dirname(dataDir),
        '--host',
        '127.0.0.1',
        '--restpp-port',
        '0',
        '--gsql-port',
        '0',
        '--admin-port',
        '0',
        '--graphql-port',
        '0',
        // No access line per request: the peers (a bare Fastify route) log nothing either.
        '--log-level',
        'warn',
        ...(opts.threads === undefined ? [] : ['--threads', String(opts.threads)]),
        ...(opts.auth ? ['--auth'] : []),
      ],
      /Admin listening on /,
      opts.timeoutMs ?? 600_000,
      pinPrefix(opts.cores),
    );
    const ms = performance.now() - t0;
    const restpp = /REST\+\+ listening on (\S+)/.exec(stdout)?.[1];
    const gsql = /GSQL server listening on (\S+)/.exec(stdout)?.[1];
    if (!restpp || !gsql) throw new Error(`unexpected serve output: ${stdout}`);
    return new OcelotServer(child, { restpp, gsql }, dataDir, ms);
  }

  /** Resident set size of the server process (Linux /proc), in bytes. */
  rss(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    if (!kb) throw new Error('VmRSS not found');
    return Number(kb[1]) * 1024;
  }

  /** User + system CPU milliseconds the server process has used (Linux /proc, 100 ticks/s). */
  cpuMs(): number {
    return processCpuMs(this.child.pid);
  }

  /** CPU milliseconds of the server's main thread alone (Linux /proc schedstat, nanoseconds). */
  mainThreadCpuMs(): number {
    const pid = this.child.pid;
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  }

  /**
   * CPU milliseconds of each of the server's threads so far, by thread id (Linux /proc schedstat):
   * the main thread, the query workers, V8's and libuv's threads. A thread that ended is absent.
   */
  threadCpuMs(): Map<string, number> {
    const dir = `/proc/${this.child.pid}/task`;
    const out = new Map<string, number>();
    for (const tid of readdirSync(dir)) {
      try {
        out.set(tid, Number(readFileSync(`${dir}/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return out;
  }

  /**
   * A POST client for one REST++ path over up to `connections` keep-alive connections, taking
   * pre-encoded bodies: `rest()` goes through fetch, whose own CPU per call (about 3 ms for a 66 KB
   * body) would be counted in a rate measured from the client.
   */
  poster(path: string, connections = 1): (body: Buffer) => Promise<void> {
    const url = new URL(`${this.urls.restpp}${path}`);
    const agent = new Agent({ keepAlive: true, maxSockets: connections });
    return (body) =>
      new Promise<void>((resolve, reject) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            agent,
            headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString();
              const env = JSON.parse(text) as { error?: unknown; message?: unknown };
              if (res.statusCode !== 200 || env.error === true) {
                reject(new Error(`POST ${path}: HTTP ${res.statusCode} ${String(env.message ?? '')}`));
              } else resolve();
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }

  /** A logged-in gsql client session whose output goes to `sink`. */
  private async login(graph: string | undefined, sink: (text: string) => void): Promise<GsqlSession> {
    const session = new GsqlSession(
      `${this.urls.gsql}/gsqlserver/gsql`,
      'tigergraph',
      'tigergraph',
      graph,
      sink,
    );
    const login = await session.login();
    if (!login.ok) throw new Error(`gsql login: ${login.message}`);
    return session;
  }

  /** Runs GSQL text through the gsql client's transport; throws with the output on failure. */
  async gsql(text: string, graph?: string): Promise<string> {
    let out = '';
    const session = await this.login(graph, (t) => {
      out += t;
    });
    const code = await session.run('file', text);
    if (code !== 0) {
      throw new Error(`gsql failed (${code}): ${out.trim().split('\n').slice(-3).join(' / ')}`);
    }
    return out;
  }

  /** A logged-in gsql session, for timing RUN QUERY without the login round trip. */
  async session(graph: string): Promise<{ run: (text: string) => Promise<string> }> {
    let out = '';
    const session = await this.login(graph, (t) => {
      out += t;
    });
    return {
      run: async (text) => {
        out = '';
        const code = await session.run('command', text);
        if (code !== 0) throw new Error(`gsql failed (${code}): ${out.trim().slice(-200)}`);
        return out;
      },
    };
  }

  async rest(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { 'GSQL-TIMEOUT': String(LONG_TIMEOUT_MS) };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const init = {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    };
    let res: Response;
    try {
      res = await fetch(`${this.urls.restpp}${path}`, init);
    } catch {
      // A pooled keep-alive socket the server closed while idle fails the send: retry once on a new
      // one (a dead server fails again, and that error is reported).
      res = await fetch(`${this.urls.restpp}${path}`, init);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
    }
    const env = json as { error?: unknown; message?: unknown };
    if (res.status !== 200 || env.error === true) {
      throw new Error(`${method} ${path}: HTTP ${res.status} ${String(env.message ?? '')}`.trim());
    }
    return json;
  }
}
