/**
 * The limits a GraphQL request runs under, and the cooperation that enforces the running ones:
 * execution counts its work, checks the abort signal, the deadline and the row budget every few
 * thousand steps, and yields to the event loop about every 10 ms, so a long request never keeps
 * other requests (REST++ on the same process) waiting.
 */
import { EngineError } from '../engine/api.js';
import { GraphQLRequestError, type Work } from './filter.js';

export interface GraphQLLimits {
  /** Largest estimated cost a request may have (0: no limit). */
  maxCost: number;
  /** Deepest field nesting a document may have, counting the graph field as 1 (0: no limit). */
  maxDepth: number;
  /** Most vertices and edges a response may hold (0: no limit). */
  maxRows: number;
}

export const DEFAULT_LIMITS: GraphQLLimits = { maxCost: 1_000_000, maxDepth: 15, maxRows: 1_000_000 };

/** Fields a document may expand to (fragments and aliases counted), whatever the limits. */
export const MAX_PLAN_FIELDS = 10_000;

/** A request refused or stopped by a limit: the whole request fails with this error. */
export class LimitError extends GraphQLRequestError {
  constructor(
    message: string,
    code: string,
    /** HTTP status for the transport. */
    readonly status: number,
    readonly details: Record<string, number> = {},
  ) {
    super(message, code);
    this.name = 'LimitError';
  }
}

const YIELD_EVERY_MS = 10;
const CHECK_EVERY = 4096;

export class Cooperation implements Work {
  private work = 0;
  private nextCheck = CHECK_EVERY;
  private nextSyncCheck = CHECK_EVERY;
  private lastYield: number;
  private rows = 0;

  constructor(
    /** Epoch milliseconds after which the request is stopped (Infinity: never). */
    private readonly deadline: number,
    private readonly timeoutMs: number,
    private readonly maxRows: number,
    private readonly signal?: { readonly aborted: boolean },
    private readonly now: () => number = Date.now,
  ) {
    this.lastYield = now();
  }

  /** Throws when the request was aborted or ran past its deadline. */
  check(): void {
    if (this.signal?.aborted) throw new LimitError('The request was aborted.', 'GRAPHQL-ABORTED', 499);
    if (this.now() > this.deadline) {
      throw new LimitError(
        `The request did not finish within its timeout of ${this.timeoutMs} ms (GSQL-TIMEOUT) and was stopped.`,
        'GSQL-TIMEOUT',
        408,
        { timeoutMs: this.timeoutMs },
      );
    }
  }

  /** Counts n steps of work; true when it is time to call pause(). */
  step(n = 1): boolean {
    this.work += n;
    return this.work >= this.nextCheck;
  }

  /**
   * Counts work done inside one step (a filter walking edges): checks the deadline every few
   * thousand units, so even one long step is stopped; the loop around it yields afterwards.
   */
  add(n: number): void {
    this.work += n;
    if (this.work >= this.nextSyncCheck) {
      this.nextSyncCheck = this.work + CHECK_EVERY;
      this.check();
    }
  }

  /** Checks the limits and yields to the event loop when the last yield is long enough ago. */
  async pause(): Promise<void> {
    this.nextCheck = this.work + CHECK_EVERY;
    this.check();
    if (this.now() - this.lastYield >= YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.lastYield = this.now();
      this.check();
    }
  }

  /** Counts n vertices or edges of the response against the row limit. */
  addRows(n: number): void {
    this.rows += n;
    if (this.maxRows > 0 && this.rows > this.maxRows) {
      throw new LimitError(
        `The response would hold more than ${this.maxRows} vertices and edges (the row limit, --graphql-max-rows); narrow the query with filters, limit or first.`,
        'GRAPHQL-ROWS',
        400,
        { limit: this.maxRows },
      );
    }
  }
}

/** A field error: nulls its field instead of failing the request (a LimitError fails the request). */
export function isFieldError(e: unknown): e is Error {
  return (e instanceof GraphQLRequestError && !(e instanceof LimitError)) || e instanceof EngineError;
}

/** Limits per role (`--graphql-role-limits`): a caller gets the most generous of its roles' limits. */
export type RoleLimits = ReadonlyMap<string, Partial<GraphQLLimits>>;

const LIMIT_KEYS: Record<string, keyof GraphQLLimits> = {
  cost: 'maxCost',
  depth: 'maxDepth',
  rows: 'maxRows',
};

/**
 * Reads `role:cost=N,depth=N,rows=N;role2:…` (0 means no limit). Throws an Error naming the part
 * that is wrong.
 */
export function parseRoleLimits(spec: string): Map<string, Partial<GraphQLLimits>> {
  const out = new Map<string, Partial<GraphQLLimits>>();
  for (const part of spec
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const m = /^([A-Za-z_][\w.-]*)\s*:\s*(.+)$/.exec(part);
    if (!m) throw new Error(`'${part}' is not role:key=N,…`);
    const limits: Partial<GraphQLLimits> = {};
    for (const kv of m[2].split(',').map((x) => x.trim())) {
      const [k, v] = kv.split('=').map((x) => x.trim());
      const key = LIMIT_KEYS[k];
      if (!key) throw new Error(`unknown limit '${k}' for role ${m[1]} (cost, depth or rows)`);
      if (!/^\d+$/.test(v ?? ''))
        throw new Error(`the ${k} limit of role ${m[1]} must be a whole number, not '${v}'`);
      limits[key] = Number(v);
    }
    out.set(m[1], limits);
  }
  return out;
}

/** The limits of a caller holding `roles`: for each limit the most generous role's (0 wins). */
export function limitsOfRoles(
  base: GraphQLLimits,
  roles: readonly string[],
  overrides: RoleLimits,
): GraphQLLimits {
  const matched = roles
    .map((r) => overrides.get(r))
    .filter((l): l is Partial<GraphQLLimits> => l !== undefined);
  if (matched.length === 0) return base;
  const pick = (k: keyof GraphQLLimits): number => {
    const values = matched.map((l) => l[k] ?? base[k]);
    return values.includes(0) ? 0 : Math.max(...values);
  };
  return { maxCost: pick('maxCost'), maxDepth: pick('maxDepth'), maxRows: pick('maxRows') };
}
