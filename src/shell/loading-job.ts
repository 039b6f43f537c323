/**
 * Shell handlers of CREATE LOADING JOB and RUN LOADING JOB. The job is checked against the schema
 * when it is created and stored in the catalog as its text; RUN re-parses and compiles it for the
 * schema of now and loads server-local files, printing a progress line while it runs and
 * TigerGraph's summary at the end (pyTigerGraph looks for "LOAD SUCCESSFUL").
 * SHOW JOB and DROP JOB are the generic job handlers.
 */
import { importRoots } from '../auth/file-roots.js';
import { findJob } from '../catalog/alter.js';
import { CatalogError } from '../catalog/errors.js';
import { GsqlSyntaxError } from '../gsql/lexer.js';
import { LoadingJobError } from '../loading/expressions.js';
import { LoadingOptionError } from '../loading/format.js';
import { defineLoadingJob } from '../loading/job-definitions.js';
import { LoadingJobRuns, type LoadingJobRun } from '../loading/job-runs.js';
import { problemLines, progressLine, statusLines } from '../loading/job-status-text.js';
import type { LoadingDatabase } from '../loading/runner.js';
import type { Pos } from '../gsql/ast.js';
import { ShellError, requireGraph, type HandlerTable, type ShellContext } from './context.js';

/** How often RUN LOADING JOB prints a progress line while the job runs. */
const PROGRESS_INTERVAL_MS = 1000;

/** Loading writes data, so it needs the store to be the Database itself. */
export function loadingDatabase(ctx: ShellContext, pos: Pos): LoadingDatabase {
  const store = ctx.store as Partial<LoadingDatabase> & ShellContext['store'];
  if (typeof store.write !== 'function')
    throw new ShellError('This shell cannot write data: RUN LOADING JOB is unavailable.', pos);
  return store as LoadingDatabase;
}

/**
 * Loading-job errors become shell errors. For CREATE the job's own positions are positions in the
 * script (the job text starts at the statement); for RUN the stored job is re-read, so its
 * positions are named as positions inside the job and the error points at the RUN statement.
 */
function asShellError(e: unknown, stmt: Pos, storedJob?: string): unknown {
  if (e instanceof LoadingJobError) {
    const message = e.message.replace(/ \(line \d+, column \d+\)$/, '');
    if (e.line === undefined) return new ShellError(message, stmt);
    if (storedJob !== undefined) {
      return new ShellError(
        `${message} (loading job ${storedJob}, line ${e.line}, column ${e.column ?? 1})`,
        stmt,
      );
    }
    return new ShellError(message, { line: stmt.line + e.line - 1, column: e.column ?? 1 });
  }
  if (e instanceof LoadingOptionError) return new ShellError(e.message, stmt);
  if (e instanceof GsqlSyntaxError) return new ShellError(e.message, stmt);
  return e;
}

export const loadingJobHandlers: Pick<HandlerTable, 'create_loading_job' | 'run_loading_job'> = {
  async create_loading_job(s, ctx) {
    const graph = s.job.graph ?? requireGraph(ctx, s, 'CREATE LOADING JOB');
    let next;
    try {
      next = defineLoadingJob(ctx.store.catalog, s.job.text, graph).catalog;
    } catch (e) {
      throw e instanceof CatalogError ? new ShellError(e.message, s) : asShellError(e, s);
    }
    await ctx.store.changeCatalog(next);
    ctx.print(`Successfully created loading jobs: [${s.job.name}].`);
  },

  async run_loading_job(s, ctx) {
    const graph = requireGraph(ctx, s, 'RUN LOADING JOB');
    const db = loadingDatabase(ctx, s);
    const stored = findJob(ctx.store.catalog, s.run.name, graph);
    if (!stored || stored.kind !== 'loading') {
      throw new ShellError(`The loading job ${s.run.name} does not exist in graph '${graph}'.`, s);
    }
    const paths = new Map<string, string>();
    for (const u of s.run.using) {
      const upper = u.name.toUpperCase();
      // EOF="true" stops at the end of the file, which is what every run here does.
      if (upper === 'EOF' || upper === 'CONCURRENCY' || upper === 'BATCH_SIZE') continue;
      paths.set(u.name, u.value);
    }
    let run: LoadingJobRun;
    try {
      run = await LoadingJobRuns.for(db).start(db, {
        graph,
        jobName: stored.name,
        jobText: stored.text,
        paths,
        roots: importRoots(ctx.importDirs ?? []),
        user: ctx.session.user,
      });
    } catch (e) {
      throw asShellError(e, s, stored.name);
    }
    if (!s.run.noPrint) {
      ctx.print(
        `[Tip: Use "CTRL + C" to stop displaying the loading status update, then use "SHOW LOADING STATUS ${run.id}" to track the loading progress again]`,
      );
      ctx.print(`[Tip: Manage loading jobs with "ABORT/RESUME LOADING JOB ${run.id}"]`);
    }
    ctx.print('Starting the following job, i.e.');
    ctx.print(`  JobName: ${stored.name}, jobid: ${run.id}`);
    ctx.print('');
    const timer = s.run.noPrint
      ? undefined
      : setInterval(() => ctx.print(progressLine(run)), PROGRESS_INTERVAL_MS);
    try {
      await run.done;
    } finally {
      clearInterval(timer);
    }
    if (run.state === 'FAILED') throw asShellError(run.failure, s, stored.name);
    if (run.state !== 'FINISHED') {
      for (const l of statusLines(run)) ctx.print(l);
      throw new ShellError(
        `The loading job ${run.id} was ${run.state === 'PAUSED' ? 'paused' : 'aborted'}; "RESUME LOADING JOB ${run.id}" continues it.`,
        s,
      );
    }
    if (!s.run.noPrint) {
      for (const l of statusLines(run)) ctx.print(l);
      for (const t of run.tasks) for (const l of problemLines(t)) ctx.print(l);
    }
    ctx.print(`LOAD SUCCESSFUL for loading jobid: ${run.id}`);
  },
};
