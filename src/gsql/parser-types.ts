/** Attribute types and literals, shared by DDL, loading jobs and (later) query declarations. */
import type { AttrType } from '../catalog/types.js';
import type { AttrDecl, Literal } from './ast.js';
import type { Parser } from './parser-core.js';
import { GsqlSyntaxError } from './lexer.js';

const BYTE_WIDTHS = new Set([1, 2, 4, 8]);

function parseSize(p: Parser, what: string): number {
  p.expectPunct('(');
  const t = p.peek();
  if (t.kind !== 'number' || !/^\d+$/.test(t.text)) p.fail(`${what} (a positive integer)`);
  p.next();
  p.expectPunct(')');
  const n = Number(t.text);
  if (n <= 0) throw new GsqlSyntaxError(t.line, t.column, `${what} must be positive, got ${t.text}`);
  return n;
}

function parseIntWidth(p: Parser): 1 | 2 | 4 | 8 {
  if (!p.isPunct('(')) return 8;
  const t = p.peek(1);
  const n = parseSize(p, 'an integer width in bytes');
  if (!BYTE_WIDTHS.has(n)) {
    throw new GsqlSyntaxError(t.line, t.column, `an integer width must be 1, 2, 4 or 8 bytes, got ${n}`);
  }
  return n as 1 | 2 | 4 | 8;
}

/** True when the next token can start a type (used to tell `name TYPE` from `TYPE name`). */
export const PRIMITIVE_TYPE_WORDS = new Set([
  'INT',
  'UINT',
  'FLOAT',
  'DOUBLE',
  'BOOL',
  'STRING',
  'DATETIME',
  'FIXED_BINARY',
  'LIST',
  'SET',
  'MAP',
  'VERTEX',
]);

export function parseAttrType(p: Parser): AttrType {
  const t = p.expectName('a type');
  const word = t.text.toUpperCase();
  switch (word) {
    case 'INT':
      return { kind: 'INT', bytes: parseIntWidth(p) };
    case 'UINT':
      return { kind: 'UINT', bytes: parseIntWidth(p) };
    case 'FLOAT':
      return { kind: 'FLOAT' };
    case 'DOUBLE':
      return { kind: 'DOUBLE' };
    case 'BOOL':
      return { kind: 'BOOL' };
    case 'DATETIME':
      return { kind: 'DATETIME' };
    case 'STRING': {
      const type: AttrType = { kind: 'STRING', compress: false };
      if (p.isPunct('(')) type.maxLength = parseSize(p, 'a string length');
      if (p.acceptWords('COMPRESS')) type.compress = true;
      return type;
    }
    case 'FIXED_BINARY':
      return { kind: 'FIXED_BINARY', length: parseSize(p, 'a length in bytes') };
    case 'LIST':
    case 'SET': {
      p.expectPunct('<');
      const element = parseAttrType(p);
      p.expectPunct('>');
      return { kind: word, element };
    }
    case 'MAP': {
      p.expectPunct('<');
      const key = parseAttrType(p);
      p.expectPunct(',');
      const value = parseAttrType(p);
      p.expectPunct('>');
      return { kind: 'MAP', key, value };
    }
    case 'VERTEX': {
      if (!p.acceptPunct('<')) return { kind: 'VERTEX' };
      const vt = p.expectName('a vertex type name');
      p.expectPunct('>');
      return { kind: 'VERTEX', vertexType: vt.text };
    }
    default:
      return { kind: 'UDT', name: t.text };
  }
}

/** A literal: number (optionally signed), string, TRUE/FALSE. With `words`, any other word too. */
export function parseLiteral(p: Parser, words = false): Literal {
  const t = p.peek();
  const at = { line: t.line, column: t.column };
  if (t.kind === 'punct' && (t.text === '-' || t.text === '+')) {
    const n = p.peek(1);
    if (n.kind !== 'number') p.fail('a number', n);
    p.next();
    p.next();
    return { kind: 'number', text: (t.text === '-' ? '-' : '') + n.text, ...at };
  }
  if (t.kind === 'number') {
    p.next();
    return { kind: 'number', text: t.text, ...at };
  }
  if (t.kind === 'string') {
    p.next();
    return { kind: 'string', text: t.text, ...at };
  }
  if (t.kind === 'ident') {
    const upper = t.text.toUpperCase();
    if (upper === 'TRUE' || upper === 'FALSE') {
      p.next();
      return { kind: 'bool', text: upper.toLowerCase(), ...at };
    }
    if (words) {
      p.next();
      return { kind: 'word', text: t.text, ...at };
    }
  }
  return p.fail('a literal (number, string, TRUE or FALSE)');
}

/** `name TYPE [DEFAULT literal]`. */
export function parseAttrDecl(p: Parser): AttrDecl {
  const nameTok = p.expectName('an attribute name');
  const decl: AttrDecl = {
    name: nameTok.text,
    type: parseAttrType(p),
    line: nameTok.line,
    column: nameTok.column,
  };
  if (p.acceptWords('NULLABLE')) decl.nullable = true;
  if (p.acceptWords('DEFAULT')) decl.default = parseLiteral(p);
  return decl;
}
