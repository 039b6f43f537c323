/**
 * The operations statements (gsql/parser-ops.ts): SHOW LOADING STATUS, ABORT LOADING JOB, RESUME
 * LOADING JOB, EXPORT GRAPH and IMPORT GRAPH ALL. An export package is written in a folder under
 * the output directory (`--output-dir`) and imported from under the import directories
 * (`--import-dir`), as every server-side file a client names (auth/file-roots.ts).
 */
import {
  FileRootError,
  importRoots,
  resolveReadable,
  resolveWritableDir,
  type FileRoot,
} from '../auth/file-roots.js';
import type { ReadTx } from '../engine/api.js';
import type { Stmt } from '../gsql/ast.js';
import { ShellError, type HandlerTable, type ShellContext } from './context.js';
import { ExportError, exportGraphs, exportParts } from './graph-export.js';
import { ImportError, importGraphs } from './graph-import.js';
import { abortLoadingJobs, resumeLoadingJob, showLoadingStatus } from './loading-control.js';
import { loadingDatabase } from './loading-job.js';

type ExportStmt = Extract<Stmt, { kind: 'export_graph' }>;
type ImportStmt = Extract<Stmt, { kind: 'import_graph' }>;

/** A path refused by the file roots, as the statement's error (`Cannot <what> "path": why.`). */
function confined<T>(s: Stmt, what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof FileRootError) throw new ShellError(`Cannot ${what} ${e.message}.`, s);
    throw e;
  }
}

/** Runs `fn`, reporting the export's or import's own refusals at the statement. */
async function reported<T>(s: Stmt, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ExportError || e instanceof ImportError) throw new ShellError(e.message, s);
    throw e;
  }
}

async function exportGraph(s: ExportStmt, ctx: ShellContext): Promise<void> {
  const parts = await reported(s, async () => exportParts(s.options, s.graphs === 'ALL'));
  const store = ctx.store as ShellContext['store'] & { read?: () => ReadTx };
  const read = store.read?.bind(store);
  if (!read) throw new ShellError('This shell cannot read data: EXPORT GRAPH is unavailable.', s);
  const root: FileRoot | undefined =
    ctx.outputDir === undefined
      ? undefined
      : { dir: ctx.outputDir, name: `the output directory ${ctx.outputDir}` };
  const dir = confined(s, 'export to', () => resolveWritableDir(root, s.dir));
  const summary = await reported(s, () =>
    exportGraphs({ catalog: store.catalog, read }, dir, { graphs: s.graphs, parts }),
  );
  ctx.print(
    `Exported the graph${summary.graphs.length === 1 ? '' : 's'} [${summary.graphs.join(', ')}]` +
      (parts.data ? ` with ${summary.vertices} vertices and ${summary.edges} edges` : '') +
      ` to ${summary.file}.`,
  );
}

async function importGraph(s: ImportStmt, ctx: ShellContext): Promise<void> {
  if (s.options.password) {
    throw new ShellError(
      'IMPORT GRAPH with a password (-P) is not supported: Ocelot writes no encrypted packages.',
      s,
    );
  }
  const run = ctx.runNested;
  if (!run) throw new ShellError('This shell cannot run IMPORT GRAPH.', s);
  // The package's data is unpacked beside it, so its loading jobs read inside the same root.
  const path = confined(s, 'import', () => resolveReadable(importRoots(ctx.importDirs ?? []), s.path));
  const graphs = await reported(s, () =>
    importGraphs({ store: ctx.store, run, print: ctx.print }, path, { keepUsers: s.options.keepUsers }),
  );
  if (ctx.session.graph !== undefined && !graphs.includes(ctx.session.graph)) delete ctx.session.graph;
  ctx.print(`Imported the graph${graphs.length === 1 ? '' : 's'} [${graphs.join(', ')}] from ${path}.`);
}

export const opsHandlers: Pick<
  HandlerTable,
  'show_loading_status' | 'abort_loading_job' | 'resume_loading_job' | 'export_graph' | 'import_graph'
> = {
  show_loading_status: async (s, ctx) => showLoadingStatus(ctx, s.target, s),
  abort_loading_job: (s, ctx) => abortLoadingJobs(ctx, s.target, s),
  resume_loading_job: async (s, ctx) => resumeLoadingJob(ctx, loadingDatabase(ctx, s), s.id, s),
  export_graph: exportGraph,
  import_graph: importGraph,
};
