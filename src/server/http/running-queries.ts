/**
 * The registry of query runs of one database (installed and interpreted, waiting or detached):
 * what /showprocesslist lists, what /abortquery stops and what /query_status and /query_result
 * report. Each run owns a stop switch (workers' QueryAbort) handed to the query runtime, so an abort
 * really stops the query (and, as the runtime commits only at the end, commits nothing).
 *
 * Retention of detached results (TigerGraph documents none): a finished detached run is kept for
 * DETACHED_TTL_MS (30 minutes), at most MAX_DETACHED runs (256) and MAX_DETACHED_BYTES (64 MB of
 * serialized results) in all; past any bound the oldest finished runs are forgotten first and their
 * ids become unknown_requestid. Non-detached runs are forgotten as soon as they end.
 */
import { stringifyJson } from '../../util/json.js';
import { QueryAbort } from '../../workers/index.js';

export type RunStatus = 'running' | 'success' | 'timeout' | 'aborted' | 'error';

export const DETACHED_TTL_MS = 30 * 60_000;
export const MAX_DETACHED = 256;
export const MAX_DETACHED_BYTES = 64 * 1024 * 1024;

export interface QueryRun {
  readonly requestid: string;
  readonly graph: string;
  /** The url as TigerGraph shows it: path (without /restpp) and query string. */
  readonly url: string;
  readonly started: number;
  readonly expires: number;
  readonly detached: boolean;
  readonly controller: QueryAbort;
  /** Who started it (none when the route asked for no caller). */
  readonly user?: string;
  status: RunStatus;
  finished?: number;
  /** Detached runs: the serialized `results` (success) or the error, once finished. */
  outcome?: { ok: true; resultsJson: string } | { ok: false; code: string; message: string };
}

export interface RunningRecord {
  requestid: string;
  startTime: string;
  expirationTime: string;
  url: string;
  elapsedTime: number;
}

/** `2020-09-09 10:20:31.541` (UTC), TigerGraph's running-query time form. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

export class RunningQueries {
  private readonly runs = new Map<string, QueryRun>();
  private detachedBytes = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  start(
    requestid: string,
    graph: string,
    url: string,
    timeoutMs: number,
    detached: boolean,
    user?: string,
  ): QueryRun {
    const started = this.clock();
    const run: QueryRun = {
      requestid,
      graph,
      url,
      started,
      expires: started + timeoutMs,
      detached,
      controller: new QueryAbort(),
      status: 'running',
      ...(user === undefined ? {} : { user }),
    };
    this.runs.set(requestid, run);
    return run;
  }

  /** Records how a run ended; a detached run keeps its outcome for query_result. */
  finish(run: QueryRun, status: RunStatus, outcome: QueryRun['outcome']): void {
    run.status = status;
    run.finished = this.clock();
    if (!run.detached) {
      this.runs.delete(run.requestid);
      return;
    }
    run.outcome = outcome;
    this.detachedBytes += sizeOf(run);
    this.prune();
  }

  get(requestid: string): QueryRun | undefined {
    this.prune();
    return this.runs.get(requestid);
  }

  /** Runs still running on `graph`, oldest first. */
  running(graph?: string): QueryRun[] {
    return [...this.runs.values()].filter(
      (r) => r.status === 'running' && (graph === undefined || r.graph === graph),
    );
  }

  /** Detached runs of `graph` (any status), oldest first. */
  detached(graph: string): QueryRun[] {
    this.prune();
    return [...this.runs.values()].filter((r) => r.detached && r.graph === graph);
  }

  record(run: QueryRun): RunningRecord {
    return {
      requestid: run.requestid,
      startTime: formatTime(run.started),
      expirationTime: formatTime(run.expires),
      url: run.url,
      elapsedTime: (run.finished ?? this.clock()) - run.started,
    };
  }

  /**
   * Aborts the running queries of `graph` whose id is in `ids` (or every one for 'all') or whose url
   * matches `urlPattern`, among those `mayAbort` admits. Returns the aborted runs. A run already
   * told to stop (its worker may take a moment) is not aborted again.
   */
  abort(
    graph: string,
    ids: readonly string[] | 'all',
    urlPattern: RegExp | undefined,
    mayAbort: (run: QueryRun) => boolean = () => true,
  ): QueryRun[] {
    const hit = this.running(graph).filter(
      (r) =>
        !r.controller.aborted &&
        mayAbort(r) &&
        (ids === 'all' || ids.includes(r.requestid) || (urlPattern !== undefined && urlPattern.test(r.url))),
    );
    for (const r of hit) r.controller.abort();
    return hit;
  }

  /** Aborts every running query (the servers are closing). */
  abortAll(): void {
    for (const r of this.running()) r.controller.abort();
  }

  private prune(): void {
    const now = this.clock();
    const done = [...this.runs.values()].filter((r) => r.detached && r.finished !== undefined);
    let count = done.length;
    for (const r of done) {
      const expired = now - (r.finished ?? now) > DETACHED_TTL_MS;
      if (!expired && count <= MAX_DETACHED && this.detachedBytes <= MAX_DETACHED_BYTES) continue;
      this.runs.delete(r.requestid);
      this.detachedBytes -= sizeOf(r);
      count--;
    }
  }
}

function sizeOf(run: QueryRun): number {
  const o = run.outcome;
  if (!o) return 0;
  return o.ok ? o.resultsJson.length : o.message.length;
}

const registries = new WeakMap<object, RunningQueries>();

/** The registry of a database (shared by every listener serving it). */
export function runningQueriesFor(db: object): RunningQueries {
  let r = registries.get(db);
  if (!r) registries.set(db, (r = new RunningQueries()));
  return r;
}

/** Serializes printed results once, so a detached outcome is stored and counted as text. */
export function resultsJson(results: unknown): string {
  return stringifyJson(results);
}
