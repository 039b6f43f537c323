/**
 * Binding of a SELECT's FROM clause: resolves the patterns' names (vertex types, vertex-set
 * variables, edge types, type-name parameters and accumulators), builds the pattern's vertices
 * and hops (a `.` chain gets unnamed vertices between its edges, a repeated alias is one vertex),
 * and declares the aliases with their types.
 */
import type {
  EdgeAtom,
  EdgePattern,
  PathPattern,
  Pos,
  SelectBlock,
  Span,
  VertexPattern,
} from '../gsql/ast-query.js';
import type { BoundEdgeAtom, BoundHop, BoundVertex, TypeNames, VertexConstraint } from './bound-select.js';
import { collectionItems } from './accumulators.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import { readsAsVertex } from './select-clauses.js';
import type { Cx, VarBinding } from './scope.js';
import { runtimeTypeNames } from './type-names.js';
import { typeText, type QType } from './types.js';
import { QueryRuntimeError, VertexGids, type Vtx } from './values.js';

const isAny = (name: string): boolean => name === '_' || name.toUpperCase() === 'ANY';

interface VertexDraft {
  alias?: string;
  slot: number;
  constraints: VertexConstraint[];
  span: Span;
  binding?: VarBinding;
}

/** The bound FROM clause: pattern vertices and hops, their aliases declared in the SELECT's scope. */
export interface BoundPatterns {
  vertices: BoundVertex[];
  hops: BoundHop[];
  patterns: { vertices: number[]; hops: number[] }[];
  source: SourceBinding;
  /** The vertex SELECT names. */
  result: number;
  /** Alias name -> the vertex or hop it names. */
  aliasOf: AliasMap;
  /** FROM is one step (no `.` chain): SAMPLE and V1's result-names-the-target apply. */
  oneHop: boolean;
}

export type AliasMap = Map<string, { vertex?: number; hop?: number }>;

