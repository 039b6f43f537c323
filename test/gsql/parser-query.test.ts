import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueryStatement, SelectBlock, Stmt } from '../../src/gsql/ast-query.js';
import { parseScript } from '../../src/gsql/parser.js';
import { parseQueryText } from '../../src/gsql/parser-query.js';

function one(src: string): QueryStatement {
  const all = parseQueryText(src);
  assert.equal(all.length, 1);
  return all[0];
}

function body(src: string): Stmt[] {
  const s = one(`CREATE QUERY q() FOR GRAPH g {\n${src}\n}`);
  assert.equal(s.kind, 'createQuery');
  return s.kind === 'createQuery' ? s.query.body : [];
}

function select(src: string): SelectBlock {
  const [s] = body(src);
  if (s.kind !== 'vsetAssign' || s.value.kind !== 'select') throw new Error(`not a SELECT: ${s.kind}`);
  return s.value.select;
}

test('CREATE OR REPLACE DISTRIBUTED QUERY header: params, defaults, graph, RETURNS, SYNTAX; text kept', () => {
  const src = `CREATE OR REPLACE DISTRIBUTED QUERY q(VERTEX<person> p, SET<STRING> tags, INT k = 10) FOR GRAPH g RETURNS (INT) SYNTAX v2 {
  PRINT k;
}`;
  const s = one(src);
  assert.equal(s.kind, 'createQuery');
  if (s.kind !== 'createQuery') return;
  assert.equal(s.orReplace, true);
  assert.equal(s.query.distributed, true);
  assert.equal(s.query.graph, 'g');
  assert.equal(s.query.syntax, 'v2');
  assert.deepEqual(s.query.returns, { kind: 'base', name: 'INT', pos: { line: 1, column: 108 } });
  assert.deepEqual(
    s.query.params.map((p) => [p.name, p.type.kind, p.default?.kind]),
    [
      ['p', 'vertex', undefined],
      ['tags', 'collection', undefined],
      ['k', 'base', 'int'],
    ],
  );
  assert.equal(s.query.text, src);
});

test('shell query statements: INSTALL, RUN, INTERPRET, SHOW, DROP', () => {
  assert.deepEqual(one('INSTALL QUERY -force a, b'), {
    kind: 'installQuery',
    names: ['a', 'b'],
    all: false,
    force: true,
    pos: { line: 1, column: 1 },
  });
  assert.deepEqual(one('INSTALL QUERY ALL'), {
    kind: 'installQuery',
    names: [],
    all: true,
    force: false,
    pos: { line: 1, column: 1 },
  });
  const run = one('RUN QUERY -av q(1, "x", ("a", "T"), [1, 2])');
  assert.ok(run.kind === 'runQuery' && Array.isArray(run.args));
  assert.equal(run.args.map((a) => a.kind).join(','), 'int,string,tuple,list');
  // One JSON object names the parameters, as the REST endpoint's body does.
  assert.deepEqual(one('RUN QUERY q( {"name": "Emma", "v": {"id": "x", "type": "T"}, "n": [1, 2]} )'), {
    kind: 'runQuery',
    name: 'q',
    args: {
      kind: 'namedArgs',
      values: { name: 'Emma', v: { id: 'x', type: 'T' }, n: [1, 2] },
      pos: { line: 1, column: 14 },
    },
    pos: { line: 1, column: 1 },
  });
  assert.throws(
    () => one('RUN QUERY q({"name": Emma})'),
    /line 1, column 13: the query arguments are not a JSON object/,
  );
  assert.equal(one('INTERPRET QUERY q(3)').kind, 'interpretQuery');
  const anon = one('INTERPRET QUERY () FOR GRAPH g { PRINT 1; }');
  assert.equal(anon.kind === 'interpretAnonymous' && anon.query.name, '');
  assert.deepEqual(one('SHOW QUERY q'), { kind: 'showQuery', name: 'q', pos: { line: 1, column: 1 } });
  assert.deepEqual(one('DROP QUERY *'), {
    kind: 'dropQuery',
    names: [],
    all: true,
    pos: { line: 1, column: 1 },
  });
});

