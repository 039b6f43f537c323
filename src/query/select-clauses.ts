/**
 * What a SELECT block's clauses refer to, and the start and end of an ACCUM/POST-ACCUM clause
 * (whether its updates wait for its end): the analysis compile-select.ts makes before running.
 */
import type { Expr, SelectBlock, Stmt } from '../gsql/ast-query.js';
import { ClauseUpdates } from './clause-updates.js';
import type { RunContext } from './context.js';

/** The AND-ed terms of a condition (none for no condition). */
export function conjuncts(e: Expr | undefined): Expr[] {
  if (!e) return [];
  if (e.kind === 'binary' && e.op === 'AND') return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

/** Names a statement refers to (to decide which alias a POST-ACCUM statement iterates). */
export function namesIn(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) namesIn(n, out);
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o.kind === 'name' && typeof o.name === 'string') out.add(o.name);
    // `DELETE (x)` in ACCUM reads alias x (an edge alias must then be bound per row).
    if (o.kind === 'delete' && typeof o.alias === 'string' && o.select === undefined) out.add(o.alias);
    for (const [k, v] of Object.entries(o)) if (k !== 'pos') namesIn(v, out);
  }
  return out;
}

/** Whether the block reads an attribute or accumulator of `name` (`name.attr`, `name.@acc`). */
export function readsAsVertex(b: SelectBlock, name: string): boolean {
  let found = false;
  const visit = (node: unknown): void => {
    if (found) return;
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const o = node as { kind?: string; target?: { kind?: string; name?: string } };
      if ((o.kind === 'field' || o.kind === 'vattach') && o.target?.kind === 'name' && o.target.name === name)
        found = true;
      else for (const [k, v] of Object.entries(o)) if (k !== 'pos') visit(v);
    }
  };
  visit([b.where, b.accum, b.postAccum, b.having, b.orderBy]);
  return found;
}

/**
 * Whether statements read an accumulator they also update (only globals when `globalsOnly`); if
 * not, applying updates at once gives the same result as applying them at the clause end.
 */
export function readsWhatItWrites(stmts: Stmt[], globalsOnly: boolean, where?: Expr): boolean {
  const written = new Set<string>();
  const read = new Set<string>();
  const key = (n: { kind: string; name: string }): string =>
    (n.kind === 'global' ? '@@' : n.kind === 'name' ? '$' : '@') + n.name;
  const declared = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const x of node) visit(x);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const o = node as { kind?: string; name?: string; target?: unknown; value?: unknown };
    if (o.kind === 'assign') {
      const t = o.target as { kind: string; name: string; target?: unknown };
      if (t.kind === 'global' || t.kind === 'vattach' || t.kind === 'name') {
        written.add(key(t));
        visit(t.target);
        visit(o.value);
        return;
      }
    }
    if ((o.kind === 'global' || o.kind === 'vattach' || o.kind === 'name') && typeof o.name === 'string') {
      read.add(key(o as { kind: string; name: string }));
    }
    if (o.kind === 'varDecl')
      for (const d of (o as { names: { name: string }[] }).names) declared.add('$' + d.name);
    for (const [k, v] of Object.entries(o)) if (k !== 'pos') visit(v);
  };
  visit(stmts);
  visit(where);
  // A variable of the query body assigned in the clause is global too (one declared there is local).
  for (const w of written) {
    if (!read.has(w) || declared.has(w)) continue;
    if (!globalsOnly || w.startsWith('@@')) return true;
  }
  return false;
}

/** Accumulators for which adding the same input again changes nothing. */
const REPEAT_INSENSITIVE = new Set([
  'OrAccum',
  'AndAccum',
  'MinAccum',
  'MaxAccum',
  'SetAccum',
  'BitwiseOrAccum',
  'BitwiseAndAccum',
]);

/**
 * Whether running ACCUM's statements twice for a row leaves what running them once does: each is
 * `+=` into an Or/And/Min/Max/Set/Bitwise accumulator (global or vertex-attached, not an array
 * cell) of a value without calls. Then a row standing for several matched paths runs them once.
 */
export function repeatInsensitive(
  stmts: readonly Stmt[],
  accumKind: (target: Expr) => string | undefined,
): boolean {
  const callFree = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.every(callFree);
    if (!node || typeof node !== 'object') return true;
    const o = node as { kind?: unknown };
    if (o.kind === 'call' || o.kind === 'method' || o.kind === 'select') return false;
    return Object.entries(o).every(([k, v]) => k === 'pos' || callFree(v));
  };
  return stmts.every(
    (st) =>
      st.kind === 'assign' &&
      st.op === '+=' &&
      REPEAT_INSENSITIVE.has(accumKind(st.target) ?? '') &&
      callFree(st.target) &&
      callFree(st.value),
  );
}

/**
 * Starts an ACCUM or POST-ACCUM clause: when `defer`, accumulator updates wait in the returned list
 * until the clause ends (vertex-attached ones too when `deferVertexUpdates`).
 */
export function beginClause(
  ctx: RunContext,
  defer: boolean,
  deferVertexUpdates: boolean,
): ClauseUpdates | null {
  if (!defer) return null;
  const pending = new ClauseUpdates();
  ctx.pending = pending;
  ctx.deferVertexUpdates = deferVertexUpdates;
  return pending;
}

export function endClause(ctx: RunContext): void {
  ctx.pending = null;
  ctx.deferVertexUpdates = false;
}