/** Binds the FROM patterns of `b` and declares their aliases (called in the SELECT's own scope). */
export function bindPatterns(cx: Cx, b: SelectBlock): BoundPatterns {
  const vertices: VertexDraft[] = [];
  const hops: BoundHop[] = [];
  const patterns: { vertices: number[]; hops: number[] }[] = [];
  const byAlias = new Map<string, number>();
  const edgeAliases = new Map<string, number>();

  const first = b.from[0].source;
  const source = bindSource(cx, first);
  const oneHop =
    b.from.length === 1 && b.from[0].steps.length === 1 && b.from[0].steps[0].edge.hops.length <= 1;
  // V1: `FROM S:s -(E)- T` with `SELECT t`-style result names the target by the result name.
  const lastStep = oneHop ? b.from[0].steps[0] : undefined;
  const srcAliasName = first.alias ?? (b.result === first.names[0]?.name ? first.names[0].name : undefined);

  const addVertex = (v: VertexPattern, isSource: boolean, implicitAlias?: string): number => {
    const alias = v.alias ?? implicitAlias;
    const constraint = isSource ? source.constraint : vertexConstraint(cx, v);
    if (alias !== undefined) {
      const seen = byAlias.get(alias);
      if (seen !== undefined) {
        if (constraint) vertices[seen].constraints.push(constraint);
        return seen;
      }
    }
    const index = vertices.length;
    vertices.push({ alias, slot: -1, constraints: constraint ? [constraint] : [], span: v });
    if (alias !== undefined) byAlias.set(alias, index);
    return index;
  };

  b.from.forEach((p: PathPattern, pi) => {
    const isFirst = pi === 0;
    const pv: number[] = [addVertex(p.source, isFirst, isFirst ? srcAliasName : undefined)];
    const ph: number[] = [];
    p.steps.forEach((step) => {
      const implicit =
        lastStep === step && step.vertex.alias === undefined && b.result !== srcAliasName
          ? b.result
          : undefined;
      const hopsOf = step.edge.hops.length > 0 ? step.edge.hops : [undefined];
      hopsOf.forEach((h, k) => {
        const from = pv[pv.length - 1];
        const last = k === hopsOf.length - 1;
        const to = last
          ? addVertex(step.vertex, false, implicit)
          : addVertex({ names: [], pos: step.edge.pos, start: step.edge.start, end: step.edge.end }, false);
        const hop = bindHop(cx, step.edge, h, hops.length, from, to);
        if (hop.alias !== undefined) {
          if (edgeAliases.has(hop.alias) || byAlias.has(hop.alias))
            throw compileError(
              step.edge.aliasPos ?? step.edge.pos,
              `the alias ${hop.alias} is used twice in FROM`,
            );
          edgeAliases.set(hop.alias, hop.index);
        }
        hops.push(hop);
        ph.push(hop.index);
        pv.push(to);
      });
    });
    patterns.push({ vertices: pv, hops: ph });
  });
  checkConnected(b, patterns);

  const boundHops = declareAliases(cx, vertices, hops, source.setType);
  // 1.x style: inside the block the source set's own name may stand for its alias
  // (`FROM S:s WHERE S.attr == …`, `SELECT S FROM S:s`).
  const setName = first.names.length === 1 ? first.names[0].name : undefined;
  const setAsAlias =
    source.isSet &&
    setName !== undefined &&
    srcAliasName !== undefined &&
    srcAliasName !== setName &&
    (b.result === setName || readsAsVertex(b, setName));
  if (setAsAlias) cx.bindAs(setName, vertices[0].binding!);

  const boundVertices: BoundVertex[] = vertices.map((v, index) => ({
    index,
    alias: v.alias,
    slot: v.slot,
    type: v.binding?.t ?? { kind: 'VERTEX' },
    constraints: v.constraints,
    span: v.span,
  }));

  let result = byAlias.get(b.result);
  if (result === undefined && setAsAlias && b.result === setName) result = 0;
  if (result === undefined)
    throw compileError(b.resultPos, `SELECT must name an alias of the FROM clause; "${b.result}" is not one`);

  const aliasOf = new Map<string, { vertex?: number; hop?: number }>();
  for (const [name, i] of byAlias) aliasOf.set(name, { vertex: i });
  if (setAsAlias) aliasOf.set(setName, { vertex: 0 });
  for (const [name, i] of edgeAliases) aliasOf.set(name, { hop: i });
  return { vertices: boundVertices, hops: boundHops, patterns, source, result, aliasOf, oneHop };
}

/**
 * Declares the aliases in pattern order (an edge alias where its step is), each vertex alias with
 * the types its constraints allow; unnamed vertices get slots. Returns the hops with their slots.
 */
function declareAliases(
  cx: Cx,
  vertices: VertexDraft[],
  hops: BoundHop[],
  sourceSetType: string | undefined,
): BoundHop[] {
  const declared = new Set<number>();
  const declareVertex = (i: number): void => {
    if (declared.has(i)) return;
    declared.add(i);
    const v = vertices[i];
    const types = staticTypes(v.constraints, i === 0 ? sourceSetType : undefined);
    const t: QType = { kind: 'VERTEX', vertexType: types?.length === 1 ? types[0] : undefined };
    if (v.alias === undefined) {
      v.slot = cx.newSlot();
      return;
    }
    const binding = cx.declare(v.alias, t, v.span.pos, true);
    binding.aliasTypes = types ?? [];
    v.slot = binding.slot;
    v.binding = binding;
  };
  const bound = hops.map((h) => {
    declareVertex(h.from);
    let slot = -1;
    if (h.alias !== undefined) {
      const binding = cx.declare(h.alias, h.type, h.span.pos, true);
      slot = binding.slot;
      const named = h.atoms.map((a) => (a.dynamic ? undefined : a.edgeType));
      if (named.every((n) => n !== undefined)) binding.edgeTypes = [...new Set(named)];
    }
    declareVertex(h.to);
    return { ...h, slot };
  });
  vertices.forEach((_, i) => declareVertex(i));
  return bound;
}

