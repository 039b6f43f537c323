/**
 * Interpreted queries (the GSQL server's interpreted_query / queries/interpret endpoints): the text
 * of an `INTERPRET QUERY (…) FOR GRAPH g { … }` or `CREATE QUERY …` is checked, compiled and run at
 * once, with parameters from the query string.
 */
import { GsqlSyntaxError } from '../gsql/lexer.js';
import { parseQueryText } from '../gsql/parser-query.js';
import type { Catalog } from '../catalog/types.js';
import type { JsonValue } from '../util/json.js';
import { compileQuery, type CompiledQuery } from './compile-query.js';
import type { RunOptions } from './context.js';
import type { QueryDatabase } from './graph.js';
import { decodeQueryStringParams } from './params.js';
import { type QueryRegistry, QueryRegistryError, registryFor } from './registry.js';
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
  const { query, args } = prepareInterpreted(registryFor(db), db.catalog, text, graph, qs);
  return (await executeQuery(db, query, args, opts)).results;
}

/** Checks and compiles the query text and decodes its parameters (for a run elsewhere: a worker). */
export function prepareInterpreted(
  registry: QueryRegistry,
  catalog: Catalog,
  text: string,
  graph: string | undefined,
  qs: Readonly<Record<string, readonly string[]>>,
): { query: CompiledQuery; args: Record<string, unknown> } {
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
  const query = compileQuery(stmt.query, catalog, target, registry.options(target, catalog));
  return { query, args: decodeQueryStringParams(query.params, qs) };
}
