/**
 * Errors crossing threads: a worker sends the kind, fields and message of what it threw, and the
 * main thread throws the same class again, so the server maps it to the same envelope as before.
 */
import { EngineError } from '../engine/api.js';
import { GsqlSyntaxError } from '../gsql/lexer.js';
import { ParamError, QueryCompileError, QueryRegistryError, QueryRuntimeError } from '../query/index.js';

export interface ErrorImage {
  kind: 'compile' | 'registry' | 'param' | 'runtime' | 'engine' | 'syntax' | 'coded' | 'other';
  message: string;
  code?: string;
  line?: number;
  column?: number;
  detail?: string;
  queryName?: string;
  /** Coded errors (the server's own, e.g. a path search's REST-4000): the HTTP status. */
  status?: number;
}

/** An error with a TigerGraph code that is neither a query nor an engine error (RestError, PathError). */
interface Coded {
  code: string;
  message: string;
  status?: number;
}

function isCoded(e: unknown): e is Coded {
  return e instanceof Error && typeof (e as Partial<Coded>).code === 'string';
}

export function errorImage(e: unknown): ErrorImage {
  if (e instanceof QueryCompileError)
    return {
      kind: 'compile',
      message: e.message,
      line: e.line,
      column: e.column,
      detail: e.detail,
      queryName: e.queryName,
    };
  if (e instanceof QueryRegistryError) return { kind: 'registry', message: e.message };
  if (e instanceof ParamError) return { kind: 'param', message: e.message };
  if (e instanceof QueryRuntimeError) return { kind: 'runtime', message: e.message, code: e.code };
  if (e instanceof EngineError) return { kind: 'engine', message: e.message, code: e.code };
  if (e instanceof GsqlSyntaxError)
    return { kind: 'syntax', message: e.message, line: e.line, column: e.column, detail: e.detail };
  if (isCoded(e)) {
    const img: ErrorImage = { kind: 'coded', message: e.message, code: e.code };
    if (typeof e.status === 'number') img.status = e.status;
    return img;
  }
  return { kind: 'other', message: e instanceof Error ? e.message : String(e) };
}

/** A coded error from a worker that is not one of the query or engine classes. */
export class WorkerCodedError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'WorkerCodedError';
  }
}

export function errorFromImage(img: ErrorImage): Error {
  switch (img.kind) {
    case 'compile':
      return new QueryCompileError(img.line ?? 0, img.column ?? 0, img.detail ?? img.message, img.queryName);
    case 'registry':
      return new QueryRegistryError(img.message);
    case 'param':
      return new ParamError(img.message);
    case 'runtime':
      return new QueryRuntimeError(img.message, img.code);
    case 'engine':
      return new EngineError(img.code ?? 'REST-30000', img.message);
    case 'syntax':
      return new GsqlSyntaxError(img.line ?? 0, img.column ?? 0, img.detail ?? img.message);
    case 'coded':
      return new WorkerCodedError(img.code ?? 'REST-10005', img.message, img.status);
    default:
      return new Error(img.message);
  }
}
