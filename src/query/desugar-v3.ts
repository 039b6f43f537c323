/**
 * SYNTAX V3 patterns into the V2 patterns they mean (TigerGraph: "V3 queries are pre-processed into
 * V2 queries"), so binding, planning and the kernels are V2's. Each V3 edge's orientation becomes
 * the direction markers its edge types stand for in this schema (`-[:knows]-` on a directed type:
 * `knows>|<knows`; on an undirected one: `knows`), and the conditions of property maps and inline
 * WHEREs join the block's WHERE, ahead of its own terms. A V3 pattern in a query without SYNTAX v3
 * is refused with the header to add.
 */
import type { EdgeAtom, EdgeHop, Expr, PathPattern, SelectBlock } from '../gsql/ast-query.js';
import type { V3Orientation } from '../gsql/ast-v3.js';
import { compileError } from './errors.js';
import type { Cx } from './scope.js';

const isAny = (name: string): boolean => name === '_' || name.toUpperCase() === 'ANY';

/** The block with its V3 patterns written as V2 ones (the block itself when it has none). */
export function desugarV3(cx: Cx, b: SelectBlock): SelectBlock {
  if (!b.from.some((p) => p.v3)) return b;
  const { from, where } = desugarPatterns(cx, b.from, b.where);
  return { ...b, from, where };
}

/** V3 patterns as V2 ones, and WHERE with the patterns' conditions in front. */
export function desugarPatterns(
  cx: Cx,
  patterns: readonly PathPattern[],
  where: Expr | undefined,
): { from: PathPattern[]; where: Expr | undefined } {
  const first = patterns.find((p) => p.v3);
  if (first && cx.syntax !== 'v3') {
    const head = cx.queryName
      ? `CREATE QUERY ${cx.queryName}(…) SYNTAX v3 { … }`
      : 'INTERPRET QUERY () SYNTAX v3 { … }';
    throw compileError(
      first.pos,
      `"${cx.src.slice(first.start - cx.srcStart, first.end - cx.srcStart)}" is a SYNTAX v3 pattern; ` +
        `add SYNTAX v3 to the query header: ${head}`,
    );
  }
  const conditions: Expr[] = [];
  const from = patterns.map((p): PathPattern => {
    if (!p.v3) return p;
    conditions.push(...p.v3.conditions);
    return {
      source: p.source,
      steps: p.steps.map((s) => ({
        ...s,
        edge: { ...s.edge, hops: s.edge.hops.map((h) => desugarHop(cx, h)) },
      })),
      pos: p.pos,
      start: p.start,
      end: p.end,
    };
  });
  const all = where ? [...conditions, where] : conditions;
  return { from, where: all.length === 0 ? undefined : all.reduce((l, r) => andOf(l, r)) };
}

function andOf(left: Expr, right: Expr): Expr {
  return {
    kind: 'binary',
    op: 'AND',
    left,
    right,
    opPos: right.pos,
    pos: left.pos,
    start: left.start,
    end: right.end,
  };
}

/** A V3 hop's atoms as V2 atoms with direction markers. */
function desugarHop(cx: Cx, h: EdgeHop): EdgeHop {
  const o = h.v3;
  if (!o) return h;
  const atoms = h.atoms.flatMap((a) => (isAny(a.name) ? anyAtoms(cx, a, o) : namedAtoms(cx, a, o)));
  if (atoms.length === 0 && h.atoms.some((a) => isAny(a.name)))
    throw compileError(h.pos, `no edge type of graph ${cx.graphName} matches this edge pattern's arrows`);
  if (atoms.length === 0) {
    const names = h.atoms.map((a) => a.name).join('|');
    throw compileError(
      h.pos,
      `${names} ${h.atoms.length > 1 ? 'are directed edge types' : 'is a directed edge type'}; ` +
        `~[…]~ matches undirected edges only: write -[:${names}]-> or <-[:${names}]-`,
    );
  }
  return { atoms, repeat: h.repeat, pos: h.pos, start: h.start, end: h.end };
}

/** A named edge type: its directions when directed; itself, undirected, whatever the arrows say. */
function namedAtoms(cx: Cx, a: EdgeAtom, o: V3Orientation): EdgeAtom[] {
  const def = cx.edgeType(a.name);
  if (def && !def.directed) return [{ ...a, direction: 'any' }];
  if (!def) {
    // A parameter or variable naming edge types (resolved when the query runs), or an unknown name
    // the binder reports.
    const direction = o.right && !o.left ? 'out' : o.left && !o.right ? 'in' : 'any';
    return [{ ...a, direction }];
  }
  const out: EdgeAtom[] = [];
  if (o.right) out.push({ ...a, direction: 'out' });
  if (o.left) out.push({ ...a, direction: 'in' });
  return out;
}

/** Any edge type: the graph's types each in the directions the orientation allows. */
function anyAtoms(cx: Cx, a: EdgeAtom, o: V3Orientation): EdgeAtom[] {
  const out: EdgeAtom[] = [];
  for (const name of cx.edgeTypeNames()) {
    const def = cx.edgeType(name);
    if (!def) continue;
    if (!def.directed) {
      if (o.undirected) out.push({ name, direction: 'any', pos: a.pos });
      continue;
    }
    if (o.right) out.push({ name, direction: 'out', pos: a.pos });
    if (o.left) out.push({ name, direction: 'in', pos: a.pos });
  }
  return out;
}
