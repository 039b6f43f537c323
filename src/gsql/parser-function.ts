/**
 * Parser for GSQL functions and packages (`CREATE PACKAGE lib`, `CREATE FUNCTION lib.f(…)
 * RETURNS (T) { … }`, `INSTALL FUNCTION lib.*`, SHOW/DROP of both) and for the UDF file
 * statements `PUT ExprFunctions FROM "file"` and `GET ExprFunctions [TO "file"]`.
 */
import type { QueryDef, QueryStatement } from './ast-query.js';
import type { Token } from './lexer.js';
import type { TokenCursor } from './parser-expr.js';
import { posOf } from './parser-type.js';

const UDF_FILE_NAMES = ['EXPRFUNCTIONS', 'EXPRUTIL', 'TOKENBANK'];

/** True when the cursor is at a function, package or UDF file statement. */
export function isFunctionStatement(c: TokenCursor): boolean {
  if (c.peek().kind !== 'ident') return false;
  const verb = c.peek().text.toUpperCase();
  if (verb === 'PUT' || verb === 'GET')
    return c.peek(1).kind === 'ident' && UDF_FILE_NAMES.includes(c.peek(1).text.toUpperCase());
  if (!['CREATE', 'INSTALL', 'SHOW', 'DROP'].includes(verb)) return false;
  let k = 1;
  if (verb === 'CREATE' && c.isWord('OR', 1) && c.isWord('REPLACE', 2)) k = 3;
  return c.isWord('FUNCTION', k) || c.isWord('PACKAGE', k);
}

/**
 * Parses one such statement; `parseRest` reads a function's `(params) RETURNS (T) { body }` as a
 * query's header and body.
 */
export function parseFunctionStatement(
  c: TokenCursor,
  parseRest: (name: string, first: Token) => QueryDef,
): QueryStatement {
  const first = c.next();
  const pos = posOf(first);
  const verb = first.text.toUpperCase();
  if (verb === 'PUT' || verb === 'GET') {
    const file = canonicalFile(c.next().text);
    if (verb === 'PUT') {
      c.expectWord('FROM');
      return { kind: 'putUdfFile', file, path: pathString(c), pos };
    }
    return { kind: 'getUdfFile', file, ...(c.acceptWord('TO') ? { path: pathString(c) } : {}), pos };
  }
  let orReplace = false;
  if (verb === 'CREATE' && c.acceptWord('OR')) {
    c.expectWord('REPLACE');
    orReplace = true;
  }
  const what = c.next().text.toUpperCase();
  if (what === 'PACKAGE') {
    if (verb === 'SHOW') return { kind: 'showPackage', ...(atEnd(c) ? {} : { name: dotted(c, false) }), pos };
    if (verb === 'INSTALL') throw c.error('expected INSTALL FUNCTION', first);
    const name = dotted(c, false);
    return verb === 'CREATE' ? { kind: 'createPackage', name, pos } : { kind: 'dropPackage', name, pos };
  }
  switch (verb) {
    case 'CREATE': {
      const name = dotted(c, false);
      if (!name.includes('.'))
        throw c.error(`a function belongs to a package: write CREATE FUNCTION package.${name}`);
      return { kind: 'createFunction', orReplace, fn: parseRest(name, first), pos };
    }
    case 'INSTALL':
      // Options such as `-force` change nothing: functions compile when a query calls them.
      while (c.isPunct('-') && c.peek(1).kind === 'ident') {
        c.next();
        c.next();
      }
      return { kind: 'installFunction', target: functionTarget(c), pos };
    case 'SHOW':
      return { kind: 'showFunction', ...(atEnd(c) ? {} : { target: functionTarget(c) }), pos };
    default:
      return { kind: 'dropFunction', target: functionTarget(c), pos };
  }
}

function canonicalFile(text: string): string {
  return ['ExprFunctions', 'ExprUtil', 'TokenBank'].find((n) => n.toUpperCase() === text.toUpperCase())!;
}

function pathString(c: TokenCursor): string {
  const t = c.next();
  if (t.kind !== 'string') throw c.error('expected a file path in quotes', t);
  return t.text;
}

function atEnd(c: TokenCursor): boolean {
  const t = c.peek();
  return t.kind === 'eof' || (t.kind === 'punct' && t.text === ';') || t.kind === 'block_end';
}

/** `a.b.c`, and with `pattern` also `a.b.*`, `**`, `*` and `ALL`. */
function dotted(c: TokenCursor, pattern: boolean): string {
  const parts: string[] = [];
  do {
    if (pattern && c.isPunct('*')) {
      c.next();
      parts.push(c.acceptPunct('*') ? '**' : '*');
      break;
    }
    parts.push(c.expectIdent(pattern ? 'a package or function name' : 'a name').text);
  } while (c.acceptPunct('.'));
  return parts.join('.');
}

/** A function, or a pattern of functions: `lib.f`, `lib.*`, `lib.**`, `**`, `*`, `ALL`. */
function functionTarget(c: TokenCursor): string {
  if (c.acceptWord('ALL')) return '**';
  return dotted(c, true);
}
