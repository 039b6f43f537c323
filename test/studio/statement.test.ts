import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyGsql, createdQueryName, statementsScript } from '../../studio/src/model/statement.js';

test('an INTERPRET QUERY is interpreted, with its graph and parameters', () => {
  const action = classifyGsql(
    'INTERPRET QUERY (INT minAge, SET<VERTEX<person>> seeds, STRING name = "x") FOR GRAPH Social {\n  PRINT minAge;\n}\n',
  );
  assert.deepEqual(action, {
    kind: 'interpret',
    graph: 'Social',
    params: [
      { name: 'minAge', typeText: 'INT', type: { base: 'INT' } },
      {
        name: 'seeds',
        typeText: 'SET<VERTEX<person>>',
        type: { base: 'VERTEX', vertexType: 'person', collection: 'SET' },
      },
      { name: 'name', typeText: 'STRING', type: { base: 'STRING' }, defaultText: '"x"' },
    ],
  });
});

test('a lone CREATE QUERY is interpreted under its name and can be installed', () => {
  const text = '// top\nCREATE OR REPLACE DISTRIBUTED QUERY older(VERTEX v) FOR GRAPH g { PRINT v; }';
  assert.deepEqual(classifyGsql(text), {
    kind: 'interpret',
    queryName: 'older',
    graph: 'g',
    params: [{ name: 'v', typeText: 'VERTEX', type: { base: 'VERTEX' } }],
  });
  assert.equal(createdQueryName(text), 'older');
  assert.equal(createdQueryName('INTERPRET QUERY () FOR GRAPH g { PRINT 1; }'), undefined);
});

test('a query followed by more statements, and other text, runs as statements', () => {
  assert.deepEqual(classifyGsql('CREATE QUERY q() FOR GRAPH g { PRINT 1; }\nINSTALL QUERY q'), {
    kind: 'statements',
  });
  assert.deepEqual(classifyGsql('CREATE VERTEX v (PRIMARY_ID id STRING)'), { kind: 'statements' });
  assert.deepEqual(classifyGsql('ls'), { kind: 'statements' });
  assert.deepEqual(classifyGsql('INTERPRET QUERY () FOR GRAPH g { PRINT 1;'), { kind: 'statements' });
});

test('RUN QUERY without arguments uses the parameter form; with arguments it is a statement', () => {
  assert.deepEqual(classifyGsql('RUN QUERY older'), { kind: 'runInstalled', queryName: 'older' });
  assert.deepEqual(classifyGsql('run query older();'), { kind: 'runInstalled', queryName: 'older' });
  assert.deepEqual(classifyGsql('RUN QUERY older(30)'), { kind: 'statements' });
});

test('statements run in the chosen graph unless they choose one', () => {
  assert.deepEqual(statementsScript('ls', 'club'), { script: 'USE GRAPH club\nls', lineOffset: 1 });
  assert.deepEqual(statementsScript('use graph x\nls', 'club'), { script: 'use graph x\nls', lineOffset: 0 });
});