test('V1 SELECT: arrow, edge alternation, untyped target, all clauses', () => {
  const b = select(`R = SELECT t FROM S:s -(E1|E2:e)-> A|B:t
    WHERE t.x > 1 ACCUM t.@n += 1, @@m += 2 POST-ACCUM t.@k = t.@n HAVING t.@n > 0
    ORDER BY t.@n DESC, t.x LIMIT 5, 10;`);
  assert.equal(b.result, 't');
  const [p] = b.from;
  assert.deepEqual(
    { names: p.source.names.map((n) => n.name), alias: p.source.alias, pos: p.source.pos },
    { names: ['S'], alias: 's', pos: { line: 2, column: 19 } },
  );
  const [{ edge, vertex }] = p.steps;
  assert.deepEqual(
    edge.hops[0].atoms.map((t) => [t.name, t.direction]),
    [
      ['E1', 'any'],
      ['E2', 'any'],
    ],
  );
  assert.equal(edge.alias, 'e');
  assert.equal(edge.arrow, true);
  assert.deepEqual(
    vertex.names.map((t) => t.name),
    ['A', 'B'],
  );
  assert.equal(b.accum.length, 2);
  assert.equal(b.postAccum.length, 1);
  assert.deepEqual(
    b.orderBy.map((o) => o.descending),
    [true, false],
  );
  assert.equal(b.offset?.kind === 'int' && b.offset.value, 5);
  assert.equal(b.limit?.kind === 'int' && b.limit.value, 10);
  const u = select('R = SELECT t FROM S -(:e)- :t;').from[0];
  assert.deepEqual(
    [u.source.alias, u.steps[0].edge.hops.length, u.steps[0].vertex.names.length, u.steps[0].vertex.alias],
    [undefined, 0, 0, 't'],
  );
});

test('V2 direction markers and POST_ACCUM spelling; LIMIT k OFFSET j', () => {
  const b = select('R = SELECT t FROM S:s -(<E1|E2>:e)- (A|B):t POST_ACCUM t.@x += 1 LIMIT 3 OFFSET 1;');
  const [{ edge, vertex }] = b.from[0].steps;
  assert.deepEqual(
    edge.hops[0].atoms.map((t) => t.direction),
    ['in', 'out'],
  );
  assert.deepEqual(
    vertex.names.map((t) => t.name),
    ['A', 'B'],
  );
  assert.equal(b.postAccum.length, 1);
  assert.equal(b.limit?.kind === 'int' && b.limit.value, 3);
  assert.equal(b.offset?.kind === 'int' && b.offset.value, 1);
});

test('declarations and statements of the query body', () => {
  const stmts = body(`TYPEDEF TUPLE<INT a, STRING b> Tup;
    HeapAccum<Tup>(k, a DESC, b) @@h;
    GroupByAccum<INT a, STRING b, SumAccum<INT> s> @@g;
    MapAccum<STRING, SetAccum<INT>> @m1, @m2 = 3;
    INT x = 1, y;
    S (ANY) = {ANY};
    FOREACH (k, v) IN @@m DO CONTINUE; END;
    FOREACH i IN RANGE[1, 9].STEP(2) DO BREAK; END;
    WHILE x < 3 LIMIT 10 DO x += 1; END;
    CASE x WHEN 1 THEN PRINT 1; ELSE PRINT 2; END;
    IF x > 1 THEN PRINT x; ELSE IF x < 0 THEN PRINT 0; END;
    @@h.pop();
    INSERT INTO E (FROM, TO, w) VALUES ("a" A, "b" B, 1);
    DELETE s FROM S:s WHERE s.x == 1;
    UPDATE s FROM S:s SET s.x = 2 WHERE s.x == 1;
    PRINT S[S.a AS b], @@g AS grouped;
    RETURN x;`);
  assert.deepEqual(
    stmts.map((s) => s.kind),
    [
      'tupleDecl',
      'accumDecl',
      'accumDecl',
      'accumDecl',
      'varDecl',
      'vsetAssign',
      'foreach',
      'foreach',
      'while',
      'case',
      'if',
      'expr',
      'insert',
      'delete',
      'update',
      'print',
      'return',
    ],
  );
  const heap = stmts[1];
  assert.ok(heap.kind === 'accumDecl' && heap.type.kind === 'accum');
  if (heap.kind === 'accumDecl' && heap.type.kind === 'accum') {
    assert.deepEqual(
      heap.type.order?.map((o) => [o.field, o.descending]),
      [
        ['a', true],
        ['b', false],
      ],
    );
  }
  const ifs = stmts[10];
  assert.equal(ifs.kind === 'if' && ifs.branches.length, 2);
  const ins = stmts[12];
  assert.deepEqual(ins.kind === 'insert' && ins.values.map((v) => v.vertexType), ['A', 'B', undefined]);
});

test('the shell parser routes query statements to the query parser', () => {
  const items = parseScript(
    'USE GRAPH g\nCREATE QUERY q() FOR GRAPH g {\n  PRINT 1;\n}\nINSTALL QUERY q\nRUN QUERY q()',
  );
  assert.deepEqual(
    items.map((i) => (i.ok ? (i.stmt.kind === 'query' ? i.stmt.statement.kind : i.stmt.kind) : 'error')),
    ['use_graph', 'createQuery', 'installQuery', 'runQuery'],
  );
});

