/**
 * The text forms of a loading-job run, as the gsql shell shows them (TigerGraph's layout): the
 * progress line RUN LOADING JOB repeats while it runs, the SHOW LOADING STATUS block, the ABORT and
 * RESUME answers, and the table of loaded files.
 */
import type { FileTask, LoadingJobRun, RunProgress } from './job-runs.js';

/** Progress lines start with this; `ocelot gsql` redraws them in place on a terminal. */
export const PROGRESS_PREFIX = '[RUNNING] ';

const BAR_WIDTH = 24;

function bar(percent: number): string {
  const filled = Math.min(BAR_WIDTH, Math.floor((percent / 100) * BAR_WIDTH));
  return `[${'='.repeat(filled)}${filled < BAR_WIDTH ? '>' : ''}${' '.repeat(Math.max(0, BAR_WIDTH - filled - 1))}]`;
}

function linesPerSecond(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1000)} kl/s` : `${Math.round(n)} l/s`;
}

function megabytesPerSecond(bytesPerSecond: number): string {
  return `${(bytesPerSecond / 1048576).toFixed(1)} MB/s`;
}

function clockText(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** `27.3%, 812345 lines, 310 kl/s, 24.1 MB/s, ETA 0:35` */
export function rateText(p: RunProgress): string {
  const eta = p.etaSeconds === undefined ? 'ETA --' : `ETA ${clockText(p.etaSeconds)}`;
  return `${p.percent.toFixed(1)}%, ${p.lines} lines, ${linesPerSecond(p.linesPerSecond)}, ${megabytesPerSecond(p.bytesPerSecond)}, ${eta}`;
}

/** The one-line progress report of a running job. */
export function progressLine(run: LoadingJobRun): string {
  const p = run.progress();
  const file = run.tasks[run.current]?.path ?? '';
  return `${PROGRESS_PREFIX}m1 ( Finished: ${p.filesDone} / Total: ${p.filesTotal} ) ${bar(p.percent)} ${rateText(p)} ${file}`.trimEnd();
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

/** The table of loaded (or partly loaded) files. */
export function filesTable(tasks: readonly FileTask[]): string[] {
  const rows = tasks.map((t) => [
    t.path,
    String(t.stats.totalLines),
    linesPerSecond(t.elapsedMs > 0 ? (t.stats.totalLines * 1000) / t.elapsedMs : t.stats.totalLines),
    `${(t.elapsedMs / 1000).toFixed(2)} s`,
  ]);
  const head = ['FILENAME', 'LOADED LINES', 'AVG SPEED', 'DURATION'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)) + 2);
  const line = (cells: string[]): string => `  |${cells.map((c, i) => pad(c, widths[i]) + ' ').join('|')}|`;
  const rule = `  +${'-'.repeat(widths.reduce((a, w) => a + w + 2, -1))}+`;
  return [rule, line(head), ...rows.map(line), rule];
}

/** Lines naming what was skipped in a file, if anything. */
export function problemLines(t: FileTask): string[] {
  const s = t.stats;
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
  return out.length > 0 ? [`  [WARNING] ${t.path}:`, ...out] : [];
}

/** SHOW LOADING STATUS of one run. */
export function statusLines(run: LoadingJobRun): string[] {
  const p = run.progress();
  const out = [
    `Job "${run.id}" loading status`,
    `[${run.state}] m1 ( Finished: ${p.filesDone} / Total: ${p.filesTotal} )`,
  ];
  const open = run.tasks[run.current];
  if (open && !open.done) {
    const what = run.state === 'RUNNING' ? 'LOADING' : run.state;
    out.push(`  [${what}] ${open.path}`, `  ${bar(p.percent)} ${rateText(p)}`);
    if (run.state !== 'RUNNING') {
      out.push(
        `  [RESUMABLE] from byte ${open.committed.bytes} of ${open.size} (${open.committed.totalLines} lines committed)`,
      );
    }
  }
  if (run.error !== undefined) out.push(`  [ERROR] ${run.error}`);
  const loaded = run.tasks.filter((t) => t.done);
  if (loaded.length > 0) out.push('  [LOADED]', ...filesTable(loaded));
  return out;
}

/** The answer to ABORT LOADING JOB for one run. */
export function abortLines(run: LoadingJobRun, pause: boolean): string[] {
  const p = run.progress();
  return [
    `Job "${run.id}" loading status`,
    `[${pause ? 'PAUSE_SUCCESS' : 'ABORT_SUCCESS'}] m1`,
    `[SUMMARY] Finished: ${p.filesDone} / Total: ${p.filesTotal}`,
    ...filesTable(run.tasks),
  ];
}
