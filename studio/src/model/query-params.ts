/**
 * Query parameters: their types (from a query's text or from the server's signature, e.g.
 * `{"m": "vertex<member>"}`), the form fields they need, and the query string the form's values
 * become, in REST++'s forms (repeated keys for collections, `p.type` for an untyped vertex,
 * `p[i]`/`p[i].type` for a set of untyped vertices).
 */

export interface QueryParamType {
  /** INT, UINT, FLOAT, DOUBLE, STRING, BOOL, DATETIME, VERTEX, … (upper case). */
  base: string;
  collection?: 'SET' | 'BAG' | 'LIST';
  /** The vertex type of VERTEX<t>. */
  vertexType?: string;
}

export interface QueryParam {
  name: string;
  /** As written or as the signature spells it. */
  typeText: string;
  type: QueryParamType;
  /** The default's source text, when the query gives one. */
  defaultText?: string;
}

export function parseParamType(text: string): QueryParamType {
  const compact = text.replace(/\s+/g, '');
  const coll = /^(SET|BAG|LIST)<(.*)>$/i.exec(compact);
  const inner = coll ? coll[2] : compact;
  const vertex = /^VERTEX(?:<([A-Za-z_][A-Za-z0-9_]*)>)?$/i.exec(inner);
  const type: QueryParamType = { base: vertex ? 'VERTEX' : inner.toUpperCase() };
  if (vertex?.[1] !== undefined) type.vertexType = vertex[1];
  if (coll) type.collection = coll[1].toUpperCase() as QueryParamType['collection'];
  return type;
}

/** The server's signature (`input` of /gsql/v1/queries/info): one `{name: type}` object per parameter. */
export function paramsFromSignature(input: unknown): QueryParam[] {
  if (!Array.isArray(input)) return [];
  const out: QueryParam[] = [];
  for (const item of input) {
    if (item === null || typeof item !== 'object') continue;
    for (const [name, typeText] of Object.entries(item as Record<string, unknown>)) {
      if (typeof typeText === 'string') out.push({ name, typeText, type: parseParamType(typeText) });
    }
  }
  return out;
}

/** What a user types for a parameter, in words (the form's hint). */
export function paramHint(p: QueryParam): string {
  const t = p.type;
  const one =
    t.base === 'VERTEX'
      ? t.vertexType !== undefined
        ? `${t.vertexType} id`
        : 'type:id'
      : t.base === 'BOOL'
        ? 'true or false'
        : t.base === 'DATETIME'
          ? 'YYYY-MM-DD hh:mm:ss'
          : t.base.toLowerCase();
  return t.collection ? `${one}, … (comma-separated)` : one;
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** `type:id` (the first colon separates them). */
function typedVertex(entry: string, param: string): { type: string; id: string } {
  const colon = entry.indexOf(':');
  if (colon <= 0 || colon === entry.length - 1)
    throw new Error(`Parameter ${param}: write a vertex as type:id, not '${entry}'.`);
  return { type: entry.slice(0, colon).trim(), id: entry.slice(colon + 1).trim() };
}

/**
 * The query string of the form's values (empty values are left out: the query's defaults apply).
 * Throws an Error naming the parameter when a value cannot be sent.
 */
export function paramQueryString(
  params: readonly QueryParam[],
  values: Readonly<Record<string, string>>,
): string {
  const pairs: [string, string][] = [];
  for (const p of params) {
    const raw = values[p.name] ?? '';
    if (raw.trim() === '') continue;
    const untypedVertex = p.type.base === 'VERTEX' && p.type.vertexType === undefined;
    if (!p.type.collection) {
      if (untypedVertex) {
        const v = typedVertex(raw.trim(), p.name);
        pairs.push([p.name, v.id], [`${p.name}.type`, v.type]);
      } else pairs.push([p.name, p.type.base === 'STRING' ? raw : raw.trim()]);
      continue;
    }
    splitList(raw).forEach((entry, i) => {
      if (untypedVertex) {
        const v = typedVertex(entry, p.name);
        pairs.push([`${p.name}[${i}]`, v.id], [`${p.name}[${i}].type`, v.type]);
      } else pairs.push([p.name, entry]);
    });
  }
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}
