/**
 * The merge thread's entry: builds the new bases of the blocks it is sent (base-builder.ts) and
 * answers with them. The block arrays it reads and the arrays it answers with are shared memory,
 * so neither direction copies edges.
 */
import { parentPort } from 'node:worker_threads';
import { type BaseSource, buildBase, type BuiltBase } from './base-builder.js';

export type BaseReply = { built: BuiltBase[] } | { error: string };

parentPort?.on('message', (sources: BaseSource[]) => {
  try {
    parentPort?.postMessage({ built: sources.map(buildBase) } satisfies BaseReply);
  } catch (e) {
    parentPort?.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies BaseReply);
  }
});
