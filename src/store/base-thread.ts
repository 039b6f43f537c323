/**
 * Builds new bases on threads of their own (the background merge after a load), so the event loop
 * keeps answering while edges are sorted: a team of `threads` merge threads splits each large
 * block's passes (base-worker.ts). New threads per merge: merges are rare and a thread costs
 * milliseconds to start, and ending them returns their scratch memory at once.
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

export function buildOnThread(sources: BaseSource[], opts: BaseBuildOptions = {}): BaseBuild {
  const teamMinEdges = opts.teamMinEdges ?? TEAM_MIN_EDGES;
  // Helper threads only when some block is split over them.
  const large = sources.some((s) => s.nBase + s.dCount >= teamMinEdges);
  const size = large ? Math.max(1, Math.floor(opts.threads ?? 1)) : 1;
  const workers: Worker[] = [];
  const cancel = (): void => {
    for (const w of workers) void w.terminate();
  };
  const barrier = sharedI32(2);
  const channels = Array.from({ length: size - 1 }, () => new MessageChannel());
  const done = new Promise<BuiltBase[]>((resolve, reject) => {
    const fail = (err: Error): void => {
      reject(err);
      cancel();
    };
    for (let index = 0; index < size; index++) {
      const worker = new Worker(new URL('./base-worker.js', import.meta.url));
      workers.push(worker);
      worker.once('message', (m: BaseReply) => {
        if ('built' in m) resolve(m.built);
        else reject(new Error(`the merge thread failed: ${m.error}`));
        cancel();
      });
      worker.once('error', fail);
      // A helper thread ends by itself once its part is done; the leader only after answering.
      worker.once('exit', (code) => {
        if (index === 0 || code !== 0) fail(new Error(`the merge thread stopped (exit code ${code})`));
      });
      const ports: MessagePort[] = index === 0 ? channels.map((c) => c.port1) : [channels[index - 1].port2];
      worker.postMessage({ sources, index, size, barrier, ports, teamMinEdges } satisfies BaseTask, ports);
    }
  });
  return { done, cancel };
}
