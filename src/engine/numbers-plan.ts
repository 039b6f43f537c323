/**
 * Which edges of a run take EdgeRunWriter's plain-number append: a shape that sets every attribute
 * once, each a plain number (values.ts's plainNumberKind) kept in a NumberColumn.
 */
import type { Attribute } from '../catalog/types.js';
import { type Column, NumberColumn } from '../store/columns.js';
import type { AttrShape } from './api.js';
import { plainNumberKind } from './values.js';

/** How appendNumbers writes a shape: per value, its attribute's index, name and plainNumberKind. */
export interface NumbersPlan {
  attrs: number[];
  names: string[];
  kinds: number[];
}

/**
 * The numbers plan of a shape that sets every attribute once with op `set`, each a plain number
 * kept in a NumberColumn; null otherwise.
 */
export function numbersPlanOf(
  shape: AttrShape,
  attributes: readonly Attribute[],
  cols: Column[],
): NumbersPlan | null {
  if (shape.names.length !== attributes.length || cols.length !== attributes.length) return null;
  const plan: NumbersPlan = { attrs: [], names: [], kinds: [] };
  for (let j = 0; j < shape.names.length; j++) {
    const a = attributes.findIndex((x) => x.name === shape.names[j]);
    if (a < 0 || plan.attrs.includes(a) || (shape.ops[j] ?? 'set') !== 'set') return null;
    const kind = plainNumberKind(attributes[a].type);
    if (kind === undefined || !(cols[a] instanceof NumberColumn)) return null;
    plan.attrs.push(a);
    plan.names.push(attributes[a].name);
    plan.kinds.push(kind);
  }
  return plan;
}
