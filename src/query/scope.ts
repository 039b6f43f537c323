/**
 * Compile-time state shared by the expression, statement and SELECT compilers: the scopes of names,
 * the declared accumulators and tuples, which clause is being compiled, and the schema of the graph.
 */
import type { Pos, SelectBlock, Stmt } from '../gsql/ast-query.js';
import type { Catalog, EdgeType, VertexType } from '../catalog/types.js';
import type { Accum } from './accumulators.js';
import type { DenseKind } from './accum-dense.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import { attrTypeToQ, type AccumT, type QType, type TupleT } from './types.js';

export type Eval = (ctx: RunContext) => unknown;

/** A compiled expression: its type and the closure computing it. */
export interface Typed {
  t: QType;
  f: Eval;
  /** For long-running values (SELECT blocks): the same computation, yielding to the event loop. */
  async?: (ctx: RunContext) => Promise<unknown>;
  /**
   * For a vertex set: the value as kept, possibly run indexes (VertexGids), for the readers that
   * take them (a vertex-set assignment, SELECT's source, `.size()`); `f` gives the Vtx list.
   */
  raw?: Eval;
  rawAsync?: (ctx: RunContext) => Promise<unknown>;
}

/** Control signal of a statement: carry on, or leave the loop/query. */
export const enum Flow {
  Next = 0,
  Break = 1,
  Continue = 2,
  Return = 3,
}

/** A statement of an ACCUM/POST-ACCUM clause (synchronous, runs once per row). */
export type RowStmt = (ctx: RunContext) => Flow;
/** A statement of the query body (may yield). */
export type BodyStmt = (ctx: RunContext) => Promise<Flow>;

/** What the compiler needs to know of a callable query (see compile-query's CompiledSubquery). */
export interface SubqueryRef {
  name: string;
  params: { name: string; type: QType }[];
  returns?: QType;
  call(caller: RunContext, args: unknown[]): unknown;
}

export interface VarBinding {
  slot: number;
  t: QType;
  /** SELECT aliases cannot be assigned (a FOREACH variable can: its next item replaces it). */
  readonly: boolean;
  /** A SELECT alias: the vertex types it may take (empty: any). */
  aliasTypes?: string[];
  /** A SELECT edge alias over named edge types: those types (absent: any edge type). */
  edgeTypes?: string[];
}

export interface GlobalAccum {
  name: string;
  slot: number;
  t: AccumT;
}

export interface VertexAccum {
  name: string;
  index: number;
  t: AccumT;
  /** Creates the accumulator of one vertex with the declared initial value. */
  make: (ctx: RunContext) => Accum;
  /** Whether the query reads `@name'`: updates then keep the value from before each SELECT. */
  primed?: boolean;
  /** Set when the values are plain numbers/booleans: a run keeps them in one typed array. */
  dense?: DenseKind;
}

/** `… EDGE @name`: an edge-attached accumulator; its run's EdgeAccums sit in `slot`. */
export interface EdgeAccum {
  name: string;
  slot: number;
  t: AccumT;
}

/** Which part of a query is being compiled (accumulator rules differ per clause). */
export type Clause = 'body' | 'WHERE' | 'ACCUM' | 'POST-ACCUM' | 'HAVING' | 'ORDER BY' | 'PRINT';

class Scope {
  readonly names = new Map<string, VarBinding>();
  constructor(readonly parent?: Scope) {}
  lookup(name: string): VarBinding | undefined {
    return this.names.get(name) ?? this.parent?.lookup(name);
  }
}

/** Where an expression was compiled: enough to compile another one there later (evaluate()). */
export interface CxPlace {
  scope: Scope;
  clause: Clause;
  clauseSlotBase: number;
}

export class Cx {
  slots = 0;
  /** How many evaluate() calls have been compiled (a statement holding one may fail silently). */
  evaluateCalls = 0;
  private scope = new Scope();
  readonly globals = new Map<string, GlobalAccum>();
  readonly vaccs = new Map<string, VertexAccum>();
  readonly eaccs = new Map<string, EdgeAccum>();
  readonly tuples = new Map<string, TupleT>();
  /** User-defined exceptions (`EXCEPTION name (code)`): name -> error code. */
  readonly exceptions = new Map<string, number>();
  clause: Clause = 'body';
  loopDepth = 0;
  /** Set by compile-query: compiles a SELECT block into a vertex-set closure. */
  compileSelect!: (cx: Cx, block: SelectBlock, pos: Pos) => Typed;
  /** Set by compile-query: compiles ACCUM/POST-ACCUM statements. */
  compileRowStmts!: (cx: Cx, stmts: Stmt[]) => RowStmt[];
  /** Finds other stored queries called as functions. */
  resolveQuery?: (name: string) => SubqueryRef | undefined;
  /** Finds GSQL functions (`lib.f`) by their dotted name. */
  resolveFunction?: (name: string) => SubqueryRef | undefined;
  /** Slots of the query's parameters (a parameter given no value is NULL). */
  readonly paramSlots = new Set<number>();
  /** The RETURNS type of the query, if any. */
  returns?: QType;
  /** SELECT kernels in compile order (their index names them to other threads, see parallel.ts). */
  readonly kernels: unknown[] = [];
  /** Set once the query is compiled: kernels compiled later (evaluate() at run time) get no index. */
  kernelsSealed = false;
  /** Whether the query was created DISTRIBUTED (virtual edges need it). */
  distributed = false;
  /** The query's virtual edge types (CREATE … VIRTUAL EDGE), in declaration order. */
  readonly virtualEdges = new Map<string, EdgeType>();

