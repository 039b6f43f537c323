/** Attribute statistics for the stat_vertex_attr / stat_edge_attr builtins. */
import type { Column } from '../store/columns.js';
import type { AttrStat } from './api.js';

/** Rows (or edge ids) of one table (or block) to summarise, with that table's columns. */
export interface StatSource {
  col: (name: string) => Column;
  ids: Uint32Array;
  n: number;
}

export function attrStats(
  attrs: readonly { name: string; type: { kind: string } }[],
  sources: StatSource[],
  version: number,
): AttrStat[] {
  const out: AttrStat[] = [];
  for (const a of attrs) {
    const k = a.type.kind;
    if (k === 'BOOL') {
      let t = 0;
      let f = 0;
      for (const s of sources) {
        const c = s.col(a.name);
        for (let i = 0; i < s.n; i++) {
          if (c.getAt(s.ids[i], version) === true) t++;
          else f++;
        }
      }
      out.push({ attribute: a.name, trueCount: t, falseCount: f });
    } else if (k === 'INT' || k === 'UINT' || k === 'FLOAT' || k === 'DOUBLE') {
      let min: number | bigint | undefined;
      let max: number | bigint | undefined;
      let sum = 0;
      let n = 0;
      for (const s of sources) {
        const c = s.col(a.name);
        for (let i = 0; i < s.n; i++) {
          const v = c.getAt(s.ids[i], version) as number | bigint;
          if (min === undefined || v < min) min = v;
          if (max === undefined || v > max) max = v;
          sum += Number(v);
          n++;
        }
      }
      out.push({ attribute: a.name, min: min ?? 0, max: max ?? 0, avg: n === 0 ? 0 : sum / n });
    }
  }
  return out;
}
