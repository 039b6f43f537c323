/**
 * The GraphQL service of a database, independent of HTTP: one schema per graph, rebuilt when the
 * catalog changes (so schema changes show at the next request, no restart), its parsed and
 * validated documents cached, and the execution of one request as one plan over one snapshot:
 * persisted query → document → operation → variables → plan (depth and size limits) → cost
 * estimate (refused over the budget) → execution under a deadline, a row limit and the abort
 * signal, yielding to the event loop as it goes. Answers are JSON text with the HTTP status a
 * transport should use (400 for a request that cannot run, 404 for an unknown graph, 200 once
 * execution started).
 *
 * The execution itself (`executePlan`) is a function of the snapshot, the plan and the limits with no
 * other state, so it can move to a worker thread as one piece.
 */
import { printSchema } from 'graphql';
import type { Catalog } from '../catalog/types.js';
import type { ReadTx, WriteTx } from '../engine/api.js';
import type { CommitListener } from '../engine/commit-feed.js';
import { answer, failure, requestFailure, type GraphQLAnswer } from './answers.js';
import { compilePlan } from './compile-plan.js';
import { DegreeStatistics, estimateCost } from './cost.js';
import type { FormattedError } from './exec-state.js';
import { executePlan } from './execute-plan.js';
import { GraphQLRequestError } from './filter.js';
import { buildEntry, type GraphEntry, type Prepared } from './graph-entry.js';
import { INLINE_MAX_COST, isPointLookup } from './inline.js';
import { introspectField } from './introspect.js';
import { Cooperation, DEFAULT_LIMITS, isFieldError, LimitError, type GraphQLLimits } from './limits.js';
import { PersistedQueries } from './persisted.js';
import type { Plan, WriteKind } from './plan.js';
import { compilePoint, runPoint, type PointProgram } from './point.js';
import { prepareRequest, type GraphQLRequest } from './prepare-request.js';
import { ChangeHub, ChangeStream, type EventBudget } from './subscriptions.js';

/** The database side the service needs (the engine's Database satisfies it). */
export interface GraphQLDatabase {
  readonly catalog: Catalog;
  read(): ReadTx;
  write<T>(fn: (tx: WriteTx) => T): Promise<T>;
  /** The commit stream subscriptions read (none: subscriptions are refused). */
  onCommit?(fn: CommitListener): () => void;
}

export interface ServiceOptions {
  /** The limits of callers without a role override. */
  limits?: GraphQLLimits;
  /** Whether `__schema`/`__type` are answered (default true). */
  introspection?: boolean;
  /** Allow-list mode: only these documents (hash → text) run. */
  allowList?: ReadonlyMap<string, string>;
}

export interface ExecuteOptions {
  /** GET requests may only run queries. */
  method: 'GET' | 'POST';
  /** Throws when the caller may not write; its message becomes the GraphQL error. */
  authorizeWrite?: (kind: WriteKind) => Promise<void>;
  /** The caller's limits (the service's when absent). */
  limits?: GraphQLLimits;
  /** Milliseconds the request may run (GSQL-TIMEOUT; default 16 s). */
  timeoutMs?: number;
  /** When the request must end (epoch ms; default now + timeoutMs): a batch shares one. */
  deadline?: number;
  /** Cost already spent by earlier requests of the same batch (added to). */
  budget?: { cost: number };
  /** Stops the request once aborted (the client went away). */
  signal?: { readonly aborted: boolean };
}

export const DEFAULT_TIMEOUT_MS = 16_000;

/** A request prepared and planned over its snapshot, ready to execute. */
interface Begun {
  p: Prepared;
  plan: Plan;
  tx: ReadTx;
  limits: GraphQLLimits;
}

/** A point program's answer over `tx`; undefined when a field fails (the general path reports it). */
function pointText(program: PointProgram, tx: ReadTx): string | undefined {
  try {
    return runPoint(program, tx);
  } catch (e) {
    if (isFieldError(e)) return undefined;
    throw e;
  }
}

export class GraphQLService {
  private readonly graphs = new Map<string, GraphEntry>();
  private readonly stats = new DegreeStatistics();
  private hub: ChangeHub | undefined;
  readonly persisted: PersistedQueries;
  readonly limits: GraphQLLimits;
  readonly introspection: boolean;

  constructor(
    private readonly db: GraphQLDatabase,
    opts: ServiceOptions = {},
  ) {
    this.limits = opts.limits ?? DEFAULT_LIMITS;
    this.introspection = opts.introspection ?? true;
    this.persisted = new PersistedQueries(opts.allowList);
  }

