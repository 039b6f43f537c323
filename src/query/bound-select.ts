/**
 * The bound form of a SELECT block (bind-select.ts makes it, plan-select.ts reads it): every vertex
 * and edge of the FROM patterns with its variable slot, type and the constraints a graph element
 * must meet, the clauses compiled to closures next to the syntax they came from, and which pattern
 * elements each clause uses. Immutable once bound; every node carries its type and source span.
 */
import type { Expr, Pos, Span, Stmt } from '../gsql/ast-query.js';
import type { RunContext } from './context.js';
import type { Sampler } from './select-sample.js';
import type { Eval, RowStmt } from './scope.js';
import type { QType } from './types.js';
import type { Vtx, VertexGids } from './values.js';

/** Type names known only when the query runs (a parameter, variable or global accumulator). */
export type TypeNames = (ctx: RunContext) => string[];

/**
 * What a vertex must be to match one occurrence of its alias in the patterns: one of `types`, or
 * one of the types `dynamicTypes` name, or a member of one of the vertex sets in `sets`. With none
 * of the three, any vertex matches.
 */
export interface VertexConstraint {
  readonly types: readonly string[];
  readonly dynamicTypes: readonly TypeNames[];
  /** Slots of vertex-set variables. */
  readonly sets: readonly number[];
  readonly span: Span;
}

export interface BoundVertex {
  readonly index: number;
  /** The alias; absent for a vertex the pattern leaves unnamed. */
  readonly alias?: string;
  readonly slot: number;
  /** VERTEX, or VERTEX<T> when every match has type T. */
  readonly type: QType;
  /** One per occurrence of the alias that says what the vertex is (all must hold). */
  readonly constraints: readonly VertexConstraint[];
  readonly span: Span;
}

/** One alternative of an edge step: an edge type (absent: any) read in one direction. */
export interface BoundEdgeAtom {
  readonly edgeType?: string;
  /** 'out': as stored (undirected: either end), 'in': against the stored direction. */
  readonly direction: 'out' | 'in';
  /** Only undirected edge types (`_`/`ANY` without a marker in V2). */
  readonly undirectedOnly?: boolean;
  /** Only directed edge types (`_>`, `<_`). */
  readonly directedOnly?: boolean;
  /** Edge type names held by a parameter or variable, resolved when the SELECT runs. */
  readonly dynamic?: TypeNames;
  readonly pos: Pos;
}

/** One edge step between two pattern vertices (a `.` chain is several steps). */
export interface BoundHop {
  readonly index: number;
  readonly from: number;
  readonly to: number;
  readonly atoms: readonly BoundEdgeAtom[];
  /** `*min..max` (max Infinity when unbounded): shortest paths only. */
  readonly repeat?: { readonly min: number; readonly max: number };
  readonly alias?: string;
  /** The edge alias's slot, or -1. */
  readonly slot: number;
  /** EDGE, or EDGE<T> for one named edge type. */
  readonly type: QType;
  /** V1's `->` after the step. */
  readonly arrow: boolean;
  readonly span: Span;
}

/** The pattern elements a clause refers to. */
export interface Uses {
  readonly vertices: ReadonlySet<number>;
  readonly hops: ReadonlySet<number>;
}

/** One AND-term of WHERE. */
export interface BoundPredicate extends Uses {
  readonly expr: Expr;
  readonly f: Eval;
}

export interface BoundPost {
  /** The vertex whose distinct matches the statements visit. */
  readonly vertex: number;
  readonly stmts: readonly Stmt[];
  readonly rows: readonly RowStmt[];
  /** Whether global accumulator updates wait for the clause's end. */
  readonly deferGlobals: boolean;
}

export interface BoundSelect {
  readonly vertices: readonly BoundVertex[];
  readonly hops: readonly BoundHop[];
  /** Each FROM pattern as a chain: `vertices[i]` and `vertices[i + 1]` are joined by `hops[i]`. */
  readonly patterns: readonly { readonly vertices: readonly number[]; readonly hops: readonly number[] }[];
  /** The candidates of vertex 0 (the first pattern's source): a vertex set or whole types. */
  readonly source: (ctx: RunContext) => Vtx[] | VertexGids;
  /** Whether the source is a vertex-set variable (not a type or `_`). */
  readonly sourceIsSet: boolean;
  readonly result: number;
  /** `PER (…)`: ACCUM runs once per distinct binding of these elements. */
  readonly per?: Uses;
  /** WHERE's AND-terms, in order. */
  readonly where: readonly BoundPredicate[];
  readonly sample?: Sampler;
  readonly accum: Uses & {
    readonly stmts: readonly Stmt[];
    readonly rows: readonly RowStmt[];
    /** Updates wait for the clause's end (the clause or WHERE reads what it updates). */
    readonly deferred: boolean;
    /** Running the statements again for a row changes nothing (select-clauses.ts repeatInsensitive). */
    readonly repeatable: boolean;
  };
  readonly posts: readonly BoundPost[];
  readonly having?: { readonly expr: Expr; readonly f: Eval };
  readonly order: readonly { readonly f: Eval; readonly desc: boolean }[];
  readonly limit?: Eval;
  readonly offset?: Eval;
  /** Whether the edge alias of some step is read by a closure through evaluate(). */
  readonly callsEvaluate: boolean;
  /** Slots below this belong to the query body. */
  readonly querySlots: number;
  readonly syntax: 'v1' | 'v2' | 'v3' | undefined;
  /** VSET, or VSET<T>. */
  readonly type: QType;
  readonly span: Span;
}