  /** Registers a SELECT kernel; its index, or -1 once the query is compiled. */
  registerKernel(k: unknown): number {
    if (this.kernelsSealed) return -1;
    return this.kernels.push(k) - 1;
  }

  constructor(
    readonly queryName: string,
    readonly src: string,
    readonly catalog: Catalog,
    readonly graphName: string,
    readonly syntax: 'v1' | 'v2' | 'v3' | undefined,
    /** Where `src` starts in the text the expressions were parsed from. */
    readonly srcStart = 0,
  ) {
    for (const t of catalog.tuples) {
      this.tuples.set(t.name, attrTypeToQ({ kind: 'UDT', name: t.name }, catalog.tuples) as TupleT);
    }
  }

  newSlot(): number {
    return this.slots++;
  }

  lookup(name: string): VarBinding | undefined {
    return this.scope.lookup(name);
  }

  declare(name: string, t: QType, pos: Pos, readonly = false): VarBinding {
    if (this.scope.names.has(name)) throw compileError(pos, `"${name}" is already declared in this scope`);
    const b: VarBinding = { slot: this.newSlot(), t, readonly };
    this.scope.names.set(name, b);
    return b;
  }

  /**
   * Declares a vertex-set variable for the whole query: GSQL lets a vertex set first assigned in an
   * IF branch or loop body be used after it (`IF … THEN na = SELECT …; ELSE na = …; END; u = na …`).
   */
  declareQueryWide(name: string, t: QType, pos: Pos): VarBinding {
    let root = this.scope;
    while (root.parent) root = root.parent;
    if (root.names.has(name)) throw compileError(pos, `"${name}" is already declared in this scope`);
    const b: VarBinding = { slot: this.newSlot(), t, readonly: false };
    root.names.set(name, b);
    return b;
  }

  /** Makes `name` another name of an existing binding in the current scope. */
  bindAs(name: string, b: VarBinding): void {
    this.scope.names.set(name, b);
  }

  /** The current place: names in scope and the clause being compiled. */
  place(): CxPlace {
    return { scope: this.scope, clause: this.clause, clauseSlotBase: this.clauseSlotBase };
  }

  /** Runs fn as if compiling at `p` again. */
  at<R>(p: CxPlace, fn: () => R): R {
    const saved = this.place();
    this.scope = p.scope;
    this.clause = p.clause;
    this.clauseSlotBase = p.clauseSlotBase;
    try {
      return fn();
    } finally {
      this.scope = saved.scope;
      this.clause = saved.clause;
      this.clauseSlotBase = saved.clauseSlotBase;
    }
  }

  /** Runs fn in a nested scope (block, loop body, SELECT). */
  nested<R>(fn: () => R): R {
    const saved = this.scope;
    this.scope = new Scope(saved);
    try {
      return fn();
    } finally {
      this.scope = saved;
    }
  }

  /** Slots from here on belong to the ACCUM/POST-ACCUM clause being compiled (its local variables). */
  clauseSlotBase = Infinity;

  withClauseSlots<R>(fn: () => R): R {
    const saved = this.clauseSlotBase;
    this.clauseSlotBase = this.slots;
    try {
      return fn();
    } finally {
      this.clauseSlotBase = saved;
    }
  }

  inClause<R>(clause: Clause, fn: () => R): R {
    const saved = this.clause;
    this.clause = clause;
    try {
      return fn();
    } finally {
      this.clause = saved;
    }
  }

  graphDef(): Catalog['graphs'][number] | undefined {
    return this.catalog.graphs.find((g) => g.name === this.graphName);
  }

  /** Vertex type of the query's graph, by name (case-sensitive, as in GSQL). */
  vertexType(name: string): VertexType | undefined {
    const g = this.graphDef();
    if (g && !g.vertexTypes.includes(name)) return undefined;
    return this.catalog.vertexTypes.find((v) => v.name === name);
  }

  edgeType(name: string): EdgeType | undefined {
    const virtual = this.virtualEdges.get(name);
    if (virtual) return virtual;
    const g = this.graphDef();
    if (g && !g.edgeTypes.includes(name) && !this.isReverseEdgeOfGraph(name)) return undefined;
    return (
      this.catalog.edgeTypes.find((e) => e.name === name) ??
      this.catalog.edgeTypes.find((e) => e.reverseEdge === name)
    );
  }

  private isReverseEdgeOfGraph(name: string): boolean {
    const g = this.graphDef();
    return !!g && this.catalog.edgeTypes.some((e) => e.reverseEdge === name && g.edgeTypes.includes(e.name));
  }

  vertexTypeNames(): string[] {
    return this.graphDef()?.vertexTypes ?? this.catalog.vertexTypes.map((v) => v.name);
  }

  edgeTypeNames(): string[] {
    return this.graphDef()?.edgeTypes ?? this.catalog.edgeTypes.map((e) => e.name);
  }
}
