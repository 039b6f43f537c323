/**
 * The loading-job grammar: `CREATE LOADING JOB name [FOR GRAPH g] { … }` with DEFINE FILENAME,
 * DEFINE HEADER, LOAD … TO VERTEX|EDGE|TEMP_TABLE … [WHERE …] [USING …], DELETE VERTEX|EDGE … FROM …,
 * and `RUN LOADING JOB [-noprint] name [USING f="path", …]`.
 */
import type { Pos } from './ast.js';
import type {
  FilenameDef,
  HeaderDef,
  LoadCond,
  LoadExpr,
  LoadSource,
  LoadTarget,
  LoadingJobAst,
  LoadingStmt,
  RunLoadingJobAst,
  UsingOption,
} from './ast-loading.js';
import { COMPARE_OPS, type Parser } from './parser-core.js';
import type { Token } from './lexer.js';

function at(t: Token): Pos {
  return { line: t.line, column: t.column };
}

/** Parses from `CREATE LOADING JOB` (the leading CREATE may already have been consumed). */
export function parseCreateLoadingJob(p: Parser): LoadingJobAst {
  const start = p.peek();
  p.acceptWords('CREATE');
  p.expectWord('LOADING');
  p.expectWord('JOB');
  const name = p.expectName('a loading job name');
  const job: LoadingJobAst = {
    name: name.text,
    filenames: [],
    headers: [],
    statements: [],
    text: '',
    ...at(start),
  };
  if (p.acceptWords('FOR', 'GRAPH')) job.graph = p.expectName('a graph name').text;
  p.expectPunct('{');
  while (!p.isPunct('}')) {
    if (p.acceptPunct(';')) continue;
    if (p.isWord('DEFINE')) parseDefine(p, job);
    else if (p.isWord('LOAD')) job.statements.push(parseLoad(p));
    else if (p.isWord('DELETE')) job.statements.push(parseDelete(p));
    else p.fail('DEFINE, LOAD, DELETE or "}"');
    if (!p.isPunct('}')) p.expectPunct(';');
  }
  p.expectPunct('}');
  job.text = p.textFrom(start);
  return job;
}

function parseDefine(p: Parser, job: LoadingJobAst): void {
  p.expectWord('DEFINE');
  if (p.isWord('FILENAME')) {
    p.next();
    do {
      const n = p.expectName('a filename variable');
      const def: FilenameDef = { name: n.text, ...at(n) };
      if (p.acceptPunct('=')) def.path = expectString(p, 'a file path string');
      job.filenames.push(def);
    } while (p.acceptPunct(','));
    return;
  }
  if (p.isWord('HEADER')) {
    p.next();
    const n = p.expectName('a header name');
    p.expectPunct('=');
    const h: HeaderDef = { name: n.text, columns: [], ...at(n) };
    do h.columns.push(expectString(p, 'a column name string'));
    while (p.acceptPunct(','));
    job.headers.push(h);
    return;
  }
  p.fail('FILENAME or HEADER after DEFINE');
}

function expectString(p: Parser, what: string): string {
  const t = p.peek();
  if (t.kind !== 'string') p.fail(what);
  p.next();
  return t.text;
}

function parseSource(p: Parser): LoadSource {
  const t = p.peek();
  if (t.kind === 'string') {
    p.next();
    return { kind: 'path', path: t.text, ...at(t) };
  }
  if (p.isWord('TEMP_TABLE')) {
    p.next();
    return { kind: 'temp_table', name: p.expectName('a temporary table name').text, ...at(t) };
  }
  return {
    kind: 'filevar',
    name: p.expectName('a filename variable, a file path string or TEMP_TABLE').text,
    ...at(t),
  };
}

function parseLoad(p: Parser): LoadingStmt {
  const start = p.expectWord('LOAD');
  const source = parseSource(p);
  const targets: LoadTarget[] = [];
  do targets.push(parseTarget(p));
  while (p.acceptPunct(','));
  const using = parseUsing(p);
  return { kind: 'load', source, targets, using, text: p.textFrom(start), ...at(start) };
}

function parseTarget(p: Parser): LoadTarget {
  const t = p.expectWord('TO');
  let target: LoadTarget;
  if (p.acceptWords('VERTEX') || p.isWord('EDGE')) {
    const kind = p.acceptWords('EDGE') ? 'edge' : 'vertex';
    const typeName = p.expectName(`a ${kind} type name`).text;
    p.expectWord('VALUES');
    target = { kind, typeName, values: parseValues(p), ...at(t) };
  } else if (p.acceptWords('TEMP_TABLE')) {
    const typeName = p.expectName('a temporary table name').text;
    p.expectPunct('(');
    const columns: string[] = [];
    do columns.push(p.expectName('a column name').text);
    while (p.acceptPunct(','));
    p.expectPunct(')');
    p.expectWord('VALUES');
    target = { kind: 'temp_table', typeName, columns, values: parseValues(p), ...at(t) };
  } else {
    p.fail('VERTEX, EDGE or TEMP_TABLE after TO');
  }
  if (p.acceptWords('WHERE')) target.where = parseCond(p);
  return target;
}

