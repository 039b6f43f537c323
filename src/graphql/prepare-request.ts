/**
 * A request's first steps: its fields checked, its persisted query resolved, its document parsed
 * and validated (cached), its operation picked and its variables coerced; cached per document,
 * operation name and variables.
 */
import { getOperationAST, getVariableValues } from 'graphql';
import { stringifyJson } from '../util/json.js';
import { answer, failure, type GraphQLAnswer } from './answers.js';
import { MAX_CACHED_CHARS } from './documents.js';
import type { GraphEntry, Prepared } from './graph-entry.js';
import type { PersistedQueries } from './persisted.js';

const MAX_CACHED_VARIABLES = 1024;

/** A GraphQL request as the transport decoded it (fields not yet checked). */
export interface GraphQLRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
  extensions?: unknown;
}

/** Resolves, parses, validates and coerces a request; an answer when it cannot run. */
export function prepareRequest(
  graph: string,
  request: GraphQLRequest,
  persisted: PersistedQueries,
  entry: (graph: string) => GraphEntry,
): Prepared | GraphQLAnswer {
  const { variables, operationName } = request;
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
  const resolved = persisted.resolve(request.query, request.extensions);
  if (!('query' in resolved)) {
    return failure(
      resolved.status,
      resolved.message,
      resolved.code === 'BAD_REQUEST' ? undefined : resolved.code,
    );
  }
  const e = entry(graph);
  if (!e.built) return failure(404, `Graph '${graph}' does not exist.`);
  if (e.problems.length > 0 || !e.documents) {
    return failure(
      400,
      `The graph '${graph}' cannot be served over GraphQL: ${e.problems.map((p) => p.message).join(' ')}`,
    );
  }
  const rawVariables = (variables ?? {}) as Record<string, unknown>;
  const vars = variables === undefined || variables === null ? '' : stringifyJson(rawVariables);
  const key =
    resolved.query.length <= MAX_CACHED_CHARS && vars.length <= MAX_CACHED_VARIABLES
      ? `${operationName ?? ''}\u0000${vars}\u0000${resolved.query}`
      : undefined;
  const hit = key === undefined ? undefined : e.prepared.get(key);
  if (hit) return hit;
  const parsed = e.documents.get(resolved.query);
  if ('errors' in parsed)
    return answer(
      400,
      parsed.errors.map((x) => x.toJSON()),
    );
  const operation = getOperationAST(parsed.document, operationName ?? undefined);
  if (!operation) {
    return failure(
      400,
      typeof operationName === 'string'
        ? `Unknown operation named "${operationName}".`
        : 'Must provide operation name if query contains multiple operations.',
    );
  }
  const coerced = getVariableValues(e.built.schema, operation.variableDefinitions ?? [], rawVariables, {
    maxErrors: 50,
  });
  if (coerced.errors)
    return answer(
      400,
      coerced.errors.map((x) => x.toJSON()),
    );
  const p: Prepared = {
    entry: e as Prepared['entry'],
    document: parsed.document,
    operation,
    variables: coerced.coerced,
    rawVariables,
    key,
  };
  if (key !== undefined) e.prepared.set(key, p);
  return p;
}
