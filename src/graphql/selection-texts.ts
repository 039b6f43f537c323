/**
 * The JSON texts of a selection level by level: the object of each vertex of a list, the edges of
 * each edge field for all of them at once (adjacency arrays when no edge attribute is read, edge
 * handles otherwise), the next level for all edges reached, and per-vertex edge aggregates. Every
 * loop counts its work with the request's Cooperation.
 */
import type { EdgeHandle, ReadTx } from '../engine/api.js';
import { aggregate, renderValues } from './aggregate.js';
import { type EdgeSet, type ExecState, jsonKey, U32 } from './exec-state.js';
import { vertexAttrReader } from './filter.js';
import { sortedPositions, type Page } from './order.js';
import type { EdgeAggregateField, EdgeListField, EdgeSelection, VertexSelection } from './plan.js';
import { paged } from './row-order.js';
import { CLOSE, NULL, OPEN, TextWriter, writeList, type Texts } from './texts.js';

/** The JSON object of each vertex of `rows` as `sel` selects it. */
export async function vertexTexts(
  x: ExecState,
  tx: ReadTx,
  sel: VertexSelection,
  rows: ArrayLike<number>,
): Promise<Texts> {
  const n = rows.length;
  x.coop.addRows(n);
  const parts: ((w: TextWriter, i: number) => void)[] = [];
  for (const f of sel.fields) {
    const prefix = Buffer.from(jsonKey(f.key, parts.length === 0));
    if (f.k === 'const') parts.push(constantPart(prefix, f.json));
    else if (f.k === 'attr') {
      const read = vertexAttrReader(tx, sel.vm, f.attribute);
      const write = f.write;
      parts.push(
        f.ascii
          ? (w, i) => {
              w.bytes(prefix);
              w.ascii(write(read(rows[i])));
            }
          : (w, i) => {
              w.bytes(prefix);
              w.text(write(read(rows[i])));
            },
      );
    } else if (f.k === 'edges') {
      const { offsets, set } = await edgeLists(x, tx, f, rows);
      const texts = await edgeTexts(x, tx, f.sel, set);
      parts.push((w, i) => {
        w.bytes(prefix);
        writeList(w, texts, offsets[i], offsets[i + 1]);
      });
    } else {
      const texts = await edgeAggregates(x, tx, f, rows);
      parts.push((w, i) => {
        w.bytes(prefix);
        w.text(texts[i]);
      });
    }
  }
  return compose(x, n, parts);
}

/** The part of a constant member: its `"key":` prefix and JSON, as one run of bytes. */
function constantPart(prefix: Buffer, json: string): (w: TextWriter) => void {
  const constant = Buffer.from(prefix + json);
  return (w) => w.bytes(constant);
}

/** Writes n items of the given parts, each between braces. */
async function compose(
  x: ExecState,
  n: number,
  parts: ((w: TextWriter, i: number) => void)[],
): Promise<Texts> {
  const w = new TextWriter(n, 16 * (parts.length + 1));
  for (let i = 0; i < n; i++) {
    w.bytes(OPEN);
    for (const p of parts) p(w, i);
    w.bytes(CLOSE);
    w.end();
    if (x.coop.step(parts.length + 1)) await x.coop.pause();
  }
  return w.done();
}

/** Applies limit/offset to the last parent's run of edges in the buffers. */
function pageRun(start: number, page: Page, bufs: U32[], handles: EdgeHandle[] | null): void {
  const count = bufs[0].n - start;
  const from = Math.min(page.offset, count);
  const take = page.limit === undefined ? count - from : Math.min(page.limit, count - from);
  if (from === 0 && take === count) return;
  for (const b of bufs) {
    b.a.copyWithin(start, start + from, start + from + take);
    b.n = start + take;
  }
  if (handles) handles.splice(start, count, ...handles.slice(start + from, start + from + take));
}

