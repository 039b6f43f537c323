/**
 * Builds new bases on a thread of their own (the background merge after a load), so the event loop
 * keeps answering while edges are sorted. One thread per merge: merges are rare and a thread costs
 * milliseconds to start, and ending it returns its scratch memory at once.
 */
import { Worker } from 'node:worker_threads';
import type { BaseSource, BuiltBase } from './base-builder.js';
import type { BaseReply } from './base-worker.js';

/** A running build; `cancel` ends the thread (the promise then rejects). */
export interface BaseBuild {
  done: Promise<BuiltBase[]>;
  cancel(): void;
}

export function buildOnThread(sources: BaseSource[]): BaseBuild {
  const worker = new Worker(new URL('./base-worker.js', import.meta.url));
  const done = new Promise<BuiltBase[]>((resolve, reject) => {
    worker.once('message', (m: BaseReply) => {
      if ('built' in m) resolve(m.built);
      else reject(new Error(`the merge thread failed: ${m.error}`));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the merge thread stopped (exit code ${code})`)));
  });
  worker.postMessage(sources);
  return { done, cancel: () => void worker.terminate() };
}
