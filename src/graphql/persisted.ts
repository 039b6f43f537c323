/**
 * Persisted queries. Automatic persisted queries follow Apollo's protocol: a request carries
 * `extensions.persistedQuery = {version: 1, sha256Hash}`; with the query text the text is checked
 * against the hash and remembered, without it the remembered text runs, or the answer is
 * `PersistedQueryNotFound` (code PERSISTED_QUERY_NOT_FOUND) and the client sends the text again.
 * In allow-list mode (`--graphql-allow-list FILE`) only the listed documents run, named by hash or
 * sent in full, and nothing new is remembered.
 */
import { createHash } from 'node:crypto';
import { Lru } from './documents.js';

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The query text to run, or why there is none. */
export type Resolved = { query: string } | { status: number; message: string; code: string };

const REMEMBERED = 1000;

export class PersistedQueries {
  private readonly remembered = new Lru<string>(REMEMBERED);

  /** `allowList`: hash (or manifest id) → document; undefined: any document may run. */
  constructor(private readonly allowList?: ReadonlyMap<string, string>) {}

  get allowListMode(): boolean {
    return this.allowList !== undefined;
  }

  /**
   * Whether resolving a request with these extensions depends on nothing but its text: no
   * persisted query to remember or look up (an allow-list never changes).
   */
  stateless(extensions: unknown): boolean {
    return this.allowList !== undefined || persistedQueryOf(extensions) === undefined;
  }

  resolve(query: unknown, extensions: unknown): Resolved {
    const pq = persistedQueryOf(extensions);
    if (pq !== undefined) return this.persisted(query, pq);
    if (typeof query !== 'string' || query.trim() === '') {
      return {
        status: 400,
        message: 'The request has no GraphQL query (a "query" string).',
        code: 'BAD_REQUEST',
      };
    }
    if (this.allowList && !this.allowList.has(sha256(query))) return notListed();
    return { query };
  }

  private persisted(query: unknown, pq: unknown): Resolved {
    const { version, sha256Hash } = (typeof pq === 'object' ? pq : {}) as Record<string, unknown>;
    if (version !== 1) {
      return {
        status: 400,
        message: 'Unsupported persisted query version (only version 1 is served).',
        code: 'PERSISTED_QUERY_NOT_SUPPORTED',
      };
    }
    if (typeof sha256Hash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha256Hash)) {
      return {
        status: 400,
        message: 'persistedQuery.sha256Hash must be 64 hexadecimal digits.',
        code: 'BAD_REQUEST',
      };
    }
    const hash = sha256Hash.toLowerCase();
    if (typeof query === 'string' && query !== '') {
      if (sha256(query) !== hash)
        return { status: 400, message: 'provided sha does not match query', code: 'BAD_REQUEST' };
      if (this.allowList) return this.allowList.has(hash) ? { query } : notListed();
      this.remembered.set(hash, query);
      return { query };
    }
    const known = this.allowList ? this.allowList.get(hash) : this.remembered.get(hash);
    if (known === undefined) {
      return this.allowList
        ? notListed()
        : { status: 200, message: 'PersistedQueryNotFound', code: 'PERSISTED_QUERY_NOT_FOUND' };
    }
    return { query: known };
  }
}

/** `extensions.persistedQuery` when it is there (not null). */
function persistedQueryOf(extensions: unknown): unknown {
  const pq =
    typeof extensions === 'object' && extensions !== null
      ? (extensions as Record<string, unknown>).persistedQuery
      : undefined;
  return pq === null ? undefined : pq;
}

function notListed(): Resolved {
  return {
    status: 403,
    message: 'The document is not on the allow-list of this server (--graphql-allow-list).',
    code: 'PERSISTED_QUERY_NOT_ALLOWED',
  };
}

/**
 * Reads an allow-list: Apollo's persisted query manifest (`{"format":
 * "apollo-persisted-query-manifest", "operations": [{"id", "body"}]}`), a JSON array of documents,
 * or an object of hash → document. Every document is listed under its SHA-256 (and a manifest's
 * own id). Throws an Error naming what is wrong.
 */
export function parseAllowList(text: string): Map<string, string> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`the allow-list is not JSON: ${(e as Error).message}`);
  }
  const out = new Map<string, string>();
  const add = (body: unknown, id?: unknown) => {
    if (typeof body !== 'string' || body.trim() === '')
      throw new Error('every allow-list entry needs a document text');
    out.set(sha256(body), body);
    if (typeof id === 'string' && id !== '') out.set(id.toLowerCase(), body);
  };
  if (Array.isArray(data)) for (const body of data) add(body);
  else if (
    typeof data === 'object' &&
    data !== null &&
    Array.isArray((data as { operations?: unknown }).operations)
  ) {
    for (const op of (data as { operations: { id?: unknown; body?: unknown }[] }).operations)
      add(op?.body, op?.id);
  } else if (typeof data === 'object' && data !== null) {
    for (const [id, body] of Object.entries(data)) add(body, id);
  } else
    throw new Error(
      'the allow-list must be a manifest, an array of documents or an object of hash → document',
    );
  return out;
}
