/**
 * Parser for the types of GSQL queries: base types, VERTEX/EDGE, collections, MAP, FILE, JSON and
 * the accumulator types with their arguments (HeapAccum capacity and order, GroupByAccum fields).
 */
import type { AccumKind, BaseTypeName, Pos, TypeExpr } from './ast-query.js';
import { GsqlSyntaxError, type Token } from './lexer.js';
import { parseExpr, type TokenCursor } from './parser-expr.js';

const BASE_TYPES = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'STRING', 'BOOL', 'DATETIME']);
export const ACCUMS = new Set<string>([
  'SumAccum',
  'MinAccum',
  'MaxAccum',
  'AvgAccum',
  'OrAccum',
  'AndAccum',
  'BitwiseAndAccum',
  'BitwiseOrAccum',
  'ArrayAccum',
  'ListAccum',
  'SetAccum',
  'BagAccum',
  'MapAccum',
  'HeapAccum',
  'GroupByAccum',
]);

/** The line and column of a token, as AST nodes carry them. */
export function posOf(t: Token): Pos {
  return { line: t.line, column: t.column };
}

export function closeAngle(c: TokenCursor): void {
  c.expectPunct('>');
}

export function parseType(c: TokenCursor): TypeExpr {
  const t = c.expectIdent('a type');
  const pos = posOf(t);
  const w = t.text.toUpperCase();
  if (BASE_TYPES.has(w)) {
    // `STRING COMPRESS` is a storage hint; its values are strings.
    if (w === 'STRING') c.acceptWord('COMPRESS');
    return { kind: 'base', name: w as BaseTypeName, pos };
  }
  if (w === 'FILE') return { kind: 'file', pos };
  if (w === 'JSONOBJECT' || w === 'JSONARRAY') return { kind: 'json', json: w, pos };
  if (w === 'VERTEX' || w === 'EDGE') {
    let typeName: string | undefined;
    if (c.acceptPunct('<')) {
      typeName = c.expectIdent(`a ${w.toLowerCase()} type name`).text;
      closeAngle(c);
    }
    return w === 'VERTEX'
      ? { kind: 'vertex', vertexType: typeName, pos }
      : { kind: 'edge', edgeType: typeName, pos };
  }
  if (w === 'SET' || w === 'BAG' || w === 'LIST') {
    c.expectPunct('<');
    const element = parseType(c);
    closeAngle(c);
    return { kind: 'collection', collection: w, element, pos };
  }
  if (w === 'MAP') {
    c.expectPunct('<');
    const key = parseType(c);
    c.expectPunct(',');
    const value = parseType(c);
    closeAngle(c);
    return { kind: 'map', key, value, pos };
  }
  const accum = Array.from(ACCUMS).find((a) => a.toUpperCase() === w);
  if (accum) return parseAccumType(c, accum as AccumKind, pos);
  if (/ACCUM$/.test(w)) {
    throw new GsqlSyntaxError(t.line, t.column, `${t.text} is not supported yet`);
  }
  return { kind: 'named', name: t.text, pos };
}

function parseAccumType(c: TokenCursor, accum: AccumKind, pos: Pos): TypeExpr {
  const node: TypeExpr & { kind: 'accum' } = { kind: 'accum', accum, args: [], pos };
  if (accum === 'GroupByAccum') {
    c.expectPunct('<');
    node.groupKeys = [];
    node.groupAccums = [];
    do {
      const type = parseType(c);
      const name = c.expectIdent('a field name').text;
      (type.kind === 'accum' ? node.groupAccums : node.groupKeys).push({ name, type });
    } while (c.acceptPunct(','));
    closeAngle(c);
    return node;
  }
  if (c.acceptPunct('<')) {
    do node.args.push(parseType(c));
    while (c.acceptPunct(','));
    closeAngle(c);
  }
  if (accum === 'HeapAccum') {
    c.expectPunct('(');
    node.capacity = parseExpr(c);
    node.order = [];
    while (c.acceptPunct(',')) {
      const f = c.expectIdent('a tuple field name');
      const descending = c.acceptWord('DESC');
      if (!descending) c.acceptWord('ASC');
      node.order.push({ field: f.text, descending, pos: posOf(f) });
    }
    c.expectPunct(')');
  }
  return node;
}

/** True when a declaration's type starts at the cursor (`INT x`, `SET<…> s`, `VERTEX<T> v`). */
export function isTypeStart(c: TokenCursor): boolean {
  const t = c.peek();
  if (t.kind !== 'ident') return false;
  const w = t.text.toUpperCase();
  if (BASE_TYPES.has(w) || w === 'VERTEX' || w === 'EDGE' || w === 'JSONOBJECT' || w === 'JSONARRAY')
    return c.peek(1).kind === 'ident' || c.isPunct('<', 1);
  if (w === 'SET' || w === 'BAG' || w === 'LIST' || w === 'MAP') return c.isPunct('<', 1);
  return false;
}