function parseValues(p: Parser): LoadExpr[] {
  p.expectPunct('(');
  const values: LoadExpr[] = [];
  do {
    const e = parseExpr(p);
    const next = p.peek();
    // `$0 Person`: an endpoint with its vertex type.
    if (next.kind === 'ident' && (p.isPunct(',', 1) || p.isPunct(')', 1))) {
      p.next();
      values.push({ kind: 'typed', value: e, vertexType: next.text, line: e.line, column: e.column });
    } else values.push(e);
  } while (p.acceptPunct(','));
  p.expectPunct(')');
  return values;
}

/**
 * `USING name = value, …`. With `raw`, string values are kept as written between the quotes, so
 * the loader itself reads escapes such as "\u001d" that the GSQL lexer does not know.
 */
function parseUsing(p: Parser, raw = true): UsingOption[] {
  const options: UsingOption[] = [];
  if (!p.acceptWords('USING')) return options;
  do {
    const n = p.expectName('a USING option name');
    p.expectPunct('=');
    const v = p.peek();
    if (v.kind !== 'string' && v.kind !== 'number' && v.kind !== 'ident') p.fail(`a value for ${n.text}`);
    p.next();
    const value = raw && v.kind === 'string' ? p.src.slice(v.start + 1, v.end - 1) : v.text;
    options.push({ name: n.text, value, ...at(n) });
  } while (p.acceptPunct(','));
  return options;
}

function parseDelete(p: Parser): LoadingStmt {
  const start = p.expectWord('DELETE');
  if (p.acceptWords('VERTEX')) {
    const typeName = p.expectName('a vertex type name').text;
    p.expectPunct('(');
    p.expectWord('PRIMARY_ID');
    const id = parseExpr(p);
    p.expectPunct(')');
    p.expectWord('FROM');
    const source = parseSource(p);
    const where = p.acceptWords('WHERE') ? parseCond(p) : undefined;
    const using = parseUsing(p);
    const stmt: LoadingStmt = { kind: 'delete_vertex', typeName, id, source, using, text: '', ...at(start) };
    if (where) stmt.where = where;
    stmt.text = p.textFrom(start);
    return stmt;
  }
  p.expectWord('EDGE');
  const typeName = p.expectName('an edge type name').text;
  p.expectPunct('(');
  p.expectWord('FROM');
  const from = parseEndpoint(p);
  p.expectPunct(',');
  p.expectWord('TO');
  const to = parseEndpoint(p);
  p.expectPunct(')');
  p.expectWord('FROM');
  const source = parseSource(p);
  const where = p.acceptWords('WHERE') ? parseCond(p) : undefined;
  const using = parseUsing(p);
  const stmt: LoadingStmt = {
    kind: 'delete_edge',
    typeName,
    from,
    to,
    source,
    using,
    text: '',
    ...at(start),
  };
  if (where) stmt.where = where;
  stmt.text = p.textFrom(start);
  return stmt;
}

function parseEndpoint(p: Parser): LoadExpr {
  const e = parseExpr(p);
  const next = p.peek();
  if (next.kind === 'ident' && (p.isPunct(',', 1) || p.isPunct(')', 1))) {
    p.next();
    return { kind: 'typed', value: e, vertexType: next.text, line: e.line, column: e.column };
  }
  return e;
}

