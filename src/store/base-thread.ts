/**
 * Builds new bases on threads of their own (the background merge after a load), so the event loop
 * keeps answering while edges are sorted: a team of `threads` merge threads splits each large
 * block's passes (base-worker.ts).
 *
 * Threads are kept warm between merges (a process-wide idle list, ended after IDLE_MS unused and
 * never keeping the process alive): starting one costs tens of milliseconds of CPU (its isolate,
 * the builder's modules, code compiled again), as much as building a block of half a million
 * edges, and a load's merge waits for it. What a build leaves behind in a kept thread is its
 * scratch arrays until that thread's collector runs (bounded by V8's external-memory limit).
 */
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import type { BaseSource, BuiltBase } from './base-builder.js';
import type { BaseReply, BaseTask } from './base-worker.js';
import { sharedI32 } from './shared.js';

/** A running build; `cancel` ends the threads (the promise then rejects). */
export interface BaseBuild {
  done: Promise<BuiltBase[]>;
  cancel(): void;
}

/** How many threads build, and from what block size a block is split over them. */
export interface BaseBuildOptions {
  threads?: number;
  /** Blocks with fewer edge ids are built on one thread (the team's passes cost more). */
  teamMinEdges?: number;
}

/**
 * Measured (RMAT blocks, 2 threads): a helper thread costs about 22 ms of CPU to start, so up to
 * 2^18 edges the leader's share of the work saves less than that; at 2^20 it saves about a quarter.
 */
const TEAM_MIN_EDGES = 1 << 19;

/** An idle merge thread ends after this long unused. */
const IDLE_MS = 30_000;

interface MergeThread {
  worker: Worker;
  /** Where the thread's answer and failure go while it builds (unset while idle). */
  onReply?: (m: BaseReply) => void;
  onFail?: (e: Error) => void;
  idleTimer?: NodeJS.Timeout;
}

/** Threads between merges. */
const idle: MergeThread[] = [];
let started = 0;

/** Merge threads started in this process (tests check that a second merge reuses one). */
export function mergeThreadsStarted(): number {
  return started;
}

function spawn(): MergeThread {
  started++;
  const t: MergeThread = { worker: new Worker(new URL('./base-worker.js', import.meta.url)) };
  t.worker.on('message', (m: BaseReply) => t.onReply?.(m));
  t.worker.on('error', (e) => t.onFail?.(e));
  t.worker.on('exit', (code) => {
    const at = idle.indexOf(t);
    if (at >= 0) idle.splice(at, 1);
    t.onFail?.(new Error(`the merge thread stopped (exit code ${code})`));
  });
  return t;
}

function take(): MergeThread {
  const t = idle.pop() ?? spawn();
  clearTimeout(t.idleTimer);
  t.worker.ref();
  return t;
}

/** Puts a thread that answered back on the idle list, ended after IDLE_MS unless a merge takes it. */
function rest(t: MergeThread): void {
  t.onReply = undefined;
  t.onFail = undefined;
  t.worker.unref();
  t.idleTimer = setTimeout(() => void t.worker.terminate(), IDLE_MS);
  t.idleTimer.unref();
  idle.push(t);
}

export function buildOnThread(sources: BaseSource[], opts: BaseBuildOptions = {}): BaseBuild {
  const teamMinEdges = opts.teamMinEdges ?? TEAM_MIN_EDGES;
  // Helper threads only when some block is split over them.
  const large = sources.some((s) => s.nBase + s.dCount >= teamMinEdges);
  const size = large ? Math.max(1, Math.floor(opts.threads ?? 1)) : 1;
  const threads = Array.from({ length: size }, take);
  /** Set once the build answered or failed: its threads are no longer its own to end. */
  let settled = false;
  const cancel = (): void => {
    if (settled) return;
    settled = true;
    for (const t of threads) void t.worker.terminate();
  };
  const barrier = sharedI32(2);
  const channels = Array.from({ length: size - 1 }, () => new MessageChannel());
  const done = new Promise<BuiltBase[]>((resolve, reject) => {
    let built: BuiltBase[] | undefined;
    let answered = 0;
    const fail = (err: Error): void => {
      reject(err);
      cancel();
    };
    threads.forEach((t, index) => {
      t.onFail = fail;
      // Every thread answers once its part is done (the leader with the bases); the team goes
      // back to the idle list together, so no thread of it serves another build before then.
      t.onReply = (m) => {
        if ('error' in m) return fail(new Error(`the merge thread failed: ${m.error}`));
        if ('built' in m) built = m.built;
        if (++answered < size || settled) return;
        settled = true;
        for (const x of threads) rest(x);
        resolve(built as BuiltBase[]);
      };
      const ports: MessagePort[] = index === 0 ? channels.map((c) => c.port1) : [channels[index - 1].port2];
      t.worker.postMessage({ sources, index, size, barrier, ports, teamMinEdges } satisfies BaseTask, ports);
    });
  });
  return { done, cancel };
}
