/**
 * Plans a bound SELECT: which executor runs it, in which order the pattern is traversed, where each
 * WHERE term is tested, and which pattern variables are kept (materialised) between steps.
 *
 * - `chain`: one pattern whose intermediate vertices matter only as sets. Each step but the last
 *   turns the set of vertices reached so far (with how many paths reach each, when ACCUM needs it)
 *   into the next set; the last step runs as an ordinary one-hop SELECT from that set (the same
 *   kernels as a single hop), or as a vertex-only block over the last set when the last edge is
 *   repeated. A one-hop SELECT is a chain with no frontier step.
 * - `rows`: anything else (several patterns, PER, WHERE terms or clauses spanning hops, edge
 *   aliases read after their step, repeated aliases, vertex sets in the middle). Partial matches are
 *   rows of the variables still needed, merged when equal (counting the paths they stand for).
 */
import type { BoundPredicate, BoundSelect, Uses } from './bound-select.js';

/** How the vertices of a chain step are reached from the previous set. */
export interface FrontierStep {
  readonly hop: number;
  /** WHERE terms over the step's target vertex alone, tested once per distinct vertex. */
  readonly filters: readonly BoundPredicate[];
}

export interface ChainPlan {
  readonly kind: 'chain';
  /** WHERE terms over the source vertex alone, applied to the candidates before the first step. */
  readonly sourceFilters: readonly BoundPredicate[];
  readonly frontier: readonly FrontierStep[];
  /** The last step: a one-hop block over `hop`, or a vertex-only block over `vertex`. */
  readonly final:
    { readonly kind: 'hop'; readonly hop: number } | { readonly kind: 'vertex'; readonly vertex: number };
  /** WHERE terms the final block tests per row. */
  readonly where: readonly BoundPredicate[];
  /** Whether the sets carry path counts (ACCUM runs once per path; not when running it again changes nothing). */
  readonly counted: boolean;
}

/** One step of the rows executor: from a bound vertex over a hop to another vertex. */
export interface RowStep {
  readonly hop: number;
  readonly anchor: number;
  readonly target: number;
  /** Traversed against the pattern's direction. */
  readonly reversed: boolean;
  /** The target is bound already: the step checks it is the vertex reached. */
  readonly targetBound: boolean;
  /** WHERE terms whose elements are all bound after this step (and not before). */
  readonly filters: readonly BoundPredicate[];
  /** The vertices and hops rows keep after this step. */
  readonly keep: Uses;
  /** Whether the step lists edge handles (its edge alias is kept or tested). */
  readonly edges: boolean;
}

export interface RowsPlan {
  readonly kind: 'rows';
  /** The vertex whose candidates start the rows: vertex 0 from the source, or another pattern end. */
  readonly start: number;
  /** Candidates of `start` are the members of this vertex-set slot (when start is not vertex 0). */
  readonly startSet?: number;
  readonly startFilters: readonly BoundPredicate[];
  readonly startKeep: Uses;
  readonly steps: readonly RowStep[];
  /** Rows are merged and counted: ACCUM runs once per path (no PER, ACCUM not empty nor repeat-insensitive). */
  readonly counted: boolean;
}

export type SelectPlan = { readonly kind: 'vertex' } | ChainPlan | RowsPlan;

export function planSelect(b: BoundSelect): SelectPlan {
  if (b.hops.length === 0 && b.patterns.length === 1) return { kind: 'vertex' };
  return chainPlan(b) ?? rowsPlan(b);
}

const union = (...parts: Uses[]): { vertices: Set<number>; hops: Set<number> } => ({
  vertices: new Set(parts.flatMap((p) => [...p.vertices])),
  hops: new Set(parts.flatMap((p) => [...p.hops])),
});

/** What the clauses after matching read: ACCUM (or PER), the result and the POST-ACCUM vertices. */
function finalUses(b: BoundSelect): Uses {
  const out = union(b.per ?? b.accum);
  if (b.per) for (const v of b.accum.vertices) out.vertices.add(v);
  out.vertices.add(b.result);
  for (const p of b.posts) out.vertices.add(p.vertex);
  return out;
}

