/**
 * Running a GSQL query in a worker: compile it (installed queries are compiled once per worker and
 * schema version, as the main thread's registry does), run it on the snapshot, record its changes
 * (dml.ts) and write its PRINT results as JSON text. FILE output waits for the main thread's commit.
 */
import type { Catalog, StoredQuery } from '../catalog/types.js';
import {
  type CompiledQuery,
  decodeQueryStringParams,
  helpParallelAccum,
  prepareInterpreted,
  type QueryFile,
  type QueryGraph,
  QueryRegistry,
  splitsSelects,
  type QueryStore,
  type RunOptions,
} from '../query/index.js';
import { unpackValue } from '../store/mirror.js';
import { stringifyJson } from '../util/json.js';
import { DmlRecorder } from './dml.js';
import type { JobRunner } from './help-loop.js';
import type { PackedArg, TaskResult, TaskSpec } from './protocol.js';

/** The stored queries of the catalog a worker last received (read-only). */
class CatalogQueries implements QueryStore {
  catalog: Catalog | undefined;
  list(): readonly StoredQuery[] {
    return (this.catalog as (Catalog & { queries?: StoredQuery[] }) | undefined)?.queries ?? [];
  }
  put(): Promise<void> {
    return Promise.reject(new Error('a worker does not change stored queries'));
  }
  remove(): Promise<void> {
    return this.put();
  }
}

function unpackArg(a: PackedArg): unknown {
  if (a === null) return null;
  if (Array.isArray(a)) return a.map(unpackArg);
  return unpackValue(a);
}

function unpackArgs(args: Record<string, PackedArg>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = unpackArg(v);
  return out;
}

/** Interpreted query texts compiled lately, per schema version (helpers compile an owner's query). */
const TEXTS_KEPT = 16;

type QueryTask = TaskSpec & { kind: 'query' | 'interpret' };

export class QueryTasks {
  private readonly queries = new CatalogQueries();
  private readonly registry = new QueryRegistry(this.queries);
  private readonly texts = new Map<string, { version: number; query: CompiledQuery }>();

  /** The task's query, compiled (installed ones once per schema version, as on the main thread). */
  private compiled(
    task: QueryTask,
    snapshot: QueryGraph,
  ): { query: CompiledQuery; args: Record<string, unknown> } {
    const catalog = snapshot.catalog;
    this.queries.catalog = catalog;
    if (task.kind === 'query') {
      const query = task.stored
        ? this.registry.compile(task.graph, task.name, catalog)
        : this.registry.installed(task.graph, task.name, catalog);
      return { query, args: unpackArgs(task.args) };
    }
    const key = `${task.graph ?? ''}\u0000${task.text}`;
    const hit = this.texts.get(key);
    if (hit && hit.version === catalog.version) {
      const args = task.args
        ? unpackArgs(task.args)
        : decodeQueryStringParams(hit.query.params, task.qs ?? {});
      return { query: hit.query, args };
    }
    const p = prepareInterpreted(this.registry, catalog, task.text, task.graph, task.qs ?? {});
    this.texts.delete(key);
    this.texts.set(key, { version: catalog.version, query: p.query });
    if (this.texts.size > TEXTS_KEPT) this.texts.delete(this.texts.keys().next().value as string);
    return { query: p.query, args: task.args ? unpackArgs(task.args) : p.args };
  }

  /** How this thread runs jobs of another worker's query (query/parallel.ts) on the same snapshot. */
  helper(query: QueryTask, snapshot: QueryGraph): JobRunner {
    const compiled = this.compiled(query, snapshot).query;
    return (job, take) => helpParallelAccum(compiled, snapshot, job, take);
  }

  /** Runs a query task; `files` receives its FILE objects for writing after the commit. */
  async run(
    task: QueryTask,
    snapshot: QueryGraph,
    opts: RunOptions,
    files: QueryFile[],
  ): Promise<TaskResult> {
    const { query, args } = this.compiled(task, snapshot);
    if (opts.parallel && splitsSelects(query)) opts.parallel.expect();
    const outcome = await query.run(snapshot, args, opts);
    const recorder = new DmlRecorder(snapshot);
    for (const op of outcome.dml) op(recorder);
    files.push(...outcome.files);
    return {
      kind: 'query',
      results: stringifyJson(outcome.results),
      warnings: outcome.warnings,
      dml: recorder.records,
      files: outcome.files.some((f) => f.absPath !== ''),
    };
  }
}