  /** The graph's schema for the current catalog (built undefined: no such graph). */
  entry(graph: string): GraphEntry {
    const catalog = this.db.catalog;
    const cached = this.graphs.get(graph);
    if (cached && cached.catalog === catalog) return cached;
    const e = buildEntry(catalog, graph, this.introspection);
    // Only graphs that exist are kept, so requests naming random graphs cannot grow the cache.
    if (e.built) this.graphs.set(graph, e);
    else this.graphs.delete(graph);
    return e;
  }

  /** The schema as SDL, or undefined when the graph does not exist or cannot be served. */
  sdl(graph: string): string | undefined {
    const e = this.entry(graph);
    return e.built && e.problems.length === 0 ? printSchema(e.built.schema) : undefined;
  }

  graphExists(graph: string): boolean {
    return this.entry(graph).built !== undefined;
  }

  /** Resolves, parses, validates and coerces a request; an answer when it cannot run. */
  prepare(graph: string, request: GraphQLRequest): Prepared | GraphQLAnswer {
    return prepareRequest(graph, request, this.persisted, (g) => this.entry(g));
  }

  /** The plan of a prepared operation, its cost (plus `budget`'s) checked against `limits` over `tx`. */
  plan(p: Prepared, limits: GraphQLLimits, tx: ReadTx, budget = { cost: 0 }): Plan {
    const plan = this.compiled(p, limits);
    this.charge(plan, limits, tx, budget);
    return plan;
  }

  /** The plan of a prepared operation (cached), its depth checked against `limits`. */
  private compiled(p: Prepared, limits: GraphQLLimits): Plan {
    // A plan holds no snapshot: the same request reuses it (its depth was checked against maxDepth).
    let plan = p.plans?.get(limits.maxDepth);
    if (!plan) {
      plan = compilePlan({
        built: p.entry.built,
        document: p.document,
        operation: p.operation,
        variables: p.variables,
        rawVariables: p.rawVariables,
        whereExprs: p.entry.whereExprs,
        maxDepth: limits.maxDepth,
      });
      if (p.key !== undefined) (p.plans ??= new Map()).set(limits.maxDepth, plan);
    }
    return plan;
  }

  /** Adds the plan's estimated cost over `tx` to `budget`; refused over `limits`. */
  private charge(plan: Plan, limits: GraphQLLimits, tx: ReadTx, budget: { cost: number }): void {
    const cost = estimateCost(plan, tx, this.stats) + budget.cost;
    budget.cost = cost;
    if (limits.maxCost > 0 && cost > limits.maxCost) {
      throw new LimitError(
        `The query's estimated cost is ${cost.toLocaleString('en-US')}, over the limit of ${limits.maxCost.toLocaleString('en-US')} (--graphql-max-cost): it would read about that many vertices and edges. Narrow it with filters, limit or first.`,
        'GRAPHQL-COST',
        400,
        { cost, limit: limits.maxCost },
      );
    }
  }

  /**
   * Runs one request. `pointKey`: the request's exact text as the transport received it (see
   * answerPoint); a point lookup is then remembered under it.
   */
  execute(
    graph: string,
    request: GraphQLRequest,
    opts: ExecuteOptions,
    pointKey?: string,
  ): Promise<GraphQLAnswer> {
    const begun = this.begin(graph, request, opts, false, pointKey) as GraphQLAnswer | Begun;
    return 'text' in begun ? Promise.resolve(begun) : this.finish(begun, opts);
  }

  /**
   * As execute, for a request that runs on the calling thread rather than on a query worker:
   * mutations (the writer is here), requests refused before they are planned (their answer is the
   * same anywhere) and point lookups by id (inline.ts), their cost checked here. Undefined, with nothing spent, for the others.
   */
  executeHere(
    graph: string,
    request: GraphQLRequest,
    opts: ExecuteOptions,
    pointKey?: string,
  ): Promise<GraphQLAnswer> | undefined {
    const begun = this.begin(graph, request, opts, true, pointKey);
    if (begun === undefined) return undefined;
    return 'text' in begun ? Promise.resolve(begun) : this.finish(begun, opts);
  }

