/** Runs the compiled `ocelot` CLI as a child process, always killed by the end of the test. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { scaled } from '../timing.js';

export const OCELOT = fileURLToPath(new URL('../../src/cli/ocelot.js', import.meta.url));

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const children = new Set<ChildProcess>();

/** Kills every child still running (call from an `after` hook). */
export function killAll(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
}

export function runOcelot(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<Finished> {
  const child = spawn(process.execPath, [OCELOT, ...args], {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // A child that exits without reading its input (--version, a usage error) closes the pipe first.
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), scaled(options.timeoutMs ?? 60_000));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Starts a long-running `ocelot` child; resolves once a stdout line matches `ready`. */
export function startOcelot(
  args: string[],
  ready: RegExp,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exited: Promise<Finished>;
}> {
  const child = spawn(process.execPath, [OCELOT, ...args], {
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<Finished>((resolve) =>
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        reject(new Error(`ocelot did not become ready: ${stdout}\n${stderr}`));
      },
      scaled(options.timeoutMs ?? 60_000),
    );
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (ready.test(stdout)) {
        clearTimeout(timer);
        resolve({ child, output: () => ({ stdout, stderr }), exited });
      }
    });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    void exited.then((f) => {
      clearTimeout(timer);
      reject(new Error(`ocelot exited early (${f.code}): ${f.stdout}\n${f.stderr}`));
    });
  });
}
