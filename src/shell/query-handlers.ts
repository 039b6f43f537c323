/**
 * GSQL shell handlers of the query statements: CREATE / INTERPRET / INSTALL / RUN / SHOW / DROP
 * QUERY (functions, packages and UDF files: function-handlers.ts). They check and compile through
 * src/query/ and print TigerGraph's shell output.
 */
import type { Expr, NamedQueryArgs, Pos, QueryStatement } from '../gsql/ast-query.js';
import { GsqlSyntaxError } from '../gsql/lexer.js';
import {
  type CompiledQuery,
  compileQuery,
  decodeRunArgs,
  executeQuery,
  QueryCompileError,
  type QueryDatabase,
  type QueryResult,
  QueryRegistryError,
  QueryRuntimeError,
  queryWrites,
  registryFor,
  storedQueriesOf,
  storedQueryWrites,
} from '../query/index.js';
import {
  EXIT_SYNTAX_ERROR,
  ShellError,
  requireGraph,
  type HandlerTable,
  type ShellContext,
} from './context.js';
import { handleFunctionStatement, isFunctionStatement } from './function-handlers.js';
import { envelopeText } from './query-output.js';
import { authorizeQueryWrites } from './auth-check.js';
import { restppUrlOf } from './server-info.js';
import { handleShellSelect, isShellSelect } from './select-handlers.js';
import { JsonText } from '../util/json.js';
import { parseJsonStrict } from '../util/json-parse.js';
import { type QuerySource, runQuery } from '../workers/index.js';

/** The database behind the shell's catalog store (queries read and write graph data). */
function databaseOf(ctx: ShellContext, pos: Pos): QueryDatabase {
  const s = ctx.store as ShellContext['store'] & Partial<Pick<QueryDatabase, 'read' | 'write'>>;
  if (typeof s.read !== 'function' || typeof s.write !== 'function') {
    throw new ShellError('Queries cannot run here: this shell has no graph store.', pos);
  }
  return s as QueryDatabase;
}

/** Runs fn, turning query-layer errors into shell errors at the right line and column. */
async function reported<T>(pos: Pos, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof QueryCompileError) {
      throw new ShellError(`${e.detail}`, { line: e.line, column: e.column });
    }
    if (e instanceof GsqlSyntaxError)
      throw new ShellError(e.detail, { line: e.line, column: e.column }, EXIT_SYNTAX_ERROR);
    if (e instanceof QueryRegistryError) throw new ShellError(e.message, pos);
    throw e;
  }
}

/**
 * Runs a compiled query and prints the REST-style JSON envelope, as the gsql shell does; `shape`
 * rewrites the results (the shell's one-block SELECT prints a one-row table as that row). With
 * `source` the query runs on a query worker when the database has them (the worker compiles it
 * again from the source); without (a query built here, as the one-block SELECT's), on this thread.
 */
async function runAndPrint(
  ctx: ShellContext,
  query: CompiledQuery,
  args: readonly Expr[] | NamedQueryArgs,
  pos: Pos,
  shape: (results: QueryResult['results']) => QueryResult['results'] = (r) => r,
  source?: { graph: string; stored?: boolean; text?: string },
): Promise<void> {
  const db = databaseOf(ctx, pos);
  let params: Record<string, unknown>;
  try {
    params = decodeRunArgs(query.params, args);
  } catch (e) {
    if (e instanceof QueryRuntimeError) throw new ShellError(e.message, pos);
    throw e;
  }
  try {
    const opts = { outputDir: ctx.outputDir, importDirs: ctx.importDirs, log: ctx.log };
    const from: QuerySource | undefined =
      source === undefined
        ? undefined
        : source.text !== undefined
          ? { kind: 'text', graph: source.graph, text: source.text, query, args: params }
          : { kind: 'installed', graph: source.graph, query, args: params, stored: source.stored === true };
    const { results, warnings } = from
      ? await runQuery(db, from, opts)
      : await executeQuery(db, query, params, opts);
    const printed =
      results instanceof JsonText ? (parseJsonStrict(results.text) as QueryResult['results']) : results;
    ctx.print(envelopeText({ error: false, message: warnings.join('\n'), results: shape(printed) }));
  } catch (e) {
    if (!(e instanceof QueryRuntimeError)) throw e;
    ctx.print(envelopeText({ error: true, message: e.message, results: [], code: e.code }));
  }
}

