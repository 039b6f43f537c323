/**
 * The gsql shell's data statements:
 *   UPSERT <vertex type> VALUES (<id>, <attr>, ...)
 *   UPSERT <source type> -(<edge type>)-> <target type> VALUES (<source id>, <target id>, <attr>, ...)
 *   DELETE FROM <vertex type> [WHERE <condition>]
 *   DELETE FROM <source type> -(<edge type>)-> <target type> [WHERE <condition>]
 * (`-(e)-` is accepted for the edge pattern too.) A condition compares `primary_id`, `from_id`,
 * `to_id` or an attribute with a literal (==, =, !=, <>, <, <=, >, >=), combined with AND / OR and
 * parentheses. Values are literals: numbers, strings, true/false, and [ ... ] lists.
 * Each statement is a kind of the script's statement union (ast.ts), parsed once by parser.ts.
 */
import type { CompareOp, Pos } from './ast.js';
import { COMPARE_OPS, Parser } from './parser-core.js';

export interface DmlLiteral extends Pos {
  kind: 'number' | 'string' | 'bool' | 'list';
  /** The value as text (numbers with their sign, strings unquoted). */
  text: string;
  items?: DmlLiteral[];
}

export type DmlCondition =
  | ({ kind: 'compare'; name: string; op: CompareOp; value: DmlLiteral } & Pos)
  | ({ kind: 'and' | 'or'; left: DmlCondition; right: DmlCondition } & Pos);

export interface EdgePattern {
  sourceType: string;
  edgeType: string;
  targetType: string;
  /** Position of the edge type name. */
  edgePos: Pos;
  targetPos: Pos;
}

export type DmlStatement =
  | ({ kind: 'upsert_vertex'; vertexType: string; values: DmlLiteral[] } & Pos)
  | ({ kind: 'upsert_edge'; edge: EdgePattern; values: DmlLiteral[] } & Pos)
  | ({ kind: 'delete_vertex'; vertexType: string; where?: DmlCondition } & Pos)
  | ({ kind: 'delete_edge'; edge: EdgePattern; where?: DmlCondition } & Pos);

/** A data statement of a script, with its source text. */
export type DmlStmt = DmlStatement & { text: string };

function parseLiteral(p: Parser): DmlLiteral {
  const t = p.peek();
  const pos = p.pos(t);
  if (t.kind === 'punct' && t.text === '[') {
    p.next();
    const items: DmlLiteral[] = [];
    if (!p.isPunct(']')) {
      do items.push(parseLiteral(p));
      while (p.acceptPunct(','));
    }
    p.expectPunct(']');
    return { kind: 'list', text: '', items, ...pos };
  }
  if (t.kind === 'punct' && (t.text === '-' || t.text === '+') && p.peek(1).kind === 'number') {
    p.next();
    const n = p.next();
    return { kind: 'number', text: t.text === '-' ? `-${n.text}` : n.text, ...pos };
  }
  if (t.kind === 'number') return { kind: 'number', text: p.next().text, ...pos };
  if (t.kind === 'string') return { kind: 'string', text: p.next().text, ...pos };
  if (t.kind === 'ident' && /^(true|false)$/i.test(t.text)) {
    return { kind: 'bool', text: p.next().text.toLowerCase(), ...pos };
  }
  return p.fail('a value (a number, a string, true, false or a [ ] list)');
}

function parseValues(p: Parser): DmlLiteral[] {
  p.expectWord('VALUES');
  p.expectPunct('(');
  const values: DmlLiteral[] = [];
  if (!p.isPunct(')')) {
    do values.push(parseLiteral(p));
    while (p.acceptPunct(','));
  }
  p.expectPunct(')');
  return values;
}

/** After the source type: `-(e)->` or `-(e)-`, then the target type. */
function parseEdgePattern(p: Parser, sourceType: string): EdgePattern {
  p.expectPunct('-');
  p.expectPunct('(');
  const et = p.expectName('an edge type name');
  p.expectPunct(')');
  if (!p.acceptPunct('->')) p.expectPunct('-');
  const tt = p.expectName('a target vertex type name');
  return { sourceType, edgeType: et.text, targetType: tt.text, edgePos: p.pos(et), targetPos: p.pos(tt) };
}

function parseCompare(p: Parser): DmlCondition {
  if (p.acceptPunct('(')) {
    const inner = parseOr(p);
    p.expectPunct(')');
    return inner;
  }
  const name = p.expectName('an attribute name, primary_id, from_id or to_id');
  const opTok = p.peek();
  const op = opTok.kind === 'punct' ? COMPARE_OPS[opTok.text] : undefined;
  if (!op) return p.fail('a comparison operator (==, !=, <, <=, >, >=)');
  p.next();
  return { kind: 'compare', name: name.text, op, value: parseLiteral(p), ...p.pos(name) };
}

function parseAnd(p: Parser): DmlCondition {
  let left = parseCompare(p);
  while (p.isWord('AND') || p.isPunct('&&')) {
    const t = p.next();
    left = { kind: 'and', left, right: parseCompare(p), ...p.pos(t) };
  }
  return left;
}

function parseOr(p: Parser): DmlCondition {
  let left = parseAnd(p);
  while (p.isWord('OR') || p.isPunct('||')) {
    const t = p.next();
    left = { kind: 'or', left, right: parseAnd(p), ...p.pos(t) };
  }
  return left;
}

/** Parses one UPSERT or DELETE statement at the cursor. */
export function parseDml(p: Parser): DmlStatement {
  const first = p.peek();
  const pos = p.pos(first);
  if (p.acceptWords('UPSERT')) {
    const type = p.expectName('a vertex or edge source type name').text;
    if (p.isPunct('-')) {
      const edge = parseEdgePattern(p, type);
      return { kind: 'upsert_edge', edge, values: parseValues(p), ...pos };
    }
    return { kind: 'upsert_vertex', vertexType: type, values: parseValues(p), ...pos };
  }
  if (p.acceptWords('DELETE')) {
    p.expectWord('FROM');
    const type = p.expectName('a vertex type name').text;
    const edge = p.isPunct('-') ? parseEdgePattern(p, type) : undefined;
    const where = p.acceptWords('WHERE') ? parseOr(p) : undefined;
    if (edge)
      return where ? { kind: 'delete_edge', edge, where, ...pos } : { kind: 'delete_edge', edge, ...pos };
    return where
      ? { kind: 'delete_vertex', vertexType: type, where, ...pos }
      : { kind: 'delete_vertex', vertexType: type, ...pos };
  }
  return p.fail('UPSERT or DELETE');
}
