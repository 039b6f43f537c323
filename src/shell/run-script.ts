/**
 * The GSQL shell executor: runs a script's statements in order through a dispatch table from
 * statement kind to handler (handlers live in handlers-*.ts; a later statement kind adds its
 * handler file and one entry here). A failing statement changes nothing and prints an error naming
 * its line and column; the script stops there unless `SET exit_on_error = FALSE` was given.
 */
import type { Stmt } from '../gsql/ast.js';
import { parseScript } from '../gsql/parser.js';
import {
  EXIT_SEMANTIC_ERROR,
  EXIT_SYNTAX_ERROR,
  ShellError,
  type CatalogStore,
  type HandlerTable,
  type ShellContext,
  type ShellSession,
} from './context.js';
import { authorizeStatement } from './auth-check.js';
import { authHandlers } from './auth-handlers.js';
import { ddlHandlers } from './handlers-ddl.js';
import { schemaChangeHandlers } from './handlers-schema-change.js';
import { sessionHandlers } from './handlers-session.js';
import { dmlHandlers } from './dml.js';
import { loadingJobHandlers } from './loading-job.js';
import { opsHandlers } from './ops-statements.js';
import { queryHandlers } from './query-handlers.js';

export type { CatalogStore, ShellSession };

/** What a shell gets from the server it runs in. */
export interface ShellOptions {
  /** Where RUN QUERY's FILE objects write (`--output-dir`); none: FILE is refused. */
  outputDir?: string;
  /** Where loading jobs and query inputs read from (`--import-dir`); none: server files are refused. */
  importDirs?: readonly string[];
  /** The server's log, for RUN QUERY's LOG statements. */
  log?: (line: string) => void;
}

const HANDLERS: HandlerTable = {
  ...ddlHandlers,
  ...schemaChangeHandlers,
  ...sessionHandlers,
  ...authHandlers,
  ...loadingJobHandlers,
  ...queryHandlers,
  ...dmlHandlers,
  ...opsHandlers,
};

async function dispatch(stmt: Stmt, ctx: ShellContext): Promise<void> {
  const handler = HANDLERS[stmt.kind] as (s: Stmt, c: ShellContext) => Promise<void>;
  await authorizeStatement(stmt, ctx);
  return handler(stmt, ctx);
}

function exitOnError(ctx: ShellContext): boolean {
  return (ctx.settings.get('exit_on_error') ?? 'true').toLowerCase() !== 'false';
}

/** `Semantic Check Fails: … (line L, column C)`-style text for an error of a statement. */
function errorText(e: unknown, stmt: Stmt): { text: string; code: number; stops: boolean } {
  if (e instanceof ShellError) {
    const pos = e.pos ?? stmt;
    const where = `(line ${pos.line}, column ${pos.column})`;
    const [first, ...rest] = e.message.split('\n');
    const prefix = e.stopsScript ? 'Semantic Check Fails: ' : '';
    return { text: [`${prefix}${first} ${where}`, ...rest].join('\n'), code: e.code, stops: e.stopsScript };
  }
  // Anything else is a failure of the store (e.g. the disk); report it without a stack trace.
  const message = e instanceof Error ? e.message : String(e);
  return {
    text: `Failed at line ${stmt.line}, column ${stmt.column}: ${message}`,
    code: EXIT_SEMANTIC_ERROR,
    stops: true,
  };
}

/**
 * Runs a GSQL script against the catalog store. `out` receives the output as it is produced, one
 * or more complete lines per call. Returns the gsql client's exit code: 0, or the code of the
 * first error (211 syntax error, 212 semantic or runtime error).
 */
export async function runScript(
  store: CatalogStore,
  text: string,
  session: ShellSession,
  out: (text: string) => void,
  options: ShellOptions = {},
): Promise<number> {
  const ctx: ShellContext = {
    store,
    session,
    print: (line) => out(`${line}\n`),
    settings: new Map(),
    ...options,
    runNested: (nested) =>
      runScript(
        store,
        nested,
        { user: session.user, ...(session.principal ? { principal: session.principal } : {}) },
        out,
        options,
      ),
  };
  let code = 0;
  for (const item of parseScript(text)) {
    let failure: { text: string; code: number; stops: boolean } | undefined;
    if (!item.ok) {
      failure = { text: item.error.message, code: EXIT_SYNTAX_ERROR, stops: true };
    } else {
      try {
        await dispatch(item.stmt, ctx);
      } catch (e) {
        failure = errorText(e, item.stmt);
      }
    }
    if (!failure) continue;
    ctx.print(failure.text);
    if (code === 0) code = failure.code;
    if (failure.stops && exitOnError(ctx)) break;
  }
  return code;
}
