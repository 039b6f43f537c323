/**
 * Point lookups answered without the general executor. A request whose plan only looks vertices up
 * by id and reads their attributes (inline.ts) is compiled once into a PointProgram: the response's
 * constant text with the lists spliced in. Running it is a few id lookups and attribute reads over
 * one snapshot, written straight into the response text: no promise, no per-field closure, no
 * cost estimate (the program is only made when even every named id found stays within the
 * limits it was made for). Its text is byte for byte what executePlan and the service write.
 */
import type { Value } from '../catalog/value.js';
import type { ReadTx } from '../engine/api.js';
import { pointCostBound } from './cost.js';
import { jsonKey } from './exec-state.js';
import { arrangedRows, seekRows } from './row-order.js';
import { attrAccess, readAttr, type AttrAccess, type Work } from './filter.js';
import { INLINE_MAX_COST, isPointLookup } from './inline.js';
import type { GraphQLLimits } from './limits.js';
import type { ListField, Plan, RowSource } from './plan.js';
import type { Page } from './order.js';

/** A selected member of each vertex: its `"key":` text, then a constant or an attribute. */
type PointMember =
  | { prefix: string; json: string }
  | { prefix: string; json: undefined; attribute: string; access: AttrAccess; write: (v: Value) => string };

interface PointList {
  source: RowSource & { seek: NonNullable<RowSource['seek']> };
  type: string;
  page: Page;
  members: PointMember[];
  /** One id and no paging: at most the vertex it names (an order of one row changes nothing). */
  single: boolean;
}

export interface PointProgram {
  /** `texts[i]` comes before `lists[i]`; the last text ends the response. */
  texts: string[];
  lists: PointList[];
}

/** A filter's work is a few ids here: nothing to count. */
const NO_WORK: Work = { add: () => {} };

function pointList(f: ListField): PointList | undefined {
  const seek = f.source.seek;
  if (!seek) return undefined;
  const members: PointMember[] = [];
  for (const m of f.sel.fields) {
    const prefix = jsonKey(m.key, members.length === 0);
    if (m.k === 'const') members.push({ prefix, json: m.json });
    else if (m.k === 'attr') {
      const access = attrAccess(f.sel.vm, m.attribute);
      members.push({ prefix, json: undefined, attribute: m.attribute, access, write: m.write });
    } else return undefined;
  }
  const { offset, limit } = f.page;
  return {
    source: { ...f.source, seek },
    type: f.source.vm.type.name,
    page: f.page,
    members,
    single: seek.length === 1 && offset === 0 && limit !== 0,
  };
}

/**
 * The program of a query plan, or undefined when it is no point lookup or could, over some
 * snapshot, exceed `limits` or the inline bound (then every request takes the general path).
 */
export function compilePoint(plan: Plan, limits: GraphQLLimits): PointProgram | undefined {
  if (!isPointLookup(plan)) return undefined;
  // Every named id found: the cost estimate's and the row count's upper bound.
  const bound = pointCostBound(plan);
  if (bound > INLINE_MAX_COST) return undefined;
  if (limits.maxCost > 0 && bound > limits.maxCost) return undefined;
  if (limits.maxRows > 0 && bound > limits.maxRows) return undefined;
  const texts: string[] = [];
  const lists: PointList[] = [];
  let s = '{"data":{';
  plan.fields.forEach((root, i) => {
    s += jsonKey(root.key, i === 0);
    if (root.k === 'const') {
      s += root.json;
      return;
    }
    if (root.k !== 'graph') throw new Error('a point lookup has only graph and constant root fields');
    s += '{';
    root.fields.forEach((f, j) => {
      s += jsonKey(f.key, j === 0);
      if (f.k === 'const') s += f.json;
      else if (f.k === 'list') {
        texts.push(s);
        s = '';
        const list = pointList(f);
        if (!list) throw new Error('a point lookup list names its ids');
        lists.push(list);
      } else throw new Error('a point lookup has only list and constant graph fields');
    });
    s += '}';
  });
  texts.push(`${s}}}`);
  return { texts, lists };
}

function itemText(tx: ReadTx, l: PointList, row: number): string {
  let s = '{';
  for (const m of l.members) {
    s += m.prefix;
    s += m.json === undefined ? m.write(readAttr(tx, l.type, m.access, m.attribute, row)) : m.json;
  }
  return `${s}}`;
}

function listText(tx: ReadTx, l: PointList): string {
  const { source } = l;
  if (l.single) {
    const row = tx.lookup(l.type, source.seek[0]);
    if (row === undefined || (source.filter && !source.filter.bind(tx, NO_WORK)(row))) return '[]';
    return `[${itemText(tx, l, row)}]`;
  }
  let rows = seekRows(tx, l.type, source.seek);
  if (source.filter) {
    const test = source.filter.bind(tx, NO_WORK);
    rows = rows.filter((r) => test(r));
  }
  rows = arrangedRows(tx, source, l.page, rows);
  let s = '[';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) s += ',';
    s += itemText(tx, l, rows[i]);
  }
  return `${s}]`;
}

/** The response text of a program over `tx` (field errors are thrown, as executePlan's fields raise them). */
export function runPoint(p: PointProgram, tx: ReadTx): string {
  let s = p.texts[0];
  for (let i = 0; i < p.lists.length; i++) {
    s += listText(tx, p.lists[i]);
    s += p.texts[i + 1];
  }
  return s;
}
