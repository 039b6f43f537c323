/**
 * Vertex and edge type names given at run time: a STRING or a set/list of STRINGs (the algorithm
 * library's `v_type_set`, `e_type` parameters) used where GSQL expects type names, in seeds, SELECT
 * steps and outdegree(). Names are checked against the graph's catalog when the query runs.
 */
import { collectionItems } from './accumulators.js';
import type { RunContext } from './context.js';
import type { Cx, Typed } from './scope.js';
import type { QType } from './types.js';
import { QueryRuntimeError } from './values.js';

/** Whether a value of this type can name types: STRING, or a SET/LIST/BAG of STRING. */
export function namesTypes(t: QType): boolean {
  if (t.kind === 'STRING') return true;
  return (t.kind === 'SET' || t.kind === 'LIST' || t.kind === 'BAG') && t.elem.kind === 'STRING';
}

/**
 * If `name` is a variable or parameter holding type names, a closure resolving them at run time;
 * otherwise undefined (the name is then a literal type name, checked by the caller).
 */
export function runtimeTypeNames(
  cx: Cx,
  name: string,
  kind: 'vertex' | 'edge',
): ((ctx: RunContext) => string[]) | undefined {
  const b = cx.lookup(name);
  if (!b || !namesTypes(b.t)) return undefined;
  const slot = b.slot;
  return checked(cx, kind, (ctx) => ctx.vars[slot]);
}

/** A closure resolving the type names an expression yields (STRING or a collection of STRING). */
export function typeNamesOf(
  cx: Cx,
  x: Typed,
  kind: 'vertex' | 'edge',
): ((ctx: RunContext) => string[]) | undefined {
  return namesTypes(x.t) ? checked(cx, kind, x.f) : undefined;
}

function checked(
  cx: Cx,
  kind: 'vertex' | 'edge',
  get: (ctx: RunContext) => unknown,
): (ctx: RunContext) => string[] {
  const valid = new Set(kind === 'vertex' ? cx.vertexTypeNames() : edgeNamesWithReverse(cx));
  const graph = cx.graphName;
  // Called per row (outdegree in ACCUM): the same names as last time give the same (checked) array.
  let lastNames: string[] | undefined;
  return (ctx) => {
    const v = get(ctx);
    const names = typeof v === 'string' ? [v] : (collectionItems(v) as string[]);
    if (lastNames && sameNames(names, lastNames)) return lastNames;
    for (const n of names) {
      if (!valid.has(n)) {
        throw new QueryRuntimeError(
          `Runtime Error: "${n}" is not ${kind === 'vertex' ? 'a vertex' : 'an edge'} type of graph ${graph}.`,
        );
      }
    }
    lastNames = names.slice();
    return names;
  };
}

function sameNames(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function edgeNamesWithReverse(cx: Cx): string[] {
  const names = cx.edgeTypeNames();
  const out = [...names];
  for (const n of names) {
    const r = cx.edgeType(n)?.reverseEdge;
    if (r) out.push(r);
  }
  return out;
}