/** The edges of `f` from every vertex of `rows`: offsets per parent into one edge set. */
async function edgeLists(
  x: ExecState,
  tx: ReadTx,
  f: EdgeListField,
  rows: ArrayLike<number>,
): Promise<{ offsets: Uint32Array; set: EdgeSet }> {
  const e = f.edge;
  const n = rows.length;
  const offsets = new Uint32Array(n + 1);
  const src = new U32();
  const tgt = new U32();
  const paging = f.page.offset > 0 || f.page.limit !== undefined;
  const handles = f.sel.needsHandles || f.filter || f.order.length > 0 ? ([] as EdgeHandle[]) : null;
  if (!handles) {
    const views = tx.adjacency(e.edgeType, e.sourceType, e.targetType);
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      const start = tgt.n;
      for (const v of views) {
        if (v.clean) {
          if (r + 1 >= v.offsets.length) continue;
          const end = v.offsets[r + 1];
          for (let k = v.offsets[r]; k < end; k++) {
            const t = v.targets[k];
            if (!(v.skipSelfLoops && t === r)) tgt.push(t);
          }
        } else v.forEach(r, (t) => tgt.push(t));
      }
      for (let k = start; k < tgt.n; k++) src.push(r);
      if (paging) pageRun(start, f.page, [src, tgt], null);
      offsets[i + 1] = tgt.n;
      if (x.coop.step(tgt.n - start + 1)) await x.coop.pause();
    }
  } else {
    const test = f.filter?.bind(tx, x.coop);
    const filter = { edgeType: e.edgeType, targetType: e.targetType };
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      let hs = tx.edges(e.sourceType, r, filter);
      if (test) hs = hs.filter(test);
      if (f.order.length > 0) {
        const cols = f.order.map((k) => ({
          read: (j: number) => tx.edgeAttr(hs[j], k.attribute),
          desc: k.desc,
        }));
        const ord = sortedPositions(hs.length, cols);
        hs = Array.from(ord, (j) => hs[j]);
      }
      hs = paged(hs, f.page);
      for (const h of hs) {
        handles.push(h);
        src.push(r);
        tgt.push(h.tgtRow);
      }
      offsets[i + 1] = tgt.n;
      if (x.coop.step(hs.length + 1)) await x.coop.pause();
    }
  }
  x.coop.addRows(tgt.n);
  return {
    offsets,
    set: {
      n: tgt.n,
      src: src.view(),
      tgt: tgt.view(),
      handles,
      srcType: e.sourceType,
      tgtType: e.targetType,
    },
  };
}

/** The JSON object of each edge of `set` as `sel` selects it. */
export async function edgeTexts(x: ExecState, tx: ReadTx, sel: EdgeSelection, set: EdgeSet): Promise<Texts> {
  const n = set.n;
  const parts: ((w: TextWriter, j: number) => void)[] = [];
  for (const f of sel.fields) {
    const prefix = Buffer.from(jsonKey(f.key, parts.length === 0));
    if (f.k === 'const') parts.push(constantPart(prefix, f.json));
    else if (f.k === 'attr') {
      const hs = set.handles as EdgeHandle[];
      const write = f.write;
      parts.push((w, j) => {
        w.bytes(prefix);
        if (f.ascii) w.ascii(write(tx.edgeAttr(hs[j], f.attribute)));
        else w.text(write(tx.edgeAttr(hs[j], f.attribute)));
      });
    } else if (f.k === 'endName') {
      const rows = f.side === 'from' ? set.src : set.tgt;
      const types = set.types ? (f.side === 'from' ? set.types.src : set.types.tgt) : undefined;
      const fixed = f.side === 'from' ? set.srcType : set.tgtType;
      const typeOf = (j: number) => (types ? types[j] : fixed);
      parts.push((w, j) => {
        w.bytes(prefix);
        w.text(JSON.stringify(f.what === 'type' ? typeOf(j) : tx.vertexId(typeOf(j), rows[j])));
      });
    } else {
      const rows = f.side === 'from' ? set.src : set.tgt;
      const test = f.filter?.bind(tx, x.coop);
      const pass = new U32();
      const at = new Int32Array(n).fill(-1);
      for (let j = 0; j < n; j++) {
        if (!test || test(rows[j])) {
          at[j] = pass.n;
          pass.push(rows[j]);
        }
        if (x.coop.step()) await x.coop.pause();
      }
      const texts = await vertexTexts(x, tx, f.sel, pass.view());
      parts.push((w, j) => {
        w.bytes(prefix);
        if (at[j] < 0) w.bytes(NULL);
        else w.copy(texts, at[j]);
      });
    }
  }
  return compose(x, n, parts);
}

async function edgeAggregates(
  x: ExecState,
  tx: ReadTx,
  f: EdgeAggregateField,
  rows: ArrayLike<number>,
): Promise<string[]> {
  const e = f.edge;
  const test = f.filter?.bind(tx, x.coop);
  const out = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    let hs = tx.edges(e.sourceType, rows[i], { edgeType: e.edgeType, targetType: e.targetType });
    if (test) hs = hs.filter(test);
    const obj = aggregate(f.sel, {
      n: hs.length,
      attributes: e.attributes,
      catalog: x.catalog,
      read: (name) => (j) => tx.edgeAttr(hs[j], name),
    });
    out[i] = renderValues(f.sel.fields, obj);
    if (x.coop.step(hs.length + 1)) await x.coop.pause();
  }
  return out;
}