export interface SourceBinding {
  /** What the source's names say (the candidates meet it; reaching vertex 0 otherwise checks it). */
  constraint: VertexConstraint | undefined;
  candidates: (ctx: RunContext) => Vtx[] | VertexGids;
  isSet: boolean;
  /** The vertex type of the source set variable, when known. */
  setType?: string;
}

/** The first vertex of FROM: a vertex-set variable, vertex types, type names given at run time, or any. */
function bindSource(cx: Cx, v: VertexPattern): SourceBinding {
  if (v.names.length === 1) {
    const name = v.names[0];
    const binding = cx.lookup(name.name);
    if (binding && binding.t.kind === 'VSET') {
      const slot = binding.slot;
      return {
        constraint: { types: [], dynamicTypes: [], sets: [slot], span: v },
        candidates: (ctx) => ctx.vars[slot] as Vtx[] | VertexGids,
        isSet: true,
        setType: binding.t.vertexType,
      };
    }
    if (
      binding &&
      !binding.aliasTypes &&
      !runtimeTypeNames(cx, name.name, 'vertex') &&
      !cx.vertexType(name.name)
    )
      throw compileError(name.pos, `FROM needs a vertex set, but "${name.name}" is ${typeText(binding.t)}`);
  }
  const constraint = vertexConstraint(cx, v, true);
  if (!constraint) {
    const all = cx.vertexTypeNames();
    return { constraint, candidates: (ctx) => ctx.typeGids(all), isSet: false };
  }
  if (constraint.sets.length > 0) {
    // A union of sets and types: members of the sets, then vertices of the types.
    const types = constraint.types;
    const dynamic = constraint.dynamicTypes;
    const sets = constraint.sets;
    return {
      constraint,
      candidates: (ctx) => {
        const seen = new Set<number>();
        const out: number[] = [];
        const add = (g: number): void => {
          if (seen.has(g)) return;
          seen.add(g);
          out.push(g);
        };
        for (const slot of sets) for (const g of ctx.gidsOf(ctx.vars[slot] as Vtx[] | VertexGids)) add(g);
        const names = [...types, ...dynamic.flatMap((d) => d(ctx))];
        if (names.length > 0) for (const g of ctx.typeGids(names).gids) add(g);
        return new VertexGids(ctx, Int32Array.from(out));
      },
      isSet: true,
    };
  }
  const types = constraint.types;
  const dynamic = constraint.dynamicTypes;
  return {
    constraint,
    candidates:
      dynamic.length === 0
        ? (ctx) => ctx.typeGids(types)
        : (ctx) => ctx.typeGids([...types, ...dynamic.flatMap((d) => d(ctx))]),
    isSet: false,
    setType: dynamic.length === 0 && types.length === 1 ? types[0] : undefined,
  };
}

/**
 * The constraint a vertex pattern's names set (undefined: any vertex). Each name is a vertex type,
 * a vertex-set variable, or a STRING/SET<STRING> variable or global accumulator of type names.
 */
function vertexConstraint(cx: Cx, v: VertexPattern, isSource = false): VertexConstraint | undefined {
  const types: string[] = [];
  const dynamicTypes: TypeNames[] = [];
  const sets: number[] = [];
  for (const n of v.names) {
    if (isAny(n.name)) return undefined;
    if (n.name.startsWith('@@')) {
      dynamicTypes.push(globalTypeNames(cx, n.name.slice(2), n.pos));
      continue;
    }
    const binding = cx.lookup(n.name);
    if (binding?.t.kind === 'VSET') {
      sets.push(binding.slot);
      continue;
    }
    const dyn = binding ? runtimeTypeNames(cx, n.name, 'vertex') : undefined;
    if (dyn) {
      dynamicTypes.push(dyn);
      continue;
    }
    if (!cx.vertexType(n.name)) {
      throw compileError(
        n.pos,
        isSource
          ? `"${n.name}" is neither a vertex set variable nor a vertex type`
          : `"${n.name}" is not a vertex type of graph ${cx.graphName}`,
      );
    }
    types.push(n.name);
  }
  if (types.length + dynamicTypes.length + sets.length === 0) return undefined;
  return { types, dynamicTypes, sets, span: v };
}

