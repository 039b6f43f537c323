/**
 * The GraphQL service of a database, independent of HTTP: one schema per graph, rebuilt when the
 * catalog changes (so schema changes show at the next request, no restart), and the execution of one
 * request over one snapshot pinned for the whole request. Answers are standard GraphQL results;
 * `status` is the HTTP status a transport should use (400 for a request that cannot run, 404 for an
 * unknown graph, 200 once execution started).
 */
import {
  execute,
  GraphQLError,
  parse,
  printSchema,
  validate,
  validateSchema,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Catalog } from '../catalog/types.js';
import type { ReadTx, WriteTx } from '../engine/api.js';
import { GraphQLRequestError } from './filter.js';
import { mergeOrderByLists } from './order.js';
import type { RequestContext, WriteKind } from './runtime.js';
import { buildGraphSchema } from './schema.js';

/** The database side the service needs (the engine's Database satisfies it). */
export interface GraphQLDatabase {
  readonly catalog: Catalog;
  read(): ReadTx;
  write<T>(fn: (tx: WriteTx) => T): Promise<T>;
}

/** A GraphQL request as the transport decoded it (fields not yet checked). */
export interface GraphQLRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface ExecuteOptions {
  /** GET requests may only run queries. */
  method: 'GET' | 'POST';
  /** Throws when the caller may not write; its message becomes the GraphQL error. */
  authorizeWrite?: (kind: WriteKind) => Promise<void>;
}

export interface GraphQLAnswer {
  status: number;
  body: { data?: unknown; errors?: GraphQLFormattedError[] };
}

interface Built {
  catalog: Catalog;
  schema: GraphQLSchema | undefined;
  problems: readonly GraphQLError[];
}

function failure(status: number, message: string | readonly GraphQLError[]): GraphQLAnswer {
  const errors = typeof message === 'string' ? [{ message }] : message.map((e) => e.toJSON());
  return { status, body: { errors } };
}

export class GraphQLService {
  private readonly built = new Map<string, Built>();

  constructor(private readonly db: GraphQLDatabase) {}

  /** The graph's schema for the current catalog (undefined: no such graph). */
  private schemaOf(graph: string): Built {
    const catalog = this.db.catalog;
    const cached = this.built.get(graph);
    if (cached && cached.catalog === catalog) return cached;
    const schema = buildGraphSchema(catalog, graph);
    const b: Built = { catalog, schema, problems: schema ? validateSchema(schema) : [] };
    // Only graphs that exist are kept, so requests naming random graphs cannot grow the cache.
    if (schema) this.built.set(graph, b);
    else this.built.delete(graph);
    return b;
  }

  /** The schema as SDL, or undefined when the graph does not exist. */
  sdl(graph: string): string | undefined {
    const b = this.schemaOf(graph);
    return b.schema && b.problems.length === 0 ? printSchema(b.schema) : undefined;
  }

  graphExists(graph: string): boolean {
    return this.schemaOf(graph).schema !== undefined;
  }

  async execute(graph: string, request: GraphQLRequest, opts: ExecuteOptions): Promise<GraphQLAnswer> {
    const { query, variables, operationName } = request;
    if (typeof query !== 'string' || query.trim() === '') {
      return failure(400, 'The request has no GraphQL query (a "query" string).');
    }
    if (
      variables !== undefined &&
      variables !== null &&
      (typeof variables !== 'object' || Array.isArray(variables))
    ) {
      return failure(400, '"variables" must be a JSON object.');
    }
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
      return failure(400, '"operationName" must be a string.');
    }
    const b = this.schemaOf(graph);
    if (!b.schema) return failure(404, `Graph '${graph}' does not exist.`);
    if (b.problems.length > 0) {
      return failure(
        400,
        `The graph '${graph}' cannot be served over GraphQL: ${b.problems.map((p) => p.message).join(' ')}`,
      );
    }
    let document: DocumentNode;
    try {
      document = mergeOrderByLists(parse(query));
    } catch (e) {
      if (e instanceof GraphQLError) return failure(400, [e]);
      throw e;
    }
    const invalid = validate(b.schema, document);
    if (invalid.length > 0) return failure(400, invalid);
    const op = operationOf(document, operationName ?? undefined);
    if (op?.operation === 'mutation' && opts.method === 'GET') {
      return failure(405, 'Mutations need POST; GET runs queries only.');
    }
    const snapshots: ReadTx[] = [];
    const pin = (): ReadTx => {
      const tx = this.db.read();
      snapshots.push(tx);
      return tx;
    };
    const rawVariables = (variables ?? {}) as Record<string, unknown>;
    const ctx: RequestContext = {
      graph,
      catalog: b.catalog,
      tx: pin(),
      rawVariables,
      predicates: new Map(),
      fresh: pin,
      write: async (kind, fn) => {
        await opts.authorizeWrite?.(kind);
        return this.db.write(fn);
      },
    };
    try {
      const result = await execute({
        schema: b.schema,
        document,
        variableValues: rawVariables,
        operationName: operationName ?? undefined,
        contextValue: ctx,
      });
      const body: GraphQLAnswer['body'] = {};
      if (result.errors) body.errors = result.errors.map(formatError);
      if ('data' in result) body.data = result.data;
      // Variable coercion errors end execution before it starts: a bad request.
      return { status: result.data === undefined ? 400 : 200, body };
    } finally {
      for (const tx of snapshots) tx.release();
    }
  }
}

function operationOf(doc: DocumentNode, name: string | undefined): OperationDefinitionNode | undefined {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  return name === undefined
    ? ops.length === 1
      ? ops[0]
      : undefined
    : ops.find((o) => o.name?.value === name);
}

/** A resolver's error as the client sees it: the message, where in the query, where in the result. */
function formatError(e: GraphQLError): GraphQLFormattedError {
  const original = e.originalError;
  if (original && !(original instanceof GraphQLRequestError) && !(original instanceof GraphQLError)) {
    // Engine errors carry their TigerGraph code; keep it for clients that branch on it.
    const code = (original as { code?: unknown }).code;
    if (typeof code === 'string') return { ...e.toJSON(), extensions: { code } };
  }
  return e.toJSON();
}
