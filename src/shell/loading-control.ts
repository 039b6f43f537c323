/**
 * SHOW LOADING STATUS, ABORT LOADING JOB and RESUME LOADING JOB (job id or ALL) over the loading-job
 * runs of the database (loading/job-runs.ts). A session with a graph in use sees that graph's runs
 * only (the statement's privilege was checked on that graph); a session without one sees them all.
 */
import { LoadingJobRuns, type LoadingJobRun } from '../loading/job-runs.js';
import { abortLines, statusLines } from '../loading/job-status-text.js';
import type { LoadingDatabase } from '../loading/runner.js';
import type { Pos } from '../gsql/ast.js';
import type { JobTarget } from '../gsql/parser-ops.js';
import { ShellError, type ShellContext } from './context.js';

function visible(ctx: ShellContext): LoadingJobRun[] {
  return LoadingJobRuns.for(ctx.store).list(ctx.session.graph);
}

function named(ctx: ShellContext, id: string, pos: Pos): LoadingJobRun {
  const run = visible(ctx).find((r) => r.id === id);
  if (!run) {
    const where = ctx.session.graph === undefined ? '' : ` in graph '${ctx.session.graph}'`;
    throw new ShellError(`The loading job id ${id} does not exist${where}.`, pos);
  }
  return run;
}

export function showLoadingStatus(ctx: ShellContext, target: JobTarget, pos: Pos): void {
  const runs = target.all ? visible(ctx) : [named(ctx, target.id, pos)];
  if (runs.length === 0) ctx.print('There is no loading job to show.');
  for (const r of runs) for (const line of statusLines(r)) ctx.print(line);
}

export async function abortLoadingJobs(ctx: ShellContext, target: JobTarget, pos: Pos): Promise<void> {
  let runs: LoadingJobRun[];
  if (target.all) runs = visible(ctx).filter((r) => r.state === 'RUNNING');
  else {
    const run = named(ctx, target.id, pos);
    if (run.state !== 'RUNNING') {
      throw new ShellError(`The loading job ${run.id} is not running (${run.state}).`, pos);
    }
    runs = [run];
  }
  if (runs.length === 0) {
    ctx.print('There is no running loading job to abort.');
    return;
  }
  for (const r of runs) r.stop(false);
  await Promise.all(runs.map((r) => r.done));
  for (const r of runs) for (const line of abortLines(r, false)) ctx.print(line);
}

export function resumeLoadingJob(ctx: ShellContext, db: LoadingDatabase, id: string, pos: Pos): void {
  const run = named(ctx, id, pos);
  if (run.state === 'FINISHED' || run.state === 'RUNNING') {
    ctx.print(
      `[MESSAGE] The loading job ${run.id} is ${run.state.toLowerCase()}; there is nothing to resume.`,
    );
    return;
  }
  LoadingJobRuns.for(ctx.store).resume(db, run);
  ctx.print('[RESUME_SUCCESS] m1');
  ctx.print(`[MESSAGE] The job ${run.id} resumed; SHOW LOADING STATUS ${run.id} tracks it.`);
}
