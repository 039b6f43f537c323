/**
 * An exclusive lock on a data directory: a LOCK file created with O_EXCL holding the owner's pid and
 * host name. A lock left by a process that no longer exists (killed, crashed) is stale and is taken
 * over, so a restart after a crash is never blocked.
 *
 * Limits: the check trusts the pid, so a stale lock whose pid has been reused by an unrelated live
 * process blocks until the file is removed by hand (the error says which file). Two servers starting
 * at the same instant over the same stale lock could both break it; this needs a human to start two
 * servers on one directory at once, and is not guarded against.
 */
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

function parseLock(text: string): { pid: number; host: string } | undefined {
  const [pidLine, host] = text.split('\n');
  const pid = Number(pidLine);
  if (!Number.isSafeInteger(pid) || pid <= 0 || host === undefined || host === '') return undefined;
  return { pid, host };
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
        await h.write(Buffer.from(`${process.pid}\n${hostname()}\n`), 0);
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
    let owner: { pid: number; host: string } | undefined;
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
    if (owner && owner.pid !== process.pid && processAlive(owner.pid)) {
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
