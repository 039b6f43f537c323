/** Schema scripts in the forms real projects write them (GSQL 101, the 4.x tutorial, LDBC). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { edgeTypeJson } from '../../src/catalog/schema-json.js';
import { MemoryStore, run } from './memory-store.js';

test('GSQL 101, 4.x tutorial and LDBC-style DDL run without BEGIN/END and with or without semicolons', async () => {
  const store = new MemoryStore();
  const r = await run(
    store,
    `CREATE VERTEX person (PRIMARY_ID name STRING, name STRING, age INT, gender STRING, state STRING)
CREATE UNDIRECTED EDGE friendship (FROM person, TO person, connect_day DATETIME)
CREATE GRAPH social (person, friendship)
USE GLOBAL
CREATE VERTEX Account ( name STRING PRIMARY KEY, isBlocked BOOL)
CREATE DIRECTED EDGE transfer (FROM Account, TO Account, DISCRIMINATOR(date DATETIME), amount UINT) WITH REVERSE_EDGE="transfer_reverse"
CREATE VERTEX Comment (id UINT PRIMARY KEY, creationDate DATETIME,
    browserUsed STRING, length UINT) WITH primary_id_as_attribute="TRUE";
CREATE VERTEX Post (id UINT PRIMARY KEY, language STRING)
  WITH primary_id_as_attribute="TRUE";
CREATE DIRECTED EDGE HAS_CREATOR (FROM Comment|Post, TO person) WITH REVERSE_EDGE="HAS_CREATOR_REVERSE";
CREATE GRAPH ldbc(Comment, Post, person, HAS_CREATOR);
`,
  );
  assert.equal(r.code, 0, r.output);
  assert.deepEqual(
    store.catalog.graphs.map((g) => [g.name, g.vertexTypes, g.edgeTypes]),
    [
      ['social', ['person'], ['friendship']],
      ['ldbc', ['Comment', 'Post', 'person'], ['HAS_CREATOR']],
    ],
  );
  const transfer = store.catalog.edgeTypes.find((e) => e.name === 'transfer');
  assert.deepEqual(transfer?.discriminator, ['date']);
  assert.deepEqual(
    transfer?.attributes.map((a) => a.name),
    ['date', 'amount'],
  );
  const hasCreator = store.catalog.edgeTypes.find((e) => e.name === 'HAS_CREATOR');
  assert.ok(hasCreator);
  assert.deepEqual(hasCreator.pairs, [
    { from: 'Comment', to: 'person' },
    { from: 'Post', to: 'person' },
  ]);
  const json = edgeTypeJson(hasCreator);
  assert.equal(json.FromVertexTypeName, '*');
  assert.deepEqual(json.EdgePairs, [
    { From: 'Comment', To: 'person' },
    { From: 'Post', To: 'person' },
  ]);
  const comment = store.catalog.vertexTypes.find((v) => v.name === 'Comment');
  assert.deepEqual(
    [comment?.keyKind, comment?.keyAttributes, comment?.primaryIdAsAttribute],
    ['primary_key', ['id'], true],
  );
});
