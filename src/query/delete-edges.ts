/**
 * `DELETE e FROM pattern WHERE …` with an edge alias (SYNTAX v3's tutorials write it): the SELECT
 * the statement means, deleting each matched edge in its ACCUM (`DELETE (e)`), its result the
 * pattern's first vertex.
 */
import type { Pos, SelectBlock } from '../gsql/ast-query.js';

/** Whether `alias` names an edge of the block's patterns. */
export function deletesEdges(b: SelectBlock, alias: string): boolean {
  return b.from.some((p) => p.steps.some((s) => s.edge.alias === alias));
}

export function edgeDeletion(b: SelectBlock, alias: string, pos: Pos): SelectBlock {
  const [first, ...rest] = b.from;
  const source = first.source.alias ?? '#src';
  const from = first.source.alias
    ? b.from
    : [{ ...first, source: { ...first.source, alias: source } }, ...rest];
  return { ...b, result: source, from, accum: [{ kind: 'delete', alias, pos }] };
}
