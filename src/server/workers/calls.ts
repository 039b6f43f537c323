/**
 * The functions of a snapshot a worker thread runs for the server besides queries (path finding,
 * /builtins): each takes the structured-cloneable input its route decoded on the main thread and
 * answers a structured-cloneable output.
 */
import type { ReadTx } from '../../engine/api.js';
import { type BuiltinRequest, runBuiltin } from '../restpp/builtins.js';
import { pathSubgraph, type PathSearch } from '../restpp/paths.js';

export type CallFunction = (tx: ReadTx, input: unknown, signal: AbortSignal) => Promise<unknown>;

export const callFunctions: Record<string, CallFunction> = {
  paths: (tx, input) => pathSubgraph(tx, input as PathSearch),
  builtins: async (tx, input) => {
    const { graph, req } = input as { graph: string; req: BuiltinRequest };
    const g = tx.catalog.graphs.find((x) => x.name === graph);
    if (!g) throw new Error(`graph ${graph} is gone`);
    return runBuiltin(tx, g, req);
  },
};
