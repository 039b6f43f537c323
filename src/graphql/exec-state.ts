/**
 * What a plan's execution runs with and shares across its parts: the request's state, field
 * errors, JSON member keys, and the growable row and edge arrays the levels are built in.
 */
import type { Catalog } from '../catalog/types.js';
import type { EdgeHandle, ReadTx } from '../engine/api.js';
import type { Cooperation } from './limits.js';
import type { ErrorSite, MutationContext } from './plan.js';

export interface FormattedError {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

/** What a plan runs with. */
export interface ExecState {
  catalog: Catalog;
  /** The snapshot queries read. */
  tx: ReadTx;
  coop: Cooperation;
  errors: FormattedError[];
  /** Answers an introspection root field (`__schema`, `__type`) as JSON text. */
  introspect: (key: string) => Promise<string>;
  mutation: MutationContext;
}

export function fieldError(e: Error, site: ErrorSite): FormattedError {
  const code = (e as { code?: unknown }).code;
  return {
    message: e.message,
    locations: site.locations,
    path: site.path,
    ...(typeof code === 'string' ? { extensions: { code } } : {}),
  };
}

/** `"k":` of an object's member (`,"k":` after the first). */
export const jsonKey = (k: string, first: boolean): string => `${first ? '' : ','}${JSON.stringify(k)}:`;

/** A growable Uint32Array. */
export class U32 {
  a = new Uint32Array(64);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  view(): Uint32Array {
    return this.a.subarray(0, this.n);
  }
}

/** Edges reached by one edge field (or written by a mutation), as parallel arrays. */
export interface EdgeSet {
  n: number;
  src: Uint32Array;
  tgt: Uint32Array;
  handles: EdgeHandle[] | null;
  srcType: string;
  tgtType: string;
  /** Per-edge endpoint types in stored direction (a mutation's rows of a multi-pair edge type). */
  types?: { src: string[]; tgt: string[] };
}
