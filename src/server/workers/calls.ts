/**
 * The functions of a snapshot a worker thread runs for the server besides queries (path finding,
 * /builtins, GraphQL queries): each takes the structured-cloneable input its route decoded on the
 * main thread and answers a structured-cloneable output.
 */
import type { ReadTx, WriteTx } from '../../engine/api.js';
import { ReadTxImpl } from '../../engine/read-tx.js';
import {
  GraphQLService,
  type GraphQLAnswer,
  type GraphQLLimits,
  type GraphQLRequest,
  type ServiceOptions,
} from '../../graphql/index.js';
import { type BuiltinRequest, runBuiltin } from '../restpp/builtins.js';
import { pathSubgraph, type PathSearch } from '../restpp/paths.js';

export type CallFunction = (tx: ReadTxImpl, input: unknown, signal: AbortSignal) => Promise<unknown>;

/** A GraphQL request for a worker: the service's options, the caller's limits, the batch's budget. */
export interface GraphqlCall {
  graph: string;
  request: GraphQLRequest;
  options: ServiceOptions;
  method: 'GET' | 'POST';
  limits: GraphQLLimits;
  timeoutMs: number;
  deadline: number;
  cost: number;
}

/** What a worker answers: the response (and the batch's cost so far), or that it is a mutation. */
export type GraphqlOutcome = { answer: GraphQLAnswer; cost: number } | { mutation: true };

/** The snapshot a worker's GraphQL service reads: the task's version; no writes here. */
class SnapshotDatabase {
  tx: ReadTxImpl | undefined;
  get catalog(): ReadTx['catalog'] {
    return (this.tx as ReadTxImpl).catalog;
  }
  read(): ReadTx {
    const tx = this.tx as ReadTxImpl;
    return new ReadTxImpl(tx.graphStore, tx.version, () => undefined);
  }
  write<T>(_fn: (tx: WriteTx) => T): Promise<T> {
    return Promise.reject(new Error('a query worker does not write'));
  }
}

/** One service per option set, so its schema, document and plan caches last across tasks. */
const services = new Map<string, { db: SnapshotDatabase; service: GraphQLService }>();

async function graphql(tx: ReadTxImpl, input: unknown, signal: AbortSignal): Promise<GraphqlOutcome> {
  const c = input as GraphqlCall;
  const key = JSON.stringify([c.options.limits, c.options.introspection, [...(c.options.allowList ?? [])]]);
  let s = services.get(key);
  if (!s) {
    const db = new SnapshotDatabase();
    s = { db, service: new GraphQLService(db, c.options) };
    services.set(key, s);
  }
  s.db.tx = tx;
  // Mutations write: the main thread runs them (it owns the writer).
  const p = s.service.prepare(c.graph, c.request);
  if (!('text' in p) && p.operation.operation === 'mutation') return { mutation: true };
  const budget = { cost: c.cost };
  const answer = await s.service.execute(c.graph, c.request, {
    method: c.method,
    limits: c.limits,
    timeoutMs: c.timeoutMs,
    deadline: c.deadline,
    budget,
    signal,
  });
  return { answer, cost: budget.cost };
}

export const callFunctions: Record<string, CallFunction> = {
  paths: (tx, input) => pathSubgraph(tx, input as PathSearch),
  builtins: async (tx, input) => {
    const { graph, req } = input as { graph: string; req: BuiltinRequest };
    const g = tx.catalog.graphs.find((x) => x.name === graph);
    if (!g) throw new Error(`graph ${graph} is gone`);
    return runBuiltin(tx, g, req);
  },
  graphql,
};
