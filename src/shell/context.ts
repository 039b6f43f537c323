/** What every statement handler of the GSQL shell gets, and the errors it reports. */
import type { Principal } from '../auth/authorize.js';
import type { Pos, Stmt, StmtKind } from '../gsql/ast.js';
import type { CatalogStore } from '../engine/api.js';
import { CatalogError } from '../catalog/errors.js';

export type { CatalogStore };

/** One shell session: the user and the graph in use (`USE GRAPH`), which runScript updates. */
export interface ShellSession {
  user: string;
  graph?: string;
  /** How the user proved who they are; a token's or secret's graph limits the session to it. */
  principal?: Principal;
}

export interface ShellContext {
  store: CatalogStore;
  session: ShellSession;
  /** Prints complete lines (each call ends with a newline). */
  print(line: string): void;
  /** Session settings from `SET name = value` (names lower-cased, values as written). */
  settings: Map<string, string>;
  /** Where RUN QUERY's FILE objects write (the server's `--output-dir`); none: FILE is refused. */
  outputDir?: string;
  /** Where RUN LOADING JOB and query inputs read (`--import-dir`); none: server files are refused. */
  importDirs?: readonly string[];
  /** The server's log, where RUN QUERY's LOG statements write; none: they write nothing. */
  log?: (line: string) => void;
  /** Runs GSQL text as this session's caller in a session of its own (IMPORT GRAPH's steps); answers the exit code. */
  runNested?: (text: string) => Promise<number>;
}

/** Exit codes of the gsql client (0 ok). */
export const EXIT_SYNTAX_ERROR = 211;
export const EXIT_SEMANTIC_ERROR = 212;

/** A statement that failed: nothing it would have changed has changed. */
export class ShellError extends Error {
  constructor(
    message: string,
    readonly pos?: Pos,
    readonly code: number = EXIT_SEMANTIC_ERROR,
    /** False for reports that must not stop the script even when exit_on_error is on. */
    readonly stopsScript = true,
  ) {
    super(message);
    this.name = 'ShellError';
  }
}

/** Runs `fn`, turning a CatalogError into a ShellError at `pos`. */
export function atPos<T>(pos: Pos, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof CatalogError) throw new ShellError(e.message, pos);
    throw e;
  }
}

export type StatementHandler<K extends StmtKind> = (
  stmt: Extract<Stmt, { kind: K }>,
  ctx: ShellContext,
) => Promise<void>;

export type HandlerTable = { [K in StmtKind]: StatementHandler<K> };

/** The graph in use, or a ShellError saying that the statement needs one. */
export function requireGraph(ctx: ShellContext, pos: Pos, what: string): string {
  if (ctx.session.graph === undefined) {
    throw new ShellError(`${what} needs a graph: run USE GRAPH <name> first.`, pos);
  }
  return ctx.session.graph;
}
