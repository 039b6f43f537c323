/** The schema language: vertex, edge and tuple declarations, graphs and schema change jobs. */
import type {
  EdgeDecl,
  EdgePairDecl,
  SchemaChangeAction,
  TupleFieldDecl,
  VertexDecl,
  WithOption,
} from './ast.js';
import type { Parser } from './parser-core.js';
import { PRIMITIVE_TYPE_WORDS, parseAttrDecl, parseAttrType, parseLiteral } from './parser-types.js';
import type { Token } from './lexer.js';

/** `WITH name = value [, name = value]*`, if present. */
function parseWithOptions(p: Parser): WithOption[] {
  const options: WithOption[] = [];
  if (!p.acceptWords('WITH')) return options;
  do {
    const name = p.expectName('an option name');
    p.expectPunct('=');
    const value = parseLiteral(p, true);
    options.push({ name: name.text, value: value.text, line: name.line, column: name.column });
  } while (p.acceptPunct(','));
  return options;
}

/** After VERTEX: `name ( … ) [WITH …]`. */
export function parseVertexDecl(p: Parser): VertexDecl {
  const nameTok = p.expectName('a vertex type name');
  const v: VertexDecl = {
    name: nameTok.text,
    attributes: [],
    options: [],
    line: nameTok.line,
    column: nameTok.column,
  };
  p.expectPunct('(');
  let first = true;
  do {
    const t = p.peek();
    if (p.isWord('PRIMARY_ID')) {
      if (!first) p.fail('an attribute (PRIMARY_ID must come first)');
      p.next();
      const idName = p.expectName('the primary id name');
      v.primaryId = { name: idName.text, type: parseAttrType(p), line: idName.line, column: idName.column };
    } else if (p.isWord('PRIMARY') && p.isWord('KEY', 1)) {
      p.next();
      p.next();
      p.expectPunct('(');
      const keys: string[] = [];
      do keys.push(p.expectName('a key attribute name').text);
      while (p.acceptPunct(','));
      p.expectPunct(')');
      if (v.compositeKey) p.fail('an attribute (PRIMARY KEY given twice)', t);
      v.compositeKey = keys;
    } else {
      const attr = parseAttrDecl(p);
      if (p.acceptWords('PRIMARY', 'KEY')) {
        if (v.primaryKey) p.fail('an attribute without PRIMARY KEY (only one may be the key)', t);
        v.primaryKey = attr.name;
        if (!attr.default && p.acceptWords('DEFAULT')) attr.default = parseLiteral(p);
      }
      v.attributes.push(attr);
    }
    first = false;
  } while (p.acceptPunct(','));
  p.expectPunct(')');
  v.options = parseWithOptions(p);
  return v;
}

/** `a | b | …` or `*`. */
function parseVertexList(p: Parser): string[] {
  if (p.acceptPunct('*')) return ['*'];
  const names = [p.expectName('a vertex type name').text];
  while (p.isPunct('|') && !p.isWord('FROM', 1)) {
    p.next();
    names.push(p.expectName('a vertex type name').text);
  }
  return names;
}

export function parseEdgePair(p: Parser): EdgePairDecl {
  const fromTok = p.expectWord('FROM');
  const from = parseVertexList(p);
  p.expectPunct(',');
  p.expectWord('TO');
  const to = parseVertexList(p);
  return { from, to, line: fromTok.line, column: fromTok.column };
}

