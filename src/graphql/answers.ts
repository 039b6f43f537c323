/** A GraphQL request's answer as JSON text with its HTTP status, and the answers that refuse one. */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { stringifyJson } from '../util/json.js';
import type { FormattedError } from './exec-state.js';
import { GraphQLRequestError } from './filter.js';
import { LimitError } from './limits.js';

export interface GraphQLAnswer {
  status: number;
  /** The JSON response: `{"errors": […], "data": …}`. */
  text: string;
}

export function answer(
  status: number,
  errors: readonly (GraphQLFormattedError | FormattedError)[],
  data?: string,
): GraphQLAnswer {
  const e = stringifyJson(errors);
  return { status, text: data === undefined ? `{"errors":${e}}` : `{"errors":${e},"data":${data}}` };
}

export function failure(
  status: number,
  message: string,
  code?: string,
  details?: Record<string, number>,
): GraphQLAnswer {
  const extensions = code ? { extensions: { code, ...details } } : {};
  return answer(status, [{ message, ...extensions }]);
}

/** The answer for an error that ends the request. */
export function requestFailure(e: unknown): GraphQLAnswer {
  if (e instanceof LimitError) return failure(e.status, e.message, e.code, e.details);
  if (e instanceof GraphQLError) return answer(400, [e.toJSON()]);
  if (e instanceof GraphQLRequestError) return failure(400, e.message, e.code);
  throw e;
}
