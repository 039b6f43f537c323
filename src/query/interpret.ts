/**
 * Interpreted queries (the GSQL server's interpreted_query / queries/interpret endpoints): the text
 * of an `INTERPRET QUERY (…) FOR GRAPH g { … }` or `CREATE QUERY …` is checked, compiled and run at
 * once, with parameters from the query string.
 */
import { GsqlSyntaxError } from '../gsql/lexer.js';
import { parseQueryText } from '../gsql/parser-query.js';
import type { JsonValue } from '../util/json.js';
import { compileQuery } from './compile-query.js';
import type { RunOptions } from './context.js';
import type { QueryDatabase } from './graph.js';
import { decodeQueryStringParams } from './params.js';
import { QueryRegistryError, registryFor } from './registry.js';
import { executeQuery } from './run.js';

/**
 * Runs the query text. `graph` is used when the text names none. Throws GsqlSyntaxError,
 * QueryCompileError, QueryRegistryError or QueryRuntimeError (each with a user-readable message).
 */
export async function interpretQueryText(
  db: QueryDatabase,
  text: string,
  graph: string | undefined,
  qs: Readonly<Record<string, readonly string[]>>,
  opts: RunOptions = {},
): Promise<{ [key: string]: JsonValue }[]> {
  const statements = parseQueryText(text);
  const stmt = statements[0];
  if (!stmt || (stmt.kind !== 'interpretAnonymous' && stmt.kind !== 'createQuery') || statements.length > 1) {
    throw new GsqlSyntaxError(
      1,
      1,
      'expected one INTERPRET QUERY () FOR GRAPH <graph> { … } or CREATE QUERY text',
    );
  }
  const target = stmt.query.graph ?? graph;
  if (!target) throw new QueryRegistryError('The query names no graph: write FOR GRAPH <graph>.');
  const query = compileQuery(stmt.query, db.catalog, target, registryFor(db).options(target, db.catalog));
  return (await executeQuery(db, query, decodeQueryStringParams(query.params, qs), opts)).results;
}