/** After [DIRECTED|UNDIRECTED] EDGE: `name ( FROM …, TO … [| FROM …]* [, attr | DISCRIMINATOR(…)]* ) [WITH …]`. */
export function parseEdgeDecl(p: Parser, directed: boolean): EdgeDecl {
  const nameTok = p.expectName('an edge type name');
  const e: EdgeDecl = {
    name: nameTok.text,
    directed,
    pairs: [],
    attributes: [],
    discriminator: [],
    options: [],
    line: nameTok.line,
    column: nameTok.column,
  };
  p.expectPunct('(');
  e.pairs.push(parseEdgePair(p));
  while (p.acceptPunct('|')) e.pairs.push(parseEdgePair(p));
  while (p.acceptPunct(',')) {
    if (p.isWord('DISCRIMINATOR') && p.isPunct('(', 1)) {
      p.next();
      p.next();
      do {
        const name = p.expectName('a discriminator attribute name');
        if (!p.isPunct(',') && !p.isPunct(')')) {
          const decl = { name: name.text, type: parseAttrType(p), line: name.line, column: name.column };
          e.attributes.push(decl);
        }
        e.discriminator.push(name.text);
      } while (p.acceptPunct(','));
      p.expectPunct(')');
    } else {
      e.attributes.push(parseAttrDecl(p));
    }
  }
  p.expectPunct(')');
  e.options = parseWithOptions(p);
  return e;
}

/** After TYPEDEF TUPLE: `< field TYPE, … > name` (fields may also be written `TYPE field`). */
export function parseTupleDecl(p: Parser): { name: string; fields: TupleFieldDecl[] } {
  p.expectPunct('<');
  const fields: TupleFieldDecl[] = [];
  do {
    const t = p.peek();
    const second = p.peek(1);
    // `INT(2) f`, `LIST<INT> f` and `INT f` put the type first; `f INT` (the DDL form) does not.
    const typeFirst =
      t.kind === 'ident' &&
      PRIMITIVE_TYPE_WORDS.has(t.text.toUpperCase()) &&
      ((second.kind === 'punct' && (second.text === '(' || second.text === '<')) ||
        (second.kind === 'ident' && !PRIMITIVE_TYPE_WORDS.has(second.text.toUpperCase())));
    if (typeFirst) {
      const type = parseAttrType(p);
      const name = p.expectName('a field name');
      fields.push({ name: name.text, type, line: t.line, column: t.column });
    } else {
      const name = p.expectName('a field name');
      fields.push({ name: name.text, type: parseAttrType(p), line: t.line, column: t.column });
    }
  } while (p.acceptPunct(','));
  p.expectPunct('>');
  return { name: p.expectName('the tuple type name').text, fields };
}

/** A comma-separated name list; `*` or ALL alone gives '*'. */
export function parseNameList(p: Parser, what: string, allowAll: boolean): string[] | '*' {
  // The list starts on the command's line; after a comma it may go on on the next one.
  if (p.atStatementEnd()) p.fail(what);
  if (allowAll && (p.acceptPunct('*') || p.acceptWords('ALL'))) return '*';
  const names = [p.expectName(what).text];
  while (p.acceptPunct(',')) names.push(p.expectName(what).text);
  return names;
}

function parseNames(p: Parser, what: string): string[] {
  return parseNameList(p, what, false) as string[];
}

function parseAlter(p: Parser, start: Token): SchemaChangeAction {
  const at = { line: start.line, column: start.column };
  let target: 'vertex' | 'edge';
  if (p.acceptWords('VERTEX')) target = 'vertex';
  else if (p.acceptWords('EDGE')) target = 'edge';
  else p.fail('VERTEX or EDGE');
  const typeName = p.expectName(`a ${target} type name`).text;
  if (p.acceptWords('ADD', 'ATTRIBUTE')) {
    p.expectPunct('(');
    const attributes = [parseAttrDecl(p)];
    while (p.acceptPunct(',')) attributes.push(parseAttrDecl(p));
    p.expectPunct(')');
    return { action: 'alter_add_attributes', target, typeName, attributes, ...at };
  }
  if (p.acceptWords('DROP', 'ATTRIBUTE')) {
    p.expectPunct('(');
    const names = parseNames(p, 'an attribute name');
    p.expectPunct(')');
    return { action: 'alter_drop_attributes', target, typeName, names, ...at };
  }
  if (target === 'edge' && (p.isWord('ADD') || p.isWord('DROP')) && p.isWord('PAIR', 1)) {
    const add = p.next().text.toUpperCase() === 'ADD';
    p.next();
    p.expectPunct('(');
    const pairs = [parseEdgePair(p)];
    while (p.acceptPunct('|')) pairs.push(parseEdgePair(p));
    p.expectPunct(')');
    return { action: add ? 'alter_add_pairs' : 'alter_drop_pairs', typeName, pairs, ...at };
  }
  if (target === 'vertex' && p.acceptWords('ADD')) {
    p.expectWord('INDEX');
    const indexName = p.expectName('an index name').text;
    p.expectWord('ON');
    p.expectPunct('(');
    const attribute = p.expectName('an attribute name').text;
    p.expectPunct(')');
    return { action: 'add_index', typeName, indexName, attribute, ...at };
  }
  if (target === 'vertex' && p.acceptWords('DROP')) {
    p.expectWord('INDEX');
    return { action: 'drop_index', typeName, indexName: p.expectName('an index name').text, ...at };
  }
  return p.fail(target === 'vertex' ? 'ADD or DROP (ATTRIBUTE or INDEX)' : 'ADD or DROP (ATTRIBUTE or PAIR)');
}

