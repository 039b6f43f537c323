/**
 * Runs a plan over one snapshot and writes the response's `data` as JSON text. Execution goes level
 * by level: the vertices of a list are found, then each edge field is computed for all of them at
 * once (adjacency arrays when no edge attribute is read, edge handles otherwise), then the next
 * level for all edges reached; texts are composed bottom-up. Every loop counts its work with the
 * request's Cooperation, which checks the deadline, the abort signal and the row limit and yields
 * to the event loop regularly.
 *
 * A field error (a bad whereExpr, a refused write) nulls the graph or mutation field it occurs in
 * and is reported with that field's path; a LimitError ends the whole request.
 */
import type { Catalog } from '../catalog/types.js';
import type { EdgeHandle, ExternalId, ReadTx } from '../engine/api.js';
import { aggregate, renderValues, type Computed } from './aggregate.js';
import { compareTuples, encodeCursor } from './connection.js';
import { vertexAttrReader } from './filter.js';
import { isFieldError, type Cooperation } from './limits.js';
import { CLOSE, listText, NULL, OPEN, TextWriter, textOf, writeList, type Texts } from './texts.js';
import type { EdgeFieldModel, VertexModel } from './model.js';
import { sortedPositions, type Page, type SortColumn, type SortKey } from './order.js';
import type {
  AggregateField,
  ConnectionField,
  EdgeAggregateField,
  EdgeListField,
  EdgeSelection,
  ErrorSite,
  GraphField,
  MutationContext,
  MutationField,
  Plan,
  RowSource,
  VertexSelection,
} from './plan.js';