function installLine(restpp: string, graph: string, q: CompiledQuery): string {
  const qs = q.params.map((p) => `${p.name}=VALUE`).join('&');
  return `${q.name} query: curl -X GET '${restpp}/query/${graph}/${q.name}${qs ? '?' + qs : ''}'. Add -H "Authorization: Bearer TOKEN" if authentication is enabled.`;
}

async function handle(s: QueryStatement, ctx: ShellContext): Promise<void> {
  if (isFunctionStatement(s)) return handleFunctionStatement(s, ctx);
  if (isShellSelect(s)) return handleShellSelect(s, ctx, { databaseOf, reported, runAndPrint });
  const registry = registryFor(ctx.store);
  switch (s.kind) {
    case 'createQuery': {
      const graph = s.query.graph ?? requireGraph(ctx, s.pos, 'CREATE QUERY');
      await reported(s.pos, () => registry.create(s.query, graph, ctx.store.catalog, s.orReplace));
      ctx.print(`Successfully created queries: [${s.query.name}].`);
      return;
    }
    case 'interpretAnonymous': {
      const graph = s.query.graph ?? requireGraph(ctx, s.pos, 'INTERPRET QUERY');
      const query = await reported(s.pos, async () =>
        compileQuery(s.query, ctx.store.catalog, graph, registry.options(graph, ctx.store.catalog)),
      );
      const writes = queryWrites(s.query, storedQueriesOf(registry, graph));
      await authorizeQueryWrites(ctx, s.pos, graph, s.query.name, writes);
      await runAndPrint(ctx, query, s.args, s.pos, undefined, { graph, text: s.query.text });
      return;
    }
    case 'interpretQuery':
    case 'runQuery': {
      const graph = requireGraph(ctx, s.pos, s.kind === 'runQuery' ? 'RUN QUERY' : 'INTERPRET QUERY');
      const query = await reported(s.pos, async () =>
        s.kind === 'runQuery'
          ? registry.installed(graph, s.name, ctx.store.catalog)
          : registry.compile(graph, s.name, ctx.store.catalog),
      );
      const writes = storedQueryWrites(s.name, storedQueriesOf(registry, graph));
      await authorizeQueryWrites(ctx, s.pos, graph, s.name, writes);
      await runAndPrint(ctx, query, s.args, s.pos, undefined, {
        graph,
        stored: s.kind === 'interpretQuery',
      });
      return;
    }
    case 'installQuery': {
      const graph = requireGraph(ctx, s.pos, 'INSTALL QUERY');
      const names = await reported(s.pos, () =>
        registry.install(graph, s.all ? 'all' : s.names, ctx.store.catalog, s.force),
      );
      if (names.length === 0) {
        ctx.print('All queries have been installed already.');
        return;
      }
      ctx.print('Start installing queries, about 1 minute ...');
      for (const n of names)
        ctx.print(installLine(restppUrlOf(ctx.store), graph, registry.compile(graph, n, ctx.store.catalog)));
      ctx.print('');
      ctx.print(`[${'='.repeat(104)}] 100% (${names.length}/${names.length})`);
      ctx.print('Query installation finished.');
      return;
    }
    case 'showQuery': {
      const graph = requireGraph(ctx, s.pos, 'SHOW QUERY');
      const queries =
        s.name === '*'
          ? registry.list(graph)
          : [await reported(s.pos, async () => registry.require(graph, s.name))];
      // An installed query's text is headed by a comment line naming its install mode.
      for (const q of queries) ctx.print(q.installed ? `# installed v2\n${q.text}` : q.text);
      return;
    }
    case 'dropQuery': {
      const graph = requireGraph(ctx, s.pos, 'DROP QUERY');
      const names = await reported(s.pos, () => registry.drop(graph, s.all ? 'all' : s.names));
      ctx.print(`Successfully dropped queries on the graph '${graph}': [${names.join(', ')}].`);
      return;
    }
  }
}

export const queryHandlers: Pick<HandlerTable, 'query'> = {
  async query(s, ctx) {
    await handle(s.statement, ctx);
  },
};
