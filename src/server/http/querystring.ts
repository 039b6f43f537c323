/**
 * TigerGraph's query-string rules: a key may repeat (each occurrence kept, in order); the value is
 * everything after the FIRST `=` (so `filter=a01>=3` keeps `a01>=3`); keys and values
 * are percent-decoded, `+` stays a plus (pyTigerGraph sends spaces as %20 and pluses as %2B);
 * booleans are `true`/`false` in any case (pyTigerGraph sends `True`); vertex parameters come as
 * `v=<id>&v.type=<type>` and vertex sets as `v[0]=<id>&v[0].type=<type>`.
 */
import { RestError } from './envelope.js';

export interface VertexParam {
  id: string;
  type?: string;
}

export class QueryParams {
  constructor(readonly entries: ReadonlyArray<readonly [string, string]>) {}

  has(name: string): boolean {
    return this.entries.some(([k]) => k === name);
  }

  /** The first value given for `name`. */
  get(name: string): string | undefined {
    for (const [k, v] of this.entries) if (k === name) return v;
    return undefined;
  }

  /** Every value given for `name`, in order. */
  getAll(name: string): string[] {
    return this.entries.filter(([k]) => k === name).map(([, v]) => v);
  }

  /** Distinct names in first-seen order. */
  names(): string[] {
    return [...new Set(this.entries.map(([k]) => k))];
  }

  /** Comma-separated list values of every occurrence, flattened; empty items dropped. */
  list(name: string): string[] {
    return this.getAll(name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  }

  /** A boolean parameter; absent → `fallback`, present without a value → true. */
  bool(name: string, fallback = false): boolean {
    const v = this.get(name);
    if (v === undefined) return fallback;
    const parsed = parseBool(v);
    if (parsed === undefined) {
      throw new RestError('REST-30001', `The value '${v}' of parameter '${name}' is not a valid BOOL.`);
    }
    return parsed;
  }

  /** An integer parameter (decimal, optionally signed); absent → undefined. */
  int(name: string): number | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (!/^[+-]?\d+$/.test(v.trim()) || !Number.isSafeInteger(Number(v))) {
      throw new RestError('REST-30001', `The value '${v}' of parameter '${name}' is not a valid INT.`);
    }
    return Number(v);
  }

  /** `name=<id>` with an optional `name.type=<type>`. */
  vertex(name: string): VertexParam | undefined {
    const id = this.get(name);
    if (id === undefined) return undefined;
    const type = this.get(`${name}.type`);
    return type === undefined ? { id } : { id, type };
  }

  /** `name[i]=<id>` with optional `name[i].type=<type>`, ordered by index. */
  indexedVertices(name: string): VertexParam[] {
    const byIndex = new Map<number, VertexParam>();
    const prefix = `${name}[`;
    for (const [k, v] of this.entries) {
      if (!k.startsWith(prefix)) continue;
      const m = /^\[(\d+)\](\.type)?$/.exec(k.slice(name.length));
      if (!m) continue;
      const i = Number(m[1]);
      const slot = byIndex.get(i) ?? { id: '' };
      if (m[2]) slot.type = v;
      else slot.id = v;
      byIndex.set(i, slot);
    }
    return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
  }

  /** Plain-object view: a repeated key becomes an array. */
  toRecord(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of this.entries) {
      const prev = out[k];
      if (prev === undefined) out[k] = v;
      else if (Array.isArray(prev)) prev.push(v);
      else out[k] = [prev, v];
    }
    return out;
  }
}

/** `true`/`false` in any case, also `1`/`0`; empty (a bare flag) is true. */
export function parseBool(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'true' || t === '1' || t === '') return true;
  if (t === 'false' || t === '0') return false;
  return undefined;
}

/** Parses the text after `?` (a leading `?` is tolerated). */
export function parseQueryString(text: string): QueryParams {
  const entries: [string, string][] = [];
  const body = text.startsWith('?') ? text.slice(1) : text;
  for (const part of body.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    entries.push([percentDecode(key), percentDecode(value)]);
  }
  return new QueryParams(entries);
}

/** Percent-decoding that keeps malformed escapes as written instead of failing the request. */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}