test('syntax errors name line and column', () => {
  assert.throws(() => parseQueryText('CREATE QUERY q() {\n  x = ;\n}'), {
    message: 'Syntax Error: line 2, column 7: expected an expression but found ";"',
  });
  assert.throws(() => parseQueryText('CREATE QUERY q() SYNTAX v4 { }'), {
    message: 'Syntax Error: line 1, column 25: SYNTAX v4 is not a syntax version (v1, v2 or v3)',
  });
  assert.throws(() => parseQueryText('CREATE QUERY q() {\n  R = SELECT t FROM S:s -(E*3..1)- T:t;\n}'), {
    message: "Syntax Error: line 2, column 29: the repetition's upper bound 1 is below its lower bound 3",
  });
});

test('FILE parameters and FILE variables parse; ACCUM declares one local per statement', () => {
  const [withVar] = parseQueryText(
    'CREATE QUERY q(STRING p, FILE g) {\n  FILE f (p + ".csv");\n  f.println(1);\n}',
  );
  assert.ok(withVar.kind === 'createQuery');
  assert.deepEqual(withVar.query.params[1].type, { kind: 'file', pos: { line: 1, column: 26 } });
  const decl = withVar.query.body[0];
  assert.ok(decl.kind === 'fileDecl' && decl.name === 'f' && decl.path.kind === 'binary');
  assert.throws(() => parseQueryText('CREATE QUERY q(STRING p) {\n  FILE f (p;\n}'), {
    message: 'Syntax Error: line 2, column 12: expected ")" but found ";"',
  });
  const [stmt] = parseQueryText('CREATE QUERY q() {\n  S = SELECT s FROM S:s ACCUM INT x = 1, @@n += x;\n}');
  assert.equal(stmt.kind, 'createQuery');
  const sel = stmt.kind === 'createQuery' ? stmt.query.body[0] : undefined;
  assert.ok(sel && sel.kind === 'vsetAssign' && sel.value.kind === 'select');
  assert.deepEqual(
    sel.value.select.accum.map((s) => s.kind),
    ['varDecl', 'assign'],
  );
});

test('ELSE IF continues the IF, or nests in its ELSE block when the ENDs say so', () => {
  const body = (text: string): Stmt[] => {
    const [s] = parseQueryText(`CREATE QUERY q(BOOL a, BOOL b) {\n${text}\n}`);
    assert.ok(s.kind === 'createQuery');
    return s.query.body;
  };
  // One END: the ELSE IF belongs to the same IF.
  const chain = body('IF a THEN PRINT 1; ELSE IF b THEN PRINT 2; ELSE PRINT 3; END;');
  assert.ok(chain[0].kind === 'if');
  assert.equal(chain[0].branches.length, 2);
  assert.equal(chain[0].otherwise?.length, 1);
  // Two ENDs: an IF inside the ELSE block.
  const nested = body('IF a THEN PRINT 1; ELSE IF b THEN PRINT 2; END; END;');
  assert.ok(nested[0].kind === 'if');
  assert.equal(nested[0].branches.length, 1);
  assert.equal(nested[0].otherwise?.[0].kind, 'if');
  // Inside a loop the second END closes the loop: a chain again.
  const inLoop = body('WHILE a DO IF a THEN PRINT 1; ELSE IF b THEN PRINT 2; END; END;');
  assert.ok(inLoop[0].kind === 'while' && inLoop[0].body[0].kind === 'if');
  assert.equal(inLoop[0].body[0].branches.length, 2);
  // Blocks and CASE expressions after the IF bring their own ENDs.
  const later = body(
    'IF a THEN PRINT 1; ELSE IF b THEN PRINT 2; END;\nFOREACH i IN RANGE[1, 2] DO PRINT CASE WHEN a THEN 1 ELSE 2 END; END;',
  );
  assert.ok(later[0].kind === 'if');
  assert.equal(later[0].branches.length, 2);
  // In ACCUM, a chain ends at the next clause even when ENDs follow later in the query.
  const accum = body(
    'WHILE a DO\n  S = SELECT s FROM S:s ACCUM IF a THEN @@x += 1 ELSE IF b THEN @@x += 2 ELSE @@x += 3 END\n' +
      '    POST-ACCUM IF b THEN @@y += 1 END;\nEND;\nIF a THEN PRINT 1; ELSE IF b THEN PRINT 2; END; END;',
  );
  assert.ok(accum[0].kind === 'while' && accum[0].body[0].kind === 'vsetAssign');
  const sel = accum[0].body[0].value;
  assert.ok(sel.kind === 'select' && sel.select.accum[0].kind === 'if');
  assert.equal(sel.select.accum[0].branches.length, 2);
  assert.ok(accum[1].kind === 'if' && accum[1].otherwise?.[0].kind === 'if');
});
