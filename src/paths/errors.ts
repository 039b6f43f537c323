/**
 * Errors of path finding, with the REST code the server answers with: REST-30000 for a bad request
 * (unknown type, bad condition), REST-3000 when GSQL-TIMEOUT expires, REST-4000 when the answer
 * outgrows RESPONSE-LIMIT.
 */
export class PathError extends Error {
  constructor(
    message: string,
    readonly code = 'REST-30000',
  ) {
    super(message);
    this.name = 'PathError';
  }
}
