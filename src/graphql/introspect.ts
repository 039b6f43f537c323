/** Introspection root fields (`__schema`, `__type`) of a plan, answered by graphql-js. */
import { execute as executeGraphQL, type DocumentNode } from 'graphql';
import { stringifyJson } from '../util/json.js';
import { GraphQLRequestError } from './filter.js';
import type { Prepared } from './graph-entry.js';

/** One introspection root field, answered by graphql-js over the schema. */
export async function introspectField(p: Prepared, key: string): Promise<string> {
  const op = p.operation;
  const document: DocumentNode = {
    ...p.document,
    definitions: p.document.definitions.map((d) =>
      d === op
        ? {
            ...op,
            selectionSet: {
              ...op.selectionSet,
              selections: op.selectionSet.selections.filter(
                (s) => s.kind !== 'Field' || (s.alias?.value ?? s.name.value) === key,
              ),
            },
          }
        : d,
    ),
  };
  const result = await executeGraphQL({
    schema: p.entry.built.schema,
    document,
    variableValues: p.rawVariables,
    ...(op.name ? { operationName: op.name.value } : {}),
  });
  if (result.errors) throw new GraphQLRequestError(result.errors.map((e) => e.message).join(' '));
  return stringifyJson((result.data as Record<string, unknown>)[key]);
}
