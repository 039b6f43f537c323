/**
 * Query installation requests (spec §3, §4.29, §4.30), shared by the 3.x admin endpoint
 * (:8123/gsql/queries/install) and the 4.x one (/gsql/v1/queries/install). Requests of a database
 * run one at a time in arrival order; each first waits for the queries running on its graph to end
 * (they are bounded by their GSQL-TIMEOUT), and its catalog change queues behind running writes.
 *
 * States: the request is NEW while it waits, RUNNING while its queries install (each query
 * NEW → RUNNING → SUCCESS or FAILED), then SUCCESS once every query had its chance — even if some
 * failed — or FAILURE when the job itself failed (the catalog could not be written).
 * Finished requests are remembered for the last MAX_KEPT requests.
 */
import { EngineError } from '../../engine/api.js';
import type { Database } from '../../engine/database.js';
import { QueryCompileError, QueryRegistryError, registryFor } from '../../query/index.js';
import { runningQueriesFor } from '../http/running-queries.js';

export type InstallState = 'NEW' | 'RUNNING' | 'SUCCESS' | 'FAILURE';
export type QueryInstallState = 'NEW' | 'RUNNING' | 'SUCCESS' | 'FAILED';

export interface InstallJob {
  readonly id: string;
  readonly graph: string;
  state: InstallState;
  queries: { name: string; state: QueryInstallState; message?: string }[];
  /** Why the job failed (FAILURE). */
  failure?: string;
  readonly done: Promise<void>;
}

const MAX_KEPT = 1000;
const WAIT_STEP_MS = 20;
const CONFLICT_RETRIES = 3;

class InstallQueue {
  private readonly jobs = new Map<string, InstallJob>();
  private tail: Promise<void> = Promise.resolve();
  private next = 1;

  constructor(private readonly db: Database) {}

  /** Queues a request; `names` 'all' = every query of the graph not installed yet (all with force). */
  submit(graph: string, names: readonly string[] | 'all', force: boolean): InstallJob {
    const id = String(this.next++);
    let resolveDone = (): void => undefined;
    const done = new Promise<void>((r) => (resolveDone = r));
    const job: InstallJob = {
      id,
      graph,
      state: 'NEW',
      queries: names === 'all' ? [] : names.map((name) => ({ name, state: 'NEW' })),
      done,
    };
    this.jobs.set(id, job);
    this.forgetOld();
    this.tail = this.tail.then(async () => {
      await this.run(job, names, force);
      resolveDone();
    });
    return job;
  }

  get(id: string): InstallJob | undefined {
    return this.jobs.get(id);
  }

  private async run(job: InstallJob, names: readonly string[] | 'all', force: boolean): Promise<void> {
    const registry = registryFor(this.db);
    const running = runningQueriesFor(this.db);
    while (running.running(job.graph).length > 0) await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
    job.state = 'RUNNING';
    if (names === 'all') {
      job.queries = registry
        .list(job.graph)
        .filter((q) => force || !q.installed)
        .map((q) => ({ name: q.name, state: 'NEW' }));
    }
    try {
      for (const q of job.queries) {
        q.state = 'RUNNING';
        try {
          await this.installOne(job.graph, q.name, force);
          q.state = 'SUCCESS';
        } catch (e) {
          if (!(e instanceof QueryCompileError || e instanceof QueryRegistryError)) throw e;
          q.state = 'FAILED';
          q.message = e.message;
        }
        // Lets status requests see the per-query progress of a long request.
        await new Promise((r) => setImmediate(r));
      }
      job.state = 'SUCCESS';
    } catch (e) {
      job.state = 'FAILURE';
      job.failure = e instanceof Error ? e.message : String(e);
      for (const q of job.queries) if (q.state === 'RUNNING' || q.state === 'NEW') q.state = 'FAILED';
    }
  }

  /** Installs one query; a catalog changed meanwhile by another statement is retried on the new one. */
  private async installOne(graph: string, name: string, force: boolean): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await registryFor(this.db).install(graph, [name], this.db.catalog, force);
        return;
      } catch (e) {
        if (!(e instanceof EngineError && e.code === 'CATALOG-CONFLICT') || attempt >= CONFLICT_RETRIES)
          throw e;
      }
    }
  }

  private forgetOld(): void {
    for (const [id, job] of this.jobs) {
      if (this.jobs.size <= MAX_KEPT) return;
      if (job.state === 'SUCCESS' || job.state === 'FAILURE') this.jobs.delete(id);
    }
  }
}

const queues = new WeakMap<Database, InstallQueue>();

export function installQueueFor(db: Database): InstallQueue {
  let q = queues.get(db);
  if (!q) queues.set(db, (q = new InstallQueue(db)));
  return q;
}

/** The per-query states as both status endpoints show them. */
export function queryStates(job: InstallJob): { name: string; state: QueryInstallState; message?: string }[] {
  return job.queries.map((q) => ({
    name: q.name,
    state: q.state,
    ...(q.message ? { message: q.message } : {}),
  }));
}
