/**
 * The rows of a graph field's vertices: looked up by id or scanned, filtered, then put in the
 * order the field asks for and paged (also used by point lookups, point.ts).
 */
import type { ExternalId, ReadTx } from '../engine/api.js';
import { type ExecState, U32 } from './exec-state.js';
import { vertexAttrReader } from './filter.js';
import type { VertexModel } from './model.js';
import { sortedPositions, type Page, type SortColumn, type SortKey } from './order.js';
import type { RowSource } from './plan.js';

/** The rows of the vertices of `type` that `seek` names: each found one once, in row order. */
export function seekRows(tx: ReadTx, type: string, seek: readonly ExternalId[]): Uint32Array {
  if (seek.length === 1) {
    // A point lookup: no set to dedupe, nothing to sort.
    const row = tx.lookup(type, seek[0]);
    return row === undefined ? new Uint32Array(0) : Uint32Array.of(row);
  }
  const found = new Set<number>();
  for (const id of seek) {
    const row = tx.lookup(type, id);
    if (row !== undefined) found.add(row);
  }
  return Uint32Array.from([...found].sort((a, b) => a - b));
}

/** The rows of a graph field's vertices: looked up by id or scanned, filtered, not yet ordered. */
export async function sourceRows(x: ExecState, source: RowSource): Promise<Uint32Array> {
  const tx = x.tx;
  const type = source.vm.type.name;
  const rows = source.seek ? seekRows(tx, type, source.seek) : tx.rows(type);
  if (!source.filter) return rows;
  const test = source.filter.bind(tx, x.coop);
  const out = new U32();
  for (let i = 0; i < rows.length; i++) {
    if (test(rows[i])) out.push(rows[i]);
    if (x.coop.step()) await x.coop.pause();
  }
  return out.view();
}

export function orderColumns(
  tx: ReadTx,
  vm: VertexModel,
  keys: readonly SortKey[],
  rows: ArrayLike<number>,
): SortColumn[] {
  return keys.map((k) => {
    const read = vertexAttrReader(tx, vm, k.attribute);
    return { read: (i: number) => read(rows[i]), desc: k.desc };
  });
}

export function paged<T extends { length: number; slice(a: number, b?: number): T }>(
  items: T,
  page: Page,
): T {
  if (page.offset === 0 && (page.limit === undefined || page.limit >= items.length)) return items;
  return items.slice(page.offset, page.limit === undefined ? undefined : page.offset + page.limit);
}

/** A list's rows in the order its source asks for, then paged. */
export function arrangedRows(tx: ReadTx, source: RowSource, page: Page, rows: Uint32Array): Uint32Array {
  if (source.order.length > 0) {
    const order = sortedPositions(rows.length, orderColumns(tx, source.vm, source.order, rows));
    const sorted = new Uint32Array(rows.length);
    for (let i = 0; i < rows.length; i++) sorted[i] = rows[order[i]];
    rows = sorted;
  }
  return paged(rows, page);
}
