/**
 * SQL-like SELECT: the matches of FROM and WHERE as a table. Matching is a V2 SELECT whose ACCUM
 * is the projection's row sink (match-select.ts); the projection groups, aggregates, filters,
 * orders and limits (projection.ts). Rows come out as tuples of the columns, printed as
 * TigerGraph prints table rows (vertices by id).
 */
import type { TableColumn, TableSelect } from '../gsql/ast-v3.js';
import type { BoundSelect } from './bound-select.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import { compileMatch } from './match-select.js';
import { asTuples, compileProjection, nameAt, type Projector } from './projection.js';
import type { Cx } from './scope.js';
import type { TupleT } from './types.js';
import type { TupleVal } from './values.js';

export interface CompiledTable {
  /** One tuple type per table: its fields are the columns. */
  readonly rowType: TupleT;
  /** Whether the table aggregates without grouping keys (always one row). */
  readonly single: boolean;
  run(ctx: RunContext): Promise<TupleVal[]>;
}

export function compileTable(cx: Cx, t: TableSelect): CompiledTable {
  return cx.nested(() => {
    let projector: Projector | undefined;
    const match = compileMatch(cx, t.from, t.where, t.pos, (aliases, b) => {
      const columns = t.columns === '*' ? starColumns(b) : t.columns;
      if (columns.length === 0)
        throw compileError(t.pos, 'the patterns of FROM have no named vertex or edge to select');
      // The sink runs for each matched path as an ACCUM statement would.
      projector = cx.inClause('ACCUM', () =>
        compileProjection(
          cx,
          {
            columns,
            groupBy: t.groupBy,
            having: t.having,
            orderBy: t.orderBy,
            limit: t.limit,
            offset: t.offset,
            distinct: t.distinct,
            rowName: t.into?.name ?? 'Result_Table',
            pos: t.pos,
          },
          new Set(aliases.keys()),
        ),
      );
      const p = projector;
      return { sink: (ctx) => p.sink(ctx), reads: p.reads };
    });
    const p = projector!;
    return {
      rowType: p.rowType,
      single: p.single,
      async run(ctx) {
        p.begin(ctx);
        await match.run(ctx);
        return asTuples(p, p.finish(ctx));
      },
    };
  });
}

/** `SELECT *`: every named vertex and edge of the patterns, in pattern order. */
function starColumns(b: BoundSelect): TableColumn[] {
  const names: string[] = [];
  const add = (n: string | undefined): void => {
    if (n !== undefined && !n.startsWith('#') && !names.includes(n)) names.push(n);
  };
  for (const p of b.patterns) {
    add(b.vertices[p.vertices[0]].alias);
    p.hops.forEach((h, i) => {
      add(b.hops[h].alias);
      add(b.vertices[p.vertices[i + 1]].alias);
    });
  }
  return names.map((n) => ({ expr: nameAt(n, b.span.pos), pos: b.span.pos }));
}