/** One statement of a schema change job body. */
export function parseSchemaChangeAction(p: Parser): SchemaChangeAction {
  const start = p.peek();
  const at = { line: start.line, column: start.column };
  if (p.acceptWords('ADD')) {
    // `ADD VERTEX v (…)` declares a type; `ADD VERTEX a, b TO GRAPH g` (global jobs) adds existing ones.
    if (p.isWord('VERTEX') && !p.isPunct('(', 2)) {
      p.next();
      const names = parseNames(p, 'a vertex type name');
      p.expectWord('TO');
      p.expectWord('GRAPH');
      return {
        action: 'add_to_graph',
        target: 'vertex',
        names,
        graph: p.expectName('a graph name').text,
        ...at,
      };
    }
    if (p.acceptWords('VERTEX')) return { action: 'add_vertex', vertex: parseVertexDecl(p), ...at };
    if (p.acceptWords('EDGE')) {
      const names = parseNames(p, 'an edge type name');
      p.expectWord('TO');
      p.expectWord('GRAPH');
      return {
        action: 'add_to_graph',
        target: 'edge',
        names,
        graph: p.expectName('a graph name').text,
        ...at,
      };
    }
    const directed = p.acceptWords('DIRECTED') ? true : p.acceptWords('UNDIRECTED') ? false : undefined;
    if (directed === undefined) p.fail('VERTEX, EDGE, DIRECTED EDGE or UNDIRECTED EDGE');
    p.expectWord('EDGE');
    return { action: 'add_edge', edge: parseEdgeDecl(p, directed), ...at };
  }
  if (p.acceptWords('DROP')) {
    const target = p.acceptWords('VERTEX') ? 'vertex' : p.acceptWords('EDGE') ? 'edge' : undefined;
    if (target === undefined) return p.fail('VERTEX or EDGE');
    const names = parseNames(p, `${target === 'vertex' ? 'a vertex' : 'an edge'} type name`);
    if (p.acceptWords('FROM')) {
      p.expectWord('GRAPH');
      return { action: 'drop_from_graph', target, names, graph: p.expectName('a graph name').text, ...at };
    }
    return target === 'vertex'
      ? { action: 'drop_vertex', names, ...at }
      : { action: 'drop_edge', names, ...at };
  }
  if (p.acceptWords('ALTER')) return parseAlter(p, start);
  return p.fail('ADD, DROP or ALTER');
}

/** `{ action; action; … }` */
export function parseSchemaChangeBody(p: Parser): SchemaChangeAction[] {
  p.expectPunct('{');
  const actions: SchemaChangeAction[] = [];
  while (!p.isPunct('}')) {
    if (p.acceptPunct(';')) continue;
    actions.push(parseSchemaChangeAction(p));
    if (!p.isPunct('}')) p.expectPunct(';');
  }
  p.expectPunct('}');
  return actions;
}
