/**
 * Errors found while checking a query at CREATE/INTERPRET/INSTALL time. The message names the query,
 * the line and column and what is wrong, the way GSQL's semantic checker does.
 */
import type { Pos } from '../gsql/ast-query.js';

export class QueryCompileError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    /** The problem alone, without position. */
    readonly detail: string,
    readonly queryName = '',
  ) {
    super(
      `${queryName ? `Semantic Check Error in query ${queryName}: ` : 'Semantic Check Error: '}line ${line}, col ${column}\n${detail}`,
    );
    this.name = 'QueryCompileError';
  }

  /** The same error attributed to a query. */
  inQuery(name: string): QueryCompileError {
    return new QueryCompileError(this.line, this.column, this.detail, name);
  }
}

export function compileError(pos: Pos, detail: string): QueryCompileError {
  return new QueryCompileError(pos.line, pos.column, detail);
}

/** A query statement that failed for a reason a GSQL user should read (no such query, …). */
export class QueryRegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryRegistryError';
  }
}