  /** Prepares and plans a request over a fresh snapshot; undefined when `inlineOnly` and it is no point lookup. */
  private begin(
    graph: string,
    request: GraphQLRequest,
    opts: ExecuteOptions,
    inlineOnly: boolean,
    pointKey: string | undefined,
  ): GraphQLAnswer | Begun | undefined {
    const p = this.prepare(graph, request);
    if ('text' in p) return p;
    const kind = p.operation.operation;
    if (kind === 'mutation' && opts.method === 'GET')
      return failure(405, 'Mutations need POST; GET runs queries only.');
    if (kind === 'subscription') {
      return failure(400, 'Subscriptions are served over WebSocket (the graphql-ws protocol) at this path.');
    }
    const limits = opts.limits ?? this.limits;
    let plan: Plan;
    try {
      plan = this.compiled(p, limits);
    } catch (e) {
      return requestFailure(e);
    }
    const check = inlineOnly && kind === 'query';
    if (check && !isPointLookup(plan)) return undefined;
    const tx = this.db.read();
    const budget = opts.budget ?? { cost: 0 };
    const spent = budget.cost;
    try {
      this.charge(plan, limits, tx, budget);
    } catch (e) {
      tx.release();
      return requestFailure(e);
    }
    if (check && budget.cost - spent > INLINE_MAX_COST) {
      tx.release();
      budget.cost = spent;
      return undefined;
    }
    if (pointKey !== undefined && kind === 'query' && this.persisted.stateless(request.extensions)) {
      const program = compilePoint(plan, limits);
      if (program) {
        p.entry.points.set(pointKey, { program, limits });
        // Answered by the program now too (a field error: by the general path, which reports it).
        const text = pointText(program, tx);
        if (text !== undefined) {
          tx.release();
          return { status: 200, text };
        }
      }
    }
    return { p, plan, tx, limits };
  }

  /**
   * The answer to a point lookup seen before under `pointKey` (the exact text of the request as
   * the transport received it: the same text decodes to the same request) with the same `limits`,
   * over the current catalog; undefined otherwise, or when a field fails (the general path then
   * answers, reporting the error). The text is what execute would answer.
   */
  answerPoint(graph: string, pointKey: string, limits: GraphQLLimits): string | undefined {
    const e = this.graphs.get(graph);
    if (e === undefined || e.catalog !== this.db.catalog) return undefined;
    const hit = e.points.get(pointKey);
    if (hit === undefined || hit.limits !== limits) return undefined;
    const tx = this.db.read();
    try {
      return pointText(hit.program, tx);
    } finally {
      tx.release();
    }
  }

  private async finish({ p, plan, tx, limits }: Begun, opts: ExecuteOptions): Promise<GraphQLAnswer> {
    const snapshots: ReadTx[] = [tx];
    const pin = (): ReadTx => {
      const fresh = this.db.read();
      snapshots.push(fresh);
      return fresh;
    };
    try {
      const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const coop = new Cooperation(
        opts.deadline ?? Date.now() + timeoutMs,
        timeoutMs,
        limits.maxRows,
        opts.signal,
      );
      const errors: FormattedError[] = [];
      const data = await executePlan(plan, {
        catalog: p.entry.catalog,
        tx,
        coop,
        errors,
        introspect: (key) => introspectField(p, key),
        mutation: {
          fresh: pin,
          write: async (k, fn) => {
            try {
              await opts.authorizeWrite?.(k);
            } catch (e) {
              throw new GraphQLRequestError(e instanceof Error ? e.message : String(e));
            }
            return this.db.write(fn);
          },
        },
      });
      return errors.length > 0 ? answer(200, errors, data) : { status: 200, text: `{"data":${data}}` };
    } catch (e) {
      return requestFailure(e);
    } finally {
      for (const t of snapshots) t.release();
    }
  }

  /**
   * Starts a subscription: a stream of response texts, one per matching committed change, ended by
   * its `return()`; or the answer that refuses the request. `budget` bounds the events its
   * connection may have waiting.
   */
  subscribe(
    graph: string,
    request: GraphQLRequest,
    opts: { limits?: GraphQLLimits; budget: EventBudget },
  ): ChangeStream | GraphQLAnswer {
    const onCommit = this.db.onCommit?.bind(this.db);
    if (!onCommit) return failure(400, 'This server has no commit stream to subscribe to.');
    const p = this.prepare(graph, request);
    if ('text' in p) return p;
    if (p.operation.operation !== 'subscription') return failure(400, 'Not a subscription.');
    const limits = opts.limits ?? this.limits;
    const tx = this.db.read();
    let plan: Plan;
    try {
      plan = this.plan(p, limits, tx);
    } catch (e) {
      return requestFailure(e);
    } finally {
      tx.release();
    }
    if (!plan.changed) return failure(400, 'A subscription needs one <V>_changed field.');
    const stream = new ChangeStream(plan.changed, opts.budget, limits.maxRows);
    this.hub ??= new ChangeHub({ read: () => this.db.read(), onCommit }, () => this.db.catalog);
    this.hub.add(stream);
    return stream;
  }
}
