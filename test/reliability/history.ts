/**
 * The history checker of the crash loop. Every write the workload sends is recorded with what the
 * client learned about it: acknowledged, refused (a definite error), or unknown (the answer was lost
 * to a crash). After each restart the recovered graph is compared with the history:
 * - an acknowledged write is present in full;
 * - an atomic write (REST upsert, GSQL query) is all-or-nothing, acknowledged or not;
 * - a refused write is absent;
 * - nothing is present that was never sent, and every vertex carries the values its request wrote;
 * - an unknown write, once observed after a restart, keeps that outcome in every later recovery;
 * - a register (one vertex per client, overwritten with increasing numbers) is at least its last
 *   acknowledged value and at most its last sent one.
 */

export type OpKind = 'atomic' | 'load' | 'query';
export type OpState = 'pending' | 'ok' | 'refused';

export interface Op {
  kind: OpKind;
  req: number;
  size: number;
  state: OpState;
  /** After a restart found an unknown write: which members were present (kept from then on). */
  observed?: boolean[];
}

export interface Register {
  acked: number;
  sent: number;
}

/** A vertex as the checker reads it: id, request number, index inside the request. */
export interface SeenVertex {
  id: string;
  req: number;
  k: number;
}

/** An edge as the edge-listing query prints it: `req/k>req/k:edgeReq`. */
export interface SeenEdge {
  from: { req: number; k: number };
  to: { req: number; k: number };
  req: number;
}

export const PREFIX: Record<OpKind, string> = { atomic: 'a', load: 'l', query: 'q' };
export const REGISTER_PREFIX = 'c';

export function memberId(kind: OpKind, req: number, k: number): string {
  return `${PREFIX[kind]}${req}-${k}`;
}

/** Atomic upserts and queries link member k to k+1; loading writes vertices only. */
export function edgesOf(op: Op): number {
  return op.kind === 'load' ? 0 : op.size - 1;
}

export class History {
  readonly ops = new Map<number, Op>();
  readonly registers = new Map<string, Register>();
  private nextReq = 1;

  begin(kind: OpKind, size: number): Op {
    const op: Op = { kind, req: this.nextReq++, size, state: 'pending' };
    this.ops.set(op.req, op);
    return op;
  }

  count(kind: OpKind, state: OpState): number {
    let n = 0;
    for (const op of this.ops.values()) if (op.kind === kind && op.state === state) n++;
    return n;
  }

  /** Checks a recovered graph; returns the violations found (empty: consistent). */
  check(
    vertices: readonly SeenVertex[],
    edges: readonly SeenEdge[],
    registers: ReadonlyMap<string, number>,
  ): string[] {
    const bad: string[] = [];
    const present = new Map<number, boolean[]>();
    for (const v of vertices) {
      const m = /^([alq])(\d+)-(\d+)$/.exec(v.id);
      if (!m) {
        if (!v.id.startsWith(REGISTER_PREFIX)) bad.push(`unknown vertex ${v.id}`);
        continue;
      }
      const op = this.ops.get(Number(m[2]));
      const k = Number(m[3]);
      if (!op || PREFIX[op.kind] !== m[1] || k >= op.size) {
        bad.push(`vertex ${v.id} was never written`);
        continue;
      }
      if (v.req !== op.req || v.k !== k) bad.push(`vertex ${v.id} has req=${v.req} k=${v.k}`);
      const seen = present.get(op.req) ?? new Array<boolean>(op.size).fill(false);
      seen[k] = true;
      present.set(op.req, seen);
    }
    const edgeCount = new Map<number, number>();
    for (const e of edges) {
      const op = this.ops.get(e.req);
      if (!op || e.from.req !== e.req || e.to.req !== e.req || e.to.k !== e.from.k + 1 || e.to.k >= op.size) {
        bad.push(`edge ${e.from.req}/${e.from.k}>${e.to.req}/${e.to.k}:${e.req} was never written`);
        continue;
      }
      edgeCount.set(e.req, (edgeCount.get(e.req) ?? 0) + 1);
    }
    for (const op of this.ops.values()) {
      const seen = present.get(op.req) ?? new Array<boolean>(op.size).fill(false);
      const n = seen.filter(Boolean).length;
      const ne = edgeCount.get(op.req) ?? 0;
      const name = `${op.kind} request ${op.req} (${op.state})`;
      if (op.state === 'ok' && (n !== op.size || ne !== edgesOf(op)))
        bad.push(`${name}: acknowledged but ${n}/${op.size} vertices, ${ne}/${edgesOf(op)} edges`);
      if (op.state === 'refused' && n + ne > 0)
        bad.push(`${name}: refused but ${n} vertices, ${ne} edges present`);
      if (op.kind !== 'load') {
        const whole = n === op.size && ne === edgesOf(op);
        if (!whole && n + ne > 0)
          bad.push(`${name}: half-applied, ${n}/${op.size} vertices, ${ne}/${edgesOf(op)} edges`);
      }
      if (op.state === 'pending') {
        if (op.observed === undefined) op.observed = seen;
        else if (op.observed.some((p, i) => p !== seen[i])) bad.push(`${name}: changed between recoveries`);
      }
    }
    for (const [id, reg] of this.registers) {
      const v = registers.get(id);
      if (reg.acked > 0 && (v === undefined || v < reg.acked))
        bad.push(`register ${id}: acknowledged ${reg.acked}, recovered ${v ?? 'nothing'}`);
      if (v !== undefined && v > reg.sent)
        bad.push(`register ${id}: recovered ${v}, never sent beyond ${reg.sent}`);
    }
    return bad;
  }
}

/** The snapshot-read rule: within one read, a request's group is all there or all missing. */
export function checkSnapshot(
  history: History,
  vertices: readonly SeenVertex[],
  ackedBefore: ReadonlySet<number>,
): string[] {
  const bad: string[] = [];
  const counts = new Map<number, number>();
  for (const v of vertices) if (/^[aq]/.test(v.id)) counts.set(v.req, (counts.get(v.req) ?? 0) + 1);
  for (const [req, n] of counts) {
    const op = history.ops.get(req);
    if (op && n !== op.size)
      bad.push(`snapshot read saw ${n}/${op.size} vertices of ${op.kind} request ${req}`);
  }
  for (const req of ackedBefore) {
    const op = history.ops.get(req);
    if (op && op.kind !== 'load' && (counts.get(req) ?? 0) !== op.size)
      bad.push(`snapshot read missed acknowledged ${op.kind} request ${req}`);
  }
  return bad;
}
