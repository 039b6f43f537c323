/**
 * A merge thread's entry: with the other threads of its team (base-thread.ts) it builds the new
 * bases of the blocks it is sent (base-parallel.ts; a small block on the leader alone, base-builder.ts),
 * and the leader answers with them (a helper only says it is done). The block arrays read and the
 * arrays answered with are shared memory, so neither direction copies edges.
 */
import { type MessagePort, parentPort, receiveMessageOnPort } from 'node:worker_threads';
import { type BaseSource, buildBase, type BuiltBase } from './base-builder.js';
import { buildBaseTeam, type Team } from './base-parallel.js';

/** The leader answers with the bases, a helper once its part is done. */
export type BaseReply = { built: BuiltBase[] } | { done: true } | { error: string };

/** What each thread of a team is sent. */
export interface BaseTask {
  sources: BaseSource[];
  index: number;
  size: number;
  /** Barrier words: threads arrived, generation. */
  barrier: Int32Array;
  /** The leader's ports to the others (index 0) or this thread's port from the leader. */
  ports: MessagePort[];
  /** Blocks with fewer edge ids (base and delta) are built by the leader alone. */
  teamMinEdges: number;
}

function teamOf(task: BaseTask): Team {
  const { index, size, barrier, ports } = task;
  const sync = (): void => {
    const gen = Atomics.load(barrier, 1);
    if (Atomics.add(barrier, 0, 1) === size - 1) {
      Atomics.store(barrier, 0, 0);
      Atomics.add(barrier, 1, 1);
      Atomics.notify(barrier, 1);
    } else {
      while (Atomics.load(barrier, 1) === gen) Atomics.wait(barrier, 1, gen);
    }
  };
  const share = <T>(make: () => T): T => {
    if (index === 0) {
      const value = make();
      for (const p of ports) p.postMessage(value);
      sync();
      return value;
    }
    sync();
    const got = receiveMessageOnPort(ports[0]);
    if (got === undefined) throw new Error('the merge team lost a shared array');
    return got.message as T;
  };
  return { index, size, sync, share };
}

function build(task: BaseTask): BuiltBase[] {
  const team = teamOf(task);
  const built: BuiltBase[] = [];
  for (const src of task.sources) {
    if (task.size > 1 && src.nBase + src.dCount >= task.teamMinEdges) built.push(buildBaseTeam(src, team));
    else if (task.index === 0) built.push(buildBase(src));
  }
  return built;
}

// A thread serves one build after another (base-thread.ts keeps it between merges).
parentPort?.on('message', (task: BaseTask) => {
  try {
    const built = build(task);
    parentPort?.postMessage((task.index === 0 ? { built } : { done: true }) satisfies BaseReply);
  } catch (e) {
    parentPort?.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies BaseReply);
  } finally {
    // A helper has read all it will: closing its port closes the leader's end too. The leader
    // closes nothing, as a helper may not have read the last array it was sent yet.
    if (task.index > 0) for (const p of task.ports) p.close();
  }
});
