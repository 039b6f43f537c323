/**
 * `ocelot serve` as a child process for the reliability tests: start on free loopback ports, talk
 * REST++ and the GSQL shell transport, kill with SIGKILL. Every child is tracked so an `after` hook
 * can kill whatever a failed test left running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaled } from '../timing.js';

export const OCELOT = fileURLToPath(new URL('../../src/cli/ocelot.js', import.meta.url));
/** A preload that answers SIGUSR2 with the RSS measured after a full GC (load test). */
export const GC_PROBE = fileURLToPath(
  new URL('../../../test/fixtures/reliability/gc-probe.mjs', import.meta.url),
);
export const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;

const READY = /Admin listening on (http:\/\/\S+)\n/;
const children = new Set<ChildProcess>();
const dirs: string[] = [];

export function tempDir(prefix = 'ocelot-reliability-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** Kills every child still running and removes the temp directories (an `after` hook). */
export function cleanup(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export interface ServeProcess {
  child: ChildProcess;
  restpp: string;
  gsql: string;
  admin: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code or signal once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
}

export interface ServeOptions {
  dataDir: string;
  sync?: 'always' | 'batch' | 'none';
  nodeArgs?: string[];
  args?: string[];
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export async function startServe(opts: ServeOptions): Promise<ServeProcess> {
  const args = [
    ...(opts.nodeArgs ?? []),
    OCELOT,
    'serve',
    '--data',
    opts.dataDir,
    '--restpp-port',
    '0',
    '--gsql-port',
    '0',
    '--admin-port',
    '0',
    '--sync',
    opts.sync ?? 'always',
    ...(opts.args ?? []),
  ];
  const child = spawn(process.execPath, args, {
    env: opts.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        reject(new Error(`ocelot did not become ready:\n${stdout}\n${stderr}`));
      },
      scaled(opts.timeoutMs ?? 60_000),
    );
    const onData = () => {
      if (READY.test(stdout)) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`ocelot exited early (${e.code ?? e.signal}):\n${stdout}\n${stderr}`));
    });
  });
  const find = (re: RegExp): string => {
    const m = re.exec(stdout);
    if (!m) throw new Error(`no ${re} in ${stdout}`);
    return m[1];
  };
  return {
    child,
    restpp: find(/^REST\+\+ listening on (http:\/\/\S+)$/m),
    gsql: find(/^GSQL server listening on (http:\/\/\S+) /m),
    admin: find(/^Admin listening on (http:\/\/\S+)$/m),
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface Answer {
  status: number;
  text: string;
  json: unknown;
}

/** One HTTP request; a body that is not JSON leaves `json` undefined. */
export async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

/** Runs GSQL text through the 3.x shell transport; answers the output and the client's exit code. */
export async function gsql(
  base: string,
  text: string,
  graph?: string,
): Promise<{ code: number; out: string }> {
  const headers: Record<string, string> = {
    authorization: BASIC,
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (graph) headers['GSQL-Cookie'] = JSON.stringify({ graph });
  const r = await request(`${base}/gsqlserver/gsql/file`, {
    method: 'POST',
    headers,
    body: encodeURIComponent(text),
  });
  const m = /__GSQL__RETURN__CODE__,(\d+)\n?$/.exec(r.text);
  return { code: m ? Number(m[1]) : -1, out: r.text };
}
