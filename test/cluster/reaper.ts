/**
 * Child processes that die with the test: beside each child a tiny `sh` waits for its stdin (a pipe
 * from this process) to close and then SIGKILLs the child, so even a test runner killed with -9
 * leaves no server behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const tracked = new Set<ChildProcess>();

/** Ties `child` to this process's life; call `release` once the child is gone. */
export function reapWithParent(child: ChildProcess): void {
  if (child.pid === undefined) return;
  const watchdog = spawn('sh', ['-c', `cat >/dev/null; kill -9 ${child.pid} 2>/dev/null`], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.unref();
  // The pipe must not keep this process alive either.
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  tracked.add(child);
  child.once('exit', () => {
    tracked.delete(child);
    // The child is gone: let the watchdog end without a signal to send.
    watchdog.kill('SIGKILL');
  });
}

/** SIGKILLs every tracked child still running. */
export function killAllChildren(): void {
  for (const c of tracked) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
