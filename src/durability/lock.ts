/**
 * An exclusive lock on a data directory: a LOCK file created with O_EXCL holding the owner's pid,
 * host name and (on Linux) an identity that survives pid reuse: the boot id and the process start
 * time. A lock whose process no longer exists (killed, crashed, or the machine rebooted since) is
 * stale and is taken over, so a restart after a crash is never blocked.
 *
 * Limits: without /proc the check trusts the pid alone, so a reused pid blocks until the file is
 * removed by hand (the error says which file). Two servers starting at the same instant over the
 * same stale lock could both break it; that needs two servers started on one directory at once,
 * and is not guarded against (Node has no flock).
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { DataDirError } from './errors.js';
import { type FileLayer, errorCode } from './file-layer.js';

export const LOCK_FILE = 'LOCK';

/** Directories locked by this process: the pid alone cannot tell two opens in one process apart. */
const heldHere = new Set<string>();

export interface DirLock {
  readonly path: string;
  release(): Promise<void>;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(err) === 'EPERM';
  }
}

/**
 * Boot id + start time of a live process (Linux /proc), so that a recycled pid is not mistaken for
 * the lock's owner. Not read through the file layer: it is process information, not data.
 */
export function processIdentity(pid: number): string | undefined {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return start ? `${boot}:${start}` : undefined;
  } catch {
    return undefined;
  }
}

interface LockOwner {
  pid: number;
  host: string;
  identity: string;
}

function parseLock(text: string): LockOwner | undefined {
  const [pidLine, host, identity] = text.split('\n');
  const pid = Number(pidLine);
  if (!Number.isSafeInteger(pid) || pid <= 0 || host === undefined || host === '') return undefined;
  return { pid, host, identity: identity ?? '' };
}

/** Whether the process that wrote the lock still runs (and is the same process, not a reused pid). */
function ownerAlive(owner: LockOwner): boolean {
  if (!processAlive(owner.pid)) return false;
  const now = processIdentity(owner.pid);
  return owner.identity === '' || now === undefined || now === owner.identity;
}

export async function acquireLock(fs: FileLayer, dir: string): Promise<DirLock> {
  const key = resolve(dir);
  const path = join(dir, LOCK_FILE);
  if (heldHere.has(key)) {
    throw new DataDirError('LOCKED', `data directory ${dir} is already open in this process`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const h = await fs.open(path, 'createNew');
      try {
        await h.write(
          Buffer.from(`${process.pid}\n${hostname()}\n${processIdentity(process.pid) ?? ''}\n`),
          0,
        );
        await h.sync();
      } finally {
        await h.close();
      }
      heldHere.add(key);
      return {
        path,
        async release() {
          heldHere.delete(key);
          await fs.unlink(path).catch((err: unknown) => {
            if (errorCode(err) !== 'ENOENT') throw err;
          });
        },
      };
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') throw err;
    }
    let owner: LockOwner | undefined;
    try {
      owner = parseLock((await fs.readFile(path)).toString('utf8'));
    } catch (err) {
      if (errorCode(err) === 'ENOENT') continue; // released meanwhile
      throw err;
    }
    // An unreadable lock is a torn write from a crash while locking: stale. Our own pid here means
    // a previous incarnation (e.g. pid 1 in a container), since locks of this process are in heldHere.
    if (owner && owner.host !== hostname()) {
      throw new DataDirError(
        'LOCKED',
        `data directory ${dir} is locked by process ${owner.pid} on host ${owner.host}; ` +
          `if no server uses it, remove ${path}`,
      );
    }
    if (owner && owner.pid !== process.pid && ownerAlive(owner)) {
      throw new DataDirError(
        'LOCKED',
        `data directory ${dir} is in use by process ${owner.pid}; ` +
          `if that process is not an Ocelot server on this directory, remove ${path}`,
      );
    }
    await fs.unlink(path).catch((err: unknown) => {
      if (errorCode(err) !== 'ENOENT') throw err;
    });
  }
  throw new DataDirError('LOCKED', `could not take the lock ${path}: another process keeps creating it`);
}