/** A VALUES item or an operand: `$n`, `$"col"[:"key"]…`, a literal, `_`, a call, REDUCE, `(k -> v)`. */
export function parseExpr(p: Parser): LoadExpr {
  const t = p.peek();
  if (p.isPunct('$')) {
    p.next();
    const n = p.peek();
    if (n.kind === 'number' && /^\d+$/.test(n.text)) {
      p.next();
      return { kind: 'position', index: Number(n.text), ...at(t) };
    }
    if (n.kind === 'string') {
      p.next();
      const path = [n.text];
      while (p.isPunct(':') && p.peek(1).kind === 'string') {
        p.next();
        path.push(p.next().text);
      }
      return { kind: 'column', path, ...at(t) };
    }
    p.fail('a column number or a quoted column name after "$"');
  }
  if (t.kind === 'string') {
    p.next();
    return { kind: 'string', value: t.text, ...at(t) };
  }
  if (t.kind === 'number') {
    p.next();
    return { kind: 'number', text: t.text, ...at(t) };
  }
  if (p.isPunct('-') && p.peek(1).kind === 'number') {
    p.next();
    return { kind: 'number', text: '-' + p.next().text, ...at(t) };
  }
  if (p.isPunct('(')) {
    p.next();
    const key = parseExpr(p);
    p.expectPunct('->');
    const value = parseExpr(p);
    p.expectPunct(')');
    return { kind: 'map_entry', key, value, ...at(t) };
  }
  if (t.kind === 'ident') {
    if (t.text === '_') {
      p.next();
      return { kind: 'skip', ...at(t) };
    }
    if (!p.isPunct('(', 1)) p.fail('a value ($n, $"column", a literal, _ or a function call)');
    p.next();
    p.next();
    if (t.text.toUpperCase() === 'REDUCE') {
      const fn = p.expectName('a reducer function (add, max, min, and, or, overwrite, ignore_if_exists)');
      p.expectPunct('(');
      const arg = parseExpr(p);
      p.expectPunct(')');
      p.expectPunct(')');
      return { kind: 'reduce', fn: fn.text.toLowerCase(), arg, ...at(t) };
    }
    const args: LoadExpr[] = [];
    if (!p.isPunct(')')) {
      do args.push(parseExpr(p));
      while (p.acceptPunct(','));
    }
    p.expectPunct(')');
    return { kind: 'call', name: t.text, args, ...at(t) };
  }
  p.fail('a value ($n, $"column", a literal, _ or a function call)');
}

/** A WHERE condition: OR of AND of [NOT] predicates. */
export function parseCond(p: Parser): LoadCond {
  let left = parseAnd(p);
  while (p.isWord('OR') || p.isPunct('||')) {
    const t = p.next();
    left = { kind: 'or', left, right: parseAnd(p), ...at(t) };
  }
  return left;
}

function parseAnd(p: Parser): LoadCond {
  let left = parseNot(p);
  while (p.isWord('AND') || p.isPunct('&&')) {
    const t = p.next();
    left = { kind: 'and', left, right: parseNot(p), ...at(t) };
  }
  return left;
}

function parseNot(p: Parser): LoadCond {
  const t = p.peek();
  if (p.acceptWords('NOT') || p.acceptPunct('!')) return { kind: 'not', operand: parseNot(p), ...at(t) };
  return parsePredicate(p);
}

function parsePredicate(p: Parser): LoadCond {
  const t = p.peek();
  // A parenthesised condition; `(k -> v)` never appears in a condition.
  if (p.isPunct('(')) {
    p.next();
    const c = parseCond(p);
    p.expectPunct(')');
    return c;
  }
  const operand = parseExpr(p);
  const op = p.peek();
  if (op.kind === 'punct' && COMPARE_OPS[op.text]) {
    p.next();
    return { kind: 'compare', op: COMPARE_OPS[op.text], left: operand, right: parseExpr(p), ...at(t) };
  }
  if (p.acceptWords('IS')) {
    const negated = p.acceptWords('NOT');
    if (p.acceptWords('NUMERIC')) return { kind: 'is', test: 'NUMERIC', negated, operand, ...at(t) };
    if (p.acceptWords('EMPTY')) return { kind: 'is', test: 'EMPTY', negated, operand, ...at(t) };
    p.fail('NUMERIC or EMPTY after IS');
  }
  const negatedIn = p.isWord('NOT') && p.isWord('IN', 1);
  if (negatedIn) p.next();
  if (p.acceptWords('IN')) {
    p.expectPunct('(');
    const values: LoadExpr[] = [];
    do values.push(parseExpr(p));
    while (p.acceptPunct(','));
    p.expectPunct(')');
    return { kind: 'in', negated: negatedIn, operand, values, ...at(t) };
  }
  if (p.acceptWords('BETWEEN')) {
    const low = parseExpr(p);
    p.expectWord('AND');
    const high = parseExpr(p);
    return { kind: 'between', operand, low, high, ...at(t) };
  }
  return { kind: 'test', expr: operand, ...at(t) };
}

/** Parses from `RUN LOADING JOB` (the leading RUN may already have been consumed). */
export function parseRunLoadingJob(p: Parser): RunLoadingJobAst {
  const start = p.peek();
  p.acceptWords('RUN');
  p.expectWord('LOADING');
  p.expectWord('JOB');
  let noPrint = false;
  while (p.isPunct('-')) {
    p.next();
    const flag = p.peek();
    if (!p.acceptWords('NOPRINT')) p.fail('-noprint (the only flag RUN LOADING JOB takes here)', flag);
    noPrint = true;
  }
  const name = p.expectName('a loading job name');
  const using = parseUsing(p, false);
  return { name: name.text, noPrint, using, ...at(start) };
}
