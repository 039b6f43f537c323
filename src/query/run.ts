/**
 * Running a compiled query against a database: pin a snapshot, run, then commit the query's
 * changes in one write transaction. A run-time error, an abort or a timeout commits nothing.
 */
import { EngineError } from '../engine/api.js';
import type { JsonValue } from '../util/json.js';
import type { CompiledQuery } from './compile-query.js';
import type { RunOptions } from './context.js';
import { writeQueryFiles } from './file-output.js';
import type { QueryDatabase } from './graph.js';
import { QueryRuntimeError } from './values.js';

export interface QueryResult {
  /** One object per executed PRINT, in order. */
  results: { [key: string]: JsonValue }[];
  /** The RETURN value (subqueries), in run-time form. */
  returned: unknown;
  /** Run-time warnings, for the response's message. */
  warnings: string[];
}

export async function executeQuery(
  db: QueryDatabase,
  query: CompiledQuery,
  args: Record<string, unknown>,
  opts: RunOptions = {},
): Promise<QueryResult> {
  const snapshot = db.read();
  let outcome;
  try {
    outcome = await query.run(snapshot, args, opts);
  } finally {
    snapshot.release();
  }
  if (outcome.dml.length > 0) {
    const ops = outcome.dml;
    try {
      await db.write((tx) => {
        for (const op of ops) op(tx);
      });
    } catch (e) {
      if (e instanceof EngineError) throw new QueryRuntimeError(`Runtime Error: ${e.message}`, e.code);
      throw e;
    }
  }
  writeQueryFiles(outcome.files);
  return { results: outcome.results, returned: outcome.returned, warnings: outcome.warnings };
}
