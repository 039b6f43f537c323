/** The text of a graph field by its kind: a vertex list, an aggregate, a connection page. */
import type { ReadTx } from '../engine/api.js';
import { aggregate, renderValues, type Computed } from './aggregate.js';
import { compareTuples, encodeCursor } from './connection.js';
import { type ExecState, jsonKey, U32 } from './exec-state.js';
import { vertexAttrReader } from './filter.js';
import type { EdgeFieldModel } from './model.js';
import { sortedPositions, type SortColumn } from './order.js';
import type { AggregateField, ConnectionField, GraphField } from './plan.js';
import { arrangedRows, orderColumns, sourceRows } from './row-order.js';
import { vertexTexts } from './selection-texts.js';
import { listText, textOf } from './texts.js';

export async function listField(x: ExecState, f: Extract<GraphField, { k: 'list' }>): Promise<string> {
  const rows = arrangedRows(x.tx, f.source, f.page, await sourceRows(x, f.source));
  return listText(await vertexTexts(x, x.tx, f.sel, rows));
}

/** The degree of a vertex of `vm` by one of its edge fields, over one snapshot. */
function degreeReader(tx: ReadTx, edge: EdgeFieldModel): (row: number) => number {
  const views = tx.adjacency(edge.edgeType, edge.sourceType, edge.targetType);
  return (row) => {
    let d = 0;
    for (const v of views) d += v.degree(row);
    return d;
  };
}

export async function aggregateField(x: ExecState, f: AggregateField): Promise<string> {
  const tx = x.tx;
  const vm = f.source.vm;
  const onlyCount = f.sel.fields.every((s) => s.json !== undefined || s.name === 'count');
  if (onlyCount && !f.source.filter && !f.source.seek) {
    const count = String(tx.vertexCount(vm.type.name));
    const obj: Computed = {};
    for (const s of f.sel.fields) if (s.json === undefined) obj[s.key] = count;
    return renderValues(f.sel.fields, obj);
  }
  const rows = await sourceRows(x, f.source);
  x.coop.step(rows.length);
  const obj = aggregate(f.sel, {
    n: rows.length,
    attributes: vm.attributes,
    catalog: x.catalog,
    read: (name) => {
      const read = vertexAttrReader(tx, vm, name);
      return (i) => read(rows[i]);
    },
    degree: (field) => {
      const deg = degreeReader(tx, vm.edges.find((e) => e.field === field) as EdgeFieldModel);
      return (i) => deg(rows[i]);
    },
  });
  return renderValues(f.sel.fields, obj);
}

export async function connectionField(x: ExecState, f: ConnectionField): Promise<string> {
  const tx = x.tx;
  const vm = f.source.vm;
  const rows = await sourceRows(x, f.source);
  const keys = f.source.order;
  const readers = keys.map((k) => vertexAttrReader(tx, vm, k.attribute));
  const idOf = vertexAttrReader(tx, vm, '_id');
  const after = f.after;
  // Vertices after the cursor, then the first `first` (+1 to know whether more follow) in order.
  let candidates = rows;
  if (after) {
    const out = new U32();
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const values = readers.map((read) => read(r));
      if (compareTuples(keys, values, idOf(r), after.values, after.id) > 0) out.push(r);
      if (x.coop.step()) await x.coop.pause();
    }
    candidates = out.view();
  }
  const cols: SortColumn[] = [
    ...orderColumns(tx, vm, keys, candidates),
    { read: (i) => idOf(candidates[i]), desc: false },
  ];
  const order = sortedPositions(candidates.length, cols);
  const take = f.first === undefined ? candidates.length : Math.min(f.first, candidates.length);
  const page = Uint32Array.from(order.subarray(0, take), (i) => candidates[i]);
  const cursor = (r: number) =>
    JSON.stringify(
      encodeCursor(
        f.orderSig,
        readers.map((read) => read(r)),
        idOf(r),
      ),
    );
  let s = '{';
  let first = true;
  for (const p of f.fields) {
    s += jsonKey(p.key, first);
    first = false;
    if (p.k === 'const') s += p.json;
    else if (p.k === 'totalCount') s += String(rows.length);
    else if (p.k === 'pageInfo') {
      const info: Computed = {};
      for (const q of p.fields) {
        if (q.name === 'hasNextPage') info[q.key] = String(take < candidates.length);
        else if (q.name === 'hasPreviousPage')
          info[q.key] = String(after !== undefined && candidates.length < rows.length);
        else if (q.name === 'startCursor') info[q.key] = take > 0 ? cursor(page[0]) : null;
        else if (q.name === 'endCursor') info[q.key] = take > 0 ? cursor(page[take - 1]) : null;
      }
      s += renderValues(p.fields, info);
    } else {
      const node = p.fields.find((q) => q.k === 'node');
      const texts = node && node.k === 'node' ? await vertexTexts(x, tx, node.sel, page) : undefined;
      const items: string[] = [];
      for (let i = 0; i < take; i++) {
        let t = '{';
        p.fields.forEach((q, k) => {
          t += jsonKey(q.key, k === 0);
          if (q.k === 'const') t += q.json;
          else if (q.k === 'cursor') t += cursor(page[i]);
          else if (texts) t += textOf(texts, i);
        });
        items.push(`${t}}`);
      }
      s += `[${items.join(',')}]`;
    }
  }
  return `${s}}`;
}
