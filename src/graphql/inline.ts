/**
 * Which queries are cheap enough to run where the request arrived (the event loop) rather than on a
 * query worker: a worker round trip (post the request, clone the answer back) costs more than a
 * lookup of a few vertices by primary id, which is what REST++ point reads do on the event loop.
 * Only a plan whose work is bounded by its ids qualifies: every root field looks rows up by id (no
 * scan), reads their attributes (no edge field, no neighbour filter: a hub's edges are unbounded)
 * and names few ids. Everything else, introspection included, stays on a worker.
 */
import type { GraphField, Plan, VertexSelection } from './plan.js';

/**
 * The largest estimated cost (vertices returned, see cost.ts) a query may have to run inline: a few
 * dozen attribute reads take microseconds, well under the worker round trip they would otherwise
 * pay, and far too little to delay other requests on the event loop.
 */
export const INLINE_MAX_COST = 32;

function attributesOnly(sel: VertexSelection): boolean {
  return sel.fields.every((f) => f.k === 'attr' || f.k === 'const');
}

function pointLookup(f: GraphField): boolean {
  if (f.k === 'const') return true;
  if (f.k !== 'list') return false;
  const { seek, filter } = f.source;
  return (
    seek !== undefined &&
    seek.length <= INLINE_MAX_COST &&
    (filter === undefined || filter.neighbours.length === 0) &&
    attributesOnly(f.sel)
  );
}

/**
 * Whether a query plan has the shape of a point lookup (see above); it runs inline when its
 * estimated cost is also at most INLINE_MAX_COST. The shape is checked first: estimating a
 * traversal's cost may have to scan degree statistics, work that belongs on a worker.
 */
export function isPointLookup(plan: Plan): boolean {
  return (
    plan.operation === 'query' &&
    plan.fields.every((r) => r.k === 'const' || (r.k === 'graph' && r.fields.every(pointLookup)))
  );
}
