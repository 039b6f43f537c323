/**
 * Running a GSQL query for a caller (the REST++ query routes, the GSQL server's interpreted
 * queries, the shell's RUN QUERY): in a worker of the database's pool when it has one, otherwise
 * on this thread as before. Either way the query reads one snapshot and its changes commit in one
 * transaction when it ends.
 */
import type { Value } from '../catalog/value.js';
import { EngineError } from '../engine/api.js';
import {
  type CompiledQuery,
  executeQuery,
  interpretQueryText,
  type QueryDatabase,
  QueryRuntimeError,
  type RunOptions,
  splitsSelects,
} from '../query/index.js';
import { packValue } from '../store/mirror.js';
import { JsonText, type JsonValue } from '../util/json.js';
import type { QueryAbort } from './abort.js';
import { type QueryPool, queryStopError, type TaskControl, TaskStopped } from './pool.js';
import type { PackedArg, RunSpec, TaskSpec } from './protocol.js';

/** The pool of each database, and how many servers over the database share it. */
const pools = new WeakMap<object, { pool: QueryPool; users: number }>();

/** Makes `pool` run the queries of database `db` (replacing any other). */
export function attachPool(db: object, pool: QueryPool): void {
  pools.set(db, { pool, users: 1 });
}

/** The database's pool, made by `make` for its first user; release it with releasePool. */
export function sharePool(db: object, make: () => QueryPool): QueryPool {
  const held = pools.get(db);
  if (held) {
    held.users++;
    return held.pool;
  }
  const pool = make();
  pools.set(db, { pool, users: 1 });
  return pool;
}

/** One user of the database's pool is done; the last one closes it. */
export async function releasePool(db: object): Promise<void> {
  const held = pools.get(db);
  if (!held || --held.users > 0) return;
  pools.delete(db);
  await held.pool.close();
}

export function poolFor(db: object): QueryPool | undefined {
  return pools.get(db)?.pool;
}

/** What a query answered: its PRINT results (JSON text from a worker) and run-time warnings. */
export interface QueryRunResult {
  results: { [key: string]: JsonValue }[] | JsonText;
  warnings: string[];
}

/**
 * What to run: a stored query (installed, or `stored` for any) compiled here with its decoded
 * `args`, or query text with query-string parameters (`qs`) or, compiled here (`query`), decoded
 * `args`.
 */
export type QuerySource =
  | {
      kind: 'installed';
      graph: string;
      query: CompiledQuery;
      args: Record<string, unknown>;
      stored?: boolean;
    }
  | { kind: 'text'; graph: string | undefined; text: string; qs: Record<string, string[]> }
  | { kind: 'text'; graph: string; text: string; query: CompiledQuery; args: Record<string, unknown> };

function packArg(v: unknown): PackedArg {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(packArg);
  return packValue(v as Value);
}

/** The run's settings a worker needs (plain assignments: this runs once per request). */
function runSpecOf(opts: RunOptions): RunSpec {
  const run: RunSpec = {};
  if (opts.deadline !== undefined) run.deadline = opts.deadline;
  if (opts.threadLimit !== undefined) run.threadLimit = opts.threadLimit;
  if (opts.outputDir !== undefined) run.outputDir = opts.outputDir;
  if (opts.importDirs !== undefined) run.importDirs = opts.importDirs;
  return run;
}

function taskOf(source: QuerySource, opts: RunOptions): TaskSpec {
  const run = runSpecOf(opts);
  if (source.kind === 'text') {
    const task: TaskSpec = { kind: 'interpret', text: source.text, run };
    if (source.graph !== undefined) task.graph = source.graph;
    if ('qs' in source) task.qs = source.qs;
    else task.args = packArgs(source.args);
    return task;
  }
  const task: TaskSpec = {
    kind: 'query',
    graph: source.graph,
    name: source.query.name,
    args: packArgs(source.args),
    run,
  };
  if (source.stored) task.stored = true;
  if (splitsSelects(source.query)) task.split = true;
  return task;
}

function packArgs(args: Record<string, unknown>): Record<string, PackedArg> {
  const out: Record<string, PackedArg> = {};
  for (const k in args) out[k] = packArg(args[k]);
  return out;
}

/** How a query runs for a caller: RunOptions, and the run's stop switch (abort.ts) if it has one. */
export interface QueryRunOptions extends RunOptions {
  abort?: QueryAbort;
}

/** How the pool controls the task (plain assignments, as runSpecOf). */
function controlOf(opts: QueryRunOptions): TaskControl {
  const control: TaskControl = {};
  if (opts.abort) control.abort = opts.abort;
  else if (opts.signal) control.signal = opts.signal;
  if (opts.deadline !== undefined) control.deadline = opts.deadline;
  if (opts.log) control.onLog = opts.log;
  if (opts.memoryMb !== undefined) control.memoryMb = opts.memoryMb;
  return control;
}

/**
 * Runs an installed query (`query` compiled here, its `args` decoded) or a query text. Throws what
 * executeQuery throws: QueryRuntimeError (timeouts GSQL-7002, aborts GSQL-6500), QueryCompileError,
 * QueryRegistryError, GsqlSyntaxError.
 */
export async function runQuery(
  db: QueryDatabase & object,
  source: QuerySource,
  options: QueryRunOptions = {},
): Promise<QueryRunResult> {
  const pool = poolFor(db);
  if (!pool) {
    const opts = options.abort && !options.signal ? { ...options, signal: options.abort.signal } : options;
    if (source.kind === 'text' && 'qs' in source) {
      return {
        results: await interpretQueryText(db, source.text, source.graph, source.qs, opts),
        warnings: [],
      };
    }
    const r = await executeQuery(db, source.query, source.args, opts);
    return { results: r.results, warnings: r.warnings };
  }
  try {
    const r = await pool.run(taskOf(source, options), controlOf(options));
    if (r.kind !== 'query') throw new Error('a query task answered something else');
    return { results: new JsonText(r.results), warnings: r.warnings };
  } catch (e) {
    if (e instanceof TaskStopped) throw queryStopError(e);
    if (e instanceof EngineError) throw new QueryRuntimeError(`Runtime Error: ${e.message}`, e.code);
    throw e;
  }
}
