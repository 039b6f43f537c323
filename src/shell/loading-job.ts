/**
 * Shell handlers of CREATE LOADING JOB and RUN LOADING JOB. The job is checked against the schema
 * when it is created and stored in the catalog as its text; RUN re-parses and compiles it for the
 * schema of now and loads server-local files, printing a progress line while it runs and
 * TigerGraph's summary at the end (pyTigerGraph looks for "LOAD SUCCESSFUL").
 * SHOW JOB and DROP JOB are the generic job handlers.
 */
import { importRoots } from '../auth/file-roots.js';
import { findJob, saveJob } from '../catalog/alter.js';
import { GsqlSyntaxError } from '../gsql/lexer.js';
import { LoadingJobError } from '../loading/expressions.js';
import { LoadingOptionError } from '../loading/format.js';
import { prepareJob, runJobOnFiles, type FileResult } from '../loading/job.js';
import type { LoadingDatabase } from '../loading/runner.js';
import type { LoadStatistics } from '../loading/statistics.js';
import type { Pos } from '../gsql/ast.js';
import { ShellError, atPos, requireGraph, type HandlerTable, type ShellContext } from './context.js';

/** Progress lines are printed at most this often. */
const PROGRESS_INTERVAL_MS = 2000;

/** Loading writes data, so it needs the store to be the Database itself. */
function loadingDatabase(ctx: ShellContext, pos: Pos): LoadingDatabase {
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

function pad(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

function speed(lines: number, ms: number): string {
  const perSec = ms > 0 ? (lines * 1000) / ms : lines;
  return perSec >= 1000 ? `${Math.round(perSec / 1000)} kl/s` : `${Math.round(perSec)} l/s`;
}

function summaryTable(results: FileResult[]): string[] {
  const rows = results.map((r) => [
    r.path,
    String(r.stats.totalLines),
    speed(r.stats.totalLines, r.elapsedMs),
    `${(r.elapsedMs / 1000).toFixed(2)} s`,
  ]);
  const head = ['FILENAME', 'LOADED LINES', 'AVG SPEED', 'DURATION'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)) + 2);
  const line = (cells: string[]): string => `  |${cells.map((c, i) => pad(c, widths[i]) + ' ').join('|')}|`;
  const rule = `  +${'-'.repeat(widths.reduce((a, w) => a + w + 2, -1))}+`;
  return [rule, line(head), ...rows.map(line), rule];
}

/** Lines naming what was skipped in a file, if anything. */
function problems(r: FileResult): string[] {
  const s: LoadStatistics = r.stats;
  const out: string[] = [];
  const lineIssues: [number, string][] = [
    [s.notEnoughToken, 'with not enough tokens'],
    [s.invalidJson, 'of invalid JSON'],
    [s.oversizeToken, 'with an oversize token'],
    [s.rejectLine, 'rejected (not UTF-8)'],
    [s.failedConditionLine, 'failing a WHERE condition'],
  ];
  for (const [n, what] of lineIssues) if (n > 0) out.push(`    ${n} line(s) ${what}`);
  const json = s.toJSON();
  for (const kind of ['vertex', 'edge', 'deleteVertex', 'deleteEdge'] as const) {
    for (const o of json[kind]) {
      const bad = Object.entries(o).filter(([k, v]) => k !== 'typeName' && k !== 'validObject' && v !== 0);
      if (bad.length > 0)
        out.push(`    ${kind} ${o.typeName}: ${bad.map(([k, v]) => `${k}=${String(v)}`).join(', ')}`);
    }
  }
  return out.length > 0 ? [`  [WARNING] ${r.path}:`, ...out] : [];
}

export const loadingJobHandlers: Pick<HandlerTable, 'create_loading_job' | 'run_loading_job'> = {
  async create_loading_job(s, ctx) {
    const graph = s.job.graph ?? requireGraph(ctx, s, 'CREATE LOADING JOB');
    const catalog = ctx.store.catalog;
    try {
      prepareJob(s.job.text, graph, ctx.store);
    } catch (e) {
      throw asShellError(e, s);
    }
    const next = atPos(s, () =>
      saveJob(catalog, { name: s.job.name, graph, kind: 'loading', text: s.job.text }),
    );
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
    const jobId = `${graph}.${stored.name}.file.m1.${Date.now()}`;
    let results: FileResult[];
    try {
      const job = prepareJob(stored.text, graph, db);
      const total = job.inputs.filter((i) => i.used).length;
      if (!s.run.noPrint) {
        ctx.print(
          `[Tip: Use "CTRL + C" to stop displaying the loading status update, then use "SHOW LOADING STATUS ${jobId}" to track the loading progress again]`,
        );
        ctx.print(`[Tip: Manage loading jobs with "ABORT/RESUME LOADING JOB ${jobId}"]`);
      }
      ctx.print('Starting the following job, i.e.');
      ctx.print(`  JobName: ${stored.name}, jobid: ${jobId}`);
      ctx.print('');
      let finished = 0;
      let lastPrint = Date.now();
      let current = '';
      results = await runJobOnFiles(db, job, {
        roots: importRoots(ctx.importDirs ?? []),
        paths,
        onFile: (_key, path) => {
          if (current !== '') finished++;
          current = path;
        },
        onProgress: (stats) => {
          const now = Date.now();
          if (s.run.noPrint || now - lastPrint < PROGRESS_INTERVAL_MS) return;
          lastPrint = now;
          ctx.print(
            `[RUNNING] m1 ( Finished: ${finished} / Total: ${total} ) ${current}: ${stats.totalLines} lines, ${(stats.bytes / 1048576).toFixed(1)} MB`,
          );
        },
      });
    } catch (e) {
      throw asShellError(e, s, stored.name);
    }
    if (!s.run.noPrint) {
      ctx.print(`Job "${jobId}" loading status`);
      ctx.print(`[FINISHED] m1 ( Finished: ${results.length} / Total: ${results.length} )`);
      ctx.print('  [LOADED]');
      for (const l of summaryTable(results)) ctx.print(l);
      for (const r of results) for (const l of problems(r)) ctx.print(l);
    }
    ctx.print(`LOAD SUCCESSFUL for loading jobid: ${jobId}`);
  },
};