/** The vertex types a global accumulator of type names holds when the SELECT runs. */
function globalTypeNames(cx: Cx, name: string, pos: Pos): TypeNames {
  const g = cx.globals.get(name);
  if (!g) throw compileError(pos, `the global accumulator @@${name} is not declared`);
  const slot = g.slot;
  const valid = new Set(cx.vertexTypeNames());
  const graph = cx.graphName;
  return (ctx) => {
    const acc = ctx.vars[slot] as { value(): unknown };
    const names = collectionItems(acc.value()).map(String);
    for (const n of names)
      if (!valid.has(n))
        throw new QueryRuntimeError(`Runtime Error: "${n}" is not a vertex type of graph ${graph}.`);
    return names;
  };
}

/** The static types every match of a vertex has, when its constraints say (undefined: unknown). */
function staticTypes(
  constraints: readonly VertexConstraint[],
  setType: string | undefined,
): string[] | undefined {
  let out: string[] | undefined = setType ? [setType] : undefined;
  for (const c of constraints) {
    if (c.sets.length > 0 || c.dynamicTypes.length > 0) continue;
    out = out ? out.filter((t) => c.types.includes(t)) : [...c.types];
  }
  return out;
}

/** One edge of an edge pattern (`h` absent: `-()-` or `-(:e)-`, any edge). */
function bindHop(
  cx: Cx,
  edge: EdgePattern,
  h: EdgePattern['hops'][number] | undefined,
  index: number,
  from: number,
  to: number,
): BoundHop {
  const atoms: BoundEdgeAtom[] = h
    ? h.atoms.map((a) => bindAtom(cx, a, edge))
    : [{ direction: 'out', pos: edge.pos }];
  const named = atoms.filter((a) => a.edgeType !== undefined);
  const oneType = atoms.length === 1 && named.length === 1 ? named[0].edgeType : undefined;
  const repeat = h?.repeat ? { min: h.repeat.min, max: h.repeat.max ?? Infinity } : undefined;
  return {
    index,
    from,
    to,
    atoms,
    repeat,
    alias: edge.alias,
    slot: -1,
    type: { kind: 'EDGE', edgeType: oneType },
    arrow: edge.arrow,
    span: h && edge.hops.length > 1 ? h : edge,
  };
}

function bindAtom(cx: Cx, a: EdgeAtom, edge: EdgePattern): BoundEdgeAtom {
  const direction = a.direction === 'in' ? 'in' : 'out';
  if (isAny(a.name)) return { direction, pos: a.pos };
  const def = cx.edgeType(a.name);
  if (!def) {
    const dynamic = runtimeTypeNames(cx, a.name, 'edge');
    if (!dynamic) throw compileError(a.pos, `"${a.name}" is not an edge type of graph ${cx.graphName}`);
    return { direction, dynamic, pos: a.pos };
  }
  if (a.direction === 'any' && def.directed && def.name === a.name && cx.syntax === 'v2' && !edge.arrow) {
    throw compileError(
      a.pos,
      `the directed edge type ${a.name} needs a direction in SYNTAX v2: "${a.name}>" or "<${a.name}"`,
    );
  }
  // A direction marker on an undirected edge changes nothing.
  return {
    edgeType: a.name,
    direction: a.direction !== 'any' && !def.directed ? 'out' : direction,
    pos: a.pos,
  };
}

/** Each later pattern must share a vertex alias with the ones before it (a natural join). */
function checkConnected(b: SelectBlock, patterns: { vertices: number[] }[]): void {
  const seen = new Set(patterns[0].vertices);
  for (let i = 1; i < patterns.length; i++) {
    if (!patterns[i].vertices.some((v) => seen.has(v)))
      throw compileError(
        b.from[i].pos,
        'each pattern of FROM must share a vertex alias with the patterns before it',
      );
    for (const v of patterns[i].vertices) seen.add(v);
  }
}