function chainPlan(b: BoundSelect): ChainPlan | undefined {
  if (b.patterns.length !== 1 || b.per) return undefined;
  const { vertices: vs, hops: hs } = b.patterns[0];
  if (new Set(vs).size !== vs.length) return undefined;
  // Vertex sets (or repeated aliases) inside the chain are tested by the rows executor.
  if (vs.some((v, i) => b.vertices[v].constraints.some((c, k) => (i > 0 || k > 0) && c.sets.length > 0)))
    return undefined;
  if (b.vertices[vs[0]].constraints.length > 1) return undefined;
  const n = hs.length;
  const lastHop = b.hops[hs[n - 1]];
  const finalHop = !lastHop.repeat;
  if (b.sample && (n !== 1 || !finalHop)) return undefined;
  // The elements the final block can see.
  const finalVertices = new Set(finalHop ? [vs[n - 1], vs[n]] : [vs[n]]);
  const finalHops = new Set(finalHop ? [hs[n - 1]] : []);
  const fits = (u: Uses): boolean =>
    [...u.vertices].every((v) => finalVertices.has(v)) && [...u.hops].every((h) => finalHops.has(h));
  if (!fits(finalUses(b))) return undefined;
  const sourceFilters: BoundPredicate[] = [];
  const byVertex = new Map<number, BoundPredicate[]>();
  const where: BoundPredicate[] = [];
  for (const p of b.where) {
    if (fits(p)) where.push(p);
    else if (p.hops.size === 0 && p.vertices.size === 1) {
      const v = [...p.vertices][0];
      if (v === vs[0]) sourceFilters.push(p);
      else (byVertex.get(v) ?? byVertex.set(v, []).get(v)!).push(p);
    } else return undefined;
  }
  const frontierCount = finalHop ? n - 1 : n;
  return {
    kind: 'chain',
    sourceFilters,
    frontier: hs.slice(0, frontierCount).map((h, i) => ({ hop: h, filters: byVertex.get(vs[i + 1]) ?? [] })),
    final: finalHop ? { kind: 'hop', hop: hs[n - 1] } : { kind: 'vertex', vertex: vs[n] },
    where,
    counted: b.accum.stmts.length > 0 && !b.accum.repeatable,
  };
}

interface Walk {
  hop: number;
  anchor: number;
  target: number;
  reversed: boolean;
}

function rowsPlan(b: BoundSelect): RowsPlan {
  const first = b.patterns[0];
  const last = first.vertices[first.vertices.length - 1];
  // Start from the end that is a vertex set when the source is a whole type.
  const lastSet = b.vertices[last].constraints.find((c) => c.sets.length === 1 && c.types.length === 0);
  const reverseFirst =
    !b.sourceIsSet && first.hops.length > 0 && lastSet !== undefined && last !== first.vertices[0];
  const start = reverseFirst ? last : first.vertices[0];
  const walks: Walk[] = [];
  const bound = new Set<number>([start]);
  const walkPattern = (p: BoundSelect['patterns'][number], from: number): void => {
    for (let i = from; i < p.hops.length; i++)
      walks.push({ hop: p.hops[i], anchor: p.vertices[i], target: p.vertices[i + 1], reversed: false });
    for (let i = from - 1; i >= 0; i--)
      walks.push({ hop: p.hops[i], anchor: p.vertices[i + 1], target: p.vertices[i], reversed: true });
  };
  walkPattern(first, reverseFirst ? first.hops.length : 0);
  for (const w of walks) bound.add(w.target);
  for (const p of b.patterns.slice(1)) {
    const k = p.vertices.findIndex((v) => bound.has(v));
    walkPattern(p, k);
    for (const v of p.vertices) bound.add(v);
  }
  // Where each WHERE term is tested: as soon as every element it reads is bound.
  const boundAt: { vertices: Set<number>; hops: Set<number> }[] = [];
  const acc = { vertices: new Set([start]), hops: new Set<number>() };
  boundAt.push({ vertices: new Set(acc.vertices), hops: new Set() });
  for (const w of walks) {
    acc.vertices.add(w.target);
    acc.hops.add(w.hop);
    boundAt.push({ vertices: new Set(acc.vertices), hops: new Set(acc.hops) });
  }
  const filtersAt: BoundPredicate[][] = boundAt.map(() => []);
  for (const p of b.where) {
    const at = boundAt.findIndex(
      (s) => [...p.vertices].every((v) => s.vertices.has(v)) && [...p.hops].every((h) => s.hops.has(h)),
    );
    filtersAt[at].push(p);
  }
  // What rows keep after each point: everything a later step, test or clause reads.
  const need = finalUses(b);
  const keeps: Uses[] = new Array(walks.length + 1);
  const later = { vertices: new Set(need.vertices), hops: new Set(need.hops) };
  for (let i = walks.length; i >= 0; i--) {
    const known = boundAt[i];
    keeps[i] = {
      vertices: new Set([...later.vertices].filter((v) => known.vertices.has(v))),
      hops: new Set([...later.hops].filter((h) => known.hops.has(h))),
    };
    if (i === 0) break;
    const w = walks[i - 1];
    later.vertices.add(w.anchor);
    if (boundAt[i - 1].vertices.has(w.target)) later.vertices.add(w.target);
    for (const p of filtersAt[i]) {
      for (const v of p.vertices) later.vertices.add(v);
      for (const h of p.hops) later.hops.add(h);
    }
  }
  const steps: RowStep[] = walks.map((w, i) => ({
    ...w,
    targetBound: boundAt[i].vertices.has(w.target),
    filters: filtersAt[i + 1],
    keep: keeps[i + 1],
    edges:
      b.hops[w.hop].alias !== undefined &&
      (keeps[i + 1].hops.has(w.hop) || filtersAt[i + 1].some((p) => p.hops.has(w.hop))),
  }));
  return {
    kind: 'rows',
    start,
    startSet: reverseFirst ? lastSet!.sets[0] : undefined,
    startFilters: filtersAt[0],
    startKeep: keeps[0],
    steps,
    counted: !b.per && b.accum.stmts.length > 0 && !b.accum.repeatable,
  };
}
