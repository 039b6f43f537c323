/**
 * Vertex types keyed by PRIMARY KEY attributes (single and composite) through GraphQL: the key
 * fields of insert inputs and edge endpoints, and deletes of a key value that contains a comma.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphQLService } from '../../src/graphql/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { openFixture, type Fixture } from './fixture.js';

let f: Fixture;
let service: GraphQLService;
before(async () => {
  f = await openFixture();
  let out = '';
  const code = await runScript(
    f.db,
    [
      'CREATE VERTEX movie (title STRING, year INT, rating DOUBLE, PRIMARY KEY (title, year))',
      'CREATE VERTEX actor (name STRING PRIMARY KEY, born DATETIME)',
      'CREATE DIRECTED EDGE acted (FROM actor, TO movie, role STRING)',
      'CREATE GRAPH Films (movie, actor, acted)',
    ].join('\n'),
    { user: 'tigergraph' },
    (t) => (out += t),
  );
  assert.equal(code, 0, out);
  service = new GraphQLService(f.db);
});
after(() => f.close());

async function text(query: string): Promise<string> {
  return (await service.execute('Films', { query }, { method: 'POST' })).text;
}

test('insert, traverse and delete vertices with single and composite primary keys', async () => {
  assert.equal(
    await text(`mutation { Films {
      insert_movie(objects: [{title: "Heat, the", year: 1995, rating: 8.3}]) { title year rating }
      insert_actor(objects: {name: "Al", born: "1940-04-25"}) { name born }
    } }`),
    '{"data":{"Films":{"insert_movie":[{"title":"Heat, the","year":1995,"rating":8.3}],"insert_actor":[{"name":"Al","born":"1940-04-25 00:00:00"}]}}}',
  );
  assert.equal(
    await text(
      'mutation { Films { insert_acted(objects: {from: {name: "Al"}, to: {title: "Heat, the", year: 1995}, role: "Vincent"}) { role from { name } to { title } } } }',
    ),
    '{"data":{"Films":{"insert_acted":[{"role":"Vincent","from":{"name":"Al"},"to":{"title":"Heat, the"}}]}}}',
  );
  assert.equal(
    await text(
      '{ Films { actor { name acted { role to { title year } } } movie(where: {year: {_eq: 1995}}) { rating } } }',
    ),
    '{"data":{"Films":{"actor":[{"name":"Al","acted":[{"role":"Vincent","to":{"title":"Heat, the","year":1995}}]}],"movie":[{"rating":8.3}]}}}',
  );
  // delete_<E> and delete_<V> name endpoints by their keys, comma inside the title included.
  assert.equal(
    await text(
      'mutation { Films { delete_acted(whereExpr: "role == \\"Vincent\\"") { role } delete_movie(where: {year: {_gt: 1990}}) { title } } }',
    ),
    '{"data":{"Films":{"delete_acted":[{"role":"Vincent"}],"delete_movie":[{"title":"Heat, the"}]}}}',
  );
  assert.equal(
    await text('{ Films { movie_aggregate { count } actor { acted { role } } } }'),
    '{"data":{"Films":{"movie_aggregate":{"count":0},"actor":[{"acted":[]}]}}}',
  );
});
