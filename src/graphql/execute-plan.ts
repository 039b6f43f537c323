/**
 * Runs a plan over one snapshot and writes the response's `data` as JSON text: each root field,
 * each graph field by its kind (graph-fields.ts: lists, aggregates, connections) and each mutation
 * (its write, then its selection). Selections are written level by level (selection-texts.ts);
 * every loop counts its work with the request's Cooperation, which checks the deadline, the abort
 * signal and the row limit and yields to the event loop regularly.
 *
 * A field error (a bad whereExpr, a refused write) nulls the graph or mutation field it occurs in
 * and is reported with that field's path; a LimitError ends the whole request.
 */
import type { EdgeHandle } from '../engine/api.js';
import { type EdgeSet, type ExecState, fieldError, jsonKey } from './exec-state.js';
import { aggregateField, connectionField, listField } from './graph-fields.js';
import { isFieldError } from './limits.js';
import type { ErrorSite, GraphField, MutationField, Plan } from './plan.js';
import { edgeTexts, vertexTexts } from './selection-texts.js';
import { listText } from './texts.js';

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
    s += jsonKey(root.key, first);
    first = false;
    if (root.k === 'const') s += root.json;
    else if (root.k === 'introspection') s += await x.introspect(root.key);
    else if (root.k === 'graph') {
      let g = '{';
      for (let i = 0; i < root.fields.length; i++) {
        const f = root.fields[i];
        g += jsonKey(f.key, i === 0);
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
        g += jsonKey(f.key, firstField);
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