export interface FormattedError {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

/** What a plan runs with. */
export interface ExecState {
  catalog: Catalog;
  /** The snapshot queries read. */
  tx: ReadTx;
  coop: Cooperation;
  errors: FormattedError[];
  /** Answers an introspection root field (`__schema`, `__type`) as JSON text. */
  introspect: (key: string) => Promise<string>;
  mutation: MutationContext;
}

export function fieldError(e: Error, site: ErrorSite): FormattedError {
  const code = (e as { code?: unknown }).code;
  return {
    message: e.message,
    locations: site.locations,
    path: site.path,
    ...(typeof code === 'string' ? { extensions: { code } } : {}),
  };
}

/** `"k":` of an object's member (`,"k":` after the first). */
export const jsonKey = (k: string, first: boolean): string => `${first ? '' : ','}${JSON.stringify(k)}:`;
const key = jsonKey;

/** A growable Uint32Array. */
class U32 {
  a = new Uint32Array(64);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  view(): Uint32Array {
    return this.a.subarray(0, this.n);
  }
}

/** Edges reached by one edge field (or written by a mutation), as parallel arrays. */
interface EdgeSet {
  n: number;
  src: Uint32Array;
  tgt: Uint32Array;
  handles: EdgeHandle[] | null;
  srcType: string;
  tgtType: string;
  /** Per-edge endpoint types in stored direction (a mutation's rows of a multi-pair edge type). */
  types?: { src: string[]; tgt: string[] };
}

// ---------------------------------------------------------------------------------------------
// Vertices
// ---------------------------------------------------------------------------------------------

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
    const prefix = Buffer.from(key(f.key, parts.length === 0));
    if (f.k === 'const') {
      const constant = Buffer.from(prefix + f.json);
      parts.push((w) => w.bytes(constant));
    } else if (f.k === 'attr') {
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
async function sourceRows(x: ExecState, source: RowSource): Promise<Uint32Array> {
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

function orderColumns(
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

function paged<T extends { length: number; slice(a: number, b?: number): T }>(items: T, page: Page): T {
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

async function listField(x: ExecState, f: Extract<GraphField, { k: 'list' }>): Promise<string> {
  const rows = arrangedRows(x.tx, f.source, f.page, await sourceRows(x, f.source));
  return listText(await vertexTexts(x, x.tx, f.sel, rows));
}

// ---------------------------------------------------------------------------------------------
// Edges
// ---------------------------------------------------------------------------------------------

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
async function edgeTexts(x: ExecState, tx: ReadTx, sel: EdgeSelection, set: EdgeSet): Promise<Texts> {
  const n = set.n;
  const parts: ((w: TextWriter, j: number) => void)[] = [];
  for (const f of sel.fields) {
    const prefix = Buffer.from(key(f.key, parts.length === 0));
    if (f.k === 'const') {
      const constant = Buffer.from(prefix + f.json);
      parts.push((w) => w.bytes(constant));
    } else if (f.k === 'attr') {
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

// ---------------------------------------------------------------------------------------------
// Aggregates and connections
// ---------------------------------------------------------------------------------------------

/** The degree of a vertex of `vm` by one of its edge fields, over one snapshot. */
function degreeReader(tx: ReadTx, edge: EdgeFieldModel): (row: number) => number {
  const views = tx.adjacency(edge.edgeType, edge.sourceType, edge.targetType);
  return (row) => {
    let d = 0;
    for (const v of views) d += v.degree(row);
    return d;
  };
}

async function aggregateField(x: ExecState, f: AggregateField): Promise<string> {
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

async function connectionField(x: ExecState, f: ConnectionField): Promise<string> {
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
    s += key(p.key, first);
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
          t += key(q.key, k === 0);
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

// ---------------------------------------------------------------------------------------------
// The operation
// ---------------------------------------------------------------------------------------------

async function graphFieldText(x: ExecState, f: GraphField): Promise<string> {
  switch (f.k) {
    case 'const':
      return f.json;
    case 'failed':
      x.errors.push(fieldError(f.error, f.site));
      return 'null';
    case 'list':
      return listField(x, f);
    case 'aggregate':
      return aggregateField(x, f);
    case 'connection':
      return connectionField(x, f);
  }
}

/** A mutation field: its write, then its selection over the snapshot it names. */
async function mutationText(x: ExecState, f: MutationField): Promise<string> {
  const outcome = await f.run(x.mutation);
  if (outcome.kind === 'vertices') {
    if (f.sel.kind !== 'vertices') throw new Error('mutation outcome does not fit its selection');
    return listText(await vertexTexts(x, outcome.tx, f.sel.sel, outcome.rows));
  }
  if (f.sel.kind !== 'edges') throw new Error('mutation outcome does not fit its selection');
  const hs = outcome.edges;
  // A mutation shows edges in their stored direction.
  const swap = (h: EdgeHandle) => h.directed && h.reversed;
  const set: EdgeSet = {
    n: hs.length,
    src: Uint32Array.from(hs, (h) => (swap(h) ? h.tgtRow : h.srcRow)),
    tgt: Uint32Array.from(hs, (h) => (swap(h) ? h.srcRow : h.tgtRow)),
    handles: hs,
    srcType: '',
    tgtType: '',
    types: {
      src: hs.map((h) => (swap(h) ? h.tgtType : h.srcType)),
      tgt: hs.map((h) => (swap(h) ? h.srcType : h.tgtType)),
    },
  };
  x.coop.addRows(set.n);
  return listText(await edgeTexts(x, outcome.tx, f.sel.sel, set));
}

/** Runs one field, turning a field error into null plus the error. */
async function guarded(x: ExecState, site: ErrorSite, run: () => Promise<string>): Promise<string> {
  try {
    return await run();
  } catch (e) {
    if (!isFieldError(e)) throw e;
    x.errors.push(fieldError(e, site));
    return 'null';
  }
}

/** The `data` of a query or mutation plan as JSON text. */
export async function executePlan(plan: Plan, x: ExecState): Promise<string> {
  let s = '{';
  let first = true;
  for (const root of plan.fields) {
    s += key(root.key, first);
    first = false;
    if (root.k === 'const') s += root.json;
    else if (root.k === 'introspection') s += await x.introspect(root.key);
    else if (root.k === 'graph') {
      let g = '{';
      for (let i = 0; i < root.fields.length; i++) {
        const f = root.fields[i];
        g += key(f.key, i === 0);
        g +=
          f.k === 'const' || f.k === 'failed'
            ? await graphFieldText(x, f)
            : await guarded(x, f.site, () => graphFieldText(x, f));
      }
      s += `${g}}`;
    } else {
      let g = '{';
      let firstField = true;
      for (const f of root.fields) {
        g += key(f.key, firstField);
        firstField = false;
        if (f.k === 'const') g += f.json;
        else if (f.k === 'failed') {
          x.errors.push(fieldError(f.error, f.site));
          g += 'null';
        } else g += await guarded(x, f.site, () => mutationText(x, f));
      }
      s += `${g}}`;
    }
  }
  return `${s}}`;
}
